//! The expected-verdict folders of a problem package and the margins `verify` enforces.

use serde::Serialize;

use crate::judge::Verdict;

/// What a reference solution promises, by the folder it sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expectation {
    /// `accepted/`: AC on every test, within the time margin.
    Accepted,
    /// `wrong_answer/`: WA.
    WrongAnswer,
    /// `time_limit_exceeded/`: TLE, even with the limit stretched.
    TimeLimitExceeded,
    /// `run_time_error/`: RE.
    RunTimeError,
    /// `slow_accepted/` (Kattis packages): AC with the limit stretched by the format's
    /// margin; it may time out at the limit itself, and it does not set the limit.
    SlowAccepted,
    /// `rejected/` (Kattis packages): any verdict but AC (and but a system error).
    Rejected,
    /// `partially_accepted/` (scoring problems): AC overall, with a score below the
    /// maximum of the problem's range.
    PartiallyAccepted,
}

impl Expectation {
    /// Every expectation, in the order the folders are listed.
    pub const ALL: [Expectation; 7] = [
        Expectation::Accepted,
        Expectation::WrongAnswer,
        Expectation::TimeLimitExceeded,
        Expectation::RunTimeError,
        Expectation::SlowAccepted,
        Expectation::Rejected,
        Expectation::PartiallyAccepted,
    ];

    /// The folder name under `submissions/`.
    pub fn folder(self) -> &'static str {
        match self {
            Expectation::Accepted => "accepted",
            Expectation::WrongAnswer => "wrong_answer",
            Expectation::TimeLimitExceeded => "time_limit_exceeded",
            Expectation::RunTimeError => "run_time_error",
            Expectation::SlowAccepted => "slow_accepted",
            Expectation::Rejected => "rejected",
            Expectation::PartiallyAccepted => "partially_accepted",
        }
    }

    /// The expectation a folder name stands for, if it is one.
    pub fn from_folder(name: &str) -> Option<Expectation> {
        Expectation::ALL.into_iter().find(|e| e.folder() == name)
    }

    /// The verdict the submission must get (`rejected/`: WA stands for any rejection;
    /// [`Expectation::allows`] says what passes).
    pub fn verdict(self) -> Verdict {
        match self {
            Expectation::Accepted | Expectation::SlowAccepted | Expectation::PartiallyAccepted => {
                Verdict::AC
            }
            Expectation::Rejected => Verdict::WA,
            Expectation::WrongAnswer => Verdict::WA,
            Expectation::TimeLimitExceeded => Verdict::TLE,
            Expectation::RunTimeError => Verdict::RE,
        }
    }

    /// Whether `got` keeps this folder's promise.
    pub fn allows(self, got: Verdict) -> bool {
        match self {
            Expectation::Rejected => !matches!(got, Verdict::AC | Verdict::SE),
            _ => got == self.verdict(),
        }
    }

    /// What the table and messages call the promise (`AC`, `TLE`, `rejected`).
    pub fn label(self) -> String {
        match self {
            Expectation::Rejected => "rejected".to_string(),
            Expectation::PartiallyAccepted => "AC with a partial score".to_string(),
            _ => self.verdict().to_string(),
        }
    }

    /// Whether judging may stop at the first failed test: the verdict is the first non-AC
    /// test's, so only accepted solutions need every test (for their slowest time).
    pub fn stops_at_first_failure(self) -> bool {
        !matches!(
            self,
            Expectation::Accepted | Expectation::SlowAccepted | Expectation::PartiallyAccepted
        )
    }
}

/// The time margins a problem setter wants from the reference solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Margins {
    /// An accepted solution may use at most this share of the limit, in percent (50: half).
    pub accepted_max_percent: u64,
    /// Time-limit solutions are judged with the limit stretched to this percentage (150:
    /// 1.5x) and must still get TLE, so a limit a little too generous is caught.
    pub tle_stretch_percent: u64,
}

impl Default for Margins {
    fn default() -> Margins {
        Margins {
            accepted_max_percent: 50,
            tle_stretch_percent: 150,
        }
    }
}

impl Margins {
    /// The slowest test time an accepted solution may have under `limit_ms`.
    pub fn accepted_max_ms(&self, limit_ms: u64) -> u64 {
        limit_ms.saturating_mul(self.accepted_max_percent) / 100
    }

    /// The CPU limit a solution expecting `expectation` is judged with.
    pub fn judged_limit_ms(&self, expectation: Expectation, limit_ms: u64) -> u64 {
        match expectation {
            Expectation::TimeLimitExceeded | Expectation::SlowAccepted => limit_ms
                .saturating_mul(self.tle_stretch_percent)
                .div_ceil(100),
            _ => limit_ms,
        }
    }
}
