//! A problem held by a contest is not submitted around it: while a fixed or window contest
//! that admits the caller is live, its problems are refused on the plain route and through
//! every other contest, and an open contest the caller takes part in refuses its problems on
//! the plain route (403 `in_contest`, naming the contest). The rule is
//! [`access::submit_outside`]; this gathers its facts (the contest files, the clock, the
//! caller's participations) and is called by every route that stores a submission: `POST
//! /api/submissions` and the `/problems/{id}` form ([`crate::server::services::submissions::enqueue`]),
//! `POST /api/contests/{id}/submissions` and the contest problem form ([`super::submit`]).
//! Custom runs (`POST /api/runs`) name no problem and never see its data (the sandbox mounts
//! no problems folder), so they are not held.

use crate::accounts::access::{self, ContestHold};
use crate::accounts::Caller;
use crate::contest::Timing;
use crate::store::ContestStore;

use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::ended;

/// `Err(in_contest)` when a contest other than `target` holds `problem` for `caller` now.
pub async fn check(
    state: &AppState,
    caller: &Caller,
    problem: &str,
    target: Option<&str>,
) -> ApiResult<()> {
    let Caller::User(user) = caller else {
        return Ok(());
    };
    if access::contest_jury(caller) == crate::accounts::Decision::Allow {
        return Ok(());
    }
    let now = state.contests.now();
    let mut holds = Vec::new();
    let all = state.contests.all();
    for c in all.iter() {
        if !c.problems.iter().any(|p| p.problem == problem) {
            continue;
        }
        let id = c.id.as_str();
        let admitted = super::admits(state, c, user).await?;
        let timed = !matches!(c.timing, Timing::Open);
        let live = c.timing.opens().is_some_and(|o| now >= o) && !ended(c, now);
        // Only an open contest asks whether the caller takes part (a read of the store), and
        // only for the plain route.
        let registered = !timed
            && admitted
            && target.is_none()
            && state.store.participation(id, user.id).await?.is_some();
        holds.push(ContestHold {
            contest: id,
            timed,
            admitted,
            registered,
            live,
        });
    }
    access::submit_outside(caller, target, &holds).map_err(|contest| ApiError::InContest {
        problem: problem.to_string(),
        contest: contest.to_string(),
    })
}
