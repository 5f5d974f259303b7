//! A contest as the caller sees it: its times, the caller's clock (phase, started,
//! remaining) and, when the rules allow, its problems; the list; starting a timer.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use crate::accounts::access::{self, ContestFacts};
use crate::accounts::Caller;
use crate::contest::{Contest, Format, Participants, Phase, Timing};
use crate::store::ContestStore;

/// An instant as the contest tables store it (what the pages show, formatted).
pub use crate::store::contests::db_time;

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::{facts, find};

/// A contest in the list: what it is and when it runs.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ContestSummary {
    /// The id (the file's name).
    pub id: String,
    /// Shown to people.
    pub title: String,
    /// icpc, ioi or oi.
    pub format: Format,
    /// fixed, window or open.
    pub timing: &'static str,
    /// Fixed: the start; window: when the window opens (ISO 8601 UTC).
    pub start: Option<String>,
    /// Fixed: the end; window: when the window closes.
    pub end: Option<String>,
    /// Each contestant's time, in seconds (`null` for open timing).
    pub duration_s: Option<i64>,
    /// ICPC: the board freezes for the last this many minutes (0: never).
    pub freeze_minutes: i64,
    /// Anyone with an account may take part (else only the listed users).
    pub open_to_anyone: bool,
    /// The per-user rate, if limited.
    pub rate: Option<RateView>,
    /// How many problems it has.
    pub problem_count: usize,
    /// Anonymous spectators may read the board (`public_board` in the file).
    pub public_board: bool,
}

/// A contest's per-user submission rate.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RateView {
    /// Submissions allowed in any span of `per_minutes`.
    pub submissions: u32,
    /// The span.
    pub per_minutes: i64,
}

/// The caller's own clock in a contest.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CallerClock {
    /// not_started, ready (window timing: may start the timer), running or over.
    pub phase: &'static str,
    /// The contest admits the caller (`participants`).
    pub participant: bool,
    /// The caller's clock has started (a fixed contest that began, a timer started...).
    pub started: bool,
    /// When the caller's clock started (their personal start in window timing).
    pub started_at: Option<String>,
    /// Seconds since the caller's start (`null` when not running or open timing).
    pub elapsed_s: Option<i64>,
    /// Seconds left (`null` when not running or open timing).
    pub remaining_s: Option<i64>,
    /// Seconds until the start (`null` unless not started).
    pub starts_in_s: Option<i64>,
    /// The caller may submit now.
    pub may_submit: bool,
    /// Why not, when the caller may not submit: the message a submission's 403 would carry.
    pub submit_refusal: Option<&'static str>,
    /// Now, on the contest clock.
    pub now: String,
}

/// One problem of a contest, with its limits.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ContestProblemView {
    /// A, B, C...
    pub label: String,
    /// The problem's id.
    pub problem: String,
    /// Its title.
    pub title: String,
    /// CPU time limit per test.
    pub time_limit_ms: u64,
    /// Memory limit per test.
    pub memory_limit_mb: u64,
}

/// `GET /api/contests/{id}`: the contest, the caller's clock and (when shown) its problems.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ContestView {
    /// What it is and when it runs.
    #[serde(flatten)]
    pub summary: ContestSummary,
    /// The caller's clock.
    pub you: CallerClock,
    /// The problems are shown to the caller (else `problems` is empty: before the start).
    pub problems_visible: bool,
    /// The problems in label order.
    pub problems: Vec<ContestProblemView>,
    /// ICPC: an admin has unfrozen the board.
    pub unfrozen: bool,
}

fn secs(d: SignedDuration) -> i64 {
    d.as_secs()
}

fn text(t: Timestamp) -> String {
    crate::store::contests::db_time(t)
}

/// What a contest is and when it runs.
pub fn summary(c: &Contest) -> ContestSummary {
    let (timing, start, end) = match c.timing {
        Timing::Fixed { start, .. } => ("fixed", Some(start), c.timing.end()),
        Timing::Window {
            window_start,
            window_end,
            ..
        } => ("window", Some(window_start), Some(window_end)),
        Timing::Open => ("open", None, None),
    };
    ContestSummary {
        id: c.id.to_string(),
        title: c.title.clone(),
        format: c.format,
        timing,
        start: start.map(text),
        end: end.map(text),
        duration_s: c.timing.duration().map(secs),
        freeze_minutes: c.freeze.as_mins(),
        open_to_anyone: c.participants == Participants::Anyone,
        rate: c.rate.map(|r| RateView {
            submissions: r.submissions,
            per_minutes: r.per.as_mins(),
        }),
        problem_count: c.problems.len(),
        public_board: c.public_board,
    }
}

