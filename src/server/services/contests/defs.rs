//! Contests made and edited while the judge runs (issue 30, point 2): the one service the
//! API (`POST /api/contests`, `PATCH /api/contests/{id}`, `GET .../definition`) and the admin
//! page share. A definition is checked by the contest files' own checks, every field at
//! fault reported; an edit that would rewrite history ([`crate::contest::edit`]) is refused
//! with the reason; a contest read from a file is not edited here (the file wins); the
//! database keeps the definition, so every node serves it ([`super::catalog`]).

use serde::Serialize;

use crate::accounts::{access, Caller};
use crate::contest::definition::ContestDefinition;
use crate::contest::{edit, Contest, ContestId, FieldError};
use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;
use crate::store::{ContestDefStore, DefWrite};

use super::catalog::{self, database_origin};
use super::loaded::Origin;

/// Contests the database holds at most (each is read by every node on every change).
pub const MAX_STORED_CONTESTS: u64 = 500;

/// A contest's definition with where it comes from: what the edit form and the API show.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DefinitionView {
    /// The contest's id.
    pub id: String,
    /// `file` (read from a contest file, which wins: not editable here) or `database` (made
    /// on the admin page or through the API).
    pub origin: &'static str,
    /// The file, for a file's contest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The database's revision (1 when made, one more with each edit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// Whether the admin page and `PATCH` may edit it.
    pub editable: bool,
    /// The definition.
    pub definition: ContestDefinition,
}

fn administer(caller: &Caller) -> ApiResult<()> {
    allow(access::administer(caller), String::new)
}

/// The definition of contest `id` (the jury's).
pub fn definition(state: &AppState, caller: &Caller, id: &str) -> ApiResult<DefinitionView> {
    administer(caller)?;
    let served = state
        .contests
        .served(id)
        .ok_or_else(|| ApiError::NotFound(format!("no contest {id:?}")))?;
    Ok(view(&served.contest, &served.origin))
}

fn view(c: &Contest, origin: &Origin) -> DefinitionView {
    let (origin, path, revision) = match origin {
        Origin::File(p) => ("file", Some(p.display().to_string()), None),
        Origin::Database { revision } => ("database", None, Some(*revision)),
    };
    DefinitionView {
        id: c.id.as_str().to_string(),
        origin,
        path,
        revision,
        editable: origin == "database",
        definition: ContestDefinition::of(c),
    }
}

/// A JSON body as a definition; what does not fit is a field error.
pub fn from_json(body: serde_json::Value) -> ApiResult<ContestDefinition> {
    serde_json::from_value(body)
        .map_err(|e| ApiError::InvalidContest(vec![FieldError::new("(body)", e.to_string())]))
}

/// `definition` as a sound contest of id `id`, or every field at fault: the files' checks,
/// the problems this node has, the configured languages, and the request's bounds.
fn check(state: &AppState, id: &str, definition: &ContestDefinition) -> ApiResult<Contest> {
    let mut errors = definition.bounds();
    let checked = Contest::from_text(id, &database_origin(id), &definition.to_toml());
    let contest = match checked {
        Ok(c) => Some(c),
        Err(more) => {
            errors.extend(more);
            None
        }
    };
    let known = catalog::known_problems(state);
    for (i, p) in definition.problems.iter().enumerate() {
        if !p.problem.is_empty() && !known.contains(&p.problem) {
            errors.push(FieldError::new(
                &format!("problems[{i}].problem"),
                format!(
                    "unknown problem {:?} (known: {})",
                    p.problem,
                    known.join(", ")
                ),
            ));
        }
    }
    for l in definition.languages.iter().flatten() {
        if state.language_table.get(l).is_none() {
            errors.push(FieldError::new(
                "languages",
                format!(
                    "{l:?} is not a configured language (known: {})",
                    state.language_table.known_ids().join(", ")
                ),
            ));
        }
    }
    match contest {
        Some(c) if errors.is_empty() => Ok(c),
        _ => Err(ApiError::InvalidContest(errors)),
    }
}

/// Makes a contest: `definition.id` is its id, which no contest (file or database) may
/// have. Every node serves it from the next request on.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    definition: ContestDefinition,
) -> ApiResult<DefinitionView> {
    administer(caller)?;
    let id = definition.id.clone().unwrap_or_default();
    if let Err(e) = ContestId::parse(&id) {
        let mut errors = vec![FieldError::new("id", e.to_string())];
        if let Err(ApiError::InvalidContest(more)) = check(state, "x", &definition) {
            errors.extend(more);
        }
        return Err(ApiError::InvalidContest(errors));
    }
    let c = check(state, &id, &definition)?;
    taken(state, &id)?;
    let now = state.contests.now();
    let revision = match state
        .store
        .create_contest_def(&id, &definition.to_toml(), now, MAX_STORED_CONTESTS)
        .await?
    {
        None => {
            return Err(ApiError::Conflict(format!(
                "the database holds {MAX_STORED_CONTESTS} contests already, the most it keeps"
            )))
        }
        Some(DefWrite::Stored(revision)) => revision,
        Some(_) => {
            return Err(ApiError::IdTaken(format!(
                "contest {id:?} exists already: edit it (PATCH /api/contests/{id})"
            )))
        }
    };
    tracing::info!(contest = %id, revision, "contest made at runtime");
    catalog::reload_database(state).await?;
    Ok(view(&c, &Origin::Database { revision }))
}

