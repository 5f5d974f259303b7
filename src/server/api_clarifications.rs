//! `GET/POST /api/contests/{id}/clarifications` and `POST
//! /api/contests/{id}/clarifications/{clarification}/answer`: contestants ask, admins answer
//! privately or to all and post announcements. Thin over [`super::contests::clarify`].

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use crate::accounts::Caller;
use crate::store::Clarification;

use super::contests::clarify::{self, AnswerRequest, ClarificationId, ClarificationRequest};
use super::contests::find;
use super::error::ApiResult;
use super::openapi::ErrorBody;
use super::state::AppState;

/// The clarifications the caller may read, oldest first: an admin every one; a contestant
/// their own questions and the public ones (announcements, answers to all).
#[utoipa::path(get, path = "/api/contests/{id}/clarifications", operation_id = "list_clarifications", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 200, description = "oldest first", body = Vec<Clarification>),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<Clarification>>> {
    Ok(Json(clarify::list(&state, &caller, &id).await?))
}

/// A contestant's question to the jury (private until answered to all), or an admin's
/// announcement (to all).
#[utoipa::path(post, path = "/api/contests/{id}/clarifications", operation_id = "create_clarification", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    request_body = ClarificationRequest,
    responses(
        (status = 201, description = "stored", body = ClarificationId),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "not_a_participant, no_account", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 413, description = "text too long", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "empty text, unknown problem", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Json<ClarificationRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<ClarificationId>)> {
    super::auth::allow(crate::accounts::access::read_contest(&caller), String::new)?;
    find(&state, &id)?;
    let Json(req) = body?;
    let cid = clarify::post(&state, &caller, &id, req).await?;
    Ok((StatusCode::CREATED, Json(ClarificationId { id: cid })))
}

/// Answers a question, to its asker or to all (admins).
#[utoipa::path(post, path = "/api/contests/{id}/clarifications/{clarification}/answer", operation_id = "answer_clarification", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice"),
           ("clarification" = String, Path, description = "clarification id", example = "1")),
    request_body = AnswerRequest,
    responses(
        (status = 204, description = "answered"),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such contest or clarification", body = ErrorBody),
        (status = 413, description = "text too long", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "empty answer", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn answer(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, clarification)): Path<(String, String)>,
    body: Result<Json<AnswerRequest>, JsonRejection>,
) -> ApiResult<StatusCode> {
    super::auth::allow(crate::accounts::access::contest_jury(&caller), String::new)?;
    find(&state, &id)?;
    let Json(req) = body?;
    clarify::answer(&state, &caller, &id, &clarification, req).await?;
    Ok(StatusCode::NO_CONTENT)
}
