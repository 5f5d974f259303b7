//! `POST /api/runs`: custom invocation with the `[run]` limits.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

use serde::Deserialize;

use crate::accounts::Caller;
use crate::judge::RunResult;

use super::error::{ApiError, ApiResult};
use super::services::submissions::check_language_and_source;
use super::state::AppState;

/// The body of `POST /api/runs`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RunRequestBody {
    /// Language id.
    #[schema(example = "python")]
    pub language: String,
    /// The source text.
    #[schema(example = "print(6 * 7)")]
    pub source: String,
    /// Standard input (empty when absent).
    #[serde(default)]
    pub stdin: String,
}

/// Seconds a refused custom run is told to wait (`Retry-After`): about one run's length.
const RUN_RETRY_AFTER_S: u64 = 5;

/// Middleware on `POST /api/runs`, before its body is read: a run that finds the line full
/// (`slots x (1 + waiting_per_slot)` running or waiting) gets 503 with `Retry-After` instead
/// of being held with its stdin in memory; its body is discarded so the client reads the 503.
pub async fn line_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if state.runner.is_none() {
        return next.run(req).await;
    }
    let Ok(_place) = Arc::clone(&state.run_line).try_acquire_owned() else {
        super::body::discard(req.into_body(), state.body_timeout).await;
        return ApiError::Busy {
            message: format!(
                "{} custom runs are running or waiting; try again later",
                state.run_line_size
            ),
            retry_after_s: RUN_RETRY_AFTER_S,
        }
        .into_response();
    };
    next.run(req).await
}

/// Compiles and runs a source once on the given stdin; needs a user (or the open mode) and
/// counts against the user's run rate.
#[utoipa::path(post, path = "/api/runs", operation_id = "create_run", tag = "runs",
    request_body = RunRequestBody,
    responses(
        (status = 200, description = "the run's result", body = RunResult),
        (status = 400, description = "malformed JSON", body = super::error::ErrorBody),
        (status = 401, description = "sign in first", body = super::error::ErrorBody),
        (status = 413, description = "source, stdin or body too large", body = super::error::ErrorBody),
        (status = 415, description = "not JSON", body = super::error::ErrorBody),
        (status = 422, description = "unknown language, empty source", body = super::error::ErrorBody),
        (status = 503, description = "every run slot and waiting place is taken; see Retry-After",
         body = super::error::ErrorBody, headers(("Retry-After" = u64, description = "seconds"))),
        (status = 429, description = "the user's run rate is used up; see Retry-After",
         body = super::error::ErrorBody, headers(("Retry-After" = u64, description = "seconds"))),
        (status = 500, description = "the judge failed", body = super::error::ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: Result<Json<RunRequestBody>, JsonRejection>,
) -> ApiResult<Json<RunResult>> {
    super::auth::admit_run(&state, &caller)?;
    let Json(req) = body?;
    check_language_and_source(&state, &req.language, &req.source)?;
    if req.stdin.len() > state.max_stdin_bytes {
        return Err(ApiError::TooLarge(format!(
            "stdin is {} bytes; the limit is {} KiB",
            req.stdin.len(),
            state.max_stdin_bytes / 1024
        )));
    }
    let runner = state
        .runner
        .clone()
        .ok_or_else(|| ApiError::Internal("this server runs no custom invocations".into()))?;
    let permit = state
        .run_permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Internal("the run pool is closed".into()))?;
    // The permit goes with the run: a request cancelled by its timeout must not free the slot
    // while its run still uses it.
    let result = tokio::task::spawn_blocking(move || {
        let result = runner.run(&req.language, req.source.as_bytes(), req.stdin.as_bytes());
        drop(permit);
        result
    })
    .await
    .map_err(|e| ApiError::Internal(format!("run task failed: {e}")))?;
    if let Some(cause) = &result.message {
        tracing::error!(cause = %cause, "custom run failed: system error");
    }
    let view = crate::accounts::access::feedback(&caller, state.feedback);
    Ok(Json(super::feedback::redact_run(view, result)))
}
