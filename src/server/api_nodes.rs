//! `GET /api/nodes`: the nodes sharing the database, for admins.

use axum::extract::State;
use axum::Json;

use crate::accounts::{access, Caller};
use crate::server::services::queue::{self, Node};

use super::auth::allow;
use super::error::ApiResult;
use super::error::ErrorBody;
use super::state::AppState;

/// Every node registered on the database (serve and worker), with its slots, package hashes
/// and heartbeat age; a node whose heartbeat is older than a lease has lost its claims.
#[utoipa::path(get, path = "/api/nodes", operation_id = "list_nodes", tag = "nodes",
    responses(
        (status = 200, description = "the nodes, by name", body = [Node]),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn list(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Vec<Node>>> {
    allow(access::list_nodes(&caller), String::new)?;
    Ok(Json(queue::nodes(&state).await?))
}
