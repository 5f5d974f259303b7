//! `GET /api/health`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::accounts::access::{self, HealthView};
use crate::accounts::Caller;
use crate::server::services::queue;

use super::api_metrics::presents_token;
use super::error::ErrorDetail;
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
         `version` for anyone else)", body = Health),
        (status = 503, description = "the database does not answer", body = Health),
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
    let (ok, depth, error) = match queue::depth(&state).await {
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
    let nodes: Vec<serde_json::Value> = match queue::nodes(&state).await {
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
        "data_hashes": state.problems.hashes(),
        "nodes": nodes,
    });
    if let Some(e) = error {
        body["error"] = serde_json::json!({"code": "storage", "message": e});
    }
    (status, Json(body))
}

/// The body of `GET /api/health` (documentation of the JSON the handler builds). Everyone
/// reads `ok` and `version`; the other fields are the host's (the open mode's caller, an
/// admin, or the `[metrics] token`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Whether the database answers.
    pub ok: bool,
    /// Submissions waiting (`null` when the database does not answer). The host's.
    #[schema(required = false)]
    pub queue_depth: Option<u64>,
    /// Judging workers. The host's.
    #[schema(required = false)]
    pub workers: u64,
    /// What the sandbox can use on this host. The host's.
    #[schema(value_type = Object, required = false)]
    pub sandbox: serde_json::Value,
    /// This node's name (`--node`, `[node] name`, else the host's name). The host's.
    #[schema(required = false)]
    pub node: String,
    /// The sudojudge version this node runs.
    pub version: String,
    /// Per problem id, the hash of the package data this node judges with (limits, checker
    /// kind, tests): nodes sharing a database must show the same. The host's.
    #[schema(required = false)]
    pub data_hashes: std::collections::BTreeMap<String, String>,
    /// Present when the database does not answer.
    #[schema(nullable = false)]
    pub error: Option<ErrorDetail>,
    /// The nodes on the database (empty when it does not answer). The host's.
    #[schema(required = false)]
    pub nodes: Vec<NodeSummary>,
}

/// A node as `GET /api/health` shows it (`GET /api/nodes` adds its package hashes).
#[derive(Debug, Serialize, ToSchema)]
pub struct NodeSummary {
    /// The node's name.
    pub name: String,
    /// serve or worker.
    pub kind: crate::store::NodeKind,
    /// Judging slots.
    pub slots: u64,
    /// Milliseconds since its last heartbeat.
    pub heartbeat_age_ms: u64,
    /// Whether it still holds its leases.
    pub alive: bool,
}
