//! `GET /api/contests/{id}/scoreboard`: JSON for everyone signed in (what the format shows
//! the caller's audience), CSV (`?format=csv`) for admins. Thin over
//! [`super::services::contests::board`].

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::accounts::{access, Caller};
use crate::contest::Audience;

use super::conditional::{self, Representations};
use super::error::ApiResult;
use super::error::ErrorBody;
use super::services::contests::board::{self, BoardView};
use super::state::AppState;

/// The scoreboard's formats.
#[derive(Debug, Clone, Copy, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BoardFormat {
    /// The board as JSON.
    #[default]
    Json,
    /// The board as CSV (admins).
    Csv,
}

/// Query of the scoreboard.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// json (default) or csv (admins only).
    #[param(inline)]
    pub format: Option<BoardFormat>,
}

/// The contest's scoreboard as the caller's audience sees it: icpc frozen for the last
/// `freeze_minutes` (pending cells) until an admin unfreezes it, oi results hidden until the
/// end; admins see the whole board. The JSON is gzip-compressed when `Accept-Encoding`
/// allows it (compressed once per board version, not per request) and carries a weak `ETag`:
/// `If-None-Match` with the current one answers 304 without a body.
#[utoipa::path(get, path = "/api/contests/{id}/scoreboard", operation_id = "get_scoreboard", tag = "contests",
    params(("id" = String, Path, description = "contest id", example = "practice"), BoardQuery),
    responses(
        (status = 200, description = "the board (gzip when accepted; `ETag`)", content(
            (BoardView = "application/json"),
            (String = "text/csv"))),
        (status = 304, description = "JSON: `If-None-Match` names the current board"),
        (status = 400, description = "bad query", body = ErrorBody),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "CSV: admins only", body = ErrorBody),
        (status = 404, description = "no such contest", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query?;
    match q.format.unwrap_or_default() {
        BoardFormat::Json => {
            let b = board::scoreboard(&state, &caller, &id).await?;
            let mut r = conditional::respond(
                &headers,
                Representations {
                    identity: &b.json,
                    gzip: &b.gzip,
                    etag: &b.etag,
                    content_type: "application/json",
                },
            );
            // The jury's board shows what a freeze hides: kept by no cache, the browser's
            // included (the public board is `private, no-cache`, revalidated by its ETag).
            if access::contest_audience(&caller) == Audience::Admin {
                r.headers_mut()
                    .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            }
            Ok(r)
        }
        BoardFormat::Csv => {
            let text = board::csv(&state, &caller, &id).await?;
            Ok(([(CONTENT_TYPE, "text/csv; charset=utf-8")], text).into_response())
        }
    }
}
