//! Rejudgings as DOMjudge's rejudging sets (the jury): a rejudge of a contest, one of its
//! problems or chosen submissions runs aside ([`crate::store::rejudgings`]); its preview
//! shows each submission whose result the new judging changes and the board before and
//! after, computed by the board's own code ([`board::compute`]) from the stored results and
//! from the stored results with the new ones in their place; applying it makes the new
//! results the submissions' (the board then changes as previewed), dropping it changes
//! nothing. The API (`api_rejudgings.rs`) and the jury's pages (`web/rejudgings.rs`) share
//! these functions.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::accounts::access;
use crate::accounts::Caller;
use crate::contest::{self, Scoreboard};
use crate::judge::Verdict;
use crate::store::rejudgings::{Closed, NewRejudging, Rejudging, RejudgingCreated, RejudgingRun};
use crate::store::{ContestStore, GroupStore, RejudgingStore, Status};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::{board, find};

pub use crate::store::rejudgings::RejudgingState;

/// Rejudgings open at once over every contest (one per contest in any case): each holds a
/// run per submission in scope, judged by the workers' idle time.
pub const MAX_OPEN: u32 = 4;
/// Submissions a rejudging may choose one by one.
pub const MAX_CHOSEN: usize = 1000;
/// Rejudgings the list shows, newest first.
pub const LIST_LIMIT: u32 = 100;

/// The body of `POST /api/rejudgings`: the scope.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRejudgingRequest {
    /// The contest whose judged submissions are judged again.
    #[schema(example = "spring")]
    pub contest: String,
    /// Only this problem's (its label or its id); every problem's when absent.
    #[serde(default)]
    #[schema(example = "A")]
    pub problem: Option<String>,
    /// Only these submissions of the contest (at most 1000); all in scope when absent.
    #[serde(default)]
    pub submissions: Option<Vec<i64>>,
}

/// A rejudging: its scope, who started it, where it stands and its progress.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RejudgingSummary {
    /// Its id.
    pub id: i64,
    /// The contest.
    pub contest: String,
    /// The problem's label it is limited to.
    pub problem: Option<String>,
    /// The submissions it is limited to.
    pub submissions: Option<Vec<i64>>,
    /// Who started it.
    pub created_by: String,
    /// When (UTC).
    pub created_at: String,
    /// `open`, `applied` or `cancelled`.
    pub state: RejudgingState,
    /// Who applied or dropped it.
    pub closed_by: Option<String>,
    /// When.
    pub closed_at: Option<String>,
    /// Submissions it judges again.
    pub total: u64,
    /// Of which judged already (`judged == total`: it can be applied).
    pub judged: u64,
}

impl From<Rejudging> for RejudgingSummary {
    fn from(r: Rejudging) -> RejudgingSummary {
        RejudgingSummary {
            id: r.id,
            contest: r.contest,
            problem: r.label,
            submissions: r.chosen,
            created_by: r.created_by,
            created_at: r.created_at,
            state: r.state,
            closed_by: r.closed_by,
            closed_at: r.closed_at,
            total: r.total,
            judged: r.judged,
        }
    }
}

/// A submission whose new result differs from its stored one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RunChange {
    /// The submission.
    pub submission: i64,
    /// Its owner.
    pub user: Option<String>,
    /// Its problem's label.
    pub problem: Option<String>,
    /// The stored verdict.
    #[schema(value_type = Option<String>)]
    pub old_verdict: Option<Verdict>,
    /// The stored score.
    pub old_score: Option<i64>,
    /// The new verdict.
    #[schema(value_type = Option<String>)]
    pub new_verdict: Option<Verdict>,
    /// The new score.
    pub new_score: Option<i64>,
}

/// A contestant's place on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Standing {
    /// 1-based rank.
    pub rank: u32,
    /// ICPC: problems solved.
    pub solved: u32,
    /// ICPC: penalty minutes.
    pub penalty: i64,
    /// IOI/OI: the total score.
    pub score: i64,
}

