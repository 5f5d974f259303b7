//! The scoreboard as a caller sees it, computed from the store by `contest::board` and
//! cached: a board depends only on the contest's data (whose version the store bumps on
//! every change a board shows, by trigger) and on what is hidden at the instant
//! ([`Shown`]), so one computed board serves every request until the version moves. A
//! result stored by a worker bumps the version in its own transaction: the next read of the
//! board computes it again, so a verdict is on the board as soon as it is stored. Also the
//! jury's CSV, unfreeze and freeze again, and contest-wide rejudge.

use std::collections::HashMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use jiff::{SignedDuration, Timestamp};

use crate::accounts::access;
use crate::accounts::Caller;
use crate::contest::{
    self, Cell, CellState, Contest, Label, Outcome, Participants, Scoreboard, Shown, Timing,
};
use crate::store::{
    AccountStore, BoardData, ContestStore, GroupStore, JudgingStore, RejudgeCount, Status,
};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::find;
use super::full_scores::max_scores;

pub use super::board_cache::{BoardView, CachedBoard};

/// The board of contest `id` as `caller` sees it now.
pub async fn scoreboard(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> ApiResult<Arc<CachedBoard>> {
    let c = find(state, id)?;
    let c = &*c;
    allow(access::read_scoreboard(caller, c.public_board), String::new)?;
    let audience = access::contest_audience(caller);
    let now = state.contests.now();
    let cache = &state.contests.boards;
    let current = cache.states.read(&state.store, id).await?;
    let shown = contest::shown(c, now, audience, current.unfrozen);
    if let Some(board) = cache.current(id, shown, current.version) {
        return Ok(board);
    }
    let _one_at_a_time = cache.computing.lock().await;
    let current = state.store.contest_state(id).await?;
    let shown = contest::shown(c, now, audience, current.unfrozen);
    if let Some(board) = cache.current(id, shown, current.version) {
        return Ok(board);
    }
    if current.version == 0 {
        // No counters row yet (nothing submitted): made now, so a user added or grouped
        // (the users' triggers move every row's version) is on the board at once.
        state.store.track_contest(id).await?;
    }
    let data = state.store.board_data(id).await?;
    let mut members = Vec::new();
    for group in &c.groups {
        members.extend(state.store.members(group).await?);
    }
    let shown = contest::shown(c, now, audience, data.state.unfrozen);
    let board = compute(c, &data, &members, shown, &max_scores(state, c));
    let display_names = display_names(state, &board).await?;
    let version = if hides(shown) {
        shown_tag(&board)?
    } else {
        data.state.version
    };
    let view = BoardView {
        contest: id.to_string(),
        version,
        board,
        display_names,
    };
    let board = Arc::new(CachedBoard::encode(view, data.state.version)?);
    cache.keep(id, shown, Arc::clone(&board));
    Ok(board)
}

/// The display names of the board's users (read once per computed board, not per request).
async fn display_names(
    state: &AppState,
    board: &Scoreboard,
) -> ApiResult<std::collections::BTreeMap<String, String>> {
    let on_board: std::collections::HashSet<&str> =
        board.rows.iter().map(|r| r.user.as_str()).collect();
    Ok(state
        .store
        .list_users()
        .await?
        .into_iter()
        .filter(|u| !u.display_name.is_empty() && on_board.contains(u.name.as_str()))
        .map(|u| (u.name.to_string(), u.display_name))
        .collect())
}

/// Whether a board hides something from its audience (frozen cells, oi results).
fn hides(shown: Shown) -> bool {
    shown.frozen || !shown.revealed
}

/// The `version` of a board that hides something: a tag of what it shows (48 bits of its
/// SHA-256, exact in any JSON reader). The data version would move with every judging step
/// of a hidden submission, and how soon it moved told an AC (every test run) from a WA
/// (stopped at the first failure); the tag moves only when the shown board does.
fn shown_tag(board: &Scoreboard) -> ApiResult<u64> {
    let json = serde_json::to_vec(board)
        .map_err(|e| ApiError::Internal(format!("cannot encode the board: {e}")))?;
    let digest = Sha256::digest(&json);
    let mut bytes = [0u8; 8];
    bytes[2..].copy_from_slice(&digest[..6]);
    Ok(u64::from_be_bytes(bytes))
}

/// The board of `c` from the stored `data`, hiding what `shown` says. Times count from each
/// contestant's start: the contest's (fixed), their personal one (window), their joining
/// (open). Rows: every participant, and every listed one even before they take part (listed
/// by name, or `members` of the roster groups the contest lists). `max_scores`: each
/// problem's full score ([`max_scores`]), which solves an ioi or oi cell.
pub fn compute(
    c: &Contest,
    data: &BoardData,
    members: &[String],
    shown: Shown,
    max_scores: &[i64],
) -> Scoreboard {
    let starts: HashMap<&str, Timestamp> = data
        .participants
        .iter()
        .map(|p| (p.user.as_str(), p.started_at))
        .collect();
    let mut users: Vec<String> = data.participants.iter().map(|p| p.user.clone()).collect();
    let mut not_started = std::collections::BTreeSet::new();
    if let Participants::Listed(listed) = &c.participants {
        not_started.extend(listed.iter().filter(|u| !starts.contains_key(u.as_str())));
    }
    not_started.extend(members.iter().filter(|u| !starts.contains_key(u.as_str())));
    users.extend(not_started.into_iter().cloned());
    let submissions: Vec<contest::Submission> = data
        .submissions
        .iter()
        .filter_map(|e| {
            let start = match c.timing {
                Timing::Fixed { start, .. } => start,
                Timing::Window { .. } | Timing::Open => *starts.get(e.user.as_str())?,
            };
            Some(contest::Submission {
                id: u64::try_from(e.id).ok()?,
                user: e.user.clone(),
                label: Label::parse(&e.label).ok()?,
                at: start.duration_until(e.at).max(SignedDuration::ZERO),
                outcome: match (e.status, e.verdict) {
                    (Status::Done, Some(verdict)) => Outcome::Judged {
                        verdict,
                        score: e.score.unwrap_or(0),
                    },
                    _ => Outcome::Pending,
                },
            })
        })
        .collect();
    let mut board = contest::board(c, &users, &submissions, shown);
    contest::full::mark_solved(&mut board, max_scores);
    board
}

/// The board of contest `id` as CSV (the jury's): `rank,user,display_name,solved,penalty`
/// (icpc) or `rank,user,display_name,score` (ioi, oi), then one column per label: only the columns the format
/// gives a meaning.
pub async fn csv(state: &AppState, caller: &Caller, id: &str) -> ApiResult<String> {
    allow(access::contest_jury(caller), String::new)?;
    let board = scoreboard(state, caller, id).await?;
    let b = &board.view.board;
    let mut w = csv::Writer::from_writer(Vec::new());
    let icpc = b.format == contest::Format::Icpc;
    let mut header = vec!["rank".to_string(), "user".into(), "display_name".into()];
    if icpc {
        header.extend(["solved".into(), "penalty".into()]);
    } else {
        header.push("score".into());
    }
    header.extend(b.problems.iter().map(|l| l.to_string()));
    let mut rows = vec![header];
    for r in &b.rows {
        let shown = board.view.display_names.get(&r.user).cloned();
        let mut line = vec![
            r.rank.to_string(),
            r.user.clone(),
            shown.unwrap_or_default(),
        ];
        if icpc {
            line.extend([r.solved.to_string(), r.penalty.to_string()]);
        } else {
            line.push(r.score.to_string());
        }
        line.extend(r.cells.iter().map(cell_text));
        rows.push(line);
    }
    for row in rows {
        w.write_record(&row)
            .map_err(|e| ApiError::Internal(format!("csv: {e}")))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ApiError::Internal(format!("csv: {e}")))?;
    String::from_utf8(bytes).map_err(|e| ApiError::Internal(format!("csv: {e}")))
}

/// A cell as the docs write it: `+2@25` solved on the 2nd try at minute 25 (`*` first to
/// solve), `-2` rejected twice, `?1` pending, a score, `judged`.
pub fn cell_text(c: &Cell) -> String {
    let pending = if c.pending > 0 {
        format!("?{}", c.pending)
    } else {
        String::new()
    };
    match c.state {
        CellState::Empty => String::new(),
        CellState::Solved => format!(
            "+{}@{}{}",
            c.attempts,
            c.minutes.unwrap_or(0),
            if c.first_solve { " *" } else { "" }
        ),
        CellState::Rejected => format!("-{}", c.attempts),
        CellState::Pending if c.attempts > 0 => format!("-{}{pending}", c.attempts),
        CellState::Pending => pending,
        CellState::Scored => c.score.unwrap_or(0).to_string(),
        CellState::Judged => "judged".into(),
    }
}

/// `POST /api/contests/{id}/unfreeze` (the jury): the public board shows everything. Refused
/// (409) before the freeze begins and for a contest that never freezes.
pub async fn unfreeze(state: &AppState, caller: &Caller, id: &str) -> ApiResult<()> {
    set_unfrozen(state, caller, id, true).await
}

/// `POST /api/contests/{id}/freeze` (the jury): the public board is frozen again, as before
/// an unfreeze (an unfreeze by mistake, or shown too early, is taken back).
pub async fn freeze(state: &AppState, caller: &Caller, id: &str) -> ApiResult<()> {
    set_unfrozen(state, caller, id, false).await
}

async fn set_unfrozen(
    state: &AppState,
    caller: &Caller,
    id: &str,
    unfrozen: bool,
) -> ApiResult<()> {
    allow(access::contest_jury(caller), String::new)?;
    let c = find(state, id)?;
    let c = &*c;
    if unfrozen {
        // Unfreezing publishes what the freeze hid: before the freeze there is nothing to
        // publish, and an unfreeze then would cancel the freeze to come.
        let now = state.contests.now();
        match contest::freeze_begins(c) {
            None => {
                return Err(ApiError::Conflict(format!(
                    "contest {id:?} never freezes its board: there is nothing to unfreeze"
                )))
            }
            Some(begins) if now < begins => {
                return Err(ApiError::Conflict(format!(
                    "the board of {id:?} freezes at {}; unfreezing before then would cancel \
                     the freeze (an unfreeze publishes what the freeze hid)",
                    crate::store::contests::db_time(begins)
                )))
            }
            Some(_) => {}
        }
    }
    state.store.set_unfrozen(id, unfrozen).await?;
    tracing::info!(contest = id, unfrozen, "scoreboard freeze changed");
    Ok(())
}

/// `POST /api/contests/{id}/rejudge` (the jury): every judged submission to one problem
/// (its label or its id) of the contest is judged again.
pub async fn rejudge(
    state: &AppState,
    caller: &Caller,
    id: &str,
    problem: &str,
) -> ApiResult<RejudgeCount> {
    allow(access::contest_jury(caller), String::new)?;
    let c = find(state, id)?;
    let c = &*c;
    let p = c
        .problem(problem)
        .ok_or_else(|| ApiError::UnknownProblem(problem.to_string()))?;
    // Each judged submission's result is kept for the Contest API's new judgements.
    let count = state
        .store
        .rejudge_label_kept(id, p.label.as_str(), state.contests.now())
        .await?;
    if count.requeued > 0 {
        state.wake.notify_waiters();
        state.wake.notify_one();
    }
    tracing::info!(contest = id, label = %p.label, requeued = count.requeued, "contest rejudge");
    Ok(count)
}
