//! `fixed`, `window` and `open` timing: where a contestant stands at a given instant.

use jiff::{SignedDuration, Timestamp};

/// When a contest runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Everyone starts at `start` and has `duration`.
    Fixed {
        /// The start, for everyone.
        start: Timestamp,
        /// The length, for everyone.
        duration: SignedDuration,
    },
    /// USACO: inside `[window_start, window_end)` each contestant starts a personal timer
    /// of `duration` when they choose; a timer started late ends at `window_end`.
    Window {
        /// When contestants may start their timer.
        window_start: Timestamp,
        /// When every timer stops, started or not.
        window_end: Timestamp,
        /// The personal timer's length.
        duration: SignedDuration,
    },
    /// Practice: no clock, always running.
    Open,
}

/// Where a contestant stands at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Before the start (of the contest, or of the window): submissions are refused.
    NotStarted {
        /// Time left until the start.
        starts_in: SignedDuration,
    },
    /// Window timing: the window is open but this contestant has not started a timer.
    Ready {
        /// Time left to start (and to work: the timer stops at the window's end anyway).
        window_ends_in: SignedDuration,
    },
    /// The contestant may submit.
    Running {
        /// Time since the contestant's start (`None` for open timing).
        elapsed: Option<SignedDuration>,
        /// Time left (`None` for open timing).
        remaining: Option<SignedDuration>,
    },
    /// The contestant's time is over: submissions are refused.
    Over,
}

impl Timing {
    /// When the contestant's clock started: the contest's start, their personal start, or
    /// `None` (open timing, or a window timer not started yet).
    pub fn contestant_start(&self, personal_start: Option<Timestamp>) -> Option<Timestamp> {
        match *self {
            Timing::Fixed { start, .. } => Some(start),
            Timing::Window { .. } => personal_start,
            Timing::Open => None,
        }
    }

    /// When the contestant's clock stops: a personal timer ends after `duration` or at the
    /// window's end, whichever comes first.
    pub fn contestant_end(&self, personal_start: Option<Timestamp>) -> Option<Timestamp> {
        match *self {
            Timing::Fixed { start, duration } => Some(add(start, duration)),
            Timing::Window {
                window_end,
                duration,
                ..
            } => personal_start.map(|p| add(p, duration).min(window_end)),
            Timing::Open => None,
        }
    }

    /// When the contest opens: the start (fixed), the window's opening (window); `None` for
    /// open timing (always open).
    pub fn opens(&self) -> Option<Timestamp> {
        match *self {
            Timing::Fixed { start, .. } => Some(start),
            Timing::Window { window_start, .. } => Some(window_start),
            Timing::Open => None,
        }
    }

    /// When the whole contest is over for everyone (`None`: never).
    pub fn end(&self) -> Option<Timestamp> {
        match *self {
            Timing::Fixed { start, duration } => Some(add(start, duration)),
            Timing::Window { window_end, .. } => Some(window_end),
            Timing::Open => None,
        }
    }

    /// The length of a full contest (`None` for open timing), what the freeze counts back
    /// from.
    pub fn duration(&self) -> Option<SignedDuration> {
        match *self {
            Timing::Fixed { duration, .. } | Timing::Window { duration, .. } => Some(duration),
            Timing::Open => None,
        }
    }

    /// Where a contestant whose personal timer started at `personal_start` (window timing
    /// only; ignored otherwise) stands at `now`.
    pub fn phase(&self, now: Timestamp, personal_start: Option<Timestamp>) -> Phase {
        let opens = match *self {
            Timing::Fixed { start, .. } => start,
            Timing::Window { window_start, .. } => window_start,
            Timing::Open => {
                return Phase::Running {
                    elapsed: None,
                    remaining: None,
                }
            }
        };
        if now < opens {
            return Phase::NotStarted {
                starts_in: now.duration_until(opens),
            };
        }
        if let Timing::Window { window_end, .. } = *self {
            if now >= window_end {
                return Phase::Over;
            }
            if personal_start.is_none() {
                return Phase::Ready {
                    window_ends_in: now.duration_until(window_end),
                };
            }
        }
        let (Some(start), Some(end)) = (
            self.contestant_start(personal_start),
            self.contestant_end(personal_start),
        ) else {
            return Phase::Over;
        };
        if now < start {
            return Phase::NotStarted {
                starts_in: now.duration_until(start),
            };
        }
        if now >= end {
            return Phase::Over;
        }
        Phase::Running {
            elapsed: Some(start.duration_until(now)),
            remaining: Some(now.duration_until(end)),
        }
    }

    /// Whether a personal timer may be started at `now`: only window timing, only inside
    /// the window.
    pub fn may_start_timer(&self, now: Timestamp) -> bool {
        matches!(*self, Timing::Window { window_start, window_end, .. }
            if window_start <= now && now < window_end)
    }
}

/// `t + d`, saturating at the end of time (contest times are far from it).
fn add(t: Timestamp, d: SignedDuration) -> Timestamp {
    t.saturating_add(d).unwrap_or(Timestamp::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn fixed_timing_runs_from_start_to_start_plus_duration() {
        let timing = Timing::Fixed {
            start: t("2026-01-01T10:00:00Z"),
            duration: SignedDuration::from_hours(5),
        };
        assert_eq!(
            timing.phase(t("2026-01-01T09:00:00Z"), None),
            Phase::NotStarted {
                starts_in: SignedDuration::from_hours(1)
            }
        );
        assert_eq!(
            timing.phase(t("2026-01-01T11:00:00Z"), None),
            Phase::Running {
                elapsed: Some(SignedDuration::from_hours(1)),
                remaining: Some(SignedDuration::from_hours(4)),
            }
        );
        assert_eq!(timing.phase(t("2026-01-01T15:00:00Z"), None), Phase::Over);
        assert!(!timing.may_start_timer(t("2026-01-01T11:00:00Z")));
    }

    #[test]
    fn open_timing_is_always_running() {
        let running = Phase::Running {
            elapsed: None,
            remaining: None,
        };
        assert_eq!(Timing::Open.phase(Timestamp::UNIX_EPOCH, None), running);
        assert_eq!(Timing::Open.end(), None);
    }

    #[test]
    fn a_window_waits_for_the_personal_start() {
        let timing = Timing::Window {
            window_start: t("2026-01-01T00:00:00Z"),
            window_end: t("2026-01-04T00:00:00Z"),
            duration: SignedDuration::from_hours(4),
        };
        assert!(matches!(
            timing.phase(t("2025-12-31T00:00:00Z"), None),
            Phase::NotStarted { .. }
        ));
        assert_eq!(
            timing.phase(t("2026-01-03T00:00:00Z"), None),
            Phase::Ready {
                window_ends_in: SignedDuration::from_hours(24)
            }
        );
        assert!(timing.may_start_timer(t("2026-01-03T00:00:00Z")));
        assert!(!timing.may_start_timer(t("2026-01-04T00:00:00Z")));
        assert_eq!(timing.phase(t("2026-01-04T00:00:00Z"), None), Phase::Over);
        let started = Some(t("2026-01-02T00:00:00Z"));
        assert_eq!(
            timing.phase(t("2026-01-02T03:00:00Z"), started),
            Phase::Running {
                elapsed: Some(SignedDuration::from_hours(3)),
                remaining: Some(SignedDuration::from_hours(1)),
            }
        );
        assert_eq!(
            timing.phase(t("2026-01-02T04:00:00Z"), started),
            Phase::Over
        );
    }
}
