//! `POST /api/submissions`, `GET /api/submissions[/{id}]`, `POST /api/submissions/{id}/rejudge`.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::accounts::{access, Caller};
use crate::server::services::submissions::{self, Status, Submission};

pub use crate::server::services::submissions::{enqueue, requeue};

use super::auth::{allow, refusal};
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
    let id = submissions::enqueue(&state, &caller, req.problem, req.language, req.source).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            id,
            status: Status::Queued,
        }),
    ))
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
    Ok(Json(submissions::read(&state, &caller, &id).await?))
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
    let problem = q.problem.as_deref().filter(|p| !p.is_empty());
    Ok(Json(
        submissions::list(&state, &caller, scope, problem, limit, q.before).await?,
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
    let n = submissions::rejudge(&state, &caller, &id).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            id: n,
            status: Status::Queued,
        }),
    ))
}
