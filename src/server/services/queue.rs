//! The queue, the nodes and the store's health as the operational endpoints read them
//! (`/api/health`, `/metrics`, `/api/nodes`) and the admin page: plain reads, with no rule of
//! their own (each adapter asks [`crate::accounts::access`] first), kept here so that no
//! handler or page touches the store.

use crate::store::Gauges;
use crate::store::{NodeStore, Queue, QueuedGroup, StoreNode};

pub use crate::store::{Node, Status};

use crate::server::error::ApiResult;
use crate::server::state::AppState;

/// Submissions waiting to be judged.
pub async fn depth(state: &AppState) -> ApiResult<u64> {
    Ok(state.store.depth().await?)
}

/// Submissions by status (for the queue gauges).
pub async fn depth_by_status(state: &AppState) -> ApiResult<Vec<(Status, u64)>> {
    Ok(state.store.depth_by_status().await?)
}

/// Whether the store is a database other nodes share (PostgreSQL).
pub fn is_shared(state: &AppState) -> bool {
    state.store.is_shared()
}

/// Every node registered on the database, by name.
pub async fn nodes(state: &AppState) -> ApiResult<Vec<Node>> {
    Ok(state.store.list_nodes().await?)
}

/// The queued submissions grouped by what a node needs to claim them.
pub async fn queued_groups(state: &AppState) -> ApiResult<Vec<QueuedGroup>> {
    Ok(state.store.queued_groups().await?)
}
