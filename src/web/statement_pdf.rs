//! `GET /problems/{id}/statement.pdf`: the PDF a Kattis package ships beside its LaTeX
//! statement (this judge does not typeset LaTeX; the statement page links here), under the
//! same visibility rule as the problem's page.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::server::contests::hiding::problem_visible;
use crate::server::AppState;

use super::page::{Visitor, WebError, WebResult};

/// Largest PDF served (a statement is a few hundred KiB).
const MAX_PDF_BYTES: u64 = 32 << 20;

/// The statement PDF of problem `id`, or 404.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult<Response> {
    let missing = || WebError::not_found(&nav, format!("no statement PDF for {id:?}"));
    let pdf = state
        .problems
        .get(&id)
        .filter(|p| problem_visible(&state, &caller, &p.id))
        .and_then(|p| p.kattis.as_ref().and_then(|k| k.statement_pdf.clone()))
        .ok_or_else(missing)?;
    let size = tokio::fs::metadata(&pdf)
        .await
        .map(|m| m.len())
        .unwrap_or(u64::MAX);
    if size > MAX_PDF_BYTES {
        return Err(missing());
    }
    let bytes = tokio::fs::read(&pdf).await.map_err(|_| missing())?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/pdf")],
        bytes,
    )
        .into_response())
}
