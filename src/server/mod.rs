//! The axum HTTP API of the design notes, and the daemon that runs it with the workers.
//!
//! - [`error`]: [`ApiError`], each variant a status code, sent as `{"error":{"code","message"}}`.
//! - [`state`]: [`AppState`], what handlers share.
//! - `api_*`: one file per resource (health, problems, languages, submissions, runs,
//!   login/logout/me, contests (and `api_contest_defs`: made and edited at runtime),
//!   scoreboard, clarifications, rejudgings, users, nodes), thin over the services.
//! - [`services`]: what the API and the web pages share, the only code of theirs that reads
//!   or writes the store: submissions, login, users, the queue, and the contest services
//!   (a contest as the caller sees it, submitting, the board, clarifications, what contests
//!   hide), also at their old path [`contests`].
//! - [`clics`]: the ICPC Contest API (CLICS 2023-06) under `/clics/`, read-only.
//! - [`auth`]: finds the caller of each request; the rules are in [`crate::accounts::access`].
//! - [`auth_settings`]: the accounts settings and the login and run rate limits ([`auth::Auth`]).
//! - [`session`]: the web pages' session cookie and CSRF tokens, checked on every
//!   state-changing request that needs one.
//! - [`feedback`]: what a caller's view shows of secret tests ([`Feedback`]).
//! - [`upload_gate`]: a package upload's large body read only for an admin, one at a time.
//! - [`body`]: request bodies read whole, bounded in size and time; refused ones discarded.
//! - [`conditional`]: a body computed once sent gzip-compressed when accepted, 304 on its `ETag`.
//! - [`listener`]: the accept loop: connection cap, header and write timeouts.
//! - [`api_metrics`]: `GET /metrics` in Prometheus text, and the HTTP request counter.
//! - [`openapi`]: the OpenAPI document, served at `/api/openapi.json`.
//! - [`daemon`]: starts the store, the workers and the listener; stops them cleanly.

pub mod api_auth;
pub mod api_clarifications;
pub mod api_contest_defs;
pub mod api_contests;
pub mod api_health;
pub mod api_languages;
pub mod api_metrics;
pub mod api_nodes;
pub mod api_packages;
pub mod api_problems;
pub mod api_rejudgings;
pub mod api_runs;
pub mod api_scoreboard;
pub mod api_submissions;
pub mod api_users;
pub mod auth;
pub mod auth_settings;
pub mod body;
pub mod clics;
pub mod conditional;
pub mod daemon;
pub mod error;
pub mod feedback;
pub mod listener;
pub mod openapi;
pub mod services;
pub mod session;
pub mod state;
pub mod upload_gate;

use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;

pub use daemon::{Daemon, DaemonError};
pub use error::ApiError;
pub use feedback::Feedback;
pub use services::contests;
pub use state::AppState;

/// Room for JSON escaping (a source of quotes and backslashes doubles in size) and the fields.
const BODY_SLACK_BYTES: usize = 64 * 1024;

/// Every route of the API: the router is built from this list, and a test checks that each
/// path and method in it is in the OpenAPI document.
fn routes() -> Vec<(&'static str, MethodRouter<AppState>)> {
    vec![
        ("/api/health", get(api_health::get)),
        (
            "/api/problems",
            get(api_problems::list).post(api_packages::upload),
        ),
        ("/api/languages", get(api_languages::list)),
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
        (
            "/api/contests",
            get(api_contests::list).post(api_contest_defs::create),
        ),
        (
            "/api/contests/{id}",
            get(api_contests::get)
                .patch(api_contest_defs::edit)
                .delete(api_contest_defs::delete),
        ),
        (
            "/api/contests/{id}/definition",
            get(api_contest_defs::definition),
        ),
        ("/api/contests/{id}/start", post(api_contests::start)),
        ("/api/contests/{id}/submissions", post(api_contests::submit)),
        (
            "/api/contests/{id}/problems/{label}",
            get(api_contests::problem),
        ),
        ("/api/contests/{id}/scoreboard", get(api_scoreboard::get)),
        ("/api/contests/{id}/unfreeze", post(api_contests::unfreeze)),
        ("/api/contests/{id}/freeze", post(api_contests::freeze)),
        ("/api/contests/{id}/rejudge", post(api_contests::rejudge)),
        (
            "/api/contests/{id}/clarifications",
            get(api_clarifications::list).post(api_clarifications::create),
        ),
        (
            "/api/contests/{id}/clarifications/{clarification}/answer",
            post(api_clarifications::answer),
        ),
        (
            "/api/rejudgings",
            post(api_rejudgings::create).get(api_rejudgings::list),
        ),
        ("/api/rejudgings/{id}", get(api_rejudgings::get)),
        ("/api/rejudgings/{id}/apply", post(api_rejudgings::apply)),
        ("/api/rejudgings/{id}/cancel", post(api_rejudgings::cancel)),
        ("/api/users/{name}/cancel", post(api_users::cancel)),
        ("/api/nodes", get(api_nodes::list)),
        ("/api/openapi.json", get(openapi::get)),
        ("/metrics", get(api_metrics::get)),
    ]
}

