//! The event feed as a pure function of what the store records: every event has a key (a
//! contest-clock instant, then a kind and an id) from which its token is written, and the
//! log is the events in key order. A new fact only ever adds events at keys no reader can
//! have passed yet, so a token stays valid across restarts and a reader resumes after it
//! without loss or repetition:
//! - configuration (contest, judgement types, languages, the jury's problems, listed teams)
//!   comes first; a contestant who joins later is a team at their joining instant;
//! - the contest's start, freeze and end are `state` events at their instants;
//! - a submission is an event at its instant, its judgement the event just after it; a
//!   reader is shown nothing past a submission still being judged (its judgement will take
//!   that place), and nothing later than `now - GRACE` (a submission's instant is read
//!   before it is stored);
//! - what the public may not see yet (an icpc submission made in the freeze, an oi result
//!   before the end) has its judgement after the end instead: after the `finalized` state
//!   (everything judged) come those judgements, once the board is unfrozen (oi: at the end),
//!   then the `thawed` state.
//!
//! `log/key.rs`: an event's [`Key`] and its token; `log/reader.rs`: what a reader is shown
//! of the [`Log`] at an instant.

use std::collections::HashMap;

use jiff::{SignedDuration, Timestamp};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::contest::{Audience, Contest, Format, Participants, Timing};
use crate::store::{BoardEntry, Participant, Status};

use super::mapping::{self, LanguageInfo, ProblemInfo, State, SubmissionInfo};
use super::rejudged::{self, Change};

mod key;
mod reader;

pub use key::Key;
use key::{
    ms, K_FINALIZED, K_JUDGED_AGAIN, K_LANGUAGES, K_PROBLEMS, K_REJUDGED, K_REVEALED, K_STATE,
    K_SUBMISSIONS, K_TEAMS, K_THAWED, K_TYPES,
};
pub use reader::{Event, Log, GRACE};

/// What the log of one contest is computed from.
pub struct Inputs<'a> {
    /// The contest.
    pub contest: &'a Contest,
    /// Its problems, in label order.
    pub problems: &'a [ProblemInfo],
    /// The configured languages.
    pub languages: &'a [LanguageInfo],
    /// Who takes part and since when.
    pub participants: &'a [Participant],
    /// The members of the roster groups the contest lists: teams from the start, as on the
    /// board, whether or not they took part yet.
    pub members: &'a [String],
    /// The contestants' submissions.
    pub submissions: &'a [BoardEntry],
    /// Each submission's language.
    pub language_of: &'a HashMap<i64, String>,
    /// What applied rejudgings changed, by submission ([`rejudged::by_submission`]).
    pub rejudged: &'a HashMap<i64, Vec<Change>>,
    /// Whether the jury unfroze the board.
    pub unfrozen: bool,
    /// Who reads it: the public feed holds back what the format hides.
    pub audience: Audience,
}

/// A stable number for a user name (teams are keyed by it).
fn name_number(name: &str) -> i64 {
    let d = Sha256::digest(name.as_bytes());
    let mut b = [0u8; 8];
    b[1..].copy_from_slice(&d[..7]);
    i64::from_be_bytes(b)
}

