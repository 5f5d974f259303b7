//! The nodes sharing a database: each `serve` and `worker` process registers itself at start
//! and beats a heartbeat, so admins (`GET /api/nodes`, the health endpoint) see who judges,
//! with how many slots, on which package data, and when each was last heard from.

use std::collections::BTreeMap;
use std::future::Future;

use serde::Serialize;

use super::model::StaleOutcome;
use super::StoreError;

/// What a node does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// `sudojudge serve`: the HTTP API, and workers unless `--workers 0`.
    Serve,
    /// `sudojudge worker`: judges only.
    Worker,
}

impl NodeKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Serve => "serve",
            NodeKind::Worker => "worker",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<NodeKind> {
        match s {
            "serve" => Some(NodeKind::Serve),
            "worker" => Some(NodeKind::Worker),
            _ => None,
        }
    }
}

/// A node as registered.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Node {
    /// The node's name (`--node`).
    pub name: String,
    /// serve or worker.
    pub kind: NodeKind,
    /// Judging slots (workers) it runs.
    pub slots: u64,
    /// The hash of each problem package it loaded, by problem id.
    pub hashes: BTreeMap<String, String>,
    /// When this instance started (ISO 8601 UTC).
    pub started_at: String,
    /// Milliseconds since its last heartbeat.
    pub heartbeat_age_ms: u64,
    /// Whether its last heartbeat is younger than a lease (it still holds its claims).
    pub alive: bool,
}

/// A node's registration.
#[derive(Debug, Clone)]
pub struct NodeRegistration {
    /// serve or worker.
    pub kind: NodeKind,
    /// Judging slots.
    pub slots: u64,
    /// Package hashes by problem id.
    pub hashes: BTreeMap<String, String>,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct NodeRow {
    pub name: String,
    pub kind: String,
    pub slots: i64,
    pub hashes: String,
    pub started_at: String,
    pub heartbeat_age_ms: i64,
}

impl NodeRow {
    /// The node as shown; `lease_ms` decides whether it counts as alive.
    pub(crate) fn into_node(self, lease_ms: i64) -> Result<Node, StoreError> {
        let kind = NodeKind::parse(&self.kind).ok_or_else(|| StoreError::CorruptNode {
            name: self.name.clone(),
            what: format!("kind {:?}", self.kind),
        })?;
        let hashes = serde_json::from_str(&self.hashes).map_err(|e| StoreError::CorruptNode {
            name: self.name.clone(),
            what: format!("hashes: {e}"),
        })?;
        let age = self.heartbeat_age_ms.max(0);
        Ok(Node {
            name: self.name,
            kind,
            slots: u64::try_from(self.slots).unwrap_or(0),
            hashes,
            started_at: self.started_at,
            heartbeat_age_ms: u64::try_from(age).unwrap_or(0),
            alive: age < lease_ms,
        })
    }
}

/// Node registration, heartbeats and lease upkeep. The store speaks for the node instance of
/// its [`super::Lease`].
pub trait NodeStore: Send + Sync + 'static {
    /// Records this node (replacing an older instance of the same name) with a fresh heartbeat.
    fn register_node(
        &self,
        node: &NodeRegistration,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The heartbeat: renews this node's row and the leases of every claim it holds; returns
    /// how many claims it holds.
    fn heartbeat(&self) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Claims whose lease ran out (their node died) go back to the queue, or are stored as
    /// `SE` once claimed `max_attempts` times. A no-op on a store one daemon owns (SQLite),
    /// where [`super::Queue::requeue_stale`] does this at start.
    fn requeue_expired(
        &self,
        max_attempts: u32,
    ) -> impl Future<Output = Result<StaleOutcome, StoreError>> + Send;

    /// Removes this node's row (a clean stop).
    fn deregister_node(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Every registered node, by name.
    fn list_nodes(&self) -> impl Future<Output = Result<Vec<Node>, StoreError>> + Send;
}
