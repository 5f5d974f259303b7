//! The jury's balloon list: every contestant's first AC on each problem of a contest, in the
//! order they were solved, the first solve of each problem marked, and the "delivered" mark
//! the jury stores ([`BalloonStore`]). The jury sees every AC, the freeze included (a runner
//! brings balloons during the freeze as peers do; the public board stays frozen).

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;

use crate::accounts::{access, Caller};
use crate::judge::Verdict;
use crate::store::{BalloonStore, ContestStore, Status};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::find;

/// One balloon: a contestant's first AC on a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balloon {
    /// The accepted submission.
    pub submission: i64,
    /// The contestant's name.
    pub user: String,
    /// The problem's label.
    pub label: String,
    /// When, on the contest clock.
    pub at: Timestamp,
    /// The first AC of this problem in the contest (all of them if several share the
    /// earliest instant).
    pub first: bool,
    /// The jury marked it delivered.
    pub delivered: bool,
}

/// The balloons of contest `id`, oldest first (the jury).
pub async fn list(state: &AppState, caller: &Caller, id: &str) -> ApiResult<Vec<Balloon>> {
    allow(access::contest_jury(caller), String::new)?;
    find(state, id)?;
    let data = state.store.board_data(id).await?;
    let delivered: HashSet<(String, String)> =
        state.store.delivered(id).await?.into_iter().collect();
    let mut accepted: Vec<_> = data
        .submissions
        .iter()
        .filter(|e| e.status == Status::Done && e.verdict == Some(Verdict::AC))
        .collect();
    accepted.sort_by_key(|e| (e.at, e.id));
    let mut seen = HashSet::new();
    let mut earliest: HashMap<&str, Timestamp> = HashMap::new();
    let mut balloons = Vec::new();
    for e in accepted {
        if !seen.insert((e.user.as_str(), e.label.as_str())) {
            continue;
        }
        let first = *earliest.entry(e.label.as_str()).or_insert(e.at) == e.at;
        balloons.push(Balloon {
            submission: e.id,
            user: e.user.clone(),
            label: e.label.clone(),
            at: e.at,
            first,
            delivered: delivered.contains(&(e.user.clone(), e.label.clone())),
        });
    }
    Ok(balloons)
}

/// Marks (or unmarks) the balloon of `user` for `label` in contest `id` delivered (the
/// jury). A balloon that is not on the list (no AC yet, an unknown user or label) is 404.
pub async fn mark(
    state: &AppState,
    caller: &Caller,
    id: &str,
    user: &str,
    label: &str,
    delivered: bool,
) -> ApiResult<()> {
    let missing = || ApiError::NotFound(format!("no balloon of {user:?} for {label:?}"));
    let on_list = list(state, caller, id)
        .await?
        .iter()
        .any(|b| b.user == user && b.label == label);
    if !on_list
        || !state
            .store
            .set_delivered(id, user, label, delivered)
            .await?
    {
        return Err(missing());
    }
    tracing::info!(contest = id, user, label, delivered, "balloon marked");
    Ok(())
}
