//! `POST /api/problems`: an admin adds a package (a zip) to the running judge.

use axum::extract::{Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;

use crate::accounts::Caller;
use crate::server::services::packages;

use super::api_problems::{summary, ProblemSummary};
use super::error::{ApiError, ApiResult, ErrorBody};
use super::state::AppState;

/// The upload's query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct UploadQuery {
    /// The problem id; default: the name of the zip's one top folder.
    pub id: Option<String>,
}

/// Adds the package in the body (a zip of a `problem.toml` or Kattis package, at its root or
/// in one top folder) as a new problem, served at once on this node and, within `[problems]
/// rescan_ms`, on every node of the database. It is checked first as `serve` checks its
/// packages (the data checks of `verify`, the input validators, the output validator on
/// the answers); a package that fails is refused (422) naming the file at fault, and
/// nothing of it is kept. A served id is never replaced (409).
#[utoipa::path(post, path = "/api/problems", operation_id = "upload_problem", tag = "problems",
    params(UploadQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "the package zip (sent as application/zip or application/octet-stream)"),
    responses(
        (status = 201, description = "the problem, served from now on", body = ProblemSummary),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 409, description = "that problem id exists", body = ErrorBody),
        (status = 413, description = "larger than [problems] max_upload_kib", body = ErrorBody),
        (status = 415, description = "not a zip body", body = ErrorBody),
        (status = 422, description = "the zip or the package is refused; the message says which file and why", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn upload(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<UploadQuery>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Json<ProblemSummary>)> {
    let content_type = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/zip")
        .to_ascii_lowercase();
    let zip_like = [
        "application/zip",
        "application/x-zip-compressed",
        "application/octet-stream",
    ]
    .iter()
    .any(|t| content_type.starts_with(t));
    if !zip_like {
        return Err(ApiError::UnsupportedMediaType(format!(
            "send the package zip as the body with Content-Type: application/zip, not {content_type}"
        )));
    }
    let problem = packages::upload(&state, &caller, body.to_vec(), query.id).await?;
    Ok((StatusCode::CREATED, Json(summary(&problem))))
}
