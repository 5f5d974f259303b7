//! Our contest model as CLICS (Contest API 2023-06) objects, as pure functions: a contest,
//! its state, problems, teams (contestants), languages, submissions, judgements, judgement
//! types and the scoreboard. Nothing here reads the store or the clock.

use jiff::{SignedDuration, Timestamp};
use serde_json::{json, Value};

use crate::contest::{CellState, Contest, Format, Scoreboard, Timing};
use crate::judge::Verdict;

/// The version of the Contest API this module follows.
pub const SPEC_VERSION: &str = "2023-06";
/// Where that version is documented.
pub const SPEC_URL: &str = "https://ccs-specs.icpc.io/2023-06/contest_api";

/// A CLICS absolute time (`TIME`): UTC with milliseconds, as every time we send.
pub fn time(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// A CLICS relative time (`RELTIME`): `(-)h:mm:ss.uuu`.
pub fn reltime(d: SignedDuration) -> String {
    let ms = d.as_millis();
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    format!("{sign}{h}:{m:02}:{:02}.{:03}", rest / 1000, rest % 1000)
}

/// Whether CLICS can describe `contest`: it needs a start and a duration, which open
/// timing (practice, always running) has not.
pub fn served(contest: &Contest) -> bool {
    !matches!(contest.timing, Timing::Open)
}

/// `pass-fail` (icpc) or `score` (ioi, oi).
pub fn scoreboard_type(format: Format) -> &'static str {
    match format {
        Format::Icpc => "pass-fail",
        Format::Ioi | Format::Oi => "score",
    }
}

/// The contest object. Window timing is described by its window: `start_time` is the
/// window's opening, `duration` its length (each contestant's own time is shorter).
pub fn contest(c: &Contest) -> Value {
    let (start, duration) = match c.timing {
        Timing::Fixed { start, duration } => (Some(start), duration),
        Timing::Window {
            window_start,
            window_end,
            ..
        } => (Some(window_start), window_start.duration_until(window_end)),
        Timing::Open => (None, SignedDuration::ZERO),
    };
    let mut v = json!({
        "id": c.id.as_str(),
        "name": c.title,
        "formal_name": c.title,
        "start_time": start.map(time),
        "countdown_pause_time": null,
        "duration": reltime(duration),
        "scoreboard_type": scoreboard_type(c.format),
    });
    if c.format == Format::Icpc {
        v["penalty_time"] = json!(crate::contest::icpc::PENALTY_PER_REJECTION);
        v["scoreboard_freeze_duration"] = json!(reltime(c.freeze));
    }
    v
}

/// Whether a freeze is part of `c` (so `frozen` and `thawed` belong in its state).
pub fn has_freeze(c: &Contest) -> bool {
    c.format == Format::Icpc && c.freeze_from().is_some()
}

/// The contest's state object as far as it has come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct State {
    /// The contest began.
    pub started: Option<Timestamp>,
    /// The board froze.
    pub frozen: Option<Timestamp>,
    /// The contest ended.
    pub ended: Option<Timestamp>,
    /// The board was thawed (we record that it was unfrozen, not when: the contest's end).
    pub thawed: Option<Timestamp>,
    /// Every submission judged after the end.
    pub finalized: Option<Timestamp>,
}

/// The state object of `c` (`frozen`/`thawed` only where a freeze exists).
pub fn state(c: &Contest, s: &State) -> Value {
    let mut v = json!({
        "started": s.started.map(time),
        "ended": s.ended.map(time),
        "finalized": s.finalized.map(time),
        "end_of_updates": null,
    });
    if has_freeze(c) {
        v["frozen"] = json!(s.frozen.map(time));
        v["thawed"] = json!(s.thawed.map(time));
    }
    v
}

/// A problem of the contest as CLICS sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemInfo {
    /// Its label, also its CLICS id (the package's id stays hidden until the problems are).
    pub label: String,
    /// Its title.
    pub name: String,
    /// Position on the board, from 1.
    pub ordinal: usize,
    /// Time limit per test, in milliseconds.
    pub time_limit_ms: u64,
    /// Number of tests.
    pub tests: usize,
    /// Its full score (`max_score`): a scoring package's maximum, 100 for pass-fail.
    pub max_score: i64,
}

/// The problem object; `named` false gives only `Problem <label>` as its name (before the
/// problems are shown).
pub fn problem(format: Format, p: &ProblemInfo, named: bool) -> Value {
    let mut v = json!({
        "id": p.label,
        "label": p.label,
        "name": if named { p.name.clone() } else { format!("Problem {}", p.label) },
        "ordinal": p.ordinal,
        "time_limit": p.time_limit_ms as f64 / 1000.0,
        "test_data_count": if named { p.tests } else { 0 },
    });
    if format != Format::Icpc {
        v["max_score"] = json!(p.max_score);
    }
    v
}

/// A language as CLICS sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageInfo {
    /// Its id (`[languages.<id>]`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// File extensions.
    pub extensions: Vec<String>,
}

/// The language object (our languages need no entry point).
pub fn language(l: &LanguageInfo) -> Value {
    json!({
        "id": l.id,
        "name": l.name,
        "entry_point_required": false,
        "extensions": l.extensions,
    })
}

/// The team object of a contestant: one user is one team, their name its id and label.
pub fn team(user: &str) -> Value {
    json!({"id": user, "name": user, "label": user, "hidden": false})
}

