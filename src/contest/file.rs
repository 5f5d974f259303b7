//! A contest file, `contests/<id>.toml`, parsed and checked into a typed [`Contest`].
//!
//! - `raw.rs`: the file's TOML structure as serde reads it, before any check.
//! - `checks.rs`: one check per key, from the raw values to the typed ones, each error
//!   naming its key.

mod checks;
mod raw;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use jiff::SignedDuration;

use super::format::Format;
use super::ids::{ContestId, Label};
use super::timing::Timing;
use checks::{freeze, languages, participants, problems, rate, timing};
use raw::RawContest;

/// What is wrong with a contest file; every message names the file, and the key when one
/// key is at fault.
#[derive(Debug, thiserror::Error)]
pub enum ContestError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not TOML, or a key of the wrong type or unknown (the parser's message names it).
    #[error("{file}: {message}")]
    Syntax {
        /// The file.
        file: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A key whose value makes no sense (end before start, unknown problem...).
    #[error("{file}: key `{key}`: {message}")]
    Invalid {
        /// The file.
        file: PathBuf,
        /// The key, as written in the file (`timing.window_end`, `problems[2].label`).
        key: String,
        /// What is wrong with it.
        message: String,
    },
}

/// One problem of a contest: its label (the scoreboard column) and the package it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContestProblem {
    /// A, B, C...
    pub label: Label,
    /// The problem package's id (`problems/<id>/`).
    pub problem: String,
}

/// Who may take part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Participants {
    /// Anyone with an account.
    Anyone,
    /// Only these user names.
    Listed(BTreeSet<String>),
}

impl Participants {
    /// Whether `user` may take part.
    pub fn admits(&self, user: &str) -> bool {
        match self {
            Participants::Anyone => true,
            Participants::Listed(users) => users.contains(user),
        }
    }
}

/// The per-user submission rate: at most `submissions` in any span of `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Submissions allowed in one span.
    pub submissions: u32,
    /// The span.
    pub per: SignedDuration,
}

/// A contest as its file defines it (runtime state lives in the database).
#[derive(Debug, Clone)]
pub struct Contest {
    /// From the file name.
    pub id: ContestId,
    /// Shown to people.
    pub title: String,
    /// How it scores and what contestants see.
    pub format: Format,
    /// When it runs.
    pub timing: Timing,
    /// The problems in label order as written.
    pub problems: Vec<ContestProblem>,
    /// Who may take part (by name; see also `groups`).
    pub participants: Participants,
    /// The roster groups whose members take part too (`"group:class-7b"` entries of
    /// `participants`; the members are the store's).
    pub groups: BTreeSet<String>,
    /// ICPC: the board freezes for this last part of the contest (zero: no freeze).
    pub freeze: SignedDuration,
    /// The per-user submission rate, if limited.
    pub rate: Option<Rate>,
    /// The languages contestants may use (ids or aliases of the language table); `None`:
    /// every language (the rule is [`super::languages::check`]).
    pub languages: Option<Vec<String>>,
    /// Anonymous spectators may read the board (the contestants' view, frozen included).
    pub public_board: bool,
    /// The file it was read from.
    pub path: PathBuf,
}

impl Contest {
    /// Reads and checks `path` (`<dir>/<id>.toml`). Problems are checked to exist by
    /// [`super::load`], which knows the problem folder.
    pub fn read(path: &Path) -> Result<Contest, ContestError> {
        let text = std::fs::read_to_string(path).map_err(|source| ContestError::Read {
            file: path.to_path_buf(),
            source,
        })?;
        Contest::parse(path, &text)
    }

    /// Parses and checks the text of the contest file `path`; the first key at fault is the
    /// error (`sudojudge verify` and the start print one line per file).
    pub fn parse(path: &Path, text: &str) -> Result<Contest, ContestError> {
        let file = path.to_path_buf();
        let raw: RawContest = toml::from_str(text).map_err(|e| ContestError::Syntax {
            file: file.clone(),
            message: e.to_string().trim_end().to_string(),
        })?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        Contest::check(stem, path, raw).map_err(|mut errors| {
            let first = errors.swap_remove(0);
            ContestError::Invalid {
                file,
                key: first.field,
                message: first.message,
            }
        })
    }

    /// Parses and checks a contest definition held elsewhere than in a file of its name (the
    /// database's contests: `id` is its id, `origin` what messages call it), reporting every
    /// key at fault, not only the first (the admin page and the API show them field by field).
    pub fn from_text(id: &str, origin: &Path, text: &str) -> Result<Contest, Vec<FieldError>> {
        let raw: RawContest = toml::from_str(text).map_err(|e| {
            vec![FieldError::new(
                "(definition)",
                e.to_string().trim_end().to_string(),
            )]
        })?;
        Contest::check(id, origin, raw)
    }