/// The log of one contest for one audience.
pub fn build(i: &Inputs) -> Log {
    let c = i.contest;
    let public = i.audience == Audience::Public;
    let mut ev: Vec<Event> = Vec::new();
    let mut push = |key: Key, kind: &'static str, id: Option<String>, data: Value| {
        ev.push(Event {
            key,
            kind,
            id,
            data,
        });
    };
    let first = i64::MIN;
    push(
        Key::at(first, K_STATE, 0),
        "contest",
        None,
        mapping::contest(c),
    );
    for (n, t) in mapping::judgement_types().into_iter().enumerate() {
        let id = t["id"].as_str().map(str::to_string);
        push(Key::at(first, K_TYPES, n as i64), "judgement-types", id, t);
    }
    for (n, l) in i.languages.iter().enumerate() {
        let data = mapping::language(l);
        push(
            Key::at(first, K_LANGUAGES, n as i64),
            "languages",
            Some(l.id.clone()),
            data,
        );
    }
    // Problems: the jury's from the first; the public's from the opening, named once they
    // are shown to everyone (fixed: the start; window: the window's end).
    let (opens, named_at) = match c.timing {
        Timing::Fixed { start, .. } => (ms(start), ms(start)),
        Timing::Window {
            window_start,
            window_end,
            ..
        } => (ms(window_start), ms(window_end)),
        Timing::Open => (first, first),
    };
    for p in i.problems {
        let n = p.ordinal as i64;
        if public {
            let data = mapping::problem(c.format, p, opens == named_at);
            push(
                Key::at(opens, K_PROBLEMS, n),
                "problems",
                Some(p.label.clone()),
                data,
            );
            if opens != named_at {
                let data = mapping::problem(c.format, p, true);
                push(
                    Key::at(named_at, K_PROBLEMS, n),
                    "problems",
                    Some(p.label.clone()),
                    data,
                );
            }
        } else {
            let data = mapping::problem(c.format, p, true);
            push(
                Key::at(first, K_PROBLEMS, n),
                "problems",
                Some(p.label.clone()),
                data,
            );
        }
    }
    // Teams: those the contest lists (by name or by group) from the first, as the board
    // does; others when they join.
    let mut listed: Vec<&String> = match &c.participants {
        Participants::Listed(l) => l.iter().collect(),
        _ => Vec::new(),
    };
    listed.extend(i.members);
    listed.sort();
    listed.dedup();
    for u in &listed {
        push(
            Key::at(first, K_TEAMS, name_number(u)),
            "teams",
            Some(u.to_string()),
            mapping::team(u),
        );
    }
    let starts: HashMap<&str, Timestamp> = i
        .participants
        .iter()
        .map(|p| (p.user.as_str(), p.started_at))
        .collect();
    for p in i.participants.iter().filter(|p| !listed.contains(&&p.user)) {
        let key = Key::at(ms(p.started_at), K_TEAMS, name_number(&p.user));
        push(key, "teams", Some(p.user.clone()), mapping::team(&p.user));
    }
    // The state at its instants.
    let mut st = State::default();
    let freeze = if mapping::has_freeze(c) {
        crate::contest::freeze_begins(c)
    } else {
        None
    };
    let end = c.timing.end();
    if let Some(o) = c.timing.opens() {
        st.started = Some(o);
        push(
            Key::at(ms(o), K_STATE, 0),
            "state",
            None,
            mapping::state(c, &st),
        );
    }
    if let Some(f) = freeze {
        st.frozen = Some(f);
        push(
            Key::at(ms(f), K_STATE, 0),
            "state",
            None,
            mapping::state(c, &st),
        );
    }
    if let Some(e) = end {
        st.ended = Some(e);
        push(
            Key::at(ms(e), K_STATE, 0),
            "state",
            None,
            mapping::state(c, &st),
        );
    }
    // Submissions and judgements.
    let end_ms = end.map_or(i64::MAX, ms);
    let final_key = Key::at(end_ms, K_FINALIZED, 0);
    let freeze_from = mapping::has_freeze(c).then(|| c.freeze_from()).flatten();
    let mut blocked: Option<Key> = None;
    let mut any_pending = false;
    let mut entries: Vec<&BoardEntry> = i.submissions.iter().collect();
    entries.sort_by_key(|e| (e.at, e.id));
    for e in entries {
        if e.status == Status::Cancelled || c.problem(&e.label).is_none() {
            continue;
        }
        let start = match c.timing {
            Timing::Fixed { start, .. } => Some(start),
            _ => starts.get(e.user.as_str()).copied(),
        };
        let Some(start) = start else { continue };
        let s = SubmissionInfo {
            id: e.id,
            user: e.user.clone(),
            label: e.label.clone(),
            language: i.language_of.get(&e.id).cloned().unwrap_or_default(),
            at: e.at,
            contest_time: start.duration_until(e.at).max(SignedDuration::ZERO),
        };
        let key = Key::at(ms(e.at), K_SUBMISSIONS, e.id);
        push(
            key,
            "submissions",
            Some(e.id.to_string()),
            mapping::submission(&s),
        );
        let hidden = public
            && match c.format {
                Format::Icpc => freeze_from.is_some_and(|f| s.contest_time >= f),
                Format::Oi => true,
                Format::Ioi => false,
            };
        let jkey = if hidden {
            Key {
                t: end_ms,
                kind: K_REVEALED,
                id: e.id,
                sub: 1,
            }
        } else {
            Key { sub: 1, ..key }
        };
        let now = match (e.status, e.verdict) {
            (Status::Done, Some(v)) => Some((v, e.score.unwrap_or(0))),
            _ => None,
        };
        if now.is_none() {
            any_pending = true;
        }
        let changes = i.rejudged.get(&e.id).map_or(&[][..], Vec::as_slice);
        let changes = &changes[..changes.len().min(rejudged::MAX_CHANGES)];
        let revealed = !hidden || c.format == Format::Oi || i.unfrozen;
        match changes.first().map(|ch| ch.old).or(now) {
            // Never judged yet: its judgement will take `jkey`.
            None => blocked = Some(blocked.map_or(jkey, |b| b.min(jkey))),
            Some(_) if !revealed => {
                if now.is_none() {
                    blocked = Some(blocked.map_or(jkey, |b| b.min(jkey)));
                }
            }
            Some(original) => {
                let mut prev_id = e.id.to_string();
                let mut prev = rejudged::first(&s, original, c.format, changes.is_empty());
                push(jkey, "judgements", Some(prev_id.clone()), prev.clone());
                // While a frozen board is not unfrozen, the public sees nothing past the
                // end: the unfrozen judgements will be placed there.
                let held_back = public && freeze.is_some() && !i.unfrozen;
                // After an immediate rejudge's end event (kind K_JUDGED_AGAIN), the next
                // change comes at a later instant, so its events follow that end.
                let mut after: Option<i64> = None;
                for (n, ch) in changes.iter().enumerate() {
                    let t = ms(ch.at).max(jkey.t).max(after.unwrap_or(i64::MIN));
                    if held_back && t >= end_ms {
                        break;
                    }
                    let sub = (2 * n) as u8;
                    let key = Key {
                        t,
                        kind: K_REJUDGED,
                        id: e.id,
                        sub,
                    };
                    let next = Key {
                        sub: sub + 1,
                        ..key
                    };
                    // The last change's result is the stored one, what the board shows.
                    let result = if n + 1 == changes.len() {
                        now
                    } else {
                        Some(ch.new)
                    };
                    let Some(judging) = ch.judging else {
                        // A rejudging, or an immediate rejudge kept before its times were:
                        // one judgement, judged; one still being judged holds the feed here.
                        let Some(result) = result else {
                            blocked = Some(blocked.map_or(key, |b| b.min(key)));
                            break;
                        };
                        prev["current"] = serde_json::Value::Bool(false);
                        push(key, "judgements", Some(prev_id), prev);
                        let (id, data) = rejudged::made(&s, ch, result, start, c.format);
                        push(next, "judgements", Some(id.clone()), data.clone());
                        (prev_id, prev) = (id, data);
                        continue;
                    };
                    // An immediate rejudge: the new judgement when its judging starts, then
                    // again when it ends; the feed holds between while it runs.
                    prev["current"] = serde_json::Value::Bool(false);
                    push(key, "judgements", Some(prev_id), prev);
                    let (id, data) = rejudged::started(&s, ch, start, c.format);
                    push(next, "judgements", Some(id.clone()), data);
                    let end = Key {
                        kind: K_JUDGED_AGAIN,
                        ..next
                    };
                    let Some(result) = result else {
                        blocked = Some(blocked.map_or(end, |b| b.min(end)));
                        break;
                    };
                    let took = judging.unwrap_or(SignedDuration::ZERO);
                    let (id, data) = rejudged::ended(&s, ch, result, took, start, c.format);
                    push(end, "judgements", Some(id.clone()), data.clone());
                    (prev_id, prev) = (id, data);
                    after = Some(t.saturating_add(1));
                }
            }
        }
    }
    if any_pending {
        blocked = Some(blocked.map_or(final_key, |b| b.min(final_key)));
    }
    // After the end: finalized, the revealed judgements, thawed.
    if let Some(e) = end {
        st.finalized = Some(e);
        push(final_key, "state", None, mapping::state(c, &st));
        if freeze.is_some() && i.unfrozen {
            st.thawed = Some(e);
            push(
                Key::at(end_ms, K_THAWED, 0),
                "state",
                None,
                mapping::state(c, &st),
            );
        }
    }
    ev.sort_by_key(|e| e.key);
    Log {
        events: ev,
        blocked_at: blocked,
    }
}

#[cfg(test)]
#[path = "log_tests.rs"]
mod tests;
