//! The Contest API's REST endpoints: the API's root, the contests, a contest's state, its
//! collections (each whole or one object, filtered by ID properties, by pages), the access
//! endpoint and the scoreboard. Every object comes from the contest's [`Log`] as the caller
//! may see it now, so the endpoints agree with the event feed.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::{Extension, Json};
use serde_json::{json, Value};

use crate::accounts::{access, Caller};

use super::super::auth::allow;
use super::super::contests::board;
use super::super::error::{ApiError, ApiResult};
use super::super::state::AppState;
use super::log::Log;
use super::mapping::{self, SPEC_URL, SPEC_VERSION};
use super::source::{self, Clics, PAGE_MAX};

/// The collections a contest offers, with the properties each object carries (what the
/// `access` endpoint lists).
pub const COLLECTIONS: &[(&str, &[&str])] = &[
    ("judgement-types", &["id", "name", "penalty", "solved"]),
    (
        "languages",
        &["id", "name", "entry_point_required", "extensions"],
    ),
    (
        "problems",
        &[
            "id",
            "label",
            "name",
            "ordinal",
            "time_limit",
            "test_data_count",
            "max_score",
        ],
    ),
    ("teams", &["id", "name", "label", "hidden"]),
    (
        "submissions",
        &[
            "id",
            "language_id",
            "problem_id",
            "team_id",
            "time",
            "contest_time",
            "files",
        ],
    ),
    (
        "judgements",
        &[
            "id",
            "submission_id",
            "judgement_type_id",
            "score",
            "start_time",
            "start_contest_time",
            "end_time",
            "end_contest_time",
        ],
    ),
];

/// `GET /clics`: the API's version and provider.
pub async fn root() -> Json<Value> {
    Json(json!({
        "version": SPEC_VERSION,
        "version_url": SPEC_URL,
        "provider": {"name": "sudojudge", "version": env!("CARGO_PKG_VERSION")},
    }))
}

/// `GET /clics/contests`: every contest the API describes (open timing left out).
pub async fn contests(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Value>> {
    allow(access::read_contest(&caller), String::new)?;
    let all: Vec<Value> = state
        .contests
        .all()
        .iter()
        .filter(|c| mapping::served(c))
        .map(|c| mapping::contest(c))
        .collect();
    Ok(Json(Value::Array(all)))
}

/// `GET /clics/contests/{id}`.
pub async fn contest(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let c = source::contest(&state, &caller, &id)?;
    Ok(Json(mapping::contest(&c)))
}

/// `GET /clics/contests/{id}/state`: as far as the event feed has told it.
pub async fn state(
    State(state): State<AppState>,
    Extension(clics): Extension<Arc<Clics>>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let log = source::log(&state, &clics, &caller, &id).await?;
    Ok(Json(current_state(&state, &id, &log)?))
}

fn current_state(state: &AppState, id: &str, log: &Log) -> ApiResult<Value> {
    let c = super::super::contests::find(state, id)?;
    let c = &*c;
    Ok(log
        .singleton(state.contests.now(), "state")
        .unwrap_or_else(|| mapping::state(c, &mapping::State::default())))
}

/// `GET /clics/contests/{id}/access`: the endpoints and properties offered; no
/// capabilities (nothing is changed through this API).
pub async fn access_info(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    source::contest(&state, &caller, &id)?;
    let mut endpoints = vec![
        json!({"type": "contest", "properties": ["id", "name", "formal_name", "start_time",
            "countdown_pause_time", "duration", "scoreboard_type", "penalty_time",
            "scoreboard_freeze_duration"]}),
        json!({"type": "state", "properties": ["started", "frozen", "ended", "thawed",
            "finalized", "end_of_updates"]}),
    ];
    endpoints.extend(
        COLLECTIONS
            .iter()
            .map(|(kind, props)| json!({"type": kind, "properties": props})),
    );
    Ok(Json(json!({"capabilities": [], "endpoints": endpoints})))
}

/// The query of a collection: `after` (the last id of the previous page), `limit`, and
/// filters on ID properties (`team_id=alice`).
type CollectionQuery = Query<BTreeMap<String, String>>;

/// `GET /clics/contests/{id}/{collection}`: the objects, in the order the feed told them,
/// at most [`PAGE_MAX`] (or `limit`) after `after`.
pub async fn collection(
    State(state): State<AppState>,
    Extension(clics): Extension<Arc<Clics>>,
    caller: Caller,
    Path((id, kind)): Path<(String, String)>,
    Query(q): CollectionQuery,
) -> ApiResult<Json<Value>> {
    known(&kind)?;
    let log = source::log(&state, &clics, &caller, &id).await?;
    let mut objects = log.objects(state.contests.now(), &kind);
    let limit = match q.get("limit") {
        None => PAGE_MAX,
        Some(l) => l
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=PAGE_MAX).contains(n))
            .ok_or_else(|| ApiError::BadQuery(format!("limit is a number from 1 to {PAGE_MAX}")))?,
    };
    for (k, v) in q
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "after" | "limit"))
    {
        if !k.ends_with("_id") {
            return Err(ApiError::BadQuery(format!(
                "{k:?}: only ID properties (ending in _id) filter a collection"
            )));
        }
        objects.retain(|o| o[k.as_str()].as_str() == Some(v.as_str()));
    }
    if let Some(after) = q.get("after") {
        let from = objects
            .iter()
            .position(|o| o["id"].as_str() == Some(after.as_str()))
            .map_or(objects.len(), |i| i + 1);
        objects.drain(..from);
    }
    objects.truncate(limit);
    Ok(Json(Value::Array(objects)))
}

/// `GET /clics/contests/{id}/{collection}/{object}`.
pub async fn object(
    State(state): State<AppState>,
    Extension(clics): Extension<Arc<Clics>>,
    caller: Caller,
    Path((id, kind, object)): Path<(String, String, String)>,
) -> ApiResult<Json<Value>> {
    known(&kind)?;
    let log = source::log(&state, &clics, &caller, &id).await?;
    log.objects(state.contests.now(), &kind)
        .into_iter()
        .find(|o| o["id"].as_str() == Some(object.as_str()))
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("no {kind} {object:?} in contest {id:?}")))
}

fn known(kind: &str) -> ApiResult<()> {
    if COLLECTIONS.iter().any(|(k, _)| *k == kind) {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!("no collection {kind:?}")))
    }
}

/// `GET /clics/contests/{id}/scoreboard`: the judge's own board for the caller's audience
/// (frozen for the public, whole for the jury), in CLICS's shape.
pub async fn scoreboard(
    State(state): State<AppState>,
    Extension(clics): Extension<Arc<Clics>>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let c = source::contest(&state, &caller, &id)?;
    let log = source::log(&state, &clics, &caller, &id).await?;
    let b = board::scoreboard(&state, &caller, &id).await?;
    let now = state.contests.now();
    let since = c
        .timing
        .opens()
        .map_or(jiff::SignedDuration::ZERO, |o| o.duration_until(now));
    Ok(Json(mapping::scoreboard(
        c.format,
        &b.view.board,
        current_state(&state, &id, &log)?,
        now,
        since,
    )))
}
