//! The time limit of a Kattis package: `limits.time_limit` when given (2023-07 and later),
//! else the one `sudojudge verify` derived from the slowest accepted submission and wrote to
//! `.timelimit` in the package (the file DOMjudge and BAPCtools also read), else none yet.

use std::path::Path;

use serde::Serialize;

use super::super::ProblemError;
use super::meta::{Meta, Timing};
use super::{invalid, read_err};

/// The file `verify` writes the derived time limit to, in seconds.
pub const TIMELIMIT_FILE: &str = ".timelimit";

/// The CPU limit a package is judged with before `verify` derived one (only `verify` judges
/// such a package: `serve` refuses it).
pub const PROVISIONAL_TIME_LIMIT_MS: u64 = 10_000;

/// Where a Kattis package's time limit came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeLimitSource {
    /// `limits.time_limit` in `problem.yaml`.
    ProblemYaml,
    /// Derived by `verify` and kept in `.timelimit`.
    Derived,
    /// Not known yet: `verify` derives it.
    Unset,
}

/// The time limit in ms and where it came from.
pub fn limit_of(dir: &Path, meta: &Meta) -> Result<(u64, TimeLimitSource), ProblemError> {
    if let Some(ms) = meta.time_limit_ms {
        return Ok((ms, TimeLimitSource::ProblemYaml));
    }
    let file = dir.join(TIMELIMIT_FILE);
    if !file.is_file() {
        return Ok((PROVISIONAL_TIME_LIMIT_MS, TimeLimitSource::Unset));
    }
    let text = std::fs::read_to_string(&file).map_err(|e| read_err(&file, e))?;
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => Ok((
            ((s * 1000.0).round() as u64).max(1),
            TimeLimitSource::Derived,
        )),
        _ => Err(invalid(
            &file,
            format!("`{}` is not a number of seconds", text.trim()),
        )),
    }
}

/// The time limit the format derives from the slowest accepted submission's CPU time.
pub fn derive(timing: Timing, slowest_ac_ms: u64) -> u64 {
    let slowest = slowest_ac_ms as f64 / 1000.0;
    let seconds = match timing {
        // problemtools: a whole number of seconds, at least one.
        Timing::Legacy {
            time_multiplier, ..
        } => (slowest * time_multiplier).ceil().max(1.0),
        Timing::Multipliers {
            ac_to_time_limit,
            time_resolution,
            ..
        } => {
            let steps = (slowest * ac_to_time_limit / time_resolution - 1e-9)
                .ceil()
                .max(1.0);
            steps * time_resolution
        }
    };
    (seconds * 1000.0).round() as u64
}

/// Percent of the limit an accepted submission may use (the format's margin).
pub fn accepted_max_percent(timing: Timing) -> u64 {
    match timing {
        // The legacy limit is a multiple of the slowest accepted run already.
        Timing::Legacy { .. } => 100,
        Timing::Multipliers {
            ac_to_time_limit, ..
        } => (100.0 / ac_to_time_limit).floor() as u64,
    }
}

/// Percent of the limit a time-limit-exceeded submission is judged with (and must exceed).
pub fn tle_stretch_percent(timing: Timing) -> u64 {
    match timing {
        Timing::Legacy {
            time_safety_margin, ..
        } => (time_safety_margin * 100.0).round() as u64,
        Timing::Multipliers {
            time_limit_to_tle, ..
        } => (time_limit_to_tle * 100.0).round() as u64,
    }
}

/// The wall-clock limit of a run under a CPU limit of `time_limit_ms`: the limit times the
/// package's `time_safety_margin` (2023-07 and later: `time_limit_to_tle`), the point past
/// which a run is surely too slow, and never below `wall_factor` x the limit (the host's
/// own rule for a loaded machine, `[sandbox] wall_factor`).
pub fn wall_limit_ms(timing: Timing, time_limit_ms: u64, wall_factor: u64) -> u64 {
    time_limit_ms
        .saturating_mul(tle_stretch_percent(timing))
        .div_ceil(100)
        .max(time_limit_ms.saturating_mul(wall_factor.max(1)))
}

/// Writes the derived limit to the package's `.timelimit`.
pub fn write(dir: &Path, limit_ms: u64) -> std::io::Result<()> {
    let seconds = limit_ms as f64 / 1000.0;
    std::fs::write(dir.join(TIMELIMIT_FILE), format!("{seconds}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_derive_as_the_format_says() {
        let legacy = Timing::Legacy {
            time_multiplier: 5.0,
            time_safety_margin: 2.0,
        };
        assert_eq!(derive(legacy, 10), 1000);
        assert_eq!(derive(legacy, 300), 2000);
        assert_eq!(tle_stretch_percent(legacy), 200);
        assert_eq!(wall_limit_ms(legacy, 1500, 1), 3000);
        assert_eq!(wall_limit_ms(legacy, 1500, 3), 4500);
        let four = Timing::Legacy {
            time_multiplier: 5.0,
            time_safety_margin: 4.0,
        };
        assert_eq!(wall_limit_ms(four, 1000, 3), 4000);
        let modern = Timing::Multipliers {
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
            time_resolution: 0.5,
        };
        assert_eq!(derive(modern, 10), 500);
        assert_eq!(derive(modern, 600), 1500);
        assert_eq!(derive(modern, 500), 1000);
        assert_eq!(accepted_max_percent(modern), 50);
        assert_eq!(tle_stretch_percent(modern), 150);
    }
}
