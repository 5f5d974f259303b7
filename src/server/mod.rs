//! The axum HTTP API of the design notes, and the daemon that runs it with the workers.
//!
//! - [`error`]: [`ApiError`], each variant a status code, sent as `{"error":{"code","message"}}`.
//! - [`state`]: [`AppState`], what handlers share.
//! - `api_*`: one file per resource (health, problems, submissions, runs, login/logout/me).
//! - [`auth`]: finds the caller of each request; the rules are in [`crate::accounts::access`].
//! - [`feedback`]: hides what a caller's view does not show of secret tests.
//! - [`openapi`]: the OpenAPI document, served at `/api/openapi.json`.
//! - [`daemon`]: starts the store, the workers and the listener; stops them cleanly.

pub mod api_auth;
pub mod api_health;
pub mod api_problems;
pub mod api_runs;
pub mod api_submissions;
pub mod auth;
pub mod daemon;
pub mod error;
pub mod feedback;
pub mod openapi;
pub mod state;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;

pub use daemon::{Daemon, DaemonError};
pub use error::ApiError;
pub use state::AppState;

/// Room for JSON escaping (a source of quotes and backslashes doubles in size) and the fields.
const BODY_SLACK_BYTES: usize = 64 * 1024;

/// Every route of the API: the router is built from this list, and a test checks that each
/// path and method in it is in the OpenAPI document.
fn routes() -> Vec<(&'static str, MethodRouter<AppState>)> {
    vec![
        ("/api/health", get(api_health::get)),
        ("/api/problems", get(api_problems::list)),
        ("/api/problems/{id}", get(api_problems::get)),
        (
            "/api/submissions",
            post(api_submissions::create).get(api_submissions::list),
        ),
        ("/api/submissions/{id}", get(api_submissions::get)),
        (
            "/api/submissions/{id}/rejudge",
            post(api_submissions::rejudge),
        ),
        ("/api/runs", post(api_runs::create)),
        ("/api/login", post(api_auth::login)),
        ("/api/logout", post(api_auth::logout)),
        ("/api/me", get(api_auth::me)),
        ("/api/openapi.json", get(openapi::get)),
    ]
}

/// The paths the router serves (axum cannot list them), for the OpenAPI coverage test.
pub fn route_paths() -> Vec<&'static str> {
    routes().into_iter().map(|(path, _)| path).collect()
}

/// The API's routes over `state`.
pub fn router(state: AppState) -> Router {
    let body_limit = 2 * (state.max_source_bytes + state.max_stdin_bytes) + BODY_SLACK_BYTES;
    routes()
        .into_iter()
        .fold(Router::new(), |r, (path, method)| r.route(path, method))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::identify,
        ))
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
