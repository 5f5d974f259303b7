//! `POST /api/submissions`, `GET /api/submissions[/{id}]`, `POST /api/submissions/{id}/rejudge`.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::store::{NewSubmission, Queue, RejudgeOutcome, Status, Submission};

use super::error::{ApiError, ApiResult};
use super::feedback::redact;
use super::state::AppState;

/// The body of `POST /api/submissions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    /// Problem id.
    pub problem: String,
    /// Language id.
    pub language: String,
    /// The source text.
    pub source: String,
}

/// The answer to a submit or rejudge: where the submission stands.
#[derive(Debug, Serialize, Deserialize)]
pub struct Accepted {
    /// Submission id.
    pub id: i64,
    /// Its status (queued after a submit).
    pub status: Status,
}

/// Checks the language and the source size; shared with `POST /api/runs`.
pub(crate) fn check_language_and_source(
    state: &AppState,
    language: &str,
    source: &str,
) -> ApiResult<()> {
    if !state.languages.contains(language) {
        let known: Vec<&str> = state.languages.iter().map(String::as_str).collect();
        return Err(ApiError::UnknownLanguage(
            language.to_string(),
            known.join(", "),
        ));
    }
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
    Ok(())
}

/// Seconds a submission refused by a full queue is told to wait (`Retry-After`).
const QUEUE_RETRY_AFTER_S: u64 = 30;

/// Stores a submission as `queued` (durably, before answering) and wakes a worker; 503 with
/// `Retry-After` when `[server] max_queued` submissions are already waiting.
pub async fn create(
    State(state): State<AppState>,
    body: Result<Json<SubmitRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    let Json(req) = body?;
    if !state.problems.contains_key(&req.problem) {
        return Err(ApiError::UnknownProblem(req.problem));
    }
    check_language_and_source(&state, &req.language, &req.source)?;
    let new = NewSubmission {
        problem: req.problem,
        language: req.language,
        source: req.source,
    };
    let Some(id) = state.store.enqueue_bounded(new, state.max_queued).await? else {
        return Err(ApiError::Busy {
            message: format!(
                "{} submissions are waiting to be judged; try again later",
                state.max_queued
            ),
            retry_after_s: QUEUE_RETRY_AFTER_S,
        });
    };
    state.wake.notify_one();
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            id,
            status: Status::Queued,
        }),
    ))
}

fn parse_id(id: &str) -> ApiResult<i64> {
    id.parse::<i64>()
        .map_err(|_| ApiError::NotFound(format!("no submission {id:?}")))
}

/// One submission with its results.
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Submission>> {
    let n = parse_id(&id)?;
    state
        .store
        .get(n)
        .await?
        .map(|s| Json(redact(state.feedback, s)))
        .ok_or_else(|| ApiError::NotFound(format!("no submission {n}")))
}

/// Query of the submission list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only this problem.
    pub problem: Option<String>,
    /// At most this many (default 50, at most 500).
    pub limit: Option<u32>,
    /// Only ids below this one (the next page).
    pub before: Option<i64>,
}

/// Submissions newest first.
pub async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<Json<Vec<Submission>>> {
    let Query(q) = query?;
    let limit = q.limit.unwrap_or(50);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::BadQuery(format!(
            "limit must be 1 to 500, not {limit}"
        )));
    }
    let rows = state
        .store
        .list(
            q.problem.as_deref().filter(|p| !p.is_empty()),
            limit,
            q.before,
        )
        .await?;
    Ok(Json(
        rows.into_iter()
            .map(|s| redact(state.feedback, s))
            .collect(),
    ))
}

/// Puts a finished submission back in the queue.
pub async fn rejudge(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    let n = parse_id(&id)?;
    match state.store.rejudge(n).await? {
        RejudgeOutcome::Requeued | RejudgeOutcome::AlreadyQueued => {
            state.wake.notify_one();
            Ok((
                StatusCode::ACCEPTED,
                Json(Accepted {
                    id: n,
                    status: Status::Queued,
                }),
            ))
        }
        RejudgeOutcome::InProgress => Err(ApiError::Conflict(format!(
            "submission {n} is being judged right now; rejudge it when it is done"
        ))),
        RejudgeOutcome::NotFound => Err(ApiError::NotFound(format!("no submission {n}"))),
    }
}
