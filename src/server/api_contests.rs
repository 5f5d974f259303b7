//! `GET /api/contests[/{id}]`, `POST /api/contests/{id}/start`, `POST
//! /api/contests/{id}/submissions`, `GET /api/contests/{id}/problems/{label}`, and the
//! jury's `POST /api/contests/{id}/unfreeze` (and `/freeze` to take it back) and `POST /api/contests/{id}/rejudge`. Thin:
//! the rules are in [`super::services::contests`] and [`crate::accounts::access`].

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::accounts::Caller;
use crate::store::{RejudgeCount, Status};

use super::api_problems::{detail, ProblemDetail};
use super::api_submissions::Accepted;
use super::error::ApiResult;
use super::error::ErrorBody;
use super::services::contests::submit::ContestSubmitRequest;
use super::services::contests::view::{ContestSummary, ContestView};
use super::services::contests::{board, submit, view};
use super::state::AppState;

/// Every contest.
#[utoipa::path(get, path = "/api/contests", operation_id = "list_contests", tag = "contests",
    responses(
        (status = 200, description = "every contest", body = Vec<ContestSummary>),
        (status = 401, description = "sign in first", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Vec<ContestSummary>>> {
    Ok(Json(view::list(&state, &caller)?))
}

/// One contest with the caller's clock (phase, started, remaining) and, once shown, its
/// problems.
#[utoipa::path(get, path = "/api/contests/{id}", operation_id = "get_contest", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 200, description = "the contest as the caller sees it", body = ContestView),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ContestView>> {
    Ok(Json(view::get(&state, &caller, &id).await?))
}

/// Starts the caller's clock: window timing's personal timer (once: starting again changes
/// nothing); in other timings it registers the caller.
#[utoipa::path(post, path = "/api/contests/{id}/start", operation_id = "start_contest", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 200, description = "started: the contest as the caller now sees it", body = ContestView),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "not_started, contest_over, time_over, not_a_participant, no_account", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ContestView>> {
    Ok(Json(view::start(&state, &caller, &id).await?))
}

/// Submits to a contest (the problem by its label or its id); stored as `queued` before the
/// answer. The jury (admins) may submit at any time: judged, never on the board.
#[utoipa::path(post, path = "/api/contests/{id}/submissions", operation_id = "create_contest_submission", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    request_body = ContestSubmitRequest,
    responses(
        (status = 202, description = "stored and queued", body = Accepted),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "refused by the contest's rules; the code says why: not_started, timer_not_started, time_over, contest_over, not_a_participant, no_account; in_contest: another contest the caller takes part in holds the problem (`error.contest` names it)", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 413, description = "source or body too large", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "unknown problem or language, empty source", body = ErrorBody),
        (status = 429, description = "rate_limited: over the contest's rate; too_many_queued: the caller has `[server] max_queued_per_user` submissions waiting; see Retry-After", body = ErrorBody,
         headers(("Retry-After" = u64, description = "seconds"))),
        (status = 503, description = "the queue is full; see Retry-After", body = ErrorBody,
         headers(("Retry-After" = u64, description = "seconds"))),
    ),
    security((), ("bearer" = [])))]
pub async fn submit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Json<ContestSubmitRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    // An unknown contest is a 404 whatever the body.
    super::services::contests::find(&state, &id)?;
    let Json(req) = body?;
    let sid = submit::submit(&state, &caller, &id, req).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            id: sid,
            status: Status::Queued,
        }),
    ))
}

/// A contest problem's statement and samples, once the caller may see the contest's
/// problems.
#[utoipa::path(get, path = "/api/contests/{id}/problems/{label}", operation_id = "get_contest_problem", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice"),
           ("label" = String, Path, description = "the problem's label or id", example = "A")),
    responses(
        (status = 200, description = "the problem", body = ProblemDetail),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "problems_hidden: shown when the caller's time starts", body = ErrorBody),
        (status = 404, description = "no such contest or problem", body = ErrorBody),
        (status = 500, description = "a sample could not be read", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn problem(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, label)): Path<(String, String)>,
) -> ApiResult<Json<ProblemDetail>> {
    let p = view::problem(&state, &caller, &id, &label).await?;
    Ok(Json(detail(&p).await?))
}

/// Unfreezes the (icpc) board: everyone sees every result (admins). Only once the freeze has
/// begun: before it, an unfreeze would cancel the freeze to come (409 with the reason).
#[utoipa::path(post, path = "/api/contests/{id}/unfreeze", operation_id = "unfreeze_contest", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 200, description = "unfrozen", body = Unfrozen),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 409, description = "the freeze has not begun (the message says when it does), or the contest never freezes", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn unfreeze(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Unfrozen>> {
    board::unfreeze(&state, &caller, &id).await?;
    Ok(Json(Unfrozen { unfrozen: true }))
}

/// Freezes the (icpc) board again after an unfreeze: contestants see submissions from the
/// freeze on as pending again (admins).
#[utoipa::path(post, path = "/api/contests/{id}/freeze", operation_id = "freeze_contest", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 200, description = "frozen again (`unfrozen`: false)", body = Unfrozen),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn freeze(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Unfrozen>> {
    board::freeze(&state, &caller, &id).await?;
    Ok(Json(Unfrozen { unfrozen: false }))
}

/// The answer to an unfreeze or a freeze: whether the board is now unfrozen.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Unfrozen {
    /// The board is unfrozen (true after an unfreeze, false after a freeze).
    pub unfrozen: bool,
}

/// The body of a contest-wide rejudge.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RejudgeRequest {
    /// The problem: its label (`A`) or its id.
    #[schema(example = "A")]
    pub problem: String,
}

/// Judges again every judged submission to one problem of the contest (admins).
#[utoipa::path(post, path = "/api/contests/{id}/rejudge", operation_id = "rejudge_contest_problem", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    request_body = RejudgeRequest,
    responses(
        (status = 202, description = "queued again", body = RejudgeCount),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "no such problem in the contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Json<RejudgeRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<RejudgeCount>)> {
    super::auth::allow(crate::accounts::access::contest_jury(&caller), String::new)?;
    super::services::contests::find(&state, &id)?;
    let Json(req) = body?;
    let count = board::rejudge(&state, &caller, &id, &req.problem).await?;
    Ok((StatusCode::ACCEPTED, Json(count)))
}
