//! The judgements an applied rejudging or an immediate rejudge makes (issue 30's leftover).
//! CLICS (2026-01's `current`, which DOMjudge also serves on 2023-06) gives a rejudged
//! submission a new judgement that supersedes the old one: the old judgement stays, updated
//! to `current: false`, and the new one, with an id of its own, is `current: true`; at most
//! one judgement per submission is current. A rejudging that changes nothing makes no
//! judgement; an immediate rejudge always does (the submission was judged again). Its new
//! judgement is sent when the new judging starts, at the rejudge's instant (no end, no
//! verdict: CLICS's judgement in progress, as DOMjudge serves it), and again when it ends,
//! with its verdict and its end time (the rejudge's instant plus the judging's duration, both
//! measured on the database's clock, sqlite 0020); the feed holds right after the start while
//! the judging runs, as it holds at a first judging. A record kept before sqlite 0020 has no
//! times: its judgement is sent once, judged, at the rejudge's instant.
//!
//! Where they go in the log ([`super::log`]): at the rejudging's apply instant on the
//! contest clock, never before the judgement they supersede; the public's feed shows them
//! only where it shows that judgement, and while a frozen board is not unfrozen nothing
//! past the contest's end (where the unfrozen judgements will be placed).

use std::collections::HashMap;

use jiff::{SignedDuration, Timestamp};
use serde_json::{json, Value};

use crate::contest::Format;
use crate::judge::Verdict;
use crate::store::{ImmediateRejudge, Rejudged};

use super::mapping::{self, SubmissionInfo};

/// Judgements shown per submission past its first: a bound on the events of one submission
/// (each change takes two keys of its own, numbered in a `u8`).
pub const MAX_CHANGES: usize = 127;

/// What made a new judgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// An applied rejudging (its id in [`Change::rejudging`]): judgement `<submission>-r<id>`.
    Rejudging,
    /// An immediate rejudge (its record's id): judgement `<submission>-j<id>`.
    Immediate,
}

/// One change an applied rejudging or an immediate rejudge made to a submission's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The rejudging, or the immediate rejudge's record.
    pub rejudging: i64,
    /// Which of the two.
    pub kind: Kind,
    /// Its apply (or rejudge) instant on the contest clock.
    pub at: Timestamp,
    /// The verdict and score before.
    pub old: (Verdict, i64),
    /// The verdict and score after (an immediate rejudge: the next change's `old`; the last
    /// change's is the submission's stored result, read by the log).
    pub new: (Verdict, i64),
    /// An immediate rejudge's new judging, when its record keeps the times (sqlite 0020):
    /// `Some(None)` while it runs, `Some(Some(d))` once it took `d`; `None` for a rejudging
    /// and an older record (sent once, judged).
    pub judging: Option<Option<SignedDuration>>,
}

/// The store's rows (applied rejudgings' changes, immediate rejudges) as changes by
/// submission, in the order they were made; a row that does not parse (a verdict or instant
/// this build does not know) is left out and logged.
pub fn by_submission(
    rows: &[Rejudged],
    immediate: &[ImmediateRejudge],
) -> HashMap<i64, Vec<Change>> {
    let mut out: HashMap<i64, Vec<Change>> = HashMap::new();
    for r in rows {
        let score = |s: Option<i64>| s.unwrap_or(0);
        let parsed = (
            Verdict::parse(&r.old_verdict),
            Verdict::parse(&r.verdict),
            r.applied_at.parse::<Timestamp>(),
        );
        match parsed {
            (Ok(old), Ok(new), Ok(at)) => out.entry(r.submission_id).or_default().push(Change {
                rejudging: r.rejudging_id,
                kind: Kind::Rejudging,
                at,
                old: (old, score(r.old_score)),
                new: (new, score(r.score)),
                judging: None,
            }),
            _ => tracing::warn!(
                submission = r.submission_id,
                rejudging = r.rejudging_id,
                "a rejudging's change does not parse: left out of the Contest API"
            ),
        }
    }
    for r in immediate {
        let parsed = (Verdict::parse(&r.old_verdict), r.clock.parse::<Timestamp>());
        match parsed {
            (Ok(old), Ok(at)) => {
                let old = (old, r.old_score.unwrap_or(0));
                out.entry(r.submission_id).or_default().push(Change {
                    rejudging: r.id,
                    kind: Kind::Immediate,
                    at,
                    old,
                    new: old,
                    judging: judging_of(r),
                });
            }
            _ => tracing::warn!(
                submission = r.submission_id,
                record = r.id,
                "an immediate rejudge does not parse: left out of the Contest API"
            ),
        }
    }
    for changes in out.values_mut() {
        changes.sort_by_key(|c| (c.at, c.kind, c.rejudging));
        // An immediate rejudge's result is what the next change replaced.
        for i in 1..changes.len() {
            if changes[i - 1].kind == Kind::Immediate {
                changes[i - 1].new = changes[i].old;
            }
        }
    }
    out
}