/// The paths the router serves (axum cannot list them), for the OpenAPI coverage test.
pub fn route_paths() -> Vec<&'static str> {
    routes().into_iter().map(|(path, _)| path).collect()
}

/// The API's routes over `state`.
///
/// Around the routes, outermost first: the HTTP request counter (so every answer is counted,
/// refusals included); the request timeout; the custom-run line (a full line answers 503
/// before the body is read); the body reader (whole body, bounded in size and time, a
/// refused body discarded so the client reads the refusal).
pub fn router(state: AppState) -> Router {
    app(state, Router::new())
}

/// The API's routes and `pages` (the web pages, which the binary hands in: the server knows
/// nothing of them) behind the same layers: request counter, request timeout, custom-run
/// line, body reader, caller, CSRF guard.
pub fn app(state: AppState, pages: Router<AppState>) -> Router {
    let body_limits = body::BodyLimits {
        max_bytes: 2 * state.max_source_bytes + BODY_SLACK_BYTES,
        max_run_bytes: 2 * (state.max_source_bytes + state.max_stdin_bytes) + BODY_SLACK_BYTES,
        max_upload_bytes: state.max_upload_bytes + BODY_SLACK_BYTES,
        timeout: state.body_timeout,
    };
    let request_timeout = state.request_timeout;
    let cookies = state.cookies;
    routes()
        .into_iter()
        .fold(Router::new(), |r, (path, method)| r.route(path, method))
        .merge(clics::router())
        .merge(pages)
        .fallback(not_found)
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            session::guard(cookies, req, next)
        }))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::identify,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            current_contests,
        ))
        .layer(DefaultBodyLimit::max(
            body_limits.max_run_bytes.max(body_limits.max_upload_bytes),
        ))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            body::read_whole(body_limits, req, next)
        }))
        .layer(middleware::from_fn_with_state(state.clone(), run_line))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            upload_gate::gate,
        ))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            time_limit(request_timeout, req, next)
        }))
        // Outermost, so the refusals of the layers above (408, 413, 503) are counted with
        // their status too. `Router::layer` wraps each route and the fallback, so the matched
        // route pattern is still known here; an unknown path counts as `unmatched`.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            api_metrics::count_requests,
        ))
        .layer(middleware::from_fn(no_store_by_default))
        .with_state(state)
}

/// `Cache-Control: no-store` on every answer whose handler did not choose its own caching:
/// nearly every page and API answer depends on who asks (a submission's source, the admin
/// page showing a new user's password once, a contestant's own list), and one kept in a
/// browser's or a proxy's cache outlives the session that asked for it. The handlers that
/// choose are the static assets (`public, max-age=3600`) and the scoreboard's public board
/// (`private, no-cache`, revalidated by its `ETag`); the jury's board is `no-store` too.
async fn no_store_by_default(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    response
        .headers_mut()
        .entry(CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The custom-run line applies to `POST /api/runs` alone; it sits outside the body reader so
/// a refused run's stdin is never held in memory.
async fn run_line(state: axum::extract::State<AppState>, req: Request, next: Next) -> Response {
    if req.method() == Method::POST && req.uri().path() == "/api/runs" {
        api_runs::line_gate(state, req, next).await
    } else {
        next.run(req).await
    }
}

/// Brings this node's contests up to date before a request that may read one (a contest
/// made or edited through another node is served from the next request on); a failed read
/// is logged and the request served with the contests as they were.
async fn current_contests(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    if contests::catalog::reads_contests(req.uri().path()) {
        if let Err(e) = contests::catalog::sync(&state).await {
            tracing::warn!(error = %e, "cannot read the database's contests; serving the last read");
        }
    }
    next.run(req).await
}

/// Answers 503 `timeout` when a request takes longer than `limit`.
async fn time_limit(limit: Duration, req: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(format!(
            "the request took longer than {} ms",
            limit.as_millis()
        ))
        .into_response(),
    }
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("no route {}", uri.path()))
}
