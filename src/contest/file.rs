//! A contest file, `contests/<id>.toml`, parsed and checked into a typed [`Contest`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use jiff::{SignedDuration, Timestamp};
use serde::Deserialize;

use super::format::Format;
use super::ids::{ContestId, Label};
use super::timing::Timing;
use crate::user_name::UserName;

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContest {
    title: String,
    format: String,
    timing: RawTiming,
    #[serde(default)]
    freeze_minutes: i64,
    #[serde(default)]
    participants: Option<toml::Value>,
    #[serde(default)]
    rate: Option<RawRate>,
    #[serde(default)]
    public_board: bool,
    #[serde(default)]
    problems: Vec<RawProblem>,
    #[serde(default)]
    languages: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTiming {
    kind: String,
    start: Option<toml::Value>,
    duration: Option<String>,
    window_start: Option<toml::Value>,
    window_end: Option<toml::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRate {
    submissions: i64,
    per_minutes: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    label: String,
    problem: String,
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

    /// Parses and checks the text of the contest file `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Contest, ContestError> {
        let file = path.to_path_buf();
        let invalid = |key: &str, message: String| ContestError::Invalid {
            file: file.clone(),
            key: key.to_string(),
            message,
        };
        let raw: RawContest = toml::from_str(text).map_err(|e| ContestError::Syntax {
            file: file.clone(),
            message: e.to_string().trim_end().to_string(),
        })?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let id = ContestId::parse(stem).map_err(|e| invalid("(file name)", e.to_string()))?;
        if raw.title.trim().is_empty() {
            return Err(invalid("title", "must not be empty".into()));
        }
        let format = Format::parse(&raw.format).ok_or_else(|| {
            invalid(
                "format",
                format!("{:?} is not a format: icpc, ioi or oi", raw.format),
            )
        })?;
        let timing = timing(&raw.timing, &invalid)?;
        if format == Format::Oi && timing == Timing::Open {
            return Err(invalid(
                "timing.kind",
                "an oi contest publishes its results at the end: it needs fixed or window timing"
                    .into(),
            ));
        }
        let freeze = freeze(raw.freeze_minutes, format, &timing, &invalid)?;
        let problems = problems(&raw.problems, &invalid)?;
        let (participants, groups) = participants(raw.participants.as_ref(), &invalid)?;
        let rate = match raw.rate {
            None => None,
            Some(r) => Some(rate(&r, &invalid)?),
        };
        let languages = languages(raw.languages, &invalid)?;
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

type Invalid<'a> = dyn Fn(&str, String) -> ContestError + 'a;

/// `languages`: absent, or a list of distinct non-blank ids (checked against the language
/// table by `verify`, which knows the configuration).
fn languages(
    raw: Option<Vec<String>>,
    invalid: &Invalid,
) -> Result<Option<Vec<String>>, ContestError> {
    let Some(list) = raw else {
        return Ok(None);
    };
    if list.is_empty() {
        return Err(invalid(
            "languages",
            "an empty list would refuse every submission; leave it out to accept every language"
                .into(),
        ));
    }
    for (i, id) in list.iter().enumerate() {
        if id.trim().is_empty() || id.len() > 32 {
            return Err(invalid("languages", format!("{id:?} is not a language id")));
        }
        if list[..i].contains(id) {
            return Err(invalid("languages", format!("{id:?} is listed twice")));
        }
    }
    Ok(Some(list))
}

fn timestamp(
    value: Option<&toml::Value>,
    key: &str,
    invalid: &Invalid,
) -> Result<Timestamp, ContestError> {
    let text = match value {
        None => return Err(invalid(key, "missing".into())),
        Some(toml::Value::Datetime(d)) => d.to_string(),
        Some(toml::Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(invalid(
                key,
                format!("expected a date and time, found {}", other.type_str()),
            ))
        }
    };
    text.parse::<Timestamp>().map_err(|e| {
        invalid(
            key,
            format!("{text:?} is not a date and time with an offset (like 2009-11-21T08:30:00+08:00 or ...Z): {e}"),
        )
    })
}

fn duration(
    value: Option<&String>,
    key: &str,
    invalid: &Invalid,
) -> Result<SignedDuration, ContestError> {
    let text = value.ok_or_else(|| invalid(key, "missing".into()))?;
    let d: SignedDuration = text.parse().map_err(|e| {
        invalid(
            key,
            format!("{text:?} is not a duration (like \"5h\" or \"3h 30m\"): {e}"),
        )
    })?;
    if d <= SignedDuration::ZERO {
        return Err(invalid(
            key,
            format!("{text:?}: a duration must be positive"),
        ));
    }
    Ok(d)
}

fn timing(raw: &RawTiming, invalid: &Invalid) -> Result<Timing, ContestError> {
    let unused = |keys: &[(&str, bool)]| -> Result<(), ContestError> {
        match keys.iter().find(|(_, present)| *present) {
            Some((key, _)) => Err(invalid(
                &format!("timing.{key}"),
                format!("not used by {} timing", raw.kind),
            )),
            None => Ok(()),
        }
    };
    match raw.kind.as_str() {
        "fixed" => {
            unused(&[
                ("window_start", raw.window_start.is_some()),
                ("window_end", raw.window_end.is_some()),
            ])?;
            Ok(Timing::Fixed {
                start: timestamp(raw.start.as_ref(), "timing.start", invalid)?,
                duration: duration(raw.duration.as_ref(), "timing.duration", invalid)?,
            })
        }
        "window" => {
            unused(&[("start", raw.start.is_some())])?;
            let window_start =
                timestamp(raw.window_start.as_ref(), "timing.window_start", invalid)?;
            let window_end = timestamp(raw.window_end.as_ref(), "timing.window_end", invalid)?;
            if window_end <= window_start {
                return Err(invalid(
                    "timing.window_end",
                    format!("{window_end} is not after window_start {window_start}: the window ends before it starts"),
                ));
            }
            Ok(Timing::Window {
                window_start,
                window_end,
                duration: duration(raw.duration.as_ref(), "timing.duration", invalid)?,
            })
        }
        "open" => {
            unused(&[
                ("start", raw.start.is_some()),
                ("duration", raw.duration.is_some()),
                ("window_start", raw.window_start.is_some()),
                ("window_end", raw.window_end.is_some()),
            ])?;
            Ok(Timing::Open)
        }
        other => Err(invalid(
            "timing.kind",
            format!("{other:?} is not a timing: fixed, window or open"),
        )),
    }
}

fn freeze(
    minutes: i64,
    format: Format,
    timing: &Timing,
    invalid: &Invalid,
) -> Result<SignedDuration, ContestError> {
    const KEY: &str = "freeze_minutes";
    if minutes == 0 {
        return Ok(SignedDuration::ZERO);
    }
    if minutes < 0 {
        return Err(invalid(KEY, format!("{minutes} is negative")));
    }
    if format != Format::Icpc {
        return Err(invalid(
            KEY,
            format!("only icpc contests freeze, this one is {}", format.as_str()),
        ));
    }
    let freeze = SignedDuration::from_mins(minutes);
    match timing.duration() {
        None => Err(invalid(
            KEY,
            "an open contest has no end to freeze before".into(),
        )),
        Some(d) if freeze >= d => Err(invalid(
            KEY,
            format!("{minutes} minutes is not shorter than the contest ({d:#})"),
        )),
        Some(_) => Ok(freeze),
    }
}

fn problems(raw: &[RawProblem], invalid: &Invalid) -> Result<Vec<ContestProblem>, ContestError> {
    if raw.is_empty() {
        return Err(invalid(
            "problems",
            "a contest needs at least one [[problems]]".into(),
        ));
    }
    let (mut labels, mut ids) = (BTreeSet::new(), BTreeSet::new());
    let mut out = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let label = Label::parse(&p.label)
            .map_err(|e| invalid(&format!("problems[{i}].label"), e.to_string()))?;
        if !labels.insert(label.clone()) {
            return Err(invalid(
                &format!("problems[{i}].label"),
                format!("duplicate label {label}"),
            ));
        }
        if !ids.insert(p.problem.as_str()) {
            return Err(invalid(
                &format!("problems[{i}].problem"),
                format!("{:?} is listed twice", p.problem),
            ));
        }
        out.push(ContestProblem {
            label,
            problem: p.problem.clone(),
        });
    }
    Ok(out)
}

/// The `participants` key: `"anyone"`, or a list of user names and `"group:NAME"` entries
/// (roster groups), mixed.
fn participants(
    raw: Option<&toml::Value>,
    invalid: &Invalid,
) -> Result<(Participants, BTreeSet<String>), ContestError> {
    const KEY: &str = "participants";
    let list = match raw {
        None => return Ok((Participants::Anyone, BTreeSet::new())),
        Some(toml::Value::String(s)) if s == "anyone" => {
            return Ok((Participants::Anyone, BTreeSet::new()))
        }
        Some(toml::Value::Array(list)) => list,
        Some(_) => {
            return Err(invalid(
                KEY,
                "expected \"anyone\" or a list of user names and \"group:NAME\" entries".into(),
            ))
        }
    };
    let mut users = BTreeSet::new();
    let mut groups = BTreeSet::new();
    for (i, user) in list.iter().enumerate() {
        let key = format!("{KEY}[{i}]");
        let Some(name) = user.as_str() else {
            return Err(invalid(
                &key,
                "expected a user name or \"group:NAME\"".into(),
            ));
        };
        if let Some(group) = name.strip_prefix("group:") {
            // A roster's own rule, so a group no roster can give is caught here.
            crate::user_name::check_group(group).map_err(|e| invalid(&key, e))?;
            if !groups.insert(group.to_string()) {
                return Err(invalid(&key, format!("{name:?} is listed twice")));
            }
            continue;
        }
        // The accounts' own rule, so a name no account can have is caught here.
        UserName::parse(name).map_err(|e| invalid(&key, e.to_string()))?;
        if !users.insert(name.to_string()) {
            return Err(invalid(&key, format!("{name:?} is listed twice")));
        }
    }
    Ok((Participants::Listed(users), groups))
}

fn rate(raw: &RawRate, invalid: &Invalid) -> Result<Rate, ContestError> {
    let submissions = u32::try_from(raw.submissions)
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            invalid(
                "rate.submissions",
                format!("{} is not a positive count", raw.submissions),
            )
        })?;
    if !(1..=7 * 24 * 60).contains(&raw.per_minutes) {
        return Err(invalid(
            "rate.per_minutes",
            format!("{} is not 1 to 10080 minutes", raw.per_minutes),
        ));
    }
    Ok(Rate {
        submissions,
        per: SignedDuration::from_mins(raw.per_minutes),
    })
}

#[cfg(test)]
mod tests;
