//! Which edits of a contest would rewrite its history, refused with the reason: what has
//! been judged, shown or timed stays as it was (docs/contests.md lists the rules).

use std::collections::BTreeSet;

use jiff::Timestamp;

use super::file::{Contest, FieldError};
use super::view::freeze_begins;

/// What the rules need to know besides the two definitions.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Now, on the contest clock.
    pub now: Option<Timestamp>,
    /// The labels that have submissions (any status).
    pub labels_with_submissions: BTreeSet<String>,
}

/// Whether `c` has begun at `now` (open timing: always).
fn begun(c: &Contest, now: Timestamp) -> bool {
    c.timing.opens().is_none_or(|o| now >= o)
}

/// Every change from `old` to `new` that would rewrite what already happened, one
/// [`FieldError`] each (none: the edit may be stored).
pub fn refusals(old: &Contest, new: &Contest, history: &History) -> Vec<FieldError> {
    let mut out = Vec::new();
    let Some(now) = history.now else {
        return out;
    };
    let has_submissions = !history.labels_with_submissions.is_empty();
    let begun = begun(old, now);
    if old.format != new.format && (begun || has_submissions) {
        out.push(FieldError::new(
            "format",
            format!(
                "this {} contest {}: its format stays {0} (its submissions were judged and its \
                 board shown as {0}; another format would rewrite both)",
                old.format.as_str(),
                if old.timing.end().is_some_and(|e| now >= e) {
                    "is over"
                } else if begun {
                    "is running"
                } else {
                    "has submissions"
                },
            ),
        ));
    }
    let kind = |c: &Contest| match c.timing {
        super::Timing::Fixed { .. } => "fixed",
        super::Timing::Window { .. } => "window",
        super::Timing::Open => "open",
    };
    if begun && kind(old) != kind(new) {
        out.push(FieldError::new(
            "timing.kind",
            format!(
                "the contest has begun with {} timing: its kind cannot change",
                kind(old)
            ),
        ));
    } else if begun && old.timing.opens() != new.timing.opens() {
        let key = if kind(old) == "window" {
            "timing.window_start"
        } else {
            "timing.start"
        };
        let moved = new.timing.opens().map_or(String::new(), |t| t.to_string());
        out.push(FieldError::new(
            key,
            format!(
                "the contest began at {}: its start cannot move (to {moved}{}): every elapsed \
                 minute and penalty counted from it would change",
                old.timing.opens().map_or(String::new(), |t| t.to_string()),
                if new.timing.opens().is_some_and(|t| t > now) {
                    ", in the future: a running contest would stop running"
                } else {
                    ""
                },
            ),
        ));
    }
    if let (Some(old_end), new_end) = (old.timing.end(), new.timing.end()) {
        if kind(old) == kind(new) && new_end != Some(old_end) {
            if now >= old_end {
                out.push(FieldError::new(
                    "timing.duration",
                    format!("the contest ended at {old_end}: its end cannot move"),
                ));
            } else if new_end.is_some_and(|e| e <= now) {
                out.push(FieldError::new(
                    "timing.duration",
                    format!(
                        "the new end ({}) is already past: the submissions made since would \
                         fall after the end",
                        new_end.map_or(String::new(), |t| t.to_string())
                    ),
                ));
            }
        }
        if begun
            && kind(old) == "window"
            && kind(new) == "window"
            && new.timing.duration() < old.timing.duration()
        {
            out.push(FieldError::new(
                "timing.duration",
                "the window is open: a personal timer cannot be shortened (timers already \
                 running would end in the past)",
            ));
        }
    }
    let (old_freeze, new_freeze) = (freeze_begins(old), freeze_begins(new));
    if old_freeze != new_freeze {
        if let Some(f) = old_freeze.filter(|f| *f <= now) {
            out.push(FieldError::new(
                "freeze_minutes",
                format!(
                    "the board has been frozen since {f}: moving or removing the freeze would \
                     publish or hide results already judged (the jury's unfreeze publishes them)"
                ),
            ));
        } else if let Some(f) = new_freeze.filter(|f| *f <= now) {
            out.push(FieldError::new(
                "freeze_minutes",
                format!(
                    "the freeze would begin at {f}, in the past: it would hide results the \
                     public board has shown"
                ),
            ));
        }
    }
    for (i, label) in history.labels_with_submissions.iter().enumerate() {
        let before = old.problems.iter().find(|p| p.label.as_str() == label);
        let after = new.problems.iter().find(|p| p.label.as_str() == label);
        match (before, after) {
            (_, None) => out.push(FieldError::new(
                "problems",
                format!("problem {label} has submissions: it cannot be removed"),
            )),
            (Some(b), Some(a)) if a.problem != b.problem => out.push(FieldError::new(
                &format!("problems[{}].problem", new_index(new, label).unwrap_or(i)),
                format!(
                    "problem {label} has submissions to {:?}: it cannot become {:?}",
                    b.problem, a.problem
                ),
            )),
            _ => {}
        }
    }
    out
}

