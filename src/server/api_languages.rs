//! `GET /api/languages`: the languages this judge compiles, with the compiler each runs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use crate::languages::Language;

use super::error::{ApiError, ApiResult};
use super::state::AppState;

/// One language a submission may name.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LanguageInfo {
    /// The id a submission records (`cpp98`, `cpp17`, `c99`, `python`...).
    #[schema(example = "cpp98")]
    pub id: String,
    /// Display name, with the standard.
    #[schema(example = "C++98 (g++, GNU C++98)")]
    pub name: String,
    /// Other ids naming it (`cpp` names `cpp17`).
    pub aliases: Vec<String>,
    /// File extensions that select it when no language is named.
    pub extensions: Vec<String>,
    /// The compiler (or interpreter) program on this host.
    pub compiler: Option<String>,
    /// The first line of its `--version` on this host; `null` when it does not run.
    #[schema(example = "g++ (Debian 12.2.0-14) 12.2.0")]
    pub compiler_version: Option<String>,
}

/// The first line of `program --version`, asked once per program and daemon (a compiler
/// upgraded while the daemon runs shows its new version after a restart).
fn version_of(program: &Path) -> Option<String> {
    static SEEN: OnceLock<Mutex<HashMap<PathBuf, Option<String>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(known) = seen.lock().ok().and_then(|s| s.get(program).cloned()) {
        return known;
    }
    let version = crate::config::toolchain::version(program);
    if let Ok(mut s) = seen.lock() {
        s.insert(program.to_path_buf(), version.clone());
    }
    version
}

fn info(language: &Language) -> LanguageInfo {
    let compiler = language
        .compile
        .as_ref()
        .and_then(|c| c.first())
        .or(language.run.first())
        .filter(|p| p.starts_with('/'))
        .cloned();
    LanguageInfo {
        id: language.id.clone(),
        name: language.name.clone(),
        aliases: language.aliases.clone(),
        extensions: language.extensions.clone(),
        compiler_version: compiler.as_deref().and_then(|p| version_of(Path::new(p))),
        compiler,
    }
}

/// Every language of the table, by id (public, like the problems).
#[utoipa::path(get, path = "/api/languages", operation_id = "list_languages", tag = "problems",
    responses((status = 200, description = "every language this judge compiles", body = Vec<LanguageInfo>)))]
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<LanguageInfo>>> {
    let table = state.language_table.clone();
    let infos = tokio::task::spawn_blocking(move || table.iter().map(info).collect())
        .await
        .map_err(|e| ApiError::Internal(format!("language task failed: {e}")))?;
    Ok(Json(infos))
}