/// A contestant whose place the rejudging changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct BoardChange {
    /// The contestant.
    pub user: String,
    /// On the board now.
    pub before: Standing,
    /// On the board once applied.
    pub after: Standing,
}

/// A rejudging and its preview: what applying it changes (judged runs only while it runs).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RejudgingView {
    /// The rejudging.
    #[serde(flatten)]
    pub rejudging: RejudgingSummary,
    /// Every judged submission whose new verdict or score differs from the stored one.
    pub changes: Vec<RunChange>,
    /// Every contestant whose rank, solved count, penalty or score changes.
    pub board: Vec<BoardChange>,
}

/// `POST /api/rejudgings` (the jury): starts a rejudging of the contest's judged
/// submissions in scope; refused while the contest has one open or [`MAX_OPEN`] are.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    req: &NewRejudgingRequest,
) -> ApiResult<RejudgingView> {
    allow(access::contest_jury(caller), String::new)?;
    let c = find(state, &req.contest)?;
    let label = match &req.problem {
        None => None,
        Some(p) => Some(
            c.problem(p)
                .ok_or_else(|| ApiError::UnknownProblem(p.clone()))?
                .label
                .to_string(),
        ),
    };
    if let Some(ids) = &req.submissions {
        if ids.is_empty() || ids.len() > MAX_CHOSEN {
            return Err(ApiError::Invalid(format!(
                "submissions: give 1 to {MAX_CHOSEN} ids, or leave it out for every judged \
                 submission in scope"
            )));
        }
    }
    let created_by = match caller {
        Caller::User(who) => who.name.to_string(),
        _ => "host".to_string(),
    };
    let new = NewRejudging {
        contest: req.contest.clone(),
        label,
        chosen: req.submissions.clone(),
        created_by,
        max_open: MAX_OPEN,
    };
    let id = match state.store.create_rejudging(&new).await? {
        RejudgingCreated::Created { id, runs } => {
            tracing::info!(contest = %req.contest, id, runs, "rejudging started");
            id
        }
        RejudgingCreated::Busy(open) => {
            return Err(ApiError::Conflict(format!(
                "contest {:?} has rejudging {open} open; apply or drop it first",
                req.contest
            )))
        }
        RejudgingCreated::TooMany(n) => {
            return Err(ApiError::Conflict(format!(
                "{n} rejudgings are open (at most {MAX_OPEN}); apply or drop one first"
            )))
        }
        RejudgingCreated::Nothing => {
            return Err(ApiError::Invalid(
                "no judged submission of the contest is in scope: nothing to rejudge".into(),
            ))
        }
    };
    state.wake.notify_waiters();
    state.wake.notify_one();
    view(state, caller, id).await
}

/// `GET /api/rejudgings` (the jury): the newest rejudgings.
pub async fn list(state: &AppState, caller: &Caller) -> ApiResult<Vec<RejudgingSummary>> {
    allow(access::contest_jury(caller), String::new)?;
    Ok(state
        .store
        .rejudgings(LIST_LIMIT)
        .await?
        .into_iter()
        .map(RejudgingSummary::from)
        .collect())
}

