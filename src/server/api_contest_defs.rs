//! The jury's contests made and edited while the judge runs: `POST /api/contests`,
//! `PATCH /api/contests/{id}`, `GET /api/contests/{id}/definition`,
//! `DELETE /api/contests/{id}`. Thin: the rules are in [`super::services::contests::defs`]
//! and [`super::services::contests::removal`], which the admin page calls too.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use crate::accounts::Caller;
use crate::contest::definition::ContestDefinition;

use super::error::{ApiResult, ErrorBody};
use super::services::contests::defs::{self, DefinitionView};
use super::services::contests::removal;
use super::state::AppState;

/// Makes a contest (admins): stored in the database, served by every node from the next
/// request on. Every field at fault is listed (`error.fields`).
#[utoipa::path(post, path = "/api/contests", operation_id = "create_contest", tag = "contests",
    request_body = ContestDefinition,
    responses(
        (status = 201, description = "made", body = DefinitionView),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 409, description = "id_taken: a contest (a file's or the database's) has this id; conflict: the database holds its most contests", body = ErrorBody),
        (status = 413, description = "body too large", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "invalid_contest: every field at fault in `error.fields`", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<DefinitionView>)> {
    let Json(body) = body?;
    let definition = defs::from_json(body)?;
    let made = defs::create(&state, &caller, definition).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Edits a contest made at runtime (admins): the keys given replace the current ones
/// (`timing` key by key; `null` clears an optional key). Refused: a contest file's (the file
/// wins), a change that would rewrite history (the reason per field), fields at fault.
#[utoipa::path(patch, path = "/api/contests/{id}", operation_id = "edit_contest", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    request_body = ContestDefinition,
    responses(
        (status = 200, description = "edited", body = DefinitionView),
        (status = 400, description = "malformed JSON", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 409, description = "file_contest: read from a file, which wins; rewrites_history: the change would rewrite what happened (`error.fields` says why); conflict: edited meanwhile", body = ErrorBody),
        (status = 413, description = "body too large", body = ErrorBody),
        (status = 415, description = "not JSON", body = ErrorBody),
        (status = 422, description = "invalid_contest: every field at fault in `error.fields`", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn edit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> ApiResult<Json<DefinitionView>> {
    let Json(body) = body?;
    let current = defs::definition(&state, &caller, &id)?;
    let definition = defs::patched(&current.definition, body)?;
    Ok(Json(defs::update(&state, &caller, &id, definition).await?))
}

/// A contest's definition (admins), with its origin: a file's (not editable here) or the
/// database's (with its revision).
#[utoipa::path(get, path = "/api/contests/{id}/definition", operation_id = "get_contest_definition", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 200, description = "the definition", body = DefinitionView),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn definition(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<DefinitionView>> {
    Ok(Json(defs::definition(&state, &caller, &id)?))
}

/// Deletes a contest made at runtime that has no submission yet (admins): a mistake fixed
/// before anyone used it. Its registrations, clarifications, balloon marks and rejudgings go
/// with it; every node stops serving it from the next request on.
#[utoipa::path(delete, path = "/api/contests/{id}", operation_id = "delete_contest", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice")),
    responses(
        (status = 204, description = "deleted"),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only; or a contest file's contest (the file wins: remove the file)", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
        (status = 409, description = "conflict: it has submissions (it keeps them; end it sooner instead)", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    removal::delete(&state, &caller, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
