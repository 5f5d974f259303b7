//! What every request handler shares.

use std::collections::BTreeSet;
use std::sync::Arc;

use tokio::sync::{Notify, Semaphore};

use crate::judge::CustomRun;
use crate::store::SqliteStore;
use crate::worker::Problems;

/// The server's shared state (cheap to clone: everything is behind `Arc`).
#[derive(Clone)]
pub struct AppState {
    /// Submissions and the queue.
    pub store: SqliteStore,
    /// Problems by id.
    pub problems: Arc<Problems>,
    /// Language ids accepted.
    pub languages: Arc<BTreeSet<String>>,
    /// Largest accepted source, in bytes.
    pub max_source_bytes: usize,
    /// Largest accepted stdin of a custom run, in bytes.
    pub max_stdin_bytes: usize,
    /// Poked after every new queued submission to wake an idle worker.
    pub wake: Arc<Notify>,
    /// Number of judging workers (for /api/health).
    pub workers: usize,
    /// What the sandbox can use on this host (for /api/health).
    pub sandbox: Arc<serde_json::Value>,
    /// Custom invocations; `None` when this server runs none.
    pub runner: Option<Arc<dyn CustomRun>>,
    /// Bounds concurrent custom runs to the runner's slots.
    pub run_permits: Arc<Semaphore>,
    /// Accounts settings and the login and run rate limits.
    pub auth: Arc<super::auth::Auth>,
}