/// 409 when `id` is a served contest's, saying which.
fn taken(state: &AppState, id: &str) -> ApiResult<()> {
    match state.contests.served(id).map(|s| s.origin) {
        None => Ok(()),
        Some(Origin::File(path)) => Err(ApiError::IdTaken(format!(
            "contest {id:?} is the contest file {}: a contest made here needs another id",
            path.display()
        ))),
        Some(Origin::Database { .. }) => Err(ApiError::IdTaken(format!(
            "contest {id:?} exists already: edit it (PATCH /api/contests/{id})"
        ))),
    }
}

/// `patch` (a JSON object of the keys to change; `timing` merged key by key; `null` clears
/// an optional key) over the current definition of `id`.
pub fn patched(
    current: &ContestDefinition,
    patch: serde_json::Value,
) -> ApiResult<ContestDefinition> {
    let serde_json::Value::Object(patch) = patch else {
        return Err(ApiError::InvalidContest(vec![FieldError::new(
            "(body)",
            "expected a JSON object of the keys to change",
        )]));
    };
    let mut merged = serde_json::to_value(current)
        .map_err(|e| ApiError::Internal(format!("definition to JSON: {e}")))?;
    let Some(target) = merged.as_object_mut() else {
        return Err(ApiError::Internal("definition is not an object".into()));
    };
    for (key, value) in patch {
        match (key.as_str(), value) {
            ("timing", serde_json::Value::Object(t)) => {
                let timing = target
                    .entry("timing")
                    .or_insert_with(|| serde_json::json!({}));
                if let Some(timing) = timing.as_object_mut() {
                    for (k, v) in t {
                        if v.is_null() {
                            timing.remove(&k);
                        } else {
                            timing.insert(k, v);
                        }
                    }
                }
            }
            (_, serde_json::Value::Null) => {
                target.remove(&key);
            }
            (_, value) => {
                target.insert(key, value);
            }
        }
    }
    from_json(merged)
}

/// Replaces the definition of the database contest `id` with `definition`, unless a field is
/// at fault (422), the change would rewrite history (409 `rewrites_history`), the contest is
/// a file's (409 `file_contest`) or someone else's edit came first (409 `conflict`).
pub async fn update(
    state: &AppState,
    caller: &Caller,
    id: &str,
    definition: ContestDefinition,
) -> ApiResult<DefinitionView> {
    administer(caller)?;
    let served = state
        .contests
        .served(id)
        .ok_or_else(|| ApiError::NotFound(format!("no contest {id:?}")))?;
    let revision = match served.origin {
        Origin::File(path) => {
            return Err(ApiError::FileContest(format!(
                "contest {id:?} is read from the file {}: the file wins; edit the file (it is \
                 read again when it changes)",
                path.display()
            )))
        }
        Origin::Database { revision } => revision,
    };
    if definition.id.as_deref().is_some_and(|new| new != id) {
        return Err(ApiError::InvalidContest(vec![FieldError::new(
            "id",
            format!("a contest's id never changes (this one is {id:?})"),
        )]));
    }
    let new = check(state, id, &definition)?;
    let history = edit::History {
        now: Some(state.contests.now()),
        labels_with_submissions: state
            .store
            .labels_with_submissions(id)
            .await?
            .into_iter()
            .collect(),
    };
    let refusals = edit::refusals(&served.contest, &new, &history);
    if !refusals.is_empty() {
        return Err(ApiError::RewritesHistory(refusals));
    }
    match state
        .store
        .update_contest_def(id, &definition.to_toml(), revision, state.contests.now())
        .await?
    {
        DefWrite::Stored(revision) => {
            tracing::info!(contest = %id, revision, "contest edited at runtime");
            catalog::reload_database(state).await?;
            Ok(view(&new, &Origin::Database { revision }))
        }
        DefWrite::Stale => Err(ApiError::Conflict(format!(
            "contest {id:?} was edited meanwhile (it is no longer at revision {revision}): \
             read it again and redo the edit"
        ))),
        DefWrite::Missing => Err(ApiError::NotFound(format!("no contest {id:?}"))),
    }
}