/// The judgement type id of a verdict. Our `RE` is CLICS's `RTE` (CLICS's `RE` is
/// "rejected"); our `SE` (the judge's own fault) is `JE`.
pub fn judgement_type_id(v: Verdict) -> &'static str {
    match v {
        Verdict::AC => "AC",
        Verdict::WA => "WA",
        Verdict::TLE => "TLE",
        Verdict::MLE => "MLE",
        Verdict::OLE => "OLE",
        Verdict::RE => "RTE",
        Verdict::CE => "CE",
        Verdict::SE => "JE",
    }
}

/// Every judgement type a judgement of ours can have: whether it solves, whether it costs
/// penalty time (icpc: a rejected try before the AC; CE and JE never).
pub fn judgement_types() -> Vec<Value> {
    let name = |v: Verdict| match v {
        Verdict::AC => "Accepted",
        Verdict::WA => "Wrong Answer",
        Verdict::TLE => "Time Limit Exceeded",
        Verdict::MLE => "Memory Limit Exceeded",
        Verdict::OLE => "Output Limit Exceeded",
        Verdict::RE => "Run-Time Error",
        Verdict::CE => "Compile Error",
        Verdict::SE => "Judging Error",
    };
    Verdict::ALL
        .iter()
        .map(|&v| {
            json!({
                "id": judgement_type_id(v),
                "name": name(v),
                "penalty": !matches!(v, Verdict::AC | Verdict::CE | Verdict::SE),
                "solved": v == Verdict::AC,
            })
        })
        .collect()
}

/// A contest submission as CLICS sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionInfo {
    /// Our id.
    pub id: i64,
    /// The contestant.
    pub user: String,
    /// The problem's label.
    pub label: String,
    /// The language id.
    pub language: String,
    /// The instant on the contest clock.
    pub at: Timestamp,
    /// Counted from the contestant's start (the board's time).
    pub contest_time: SignedDuration,
}

/// The submission object (the source is not offered: `files` is empty).
pub fn submission(s: &SubmissionInfo) -> Value {
    json!({
        "id": s.id.to_string(),
        "language_id": s.language,
        "problem_id": s.label,
        "team_id": s.user,
        "time": time(s.at),
        "contest_time": reltime(s.contest_time),
        "files": [],
    })
}

/// The judgement object of a judged submission. The store keeps judging times on the wall
/// clock, not the contest clock, so start and end carry the submission's instant.
pub fn judgement(s: &SubmissionInfo, verdict: Verdict, score: i64, format: Format) -> Value {
    let mut v = json!({
        "id": s.id.to_string(),
        "submission_id": s.id.to_string(),
        "judgement_type_id": judgement_type_id(verdict),
        "start_time": time(s.at),
        "start_contest_time": reltime(s.contest_time),
        "end_time": time(s.at),
        "end_contest_time": reltime(s.contest_time),
    });
    if format != Format::Icpc {
        v["score"] = json!(score);
    }
    v
}

/// The scoreboard object of one of our boards: rows in rank order (ties by team id, which
/// is our user name), one problem entry per label.
pub fn scoreboard(
    format: Format,
    board: &Scoreboard,
    state: Value,
    at: Timestamp,
    contest_time: SignedDuration,
) -> Value {
    let rows: Vec<Value> = board
        .rows
        .iter()
        .map(|r| {
            let problems: Vec<Value> = board
                .problems
                .iter()
                .zip(&r.cells)
                .map(|(label, cell)| {
                    let mut p = json!({
                        "problem_id": label.as_str(),
                        "num_judged": cell.attempts,
                        "num_pending": cell.pending,
                    });
                    if format == Format::Icpc {
                        let solved = cell.state == CellState::Solved;
                        p["solved"] = json!(solved);
                        if let (true, Some(m)) = (solved, cell.minutes) {
                            p["time"] = json!(m);
                        }
                    } else {
                        p["score"] = json!(cell.score.unwrap_or(0));
                        // At the problem's full score (`max_score`), as our board marks it.
                        p["solved"] = json!(cell.solved);
                    }
                    p
                })
                .collect();
            let score = if format == Format::Icpc {
                let mut s = json!({"num_solved": r.solved, "total_time": r.penalty});
                let last = r.cells.iter().filter_map(|c| c.minutes).max();
                if let (true, Some(m)) = (r.solved > 0, last) {
                    s["time"] = json!(m);
                }
                s
            } else {
                json!({"score": r.score, "num_solved": r.solved})
            };
            json!({"rank": r.rank, "team_id": r.user, "score": score, "problems": problems})
        })
        .collect();
    json!({
        "time": time(at),
        "contest_time": reltime(contest_time),
        "state": state,
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_follow_the_specs_patterns() {
        let t: Timestamp = "2026-03-01T09:00:05.25Z".parse().unwrap();
        assert_eq!(time(t), "2026-03-01T09:00:05.250Z");
        assert_eq!(
            reltime(SignedDuration::from_millis(3_725_004)),
            "1:02:05.004"
        );
        assert_eq!(reltime(SignedDuration::from_hours(-26)), "-26:00:00.000");
        assert_eq!(reltime(SignedDuration::ZERO), "0:00:00.000");
    }

    #[test]
    fn our_re_is_cliccs_rte_and_only_rejections_cost_penalty() {
        assert_eq!(judgement_type_id(Verdict::RE), "RTE");
        let types = judgement_types();
        let ce = types.iter().find(|t| t["id"] == "CE").unwrap();
        assert_eq!(
            (ce["penalty"].as_bool(), ce["solved"].as_bool()),
            (Some(false), Some(false))
        );
        let wa = types.iter().find(|t| t["id"] == "WA").unwrap();
        assert_eq!(wa["penalty"], true);
        assert_eq!(types.len(), Verdict::ALL.len());
    }
}
