//! The three contest formats and how much of a submission each one needs judged.

use serde::Serialize;

use crate::judge::JudgeMode;

/// How a contest scores and what its contestants see (see docs/contests.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// ICPC: problems solved, then penalty minutes; verdicts at once; the board freezes.
    Icpc,
    /// IOI: the sum of each problem's best score; verdicts and scores at once.
    Ioi,
    /// NOIP (OI): the last submission of each problem counts; results only after the end.
    Oi,
}

impl Format {
    /// Parses the `format` key of a contest file.
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "icpc" => Some(Format::Icpc),
            "ioi" => Some(Format::Ioi),
            "oi" => Some(Format::Oi),
            _ => None,
        }
    }

    /// The name used in contest files and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Icpc => "icpc",
            Format::Ioi => "ioi",
            Format::Oi => "oi",
        }
    }

    /// How much is judged: ICPC only needs the verdict, so judging stops at the first
    /// failing test (a TLE submission no longer costs every test's limit); IOI and OI
    /// score every test.
    pub fn judge_mode(self) -> JudgeMode {
        match self {
            Format::Icpc => JudgeMode::StopAtFirstFailure,
            Format::Ioi | Format::Oi => JudgeMode::AllTests,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_pick_their_judge_mode() {
        for f in [Format::Icpc, Format::Ioi, Format::Oi] {
            assert_eq!(Format::parse(f.as_str()), Some(f));
        }
        assert_eq!(Format::parse("ICPC"), None);
        assert_eq!(Format::Icpc.judge_mode(), JudgeMode::StopAtFirstFailure);
        assert_eq!(Format::Ioi.judge_mode(), JudgeMode::AllTests);
        assert_eq!(Format::Oi.judge_mode(), JudgeMode::AllTests);
    }
}