/// Every contest (anyone: the front page lists them before sign-in).
pub fn list(state: &AppState, caller: &Caller) -> ApiResult<Vec<ContestSummary>> {
    allow(access::list_contests(caller), String::new)?;
    Ok(state.contests.all().iter().map(|c| summary(c)).collect())
}

/// The caller's clock from the facts.
fn clock(
    caller: &Caller,
    facts: ContestFacts,
    start: Option<Timestamp>,
    now: Timestamp,
    c: &Contest,
) -> CallerClock {
    let (phase, elapsed, remaining, starts_in) = match facts.phase {
        Phase::NotStarted { starts_in } => ("not_started", None, None, Some(secs(starts_in))),
        Phase::Ready { .. } => ("ready", None, None, None),
        Phase::Running { elapsed, remaining } => {
            ("running", elapsed.map(secs), remaining.map(secs), None)
        }
        Phase::Over => ("over", None, None, None),
    };
    let own_start = c.timing.contestant_start(start).or(start);
    CallerClock {
        phase,
        participant: facts.admitted,
        started: own_start.is_some_and(|s| s <= now),
        started_at: own_start.map(text),
        elapsed_s: elapsed,
        remaining_s: remaining,
        starts_in_s: starts_in,
        may_submit: matches!(access::contest_submit(caller, facts), Ok(Ok(()))),
        submit_refusal: match access::contest_submit(caller, facts) {
            Ok(Err(why)) => Some(why.message()),
            _ => None,
        },
        now: text(now),
    }
}

/// The contest `id` as `caller` sees it now.
pub async fn get(state: &AppState, caller: &Caller, id: &str) -> ApiResult<ContestView> {
    allow(access::read_contest(caller), String::new)?;
    let c = find(state, id)?;
    let c = &*c;
    let now = state.contests.now();
    let (facts, start) = facts(state, caller, c, now).await?;
    let problems_visible = access::see_contest_problems(caller, facts).is_ok();
    let problems = if problems_visible {
        c.problems
            .iter()
            .filter_map(|p| {
                let pkg = state.problems.get(&p.problem)?;
                Some(ContestProblemView {
                    label: p.label.to_string(),
                    problem: p.problem.clone(),
                    title: pkg.title.clone(),
                    time_limit_ms: pkg.time_limit_ms,
                    memory_limit_mb: pkg.memory_limit_mb,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(ContestView {
        summary: summary(c),
        you: clock(caller, facts, start, now, c),
        problems_visible,
        problems,
        unfrozen: state.store.contest_state(id).await?.unfrozen,
    })
}

/// Starts the caller's clock (window timing: the personal timer; otherwise it registers the
/// caller as a participant). Starting again changes nothing. Returns the contest as the
/// caller now sees it.
pub async fn start(state: &AppState, caller: &Caller, id: &str) -> ApiResult<ContestView> {
    let c = find(state, id)?;
    let c = &*c;
    let now = state.contests.now();
    let (facts, _) = facts(state, caller, c, now).await?;
    access::contest_start(caller, facts)
        .map_err(|d| crate::server::auth::refusal(d, String::new))?
        .map_err(ApiError::Contest)?;
    if let Some(user) = caller.user_id() {
        let (started, fresh) = state.store.start_participation(id, user, now).await?;
        if fresh {
            tracing::info!(contest = id, user, started = %started, "contest clock started");
        }
    }
    get(state, caller, id).await
}

/// The package of the problem `label` of contest `id`, if the caller may see it.
pub async fn problem(
    state: &AppState,
    caller: &Caller,
    id: &str,
    label: &str,
) -> ApiResult<std::sync::Arc<crate::problem::Problem>> {
    allow(access::read_contest(caller), String::new)?;
    let c = find(state, id)?;
    let c = &*c;
    let now = state.contests.now();
    let (facts, _) = facts(state, caller, c, now).await?;
    access::see_contest_problems(caller, facts).map_err(ApiError::Contest)?;
    let missing = || ApiError::NotFound(format!("contest {id:?} has no problem {label:?}"));
    let p = c.problem(label).ok_or_else(missing)?;
    state.problems.get(&p.problem).ok_or_else(missing)
}
