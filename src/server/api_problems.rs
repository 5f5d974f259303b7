//! `GET /api/problems` and `GET /api/problems/{id}`.

use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;

use crate::accounts::Caller;
use crate::problem::Problem;

use super::error::{ApiError, ApiResult};
use super::services::contests::hiding::problem_visible;
use super::state::AppState;

/// A problem in the list: its limits.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProblemSummary {
    /// Problem id.
    pub id: String,
    /// Human title.
    pub title: String,
    /// CPU time limit per test.
    pub time_limit_ms: u64,
    /// Memory limit per test.
    pub memory_limit_mb: u64,
    /// Output limit per test.
    pub output_limit_mb: u64,
    /// The output validator: a built-in checker kind (`sudoku`, `target-sudoku`,
    /// `binary-sudoku`) or the package's own.
    pub checker: String,
    /// Number of tests.
    pub tests: usize,
    /// The file the test is also given as in the program's folder (NOIP's, USACO's), when
    /// the package names one; the test always comes on stdin too.
    pub input_file: Option<String>,
    /// The file the answer is read from when the program writes it, else stdout.
    pub output_file: Option<String>,
}

/// One sample test, shown with the statement.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Sample {
    /// Test name.
    pub name: String,
    /// The input.
    pub input: String,
    /// The reference answer.
    pub answer: String,
}

/// A problem with its statement and samples.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProblemDetail {
    /// Id, title, limits.
    #[serde(flatten)]
    pub summary: ProblemSummary,
    /// The statement in Markdown.
    pub statement: String,
    /// The sample tests.
    pub samples: Vec<Sample>,
}

pub(crate) fn summary(p: &Problem) -> ProblemSummary {
    ProblemSummary {
        id: p.id.clone(),
        title: p.title.clone(),
        time_limit_ms: p.time_limit_ms,
        memory_limit_mb: p.memory_limit_mb,
        output_limit_mb: p.output_limit_mb,
        checker: p.validator.name().to_string(),
        tests: p.tests.len(),
        input_file: p.file_io.input.clone(),
        output_file: p.file_io.output.clone(),
    }
}

/// Every problem with its limits (public), but those whose every contest has not opened
/// yet (admins see them all).
#[utoipa::path(get, path = "/api/problems", operation_id = "list_problems", tag = "problems",
    responses((status = 200, description = "every problem", body = Vec<ProblemSummary>)))]
pub async fn list(State(state): State<AppState>, caller: Caller) -> Json<Vec<ProblemSummary>> {
    Json(
        state
            .problems
            .values()
            .iter()
            .filter(|p| problem_visible(&state, &caller, &p.id))
            .map(|p| summary(p))
            .collect(),
    )
}

/// One problem with statement and samples (public, unless every contest listing it has not
/// opened yet: then a 404 like a missing one, but for admins).
#[utoipa::path(get, path = "/api/problems/{id}", operation_id = "get_problem", tag = "problems",
    params(("id" = String, Path, description = "problem id", example = "sudoku")),
    responses(
        (status = 200, description = "the problem", body = ProblemDetail),
        (status = 404, description = "no such problem", body = super::error::ErrorBody),
        (status = 500, description = "a sample could not be read", body = super::error::ErrorBody),
    ))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ProblemDetail>> {
    let p = state
        .problems
        .get(&id)
        .filter(|p| problem_visible(&state, &caller, &p.id))
        .ok_or_else(|| ApiError::NotFound(format!("no problem {id:?}")))?;
    Ok(Json(detail(&p).await?))
}

/// A problem with its statement and samples (also a contest's problem, by its label).
pub(crate) async fn detail(p: &Problem) -> ApiResult<ProblemDetail> {
    let mut samples = Vec::new();
    for t in p.tests.iter().filter(|t| t.name.starts_with("sample/")) {
        samples.push(Sample {
            name: t.name.clone(),
            input: read_text(&t.input).await?,
            answer: read_text(&t.answer).await?,
        });
    }
    Ok(ProblemDetail {
        summary: summary(p),
        statement: p.statement.clone(),
        samples,
    })
}

/// Reads a sample file; a failure is logged with its path and answered without it (no host
/// path in an API message).
async fn read_text(path: &std::path::Path) -> ApiResult<String> {
    tokio::fs::read(path)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| {
            tracing::error!(path = %path.display(), error = %e, "cannot read a sample");
            ApiError::Internal(
                "a sample of this problem cannot be read; the host's log says why".into(),
            )
        })
}