    /// Every check of every key, in the file's order, every failure kept.
    fn check(id: &str, path: &Path, raw: RawContest) -> Result<Contest, Vec<FieldError>> {
        let file = path.to_path_buf();
        let invalid = |key: &str, message: String| ContestError::Invalid {
            file: file.clone(),
            key: key.to_string(),
            message,
        };
        let mut errors = Vec::new();
        let id = keep(
            ContestId::parse(id).map_err(|e| invalid("(file name)", e.to_string())),
            &mut errors,
        );
        if raw.title.trim().is_empty() {
            errors.push(FieldError::new("title", "must not be empty"));
        }
        let format = keep(
            Format::parse(&raw.format).ok_or_else(|| {
                invalid(
                    "format",
                    format!("{:?} is not a format: icpc, ioi or oi", raw.format),
                )
            }),
            &mut errors,
        );
        let timing = keep(timing(&raw.timing, &invalid), &mut errors);
        if format == Some(Format::Oi) && timing == Some(Timing::Open) {
            errors.push(FieldError::new(
                "timing.kind",
                "an oi contest publishes its results at the end: it needs fixed or window timing",
            ));
        }
        let freeze = match (format, &timing) {
            (Some(format), Some(timing)) => keep(
                freeze(raw.freeze_minutes, format, timing, &invalid),
                &mut errors,
            ),
            _ => None,
        };
        let problems = keep(problems(&raw.problems, &invalid), &mut errors);
        let participants = keep(
            participants(raw.participants.as_ref(), &invalid),
            &mut errors,
        );
        let rate = match raw.rate {
            None => Some(None),
            Some(r) => keep(rate(&r, &invalid).map(Some), &mut errors),
        };
        let languages = keep(languages(raw.languages, &invalid), &mut errors);
        let (
            Some(id),
            Some(format),
            Some(timing),
            Some(freeze),
            Some(problems),
            Some((participants, groups)),
            Some(rate),
            Some(languages),
            true,
        ) = (
            id,
            format,
            timing,
            freeze,
            problems,
            participants,
            rate,
            languages,
            errors.is_empty(),
        )
        else {
            return Err(errors);
        };
        Ok(Contest {
            languages,
            id,
            title: raw.title,
            format,
            timing,
            problems,
            participants,
            groups,
            freeze,
            rate,
            public_board: raw.public_board,
            path: file,
        })
    }

    /// Whether `user`, in roster group `group` (if any), may take part: listed by name, in
    /// a listed group, or the contest is open to anyone.
    pub fn admits(&self, user: &str, group: Option<&str>) -> bool {
        self.participants.admits(user) || group.is_some_and(|g| self.groups.contains(g))
    }

    /// The problem a label or a problem id names in this contest (submissions may use
    /// either).
    pub fn problem(&self, label_or_id: &str) -> Option<&ContestProblem> {
        self.problems
            .iter()
            .find(|p| p.label.as_str() == label_or_id || p.problem == label_or_id)
    }

    /// The labels in order: the scoreboard's columns.
    pub fn labels(&self) -> Vec<Label> {
        self.problems.iter().map(|p| p.label.clone()).collect()
    }

    /// ICPC: the elapsed time from which submissions are hidden on the frozen board
    /// (`None`: this contest never freezes).
    pub fn freeze_from(&self) -> Option<SignedDuration> {
        let duration = self.timing.duration()?;
        (!self.freeze.is_zero()).then(|| duration - self.freeze)
    }
}

/// One key of a contest definition at fault, and why: what the API's 422 and the admin
/// page list, one per field.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct FieldError {
    /// The key as a contest file writes it (`timing.start`, `problems[1].label`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl FieldError {
    /// `field` is wrong because of `message`.
    pub fn new(field: &str, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// The value of a check, or `None` with its error kept in `errors`.
fn keep<T>(result: Result<T, ContestError>, errors: &mut Vec<FieldError>) -> Option<T> {
    match result {
        Ok(v) => Some(v),
        Err(ContestError::Invalid { key, message, .. }) => {
            errors.push(FieldError {
                field: key,
                message,
            });
            None
        }
        Err(other) => {
            errors.push(FieldError::new("(definition)", other.to_string()));
            None
        }
    }
}

#[cfg(test)]
mod tests;
