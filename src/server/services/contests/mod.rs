//! Contests as the daemon serves them: the services the JSON API (`api_contests.rs`,
//! `api_scoreboard.rs`, `api_clarifications.rs`) and the web pages share. Each service takes
//! the [`AppState`] and the [`Caller`], asks [`crate::accounts::access`] what the caller may
//! do, reads or writes the [`crate::store::ContestStore`] and hands back plain values, so a
//! page calls the same function as the API and no rule is written twice.
//!
//! - [`view`]: a contest as the caller sees it (their clock: phase, started, remaining),
//!   the list, starting a timer, a contest problem's statement.
//! - [`submit`]: a submission to a contest, with its refusals (403 reasons, 429 rate).
//! - [`balloons`]: the jury's balloon list (first ACs) and its "delivered" marks.
//! - [`board`]: the scoreboard for the caller's audience (cached by the data's version),
//!   CSV, unfreeze, the contest-wide rejudge.
//! - [`defs`]: contests made and edited at runtime (the admin page, `POST /api/contests`,
//!   `PATCH /api/contests/{id}`), checked, refused when an edit would rewrite history.
//! - [`removal`]: deleting a contest made at runtime nobody used yet
//!   (`DELETE /api/contests/{id}`).
//! - [`catalog`]: keeping the node's contests current: the database's read again when their
//!   version moves (checked per request), the files when they change on disk (polled).
//! - [`clarify`]: questions, answers and announcements.
//! - [`notices`]: what a contest page's live banner announces (answers; the jury's new
//!   questions) since the page was made.
//! - [`hiding`]: problems hidden before their contests open, `oi` results hidden until the
//!   end, applied to the plain problem and submission endpoints too.
//! - [`outside`]: a problem a contest holds for the caller refused outside it (`in_contest`),
//!   on every route that stores a submission.
//! - [`rejudgings`]: rejudgings run aside, their preview (old and new results, the board
//!   before and after), applied or dropped by the jury.
//! - [`front`]: every contest running, upcoming or past with its clock, for the front page.
//! - [`file_clock`]: the clock read from a file (`[contests] clock_file`), for tests.
//! - [`state_reads`]: a contest's version read once for the requests arriving meanwhile.
//! - [`loaded`]: the contests the daemon loaded, their clock and cached boards ([`Contests`],
//!   which the state holds; it knows no state).
//! - [`board_cache`]: the boards computed once per data version.
//! - [`full_scores`]: each contest problem's full score (what solved means on a scored
//!   board; the Contest API's `max_score`).

pub mod balloons;
pub mod board;
pub mod board_cache;
pub mod catalog;
pub mod clarify;
pub mod defs;
pub mod file_clock;
pub mod front;
pub mod full_scores;
pub mod hiding;
pub mod loaded;
pub mod notices;
pub mod outside;
pub mod rejudgings;
pub mod removal;
pub mod state_reads;
pub mod submit;
pub mod view;

use jiff::Timestamp;

use crate::accounts::access::ContestFacts;
use crate::accounts::{Caller, Identity};
use crate::contest::{Contest, Timing};
use crate::store::{ContestStore, GroupStore};

use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

pub use loaded::Contests;

/// The contest `id`, or 404 (`id` need not be a valid contest id: it is only looked up).
pub fn find(state: &AppState, id: &str) -> ApiResult<std::sync::Arc<Contest>> {
    state
        .contests
        .get(id)
        .ok_or_else(|| ApiError::NotFound(format!("no contest {id:?}")))
}

/// Where `caller` stands in `contest` at `now`: the facts the access rules read, and the
/// caller's own start (a participant's; `None` otherwise).
pub async fn facts(
    state: &AppState,
    caller: &Caller,
    contest: &Contest,
    now: Timestamp,
) -> ApiResult<(ContestFacts, Option<Timestamp>)> {
    let (admitted, start) = match caller {
        Caller::User(u) => (
            admits(state, contest, u).await?,
            state.store.participation(contest.id.as_str(), u.id).await?,
        ),
        Caller::Open | Caller::Anonymous => (false, None),
    };
    Ok((
        ContestFacts {
            admitted,
            phase: contest.timing.phase(now, start),
            ended: ended(contest, now),
        },
        start,
    ))
}

/// Whether user `u` takes part in `contest`: listed by name, or a member of a roster group
/// the contest lists (the user's group is read only then).
pub async fn admits(state: &AppState, contest: &Contest, u: &Identity) -> ApiResult<bool> {
    if contest.participants.admits(u.name.as_str()) {
        return Ok(true);
    }
    if contest.groups.is_empty() {
        return Ok(false);
    }
    let group = state.store.group_of(u.id).await?;
    Ok(contest.admits(u.name.as_str(), group.as_deref()))
}

/// Whether `contest` is over for everyone at `now` (never, for open timing).
pub fn ended(contest: &Contest, now: Timestamp) -> bool {
    contest.timing.end().is_some_and(|end| now >= end)
}

/// Whether `contest` shows its problems to everyone at `now`: open timing always, fixed
/// timing from the start, window timing after the window (during it, only to contestants who
/// started their timer, through the contest's own routes).
pub fn problems_public(contest: &Contest, now: Timestamp) -> bool {
    match contest.timing {
        Timing::Open => true,
        Timing::Fixed { start, .. } => now >= start,
        Timing::Window { window_end, .. } => now >= window_end,
    }
}
