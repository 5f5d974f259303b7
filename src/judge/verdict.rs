//! Verdicts and their aggregation over a submission's tests.

use serde::{Deserialize, Serialize};

use crate::sandbox::{Limits, RunReport, RunStatus};

/// The outcome of one test or of a whole submission (the design notes' verdict list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Wrong answer: the checker refused the output.
    WA,
    /// CPU or wall time limit.
    TLE,
    /// Memory limit.
    MLE,
    /// Output limit.
    OLE,
    /// Runtime error: non-zero exit or a signal.
    RE,
    /// Compile error.
    CE,
    /// System error: the judge's own fault, never the submission's.
    SE,
}

/// Errors parsing a verdict name.
#[derive(Debug, thiserror::Error)]
#[error("unknown verdict {0:?}")]
pub struct UnknownVerdict(pub String);

impl Verdict {
    /// Every verdict, in the order summaries list them.
    pub const ALL: [Verdict; 8] = [
        Verdict::AC,
        Verdict::WA,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RE,
        Verdict::CE,
        Verdict::SE,
    ];

    /// The two-letter name used in JSON, the database and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::OLE => "OLE",
            Verdict::RE => "RE",
            Verdict::CE => "CE",
            Verdict::SE => "SE",
        }
    }

    /// Parses the name written by [`Verdict::as_str`] (the database reads verdicts back).
    pub fn parse(name: &str) -> Result<Verdict, UnknownVerdict> {
        Ok(match name {
            "AC" => Verdict::AC,
            "WA" => Verdict::WA,
            "TLE" => Verdict::TLE,
            "MLE" => Verdict::MLE,
            "OLE" => Verdict::OLE,
            "RE" => Verdict::RE,
            "CE" => Verdict::CE,
            "SE" => Verdict::SE,
            other => return Err(UnknownVerdict(other.to_string())),
        })
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A submission's verdict, score and resource figures, computed from its tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aggregate {
    /// First non-AC verdict in test order, or AC when every test passed.
    pub verdict: Verdict,
    /// Share of tests passed, 0 to 100, rounded down (100 only when all passed).
    pub score: i64,
    /// Maximum CPU time over the tests.
    pub time_ms: u64,
    /// Maximum peak memory over the tests.
    pub memory_kib: u64,
}

/// Aggregates per-test (verdict, time_ms, memory_kib) in test order.
///
/// A submission with no tests is a system error: the package is broken, not the submission.
pub fn aggregate(tests: impl IntoIterator<Item = (Verdict, u64, u64)>) -> Aggregate {
    let mut first_failure = None;
    let (mut total, mut passed, mut time_ms, mut memory_kib) = (0u64, 0u64, 0u64, 0u64);
    for (verdict, time, memory) in tests {
        total += 1;
        if verdict == Verdict::AC {
            passed += 1;
        } else if first_failure.is_none() {
            first_failure = Some(verdict);
        }
        time_ms = time_ms.max(time);
        memory_kib = memory_kib.max(memory);
    }
    if total == 0 {
        return Aggregate {
            verdict: Verdict::SE,
            score: 0,
            time_ms,
            memory_kib,
        };
    }
    Aggregate {
        verdict: first_failure.unwrap_or(Verdict::AC),
        score: i64::try_from(passed * 100 / total).unwrap_or(0),
        time_ms,
        memory_kib,
    }
}

/// The verdict a run's own ending gives (`RE`, `TLE`, `MLE`, `OLE`), `None` when it ended
/// well and its output decides.
pub fn status_verdict(report: &RunReport, limits: &Limits) -> Option<(Verdict, Option<String>)> {
    match report.status {
        RunStatus::Ok => None,
        RunStatus::RuntimeError => Some((Verdict::RE, Some(runtime_error_message(report)))),
        RunStatus::TimeLimit => Some((
            Verdict::TLE,
            Some(format!(
                "time limit {} ms (CPU {} ms, wall {} ms)",
                limits.cpu_time_ms, report.time_ms, report.wall_ms
            )),
        )),
        RunStatus::MemoryLimit => Some((
            Verdict::MLE,
            Some(format!("memory limit {} KiB", limits.memory_bytes / 1024)),
        )),
        RunStatus::OutputLimit => Some((
            Verdict::OLE,
            Some(format!("output limit {} bytes", limits.output_bytes)),
        )),
    }
}

fn runtime_error_message(report: &RunReport) -> String {
    if let Some(sig) = report.signal {
        let name = nix::sys::signal::Signal::try_from(sig)
            .map(|s| s.as_str().to_string())
            .unwrap_or_else(|_| "unknown".into());
        format!("killed by signal {sig} ({name})")
    } else if let Some(code) = report.exit_code {
        format!("exit code {code}")
    } else {
        "runtime error".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_accepted_is_ac_with_full_score_and_maxima() {
        let a = aggregate([
            (Verdict::AC, 5, 100),
            (Verdict::AC, 9, 50),
            (Verdict::AC, 1, 700),
        ]);
        assert_eq!(
            a,
            Aggregate {
                verdict: Verdict::AC,
                score: 100,
                time_ms: 9,
                memory_kib: 700
            }
        );
    }

    #[test]
    fn verdict_is_first_failure_in_test_order() {
        let a = aggregate([
            (Verdict::AC, 1, 1),
            (Verdict::TLE, 1000, 1),
            (Verdict::WA, 1, 1),
        ]);
        assert_eq!(a.verdict, Verdict::TLE);
        assert_eq!(a.score, 33);
        assert_eq!(a.time_ms, 1000);
    }

    #[test]
    fn score_rounds_down_and_never_reaches_100_with_a_failure() {
        let mut tests = vec![(Verdict::AC, 0, 0); 199];
        tests.push((Verdict::WA, 0, 0));
        assert_eq!(aggregate(tests).score, 99);
    }

    #[test]
    fn no_tests_is_a_system_error() {
        assert_eq!(aggregate([]).verdict, Verdict::SE);
    }

    #[test]
    fn names_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::parse(v.as_str()).unwrap(), v);
            assert_eq!(serde_json::to_string(&v).unwrap(), format!("\"{v}\""));
        }
        assert!(Verdict::parse("XX").is_err());
    }
}