/// `GET /api/rejudgings/{id}` (the jury): the rejudging and its preview.
pub async fn view(state: &AppState, caller: &Caller, id: i64) -> ApiResult<RejudgingView> {
    allow(access::contest_jury(caller), String::new)?;
    let r = state
        .store
        .rejudging(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no rejudging {id}")))?;
    let runs = state.store.rejudging_runs(id).await?;
    let changes = runs
        .iter()
        .filter(|r| changed(r))
        .map(|r| RunChange {
            submission: r.submission,
            user: r.user.clone(),
            problem: r.label.clone(),
            old_verdict: r.old_verdict,
            old_score: r.old_score,
            new_verdict: r.new_verdict,
            new_score: r.new_score,
        })
        .collect();
    let board = if r.state == RejudgingState::Open {
        board_changes(state, caller, &r.contest, &runs).await?
    } else {
        Vec::new()
    };
    Ok(RejudgingView {
        rejudging: r.into(),
        changes,
        board,
    })
}

/// Whether a run's new result is in and differs from its submission's stored one.
fn changed(r: &RejudgingRun) -> bool {
    r.judged
        && r.stored_status == Status::Done
        && (r.old_verdict, r.old_score) != (r.new_verdict, r.new_score)
}

/// The board now and with the judged runs' results in place, as the jury sees it (nothing
/// hidden), compared contestant by contestant.
async fn board_changes(
    state: &AppState,
    caller: &Caller,
    contest_id: &str,
    runs: &[RejudgingRun],
) -> ApiResult<Vec<BoardChange>> {
    let Some(c) = state.contests.get(contest_id) else {
        return Ok(Vec::new());
    };
    let c = &*c;
    let data = state.store.board_data(contest_id).await?;
    let mut members = Vec::new();
    for group in &c.groups {
        members.extend(state.store.members(group).await?);
    }
    let shown = contest::shown(
        c,
        state.contests.now(),
        access::contest_audience(caller),
        data.state.unfrozen,
    );
    let new: HashMap<i64, &RejudgingRun> = runs
        .iter()
        .filter(|r| changed(r))
        .map(|r| (r.submission, r))
        .collect();
    let mut after = data.clone();
    for e in &mut after.submissions {
        if let Some(r) = new.get(&e.id) {
            e.verdict = r.new_verdict;
            e.score = r.new_score;
        }
    }
    let max = super::full_scores::max_scores(state, c);
    let before = board::compute(c, &data, &members, shown, &max);
    let after = board::compute(c, &after, &members, shown, &max);
    Ok(diff(&before, &after))
}

/// The contestants whose standing differs between two boards, in the new board's order.
pub fn diff(before: &Scoreboard, after: &Scoreboard) -> Vec<BoardChange> {
    let standing = |r: &contest::board::Row| Standing {
        rank: r.rank,
        solved: r.solved,
        penalty: r.penalty,
        score: r.score,
    };
    let old: HashMap<&str, Standing> = before
        .rows
        .iter()
        .map(|r| (r.user.as_str(), standing(r)))
        .collect();
    after
        .rows
        .iter()
        .filter_map(|r| {
            let now = standing(r);
            let was = old.get(r.user.as_str()).copied()?;
            (was != now).then(|| BoardChange {
                user: r.user.clone(),
                before: was,
                after: now,
            })
        })
        .collect()
}

/// `POST /api/rejudgings/{id}/apply` (the jury): the new results become the submissions'.
/// Refused while runs are still being judged, and once applied or dropped.
pub async fn apply(state: &AppState, caller: &Caller, id: i64) -> ApiResult<RejudgingView> {
    close(state, caller, id, true).await
}

/// `POST /api/rejudgings/{id}/cancel` (the jury): drops the rejudging; nothing changes.
pub async fn cancel(state: &AppState, caller: &Caller, id: i64) -> ApiResult<RejudgingView> {
    close(state, caller, id, false).await
}

async fn close(
    state: &AppState,
    caller: &Caller,
    id: i64,
    apply: bool,
) -> ApiResult<RejudgingView> {
    allow(access::contest_jury(caller), String::new)?;
    let by = match caller {
        Caller::User(who) => who.name.to_string(),
        _ => "host".to_string(),
    };
    let closed = if apply {
        state
            .store
            .apply_rejudging(id, &by, state.contests.now())
            .await?
    } else {
        state.store.cancel_rejudging(id, &by).await?
    };
    match closed {
        Closed::Done { applied, skipped } => {
            tracing::info!(id, apply, applied, skipped, by = %by, "rejudging closed");
        }
        Closed::NotFound => return Err(ApiError::NotFound(format!("no rejudging {id}"))),
        Closed::NotOpen(s) => {
            return Err(ApiError::Conflict(format!(
                "rejudging {id} is {} already",
                s.as_str()
            )))
        }
        Closed::Unfinished(n) => {
            return Err(ApiError::Conflict(format!(
                "rejudging {id} has {n} submissions still to judge; apply it once they are \
                 judged"
            )))
        }
    }
    view(state, caller, id).await
}
