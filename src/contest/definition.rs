//! A contest's definition as the API and the admin page exchange it (JSON, or a form), and
//! as the database keeps it: the text of a contest file, so one set of checks
//! ([`Contest::from_text`]) rules files and contests made at runtime alike, and a contest
//! made on the page can be exported as a file as it is.

use serde::{Deserialize, Serialize};
use toml::{Table, Value};

use super::file::{Contest, FieldError, Participants};
use super::timing::Timing;

/// Titles longer than this are refused (a title is shown on every page of the contest).
pub const MAX_TITLE_CHARS: usize = 200;
/// Participant entries (names and groups) at most.
pub const MAX_PARTICIPANTS: usize = 10_000;
/// Problems at most.
pub const MAX_PROBLEMS: usize = 100;
/// Language entries at most.
pub const MAX_LANGUAGES: usize = 64;

/// A contest's definition: the keys of a contest file, the id apart. Every key may be left
/// out; what is missing is reported by the checks like any other fault, field by field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ContestDefinition {
    /// The contest's id (`a-z 0-9 - _`): given when it is made, never changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Shown to people.
    pub title: String,
    /// `icpc`, `ioi` or `oi`.
    pub format: String,
    /// When it runs.
    pub timing: TimingDefinition,
    /// icpc: the board freezes for the last this many minutes (0: never).
    pub freeze_minutes: i64,
    /// User names and `group:NAME` entries; `null` (or absent): anyone with an account.
    pub participants: Option<Vec<String>>,
    /// The per-user submission rate, if limited.
    pub rate: Option<RateDefinition>,
    /// Only these language ids or aliases; `null`: every language.
    pub languages: Option<Vec<String>>,
    /// Anonymous spectators may read the board.
    pub public_board: bool,
    /// The problems, in column order.
    pub problems: Vec<ProblemDefinition>,
}

/// The `[timing]` table: `kind` and the keys that kind uses, times in RFC 3339 with an
/// offset, durations as `"5h"` or `"3h 30m"`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TimingDefinition {
    /// `fixed`, `window` or `open`.
    pub kind: String,
    /// fixed: everyone's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// fixed, window: the length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
    /// window: when timers may start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_start: Option<String>,
    /// window: when every timer stops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_end: Option<String>,
}

/// `rate = { submissions, per_minutes }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RateDefinition {
    /// Submissions allowed in one span.
    pub submissions: i64,
    /// The span, in minutes.
    pub per_minutes: i64,
}

/// One `[[problems]]` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProblemDefinition {
    /// `A`, `B`...
    pub label: String,
    /// The problem package's id.
    pub problem: String,
}

impl ContestDefinition {
    /// The definition a loaded contest was made from (what the edit form and `PATCH` start
    /// from).
    pub fn of(c: &Contest) -> ContestDefinition {
        let text = |t: jiff::Timestamp| t.to_string();
        let span = |d: jiff::SignedDuration| format!("{d:#}");
        let timing = match c.timing {
            Timing::Fixed { start, duration } => TimingDefinition {
                kind: "fixed".into(),
                start: Some(text(start)),
                duration: Some(span(duration)),
                ..TimingDefinition::default()
            },
            Timing::Window {
                window_start,
                window_end,
                duration,
            } => TimingDefinition {
                kind: "window".into(),
                duration: Some(span(duration)),
                window_start: Some(text(window_start)),
                window_end: Some(text(window_end)),
                ..TimingDefinition::default()
            },
            Timing::Open => TimingDefinition {
                kind: "open".into(),
                ..TimingDefinition::default()
            },
        };
        let participants = match &c.participants {
            Participants::Anyone if c.groups.is_empty() => None,
            Participants::Anyone => Some(c.groups.iter().map(|g| format!("group:{g}")).collect()),
            Participants::Listed(users) => Some(
                users
                    .iter()
                    .cloned()
                    .chain(c.groups.iter().map(|g| format!("group:{g}")))
                    .collect(),
            ),
        };
        ContestDefinition {
            id: Some(c.id.as_str().to_string()),
            title: c.title.clone(),
            format: c.format.as_str().to_string(),
            timing,
            freeze_minutes: c.freeze.as_mins(),
            participants,
            rate: c.rate.map(|r| RateDefinition {
                submissions: i64::from(r.submissions),
                per_minutes: r.per.as_mins(),
            }),
            languages: c.languages.clone(),
            public_board: c.public_board,
            problems: c
                .problems
                .iter()
                .map(|p| ProblemDefinition {
                    label: p.label.to_string(),
                    problem: p.problem.clone(),
                })
                .collect(),
        }
    }

