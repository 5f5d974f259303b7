//! The contest file's TOML structure as serde reads it: unknown keys refused, no value
//! checked yet (that is `checks.rs`).

use serde::Deserialize;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContest {
    pub(super) title: String,
    pub(super) format: String,
    pub(super) timing: RawTiming,
    #[serde(default)]
    pub(super) freeze_minutes: i64,
    #[serde(default)]
    pub(super) participants: Option<toml::Value>,
    #[serde(default)]
    pub(super) rate: Option<RawRate>,
    #[serde(default)]
    pub(super) public_board: bool,
    #[serde(default)]
    pub(super) problems: Vec<RawProblem>,
    #[serde(default)]
    pub(super) languages: Option<Vec<String>>,
}

/// The `[timing]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTiming {
    pub(super) kind: String,
    pub(super) start: Option<toml::Value>,
    pub(super) duration: Option<String>,
    pub(super) window_start: Option<toml::Value>,
    pub(super) window_end: Option<toml::Value>,
}

/// The `rate` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRate {
    pub(super) submissions: i64,
    pub(super) per_minutes: i64,
}

/// One `[[problems]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawProblem {
    pub(super) label: String,
    pub(super) problem: String,
}
