//! `GET /api/health`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::accounts::Caller;
use crate::store::{NodeStore, Queue};

use super::contests::hiding::problem_visible;

use super::state::AppState;

/// `{"ok","queue_depth","workers","sandbox","node","version","data_hashes","nodes"}`; 503
/// when the database does not answer. `data_hashes` names only the problems the caller may
/// see (a problem hidden until its contest opens is no one's business but the jury's).
/// `nodes` lists every node on the database (name, kind, slots, heartbeat age, alive);
/// their package hashes are in the admins' `GET /api/nodes`.
#[utoipa::path(get, path = "/api/health", operation_id = "health", tag = "health",
    responses(
        (status = 200, description = "the daemon is up", body = super::openapi::Health),
        (status = 503, description = "the database does not answer", body = super::openapi::Health),
    ))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
) -> (StatusCode, Json<serde_json::Value>) {
    let (ok, depth, error) = match state.store.depth().await {
        Ok(d) => (true, Some(d), None),
        Err(e) => (false, None, Some(e.to_string())),
    };
    let nodes: Vec<serde_json::Value> = match state.store.list_nodes().await {
        Ok(nodes) => nodes
            .into_iter()
            .map(|n| {
                serde_json::json!({
                    "name": n.name, "kind": n.kind, "slots": n.slots,
                    "heartbeat_age_ms": n.heartbeat_age_ms, "alive": n.alive,
                })
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    let mut body = serde_json::json!({
        "ok": ok,
        "queue_depth": depth,
        "workers": state.workers,
        "sandbox": *state.sandbox,
        "node": &*state.node,
        "version": env!("CARGO_PKG_VERSION"),
        "data_hashes": state
            .problems
            .iter()
            .filter(|(id, _)| problem_visible(&state, &caller, id))
            .map(|(id, p)| (id.clone(), p.data_hash.to_hex()))
            .collect::<std::collections::BTreeMap<_, _>>(),
        "nodes": nodes,
    });
    if let Some(e) = error {
        body["error"] = serde_json::json!({"code": "storage", "message": e});
    }
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body))
}
