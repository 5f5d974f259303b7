//! `POST /api/submissions`, `GET /api/submissions[/{id}]`, `POST /api/submissions/{id}/rejudge`.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::accounts::{access, Caller};
use crate::store::{
    AccountStore, Enqueued, NewSubmission, Queue, QueueBounds, RejudgeOutcome, Status, Submission,
};

use super::auth::{allow, refusal};
use super::contests::hiding::{problem_visible, shown};
use super::error::ErrorBody;
use super::error::{ApiError, ApiResult};
use super::state::AppState;

/// The body of `POST /api/submissions`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    /// Problem id.
    #[schema(example = "sudoku")]
    pub problem: String,
    /// Language id.
    #[schema(example = "python")]
    pub language: String,
    /// The source text.
    #[schema(example = "print(input())")]
    pub source: String,
}

/// The answer to a submit or rejudge: where the submission stands.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Accepted {
    /// Submission id.
    pub id: i64,
    /// Its status (queued after a submit).
    pub status: Status,
}

/// Checks the language and the source size; shared with `POST /api/runs`. Returns the id
/// the source is compiled as (an alias such as `cpp` gives its entry's id, `cpp17`), which
/// is what a submission records.
pub(crate) fn check_language_and_source(
    state: &AppState,
    language: &str,
    source: &str,
) -> ApiResult<String> {
    let Some(entry) = state.language_table.get(language) else {
        return Err(ApiError::UnknownLanguage(
            language.to_string(),
            state.language_table.known_ids().join(", "),
        ));
    };
    if source.len() > state.max_source_bytes {
        return Err(ApiError::TooLarge(format!(
            "source is {} bytes; the limit is {} KiB",
            source.len(),
            state.max_source_bytes / 1024
        )));
    }
    if crate::languages::is_blank(source.as_bytes()) {
        return Err(ApiError::Invalid(crate::languages::EMPTY_SOURCE.into()));
    }
    Ok(entry.id.clone())
}

/// Seconds a submission refused by a full queue is told to wait (`Retry-After`).
const QUEUE_RETRY_AFTER_S: u64 = 30;

/// Stores a submission as `queued` (durably, before answering), owned by the caller, and
/// wakes a worker; 503 with `Retry-After` when `[server] max_queued` submissions are already
/// waiting.
#[utoipa::path(post, path = "/api/submissions", operation_id = "create_submission", tag = "submissions",
    request_body = SubmitRequest,
    responses(
        (status = 202, description = "stored and queued", body = Accepted),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "in_contest: a contest the caller takes part in holds the problem until it ends (`error.contest` names it)", body = ErrorBody),
        (status = 413, description = "source or body too large", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "unknown problem or language, empty source", body = ErrorBody),
        (status = 429, description = "too_many_queued: the caller has `[server] max_queued_per_user` submissions waiting; see Retry-After", body = ErrorBody,
         headers(("Retry-After" = u64, description = "seconds"))),
        (status = 503, description = "the queue is full (for plain submissions: all but the contest reserve); see Retry-After", body = ErrorBody,
         headers(("Retry-After" = u64, description = "seconds"))),
    ),
    security((), ("bearer" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: Result<Json<SubmitRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    allow(access::submit(&caller), String::new)?;
    let Json(req) = body?;
    let id = enqueue(&state, &caller, req.problem, req.language, req.source).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            id,
            status: Status::Queued,
        }),
    ))
}

/// Checks and stores a submission of a caller allowed to submit, and wakes a worker: the API
/// and the web pages' submit form share it. 503 `busy` when `[server] max_queued` wait.
pub async fn enqueue(
    state: &AppState,
    caller: &Caller,
    problem: String,
    language: String,
    source: String,
) -> ApiResult<i64> {
    if !state.problems.contains_key(&problem) || !problem_visible(state, caller, &problem) {
        return Err(ApiError::UnknownProblem(problem));
    }
    super::contests::outside::check(state, caller, &problem, None).await?;
    let language = check_language_and_source(state, &language, &source)?;
    let new = NewSubmission {
        data_hash: state.problems.get(&problem).map(|p| p.data_hash.to_hex()),
        problem,
        language,
        source,
        owner: caller.user_id(),
    };
    let bounds = QueueBounds {
        max_queued: state.plain_max_queued(),
        per_user: state.per_user_bound(caller),
    };
    match state.store.enqueue_bounded(new, bounds).await? {
        Enqueued::Stored(id) => {
            state.wake.notify_one();
            Ok(id)
        }
        Enqueued::QueueFull => Err(queue_full(bounds.max_queued)),
        Enqueued::OwnerFull => Err(own_queue_full(bounds.per_user.unwrap_or(0))),
    }
}

