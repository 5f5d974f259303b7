//! A submission to a contest: the contest's rules first (403 with the reason), then the
//! problem (its label or its id), the language and the source, the contest's languages
//! (403 `language_not_allowed`), then the rate and the queue's
//! bound, checked in the store's transaction (429 with `Retry-After`, 503).

use serde::Deserialize;

use crate::accounts::access;
use crate::accounts::Caller;
use crate::store::{ContestEnqueue, ContestStore, NewContestSubmission, NewSubmission};

use crate::server::auth::refusal;
use crate::server::error::{ApiError, ApiResult};
use crate::server::services::submissions::{check_language_and_source, own_queue_full, queue_full};
use crate::server::state::AppState;

use super::{facts, find};

/// The body of `POST /api/contests/{id}/submissions`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContestSubmitRequest {
    /// The problem: its label in the contest (`A`) or its id (`sudoku`).
    #[schema(example = "A")]
    pub problem: String,
    /// Language id.
    #[schema(example = "python")]
    pub language: String,
    /// The source text.
    #[schema(example = "print(input())")]
    pub source: String,
}

/// Stores a submission to contest `id` as `queued`, owned by the caller; returns its id.
pub async fn submit(
    state: &AppState,
    caller: &Caller,
    id: &str,
    req: ContestSubmitRequest,
) -> ApiResult<i64> {
    let c = find(state, id)?;
    let c = &*c;
    let now = state.contests.now();
    let (facts, _) = facts(state, caller, c, now).await?;
    access::contest_submit(caller, facts)
        .map_err(|d| refusal(d, String::new))?
        .map_err(ApiError::Contest)?;
    let problem = c
        .problem(&req.problem)
        .ok_or_else(|| ApiError::UnknownProblem(req.problem.clone()))?;
    super::outside::check(state, caller, &problem.problem, Some(id)).await?;
    let language = check_language_and_source(state, &req.language, &req.source)?;
    crate::contest::languages::check(c, &language, state.language_table.aliases_of(&language))?;
    let jury = access::contest_audience(caller) == crate::contest::Audience::Admin;
    let new = NewContestSubmission {
        submission: NewSubmission {
            data_hash: state
                .problems
                .get(&problem.problem)
                .map(|p| p.data_hash.to_hex()),
            problem: problem.problem.clone(),
            language,
            source: req.source,
            owner: caller.user_id(),
        },
        contest: id.to_string(),
        label: problem.label.to_string(),
        at: now,
        rate: if jury { None } else { c.rate },
        max_queued: state.max_queued,
        max_per_user: state.per_user_bound(caller),
        register: !jury,
    };
    match state.store.enqueue_contest(new).await? {
        ContestEnqueue::Stored(sid) => {
            state.wake.notify_one();
            Ok(sid)
        }
        ContestEnqueue::QueueFull => Err(queue_full(state.max_queued)),
        ContestEnqueue::OwnerFull => Err(own_queue_full(state.per_user_bound(caller).unwrap_or(0))),
        ContestEnqueue::RateLimited(wait) => {
            let rate = c.rate.map_or((0, 0), |r| (r.submissions, r.per.as_mins()));
            Err(ApiError::RateLimited {
                retry_after_secs: (u64::try_from(wait.as_secs()).unwrap_or(0)
                    + u64::from(wait.subsec_nanos() > 0))
                .max(1),
                message: format!(
                    "this contest allows {} submissions in any {} minutes",
                    rate.0, rate.1
                ),
            })
        }
    }
}
