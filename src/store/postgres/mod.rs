//! The PostgreSQL store, for several nodes on one database: the same tables as SQLite (its own
//! migrations, `migrations/postgres/`), claims with `FOR UPDATE SKIP LOCKED`, leases that
//! run out when a node stops beating, and a `LISTEN`/`NOTIFY` channel that wakes idle
//! workers on every node when a submission is queued. Beside this file (the store and its
//! migrations): `dialect.rs`, what PostgreSQL does its own way; the queries themselves are
//! written once, in `store/sql/`.

mod dialect;
pub(crate) mod group;

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use sqlx::PgPool;
use tokio::sync::Notify;

use super::lease::Lease;
use super::location::Location;
use super::node_data::NodeData;
use super::StoreError;
use group::GroupCell;

/// The channel `enqueue` notifies and idle nodes listen on.
pub(super) const QUEUE_CHANNEL: &str = "sudojudge_queue";

/// Connections per node: one per worker would starve nothing at 2-16 workers, and the HTTP
/// handlers share the rest.
const MAX_CONNECTIONS: u32 = 16;

/// Submissions, results, accounts, the queue and the nodes in one PostgreSQL database.
#[derive(Debug, Clone)]
pub struct PgStore {
    pub(super) pool: PgPool,
    pub(super) lease: Lease,
    pub(super) data: Option<NodeData>,
    url: String,
    /// The batching task of `enqueue_bounded`, started by the first one.
    pub(super) group: GroupCell,
}

impl PgStore {
    /// Connects to `url` and migrates the database (concurrent starts are safe: sqlx takes an
    /// advisory lock), for the node instance of `lease`.
    pub async fn open(url: &str, lease: Lease) -> Result<PgStore, StoreError> {
        let open = |source| StoreError::Connect {
            url: Location::Postgres(url.to_string()).display(),
            source,
        };
        let options: PgConnectOptions = url.parse().map_err(open)?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await
            .map_err(open)?;
        sqlx::migrate!("migrations/postgres")
            .run(&pool)
            .await
            .map_err(StoreError::Migrate)?;
        let store = PgStore {
            pool,
            lease,
            data: None,
            url: url.to_string(),
            group: GroupCell::default(),
        };
        Ok(store)
    }

    /// This store with a group commit cell of its own: the group commit task's, which must
    /// not keep itself alive.
    pub(super) fn without_group(&self) -> PgStore {
        PgStore {
            group: GroupCell::default(),
            ..self.clone()
        }
    }

    /// This store with `data`: claims refuse other data if it says so, rejudges record it.
    pub fn with_data(mut self, data: NodeData) -> PgStore {
        self.data = Some(data);
        self
    }

    /// Pokes `wake` whenever any node queues a submission, until the process ends; the
    /// listener reconnects by itself after a lost connection (sqlx re-`LISTEN`s).
    pub async fn forward_queue_notifications(&self, wake: Arc<Notify>) -> Result<(), StoreError> {
        let mut listener = PgListener::connect(&self.url).await?;
        listener.listen(QUEUE_CHANNEL).await?;
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(_) => wake.notify_one(),
                    Err(e) => {
                        tracing::warn!(error = %e, "queue notifications: lost; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        });
        Ok(())
    }
}

impl PgStore {
    /// Submissions judged (`done`), for benchmarks that wait for a batch.
    pub async fn count_done(&self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'done'")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
