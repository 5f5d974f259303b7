//! `GET /api/health`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;

use crate::accounts::access::{self, HealthView};
use crate::accounts::Caller;
use crate::store::{NodeStore, Queue};

use super::api_metrics::presents_token;
use super::state::AppState;

/// Whether the judge is up. Everyone reads `{"ok","version"}` (503 when the database does
/// not answer, with an `error` that names no host detail). The host (the open mode's caller,
/// an admin, or a scraper sending the `[metrics] token`) reads every field:
/// `queue_depth`, `workers`, `sandbox`, `node`, `data_hashes` (every problem's) and `nodes`
/// (every node on the database: name, kind, slots, heartbeat age, alive; their package hashes
/// are in `GET /api/nodes`), and the database's own error.
#[utoipa::path(get, path = "/api/health", operation_id = "health", tag = "health",
    responses(
        (status = 200, description = "the daemon is up (every field for the host; `ok` and \
         `version` for anyone else)", body = super::openapi::Health),
        (status = 503, description = "the database does not answer", body = super::openapi::Health),
    ),
    security((), ("bearer" = [])))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> (StatusCode, Json<serde_json::Value>) {
    let view = access::read_health(
        &caller,
        presents_token(&headers, state.metrics_token.as_deref()),
    );
    let (ok, depth, error) = match state.store.depth().await {
        Ok(d) => (true, Some(d), None),
        Err(e) => (false, None, Some(e.to_string())),
    };
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let version = env!("CARGO_PKG_VERSION");
    if view == HealthView::Public {
        let mut body = serde_json::json!({"ok": ok, "version": version});
        if error.is_some() {
            body["error"] = serde_json::json!({
                "code": "storage", "message": "the judge's database does not answer",
            });
        }
        return (status, Json(body));
    }
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
        "version": version,
        "data_hashes": state
            .problems
            .iter()
            .map(|(id, p)| (id.clone(), p.data_hash.to_hex()))
            .collect::<std::collections::BTreeMap<_, _>>(),
        "nodes": nodes,
    });
    if let Some(e) = error {
        body["error"] = serde_json::json!({"code": "storage", "message": e});
    }
    (status, Json(body))
}