/// The 503 of a full queue (`max_queued` waiting), with `Retry-After`.
pub(crate) fn queue_full(max_queued: u64) -> ApiError {
    ApiError::Busy {
        message: format!("{max_queued} submissions are waiting to be judged; try again later"),
        retry_after_s: QUEUE_RETRY_AFTER_S,
    }
}

/// The 429 of a caller with `per_user` submissions waiting already, with `Retry-After`.
pub(crate) fn own_queue_full(per_user: u64) -> ApiError {
    ApiError::OwnQueueFull {
        message: format!(
            "you have {per_user} submissions waiting to be judged, the most one user may; \
             submit again when some are judged"
        ),
        retry_after_s: QUEUE_RETRY_AFTER_S,
    }
}

fn no_submission(id: &str) -> String {
    format!("no submission {id}")
}

/// One submission with its results, if the caller may read it (another's is a 404, exactly
/// like a missing one). Secret tests show what [`access::feedback`] allows.
#[utoipa::path(get, path = "/api/submissions/{id}", operation_id = "get_submission", tag = "submissions",
    params(("id" = String, Path, description = "submission id", example = "1")),
    responses(
        (status = 200, description = "the submission with its source and results", body = Submission),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 404, description = "no such submission (or not the caller's)", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Submission>> {
    let found = match id.parse::<i64>() {
        Ok(n) => state.store.get(n).await?,
        Err(_) => None,
    };
    let Some(submission) = found else {
        allow(access::read_submission(&caller, None), || {
            no_submission(&id)
        })?;
        return Err(ApiError::NotFound(no_submission(&id)));
    };
    allow(access::read_submission(&caller, submission.owner), || {
        no_submission(&id)
    })?;
    let view = access::feedback(&caller, state.feedback);
    Ok(Json(shown(&state, &caller, view, submission)))
}

/// Query of the submission list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this problem.
    pub problem: Option<String>,
    /// At most this many (default 50, at most 500).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// Only ids below this one (the next page).
    pub before: Option<i64>,
}

/// Submissions newest first: everyone's for an admin, a contestant's own for a contestant.
#[utoipa::path(get, path = "/api/submissions", operation_id = "list_submissions", tag = "submissions",
    params(ListQuery),
    responses(
        (status = 200, description = "newest first, without sources or test results", body = Vec<Submission>),
        (status = 400, description = "bad query", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<Json<Vec<Submission>>> {
    let scope = access::list_submissions(&caller).map_err(|d| refusal(d, String::new))?;
    let Query(q) = query?;
    let limit = q.limit.unwrap_or(50);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::BadQuery(format!(
            "limit must be 1 to 500, not {limit}"
        )));
    }
    let rows = state
        .store
        .list_scoped(
            scope,
            q.problem.as_deref().filter(|p| !p.is_empty()),
            limit,
            q.before,
        )
        .await?;
    let view = access::feedback(&caller, state.feedback);
    Ok(Json(
        rows.into_iter()
            .map(|s| shown(&state, &caller, view, s))
            .collect(),
    ))
}

/// Puts a finished submission back in the queue (hosts only).
#[utoipa::path(post, path = "/api/submissions/{id}/rejudge", operation_id = "rejudge_submission", tag = "submissions",
    params(("id" = String, Path, description = "submission id", example = "1")),
    responses(
        (status = 202, description = "queued again", body = Accepted),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "a contestant's own submission: only an admin rejudges", body = ErrorBody),
        (status = 404, description = "no such submission (or not the caller's)", body = ErrorBody),
        (status = 409, description = "being judged right now, or cancelled (final)", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    let owner = match id.parse::<i64>() {
        Ok(n) => state.store.submission_owner(n).await?.map(|o| (n, o)),
        Err(_) => None,
    };
    let Some((n, owner)) = owner else {
        allow(access::rejudge(&caller, None), || no_submission(&id))?;
        return Err(ApiError::NotFound(no_submission(&id)));
    };
    allow(access::rejudge(&caller, owner), || no_submission(&id))?;
    requeue(&state, n).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            id: n,
            status: Status::Queued,
        }),
    ))
}

/// Queues a submission again (the caller's right already checked) and wakes a worker; 409
/// while it is being judged. The API and the web pages share it.
pub async fn requeue(state: &AppState, n: i64) -> ApiResult<()> {
    match state.store.rejudge(n).await? {
        RejudgeOutcome::Requeued | RejudgeOutcome::AlreadyQueued => {
            state.wake.notify_one();
            Ok(())
        }
        RejudgeOutcome::InProgress => Err(ApiError::Conflict(format!(
            "submission {n} is being judged right now; rejudge it when it is done"
        ))),
        RejudgeOutcome::Cancelled => Err(ApiError::Conflict(format!(
            "submission {n} was cancelled: a cancelled submission is final and never judged"
        ))),
        RejudgeOutcome::NotFound => Err(ApiError::NotFound(format!("no submission {n}"))),
    }
}
