//! `GET/POST /api/contests/{id}/clarifications` and `POST
//! /api/contests/{id}/clarifications/{clarification}/answer`: contestants ask, admins answer
//! privately or to all and post announcements. Thin over [`super::services::contests::clarify`].

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;

use crate::accounts::Caller;
use crate::store::Clarification;

use super::error::ApiResult;
use super::error::ErrorBody;
use super::services::contests::clarify::{
    self, AnswerRequest, ClarificationId, ClarificationQuery, ClarificationRequest,
};
use super::services::contests::find;
use super::state::AppState;

/// The clarifications the caller may read, oldest first, by pages (`after` the last id of
/// the previous page): an admin every one; a contestant their own questions and the public
/// ones (announcements, answers to all).
#[utoipa::path(get, path = "/api/contests/{id}/clarifications", operation_id = "list_clarifications", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice"), ClarificationQuery),
    responses(
        (status = 200, description = "oldest first, at most `limit`", body = Vec<Clarification>),
        (status = 400, description = "bad query", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    query: Result<Query<ClarificationQuery>, QueryRejection>,
) -> ApiResult<Json<Vec<Clarification>>> {
    let Query(q) = query?;
    let page = clarify::api_page(&q)?;
    Ok(Json(clarify::list(&state, &caller, &id, page).await?))
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
        (status = 413, description = "body too large", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "empty text; too_long: a question over `[contests] max_question_chars` characters (an announcement over 4000); unknown problem; a problem named before the caller may see the problems (the same answer for real and made-up ones)", body = ErrorBody),
        (status = 429, description = "over the question rate (`[contests] question_rate`); see Retry-After", body = ErrorBody,
         headers(("Retry-After" = u64, description = "seconds"))),
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
        (status = 413, description = "body too large", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "empty answer; too_long: over 4000 characters", body = ErrorBody),
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