/// How long an immediate rejudge's new judging took, from its record's instants (see
/// [`Change::judging`]); an end that does not parse or comes before the start counts as
/// none (the judgement then ends at its start).
fn judging_of(r: &ImmediateRejudge) -> Option<Option<SignedDuration>> {
    let queued = r.queued_wall.as_deref()?.parse::<Timestamp>().ok()?;
    let Some(ended) = r.ended_wall.as_deref() else {
        return Some(None);
    };
    let took = ended
        .parse::<Timestamp>()
        .map_or(SignedDuration::ZERO, |e| queued.duration_until(e));
    Some(Some(took.max(SignedDuration::ZERO)))
}

/// The id of the judgement `change` made for submission `submission`.
pub fn judgement_id(submission: i64, change: &Change) -> String {
    match change.kind {
        Kind::Rejudging => format!("{submission}-r{}", change.rejudging),
        Kind::Immediate => format!("{submission}-j{}", change.rejudging),
    }
}

/// A judgement object as [`mapping::judgement`] makes it, with its `current` flag.
pub fn first(s: &SubmissionInfo, result: (Verdict, i64), format: Format, current: bool) -> Value {
    let mut v = mapping::judgement(s, result.0, result.1, format);
    v["current"] = json!(current);
    v
}

/// The judgement `change` made: its own id, started and ended at the apply instant
/// (`contest_start`: the contestant's start, from which contest times count), current.
pub fn made(
    s: &SubmissionInfo,
    change: &Change,
    result: (Verdict, i64),
    contest_start: Timestamp,
    format: Format,
) -> (String, Value) {
    let at = change.at.max(s.at);
    let when = SubmissionInfo {
        at,
        contest_time: contest_start.duration_until(at).max(SignedDuration::ZERO),
        ..s.clone()
    };
    let id = judgement_id(s.id, change);
    let mut v = first(&when, result, format, true);
    v["id"] = json!(id);
    v["submission_id"] = json!(s.id.to_string());
    (id, v)
}

/// The judgement an immediate rejudge's new judging makes when it starts ([`made`] without
/// its end: `judgement_type_id`, `end_time` and `end_contest_time` null, and no score yet).
pub fn started(
    s: &SubmissionInfo,
    change: &Change,
    contest_start: Timestamp,
    format: Format,
) -> (String, Value) {
    let (id, mut v) = made(s, change, change.old, contest_start, format);
    for field in ["judgement_type_id", "end_time", "end_contest_time"] {
        v[field] = Value::Null;
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("score");
    }
    (id, v)
}

/// The same judgement when its judging ended after `took`: its verdict and score `result`,
/// and its end `took` after its start.
pub fn ended(
    s: &SubmissionInfo,
    change: &Change,
    result: (Verdict, i64),
    took: SignedDuration,
    contest_start: Timestamp,
    format: Format,
) -> (String, Value) {
    let (id, mut v) = made(s, change, result, contest_start, format);
    let start = change.at.max(s.at);
    let end = start.checked_add(took).unwrap_or(start);
    v["end_time"] = json!(mapping::time(end));
    v["end_contest_time"] = json!(mapping::reltime(
        contest_start.duration_until(end).max(SignedDuration::ZERO)
    ));
    (id, v)
}
