//! The jury's balloon list: every contestant's first solve of each problem of a contest (icpc:
//! an AC; ioi and oi: a score reaching the problem's full score, the board's rule,
//! [`super::full_scores`]), in the order they were solved, the first solve of each problem
//! marked, and the "delivered" mark the jury stores ([`BalloonStore`]). The jury sees every AC, the freeze included (a runner
//! brings balloons during the freeze as peers do; the public board stays frozen).

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;

use crate::accounts::{access, Caller};
use crate::contest::Format;
use crate::judge::Verdict;
use crate::store::{BalloonStore, ContestStore, Status};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::find;
use super::full_scores::max_scores;

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
    let c = find(state, id)?;
    // Scored formats: each label's full score solves it (as on the board).
    let full: HashMap<String, i64> = if c.format == Format::Icpc {
        HashMap::new()
    } else {
        let labels = c.problems.iter().map(|p| p.label.to_string());
        labels.zip(max_scores(state, &c)).collect()
    };
    let data = state.store.board_data(id).await?;
    let delivered: HashSet<(String, String)> =
        state.store.delivered(id).await?.into_iter().collect();
    let mut accepted: Vec<_> = data
        .submissions
        .iter()
        .filter(|e| {
            e.status == Status::Done
                && match full.get(&e.label) {
                    Some(max) => e.verdict.is_some() && e.score.is_some_and(|s| s >= *max),
                    None => e.verdict == Some(Verdict::AC),
                }
        })
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