    /// The bounds a contest file never needed (a file is the host's) but a request does: a
    /// title, participants, problems and languages of bounded length.
    pub fn bounds(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.title.chars().count() > MAX_TITLE_CHARS {
            errors.push(FieldError::new(
                "title",
                format!("longer than {MAX_TITLE_CHARS} characters"),
            ));
        }
        let lists = [
            (
                "participants",
                self.participants.as_ref().map_or(0, Vec::len),
                MAX_PARTICIPANTS,
            ),
            ("problems", self.problems.len(), MAX_PROBLEMS),
            (
                "languages",
                self.languages.as_ref().map_or(0, Vec::len),
                MAX_LANGUAGES,
            ),
        ];
        for (field, n, max) in lists {
            if n > max {
                errors.push(FieldError::new(
                    field,
                    format!("{n} entries: at most {max}"),
                ));
            }
        }
        errors
    }

    /// The contest file this definition is (what the database keeps).
    pub fn to_toml(&self) -> String {
        let mut t = Table::new();
        t.insert("title".into(), Value::String(self.title.clone()));
        t.insert("format".into(), Value::String(self.format.clone()));
        if self.freeze_minutes != 0 {
            t.insert("freeze_minutes".into(), Value::Integer(self.freeze_minutes));
        }
        let strings =
            |list: &[String]| Value::Array(list.iter().map(|s| Value::String(s.clone())).collect());
        if let Some(p) = &self.participants {
            t.insert("participants".into(), strings(p));
        }
        if let Some(r) = self.rate {
            let mut rate = Table::new();
            rate.insert("submissions".into(), Value::Integer(r.submissions));
            rate.insert("per_minutes".into(), Value::Integer(r.per_minutes));
            t.insert("rate".into(), Value::Table(rate));
        }
        if let Some(l) = &self.languages {
            t.insert("languages".into(), strings(l));
        }
        t.insert("public_board".into(), Value::Boolean(self.public_board));
        let mut timing = Table::new();
        timing.insert("kind".into(), Value::String(self.timing.kind.clone()));
        for (key, value) in [
            ("start", &self.timing.start),
            ("duration", &self.timing.duration),
            ("window_start", &self.timing.window_start),
            ("window_end", &self.timing.window_end),
        ] {
            if let Some(v) = value {
                timing.insert(key.into(), Value::String(v.clone()));
            }
        }
        t.insert("timing".into(), Value::Table(timing));
        let problems = self
            .problems
            .iter()
            .map(|p| {
                let mut row = Table::new();
                row.insert("label".into(), Value::String(p.label.clone()));
                row.insert("problem".into(), Value::String(p.problem.clone()));
                Value::Table(row)
            })
            .collect();
        t.insert("problems".into(), Value::Array(problems));
        toml::to_string(&t).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn sample() -> ContestDefinition {
        ContestDefinition {
            id: Some("round-1".into()),
            title: "Round 1".into(),
            format: "icpc".into(),
            timing: TimingDefinition {
                kind: "fixed".into(),
                start: Some("2026-03-01T09:00:00Z".into()),
                duration: Some("5h".into()),
                ..TimingDefinition::default()
            },
            freeze_minutes: 60,
            participants: Some(vec!["alice".into(), "group:class-7b".into()]),
            rate: Some(RateDefinition {
                submissions: 3,
                per_minutes: 1,
            }),
            languages: Some(vec!["c".into()]),
            public_board: true,
            problems: vec![ProblemDefinition {
                label: "A".into(),
                problem: "sudoku".into(),
            }],
        }
    }

    #[test]
    fn a_definition_is_a_contest_file_and_comes_back_from_its_contest() {
        let def = sample();
        let c = Contest::from_text("round-1", Path::new("database:round-1"), &def.to_toml())
            .expect("sound");
        assert_eq!(c.id.as_str(), "round-1");
        assert_eq!(c.freeze, jiff::SignedDuration::from_hours(1));
        assert!(c.groups.contains("class-7b") && c.participants.admits("alice"));
        assert_eq!(ContestDefinition::of(&c), def);
    }

    #[test]
    fn every_field_at_fault_is_reported_not_only_the_first() {
        let mut def = sample();
        def.title = " ".into();
        def.format = "acm".into();
        def.timing.duration = Some("-1h".into());
        def.problems[0].label = "a".into();
        def.participants = Some(vec!["not a name!".into()]);
        let errors = Contest::from_text("round-1", Path::new("x"), &def.to_toml()).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "title",
                "format",
                "timing.duration",
                "problems[0].label",
                "participants[0]"
            ],
            "{errors:?}"
        );
        assert!(errors[1].message.contains("\"acm\" is not a format"));
    }

    #[test]
    fn requests_are_bounded() {
        let mut def = sample();
        def.title = "x".repeat(MAX_TITLE_CHARS + 1);
        def.problems = vec![ProblemDefinition::default(); MAX_PROBLEMS + 1];
        let fields: Vec<String> = def.bounds().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["title", "problems"]);
        assert!(sample().bounds().is_empty());
    }
}
