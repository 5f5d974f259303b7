//! The axum HTTP API of the design notes, and the daemon that runs it with the workers.
//!
//! - [`error`]: [`ApiError`], each variant a status code, sent as `{"error":{"code","message"}}`.
//! - [`state`]: [`AppState`], what handlers share.
//! - `api_*`: one file per resource (health, problems, submissions, runs).
//! - [`daemon`]: starts the store, the workers and the listener; stops them cleanly.

pub mod api_health;
pub mod api_problems;
pub mod api_runs;
pub mod api_submissions;
pub mod daemon;
pub mod error;
pub mod state;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

pub use daemon::{Daemon, DaemonError};
pub use error::ApiError;
pub use state::AppState;

/// Room for JSON escaping (a source of quotes and backslashes doubles in size) and the fields.
const BODY_SLACK_BYTES: usize = 64 * 1024;

/// The API's routes over `state`.
pub fn router(state: AppState) -> Router {
    let body_limit = 2 * (state.max_source_bytes + state.max_stdin_bytes) + BODY_SLACK_BYTES;
    Router::new()
        .route("/api/health", get(api_health::get))
        .route("/api/problems", get(api_problems::list))
        .route("/api/problems/{id}", get(api_problems::get))
        .route(
            "/api/submissions",
            post(api_submissions::create).get(api_submissions::list),
        )
        .route("/api/submissions/{id}", get(api_submissions::get))
        .route(
            "/api/submissions/{id}/rejudge",
            post(api_submissions::rejudge),
        )
        .route("/api/runs", post(api_runs::create))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            reject_declared_oversize(body_limit, req, next)
        }))
        .with_state(state)
}

/// Refuses a body whose declared length is over the limit before reading any of it.
async fn reject_declared_oversize(limit: usize, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match declared {
        Some(len) if len > limit as u64 => ApiError::TooLarge(format!(
            "request body of {len} bytes; the limit is {limit} bytes"
        ))
        .into_response(),
        _ => next.run(req).await,
    }
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("no route {}", uri.path()))
}
