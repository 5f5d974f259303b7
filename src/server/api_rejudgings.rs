//! The jury's rejudgings, run aside before they change anything: `POST /api/rejudgings`
//! (start one), `GET /api/rejudgings[/{id}]` (the list; one with its preview), `POST
//! /api/rejudgings/{id}/apply` and `/cancel`. Thin: the rules are in
//! [`super::services::contests::rejudgings`].

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use crate::accounts::Caller;

use super::error::{ApiError, ApiResult, ErrorBody};
use super::services::contests::rejudgings::{
    self, NewRejudgingRequest, RejudgingSummary, RejudgingView,
};
use super::state::AppState;

/// A rejudging id from the path (a 404 for anything that is not one).
fn id_of(id: &str) -> ApiResult<i64> {
    id.parse()
        .map_err(|_| ApiError::NotFound(format!("no rejudging {id:?}")))
}

/// Starts a rejudging of a contest's judged submissions (one problem's, or chosen ones):
/// they are judged again aside; nothing changes until it is applied.
#[utoipa::path(post, path = "/api/rejudgings", operation_id = "create_rejudging", tag = "rejudgings",
    request_body = NewRejudgingRequest,
    responses(
        (status = 202, description = "started; its runs are being judged", body = RejudgingView),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "the jury only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 409, description = "the contest has a rejudging open, or too many are open", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "no such problem, a bad list, or nothing in scope", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: Result<Json<NewRejudgingRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<RejudgingView>)> {
    super::auth::allow(crate::accounts::access::contest_jury(&caller), String::new)?;
    let Json(req) = body?;
    let view = rejudgings::create(&state, &caller, &req).await?;
    Ok((StatusCode::ACCEPTED, Json(view)))
}

/// The newest rejudgings (100), newest first.
#[utoipa::path(get, path = "/api/rejudgings", operation_id = "list_rejudgings", tag = "rejudgings",
    responses(
        (status = 200, description = "the rejudgings", body = Vec<RejudgingSummary>),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "the jury only", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Vec<RejudgingSummary>>> {
    Ok(Json(rejudgings::list(&state, &caller).await?))
}

/// One rejudging, its progress and its preview: every judged submission whose result
/// changes (old and new verdict and score) and every contestant whose standing changes.
#[utoipa::path(get, path = "/api/rejudgings/{id}", operation_id = "get_rejudging", tag = "rejudgings",
    params(("id" = i64, Path, description = "rejudging id")),
    responses(
        (status = 200, description = "the rejudging and its preview", body = RejudgingView),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "the jury only", body = ErrorBody),
        (status = 404, description = "no such rejudging", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RejudgingView>> {
    super::auth::allow(crate::accounts::access::contest_jury(&caller), String::new)?;
    Ok(Json(rejudgings::view(&state, &caller, id_of(&id)?).await?))
}

/// Applies a rejudging whose submissions are all judged: the new results become theirs.
#[utoipa::path(post, path = "/api/rejudgings/{id}/apply", operation_id = "apply_rejudging", tag = "rejudgings",
    params(("id" = i64, Path, description = "rejudging id")),
    responses(
        (status = 200, description = "applied", body = RejudgingView),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "the jury only", body = ErrorBody),
        (status = 404, description = "no such rejudging", body = ErrorBody),
        (status = 409, description = "still judging, or applied or dropped already", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn apply(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RejudgingView>> {
    super::auth::allow(crate::accounts::access::contest_jury(&caller), String::new)?;
    Ok(Json(rejudgings::apply(&state, &caller, id_of(&id)?).await?))
}

/// Drops a rejudging: nothing changes.
#[utoipa::path(post, path = "/api/rejudgings/{id}/cancel", operation_id = "cancel_rejudging", tag = "rejudgings",
    params(("id" = i64, Path, description = "rejudging id")),
    responses(
        (status = 200, description = "dropped", body = RejudgingView),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "the jury only", body = ErrorBody),
        (status = 404, description = "no such rejudging", body = ErrorBody),
        (status = 409, description = "applied or dropped already", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RejudgingView>> {
    super::auth::allow(crate::accounts::access::contest_jury(&caller), String::new)?;
    Ok(Json(
        rejudgings::cancel(&state, &caller, id_of(&id)?).await?,
    ))
}