/// Where `label` sits among `c`'s problems.
fn new_index(c: &Contest, label: &str) -> Option<usize> {
    c.problems.iter().position(|p| p.label.as_str() == label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::definition::{ContestDefinition, ProblemDefinition, TimingDefinition};
    use std::path::Path;

    fn def() -> ContestDefinition {
        ContestDefinition {
            title: "Round".into(),
            format: "icpc".into(),
            timing: TimingDefinition {
                kind: "fixed".into(),
                start: Some("2026-03-01T09:00:00Z".into()),
                duration: Some("5h".into()),
                ..TimingDefinition::default()
            },
            freeze_minutes: 60,
            problems: ["sudoku", "binary-sudoku"]
                .iter()
                .zip(["A", "B"])
                .map(|(p, l)| ProblemDefinition {
                    label: l.into(),
                    problem: p.to_string(),
                })
                .collect(),
            ..ContestDefinition::default()
        }
    }

    fn contest(d: &ContestDefinition) -> Contest {
        Contest::from_text("round", Path::new("x"), &d.to_toml()).expect("sound")
    }

    fn at(t: &str, labels: &[&str]) -> History {
        History {
            now: Some(t.parse().unwrap()),
            labels_with_submissions: labels.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn fields(old: &ContestDefinition, new: &ContestDefinition, h: &History) -> Vec<String> {
        refusals(&contest(old), &contest(new), h)
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn before_the_start_and_without_submissions_anything_goes() {
        let mut new = def();
        new.format = "ioi".into();
        new.freeze_minutes = 0;
        new.timing.start = Some("2026-03-02T09:00:00Z".into());
        new.problems.truncate(1);
        assert!(fields(&def(), &new, &at("2026-03-01T08:00:00Z", &[])).is_empty());
    }

    #[test]
    fn a_running_contest_keeps_its_format_start_past_end_and_problems_with_submissions() {
        let running = at("2026-03-01T10:00:00Z", &["B"]);
        let mut new = def();
        new.format = "ioi".into();
        new.freeze_minutes = 0;
        assert_eq!(fields(&def(), &new, &running), ["format"]);
        let mut new = def();
        new.timing.start = Some("2026-03-01T11:00:00Z".into());
        let refused = refusals(&contest(&def()), &contest(&new), &running);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].field, "timing.start");
        assert!(refused[0].message.contains("in the future"), "{refused:?}");
        let mut new = def();
        new.timing.duration = Some("30m".into());
        new.freeze_minutes = 0;
        assert_eq!(fields(&def(), &new, &running), ["timing.duration"]);
        let mut new = def();
        new.problems.truncate(1);
        assert_eq!(fields(&def(), &new, &running), ["problems"]);
        let mut new = def();
        new.problems[1].problem = "sudoku-hard".into();
        assert_eq!(fields(&def(), &new, &running), ["problems[1].problem"]);
        // A problem nobody submitted to may go; the end may move later; the title changes.
        let mut new = def();
        new.problems[0].problem = "sudoku-hard".into();
        new.timing.duration = Some("6h".into());
        new.freeze_minutes = 120;
        new.title = "Round (extended)".into();
        assert!(fields(&def(), &new, &running).is_empty());
    }

    #[test]
    fn the_freeze_that_began_stays_and_none_begins_in_the_past() {
        let frozen = at("2026-03-01T13:30:00Z", &[]);
        let mut new = def();
        new.freeze_minutes = 0;
        assert_eq!(fields(&def(), &new, &frozen), ["freeze_minutes"]);
        let mut new = def();
        new.timing.duration = Some("6h".into());
        assert_eq!(fields(&def(), &new, &frozen), ["freeze_minutes"]);
        let before = at("2026-03-01T12:30:00Z", &[]);
        let mut new = def();
        new.freeze_minutes = 120;
        assert_eq!(fields(&def(), &new, &before), ["freeze_minutes"]);
    }

    #[test]
    fn a_finished_contest_keeps_its_end() {
        let over = at("2026-03-02T00:00:00Z", &[]);
        let mut new = def();
        new.timing.duration = Some("6h".into());
        new.freeze_minutes = 0;
        let got = fields(&def(), &new, &over);
        assert!(got.contains(&"timing.duration".to_string()), "{got:?}");
    }
}
