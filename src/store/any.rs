//! [`Store`]: the store a database setting names, SQLite or PostgreSQL. Each trait of the
//! store ([`super::Queue`], [`super::SubmissionReads`], [`super::Gauges`],
//! [`super::AccountStore`], [`super::ContestStore`], [`super::NodeStore`],
//! [`super::BalloonStore`], [`StoreNode`]) is implemented once, for `Store`, so the server,
//! the workers and the commands are written once for both; `each!` compiles a method's body
//! for each backend (`store/sql/`).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use super::lease::Lease;
use super::location::Location;
use super::node_data::NodeData;
use super::postgres::PgStore;
use super::sqlite::SqliteStore;
use super::StoreError;

/// One of the two stores.
#[derive(Debug, Clone)]
pub enum Store {
    /// A SQLite file, owned by one daemon.
    Sqlite(SqliteStore),
    /// A PostgreSQL database, shared by any number of nodes.
    Postgres(PgStore),
}

/// Runs the same code on whichever store `self` is: `each!(self, s => s.method().await)`, or
/// a body written once, `each!(self, |db| { ... })` over
/// the `Dialect` (`dialect.rs`), which is compiled once with `db` a `&SqliteStore` and once with `db` a `&PgStore` (a plain block, not a
/// closure: `?` and `return` leave the method).
macro_rules! each {
    ($self:expr, |$db:ident| $body:expr) => {
        match $self {
            $crate::store::Store::Sqlite($db) => $body,
            $crate::store::Store::Postgres($db) => $body,
        }
    };
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            Store::Sqlite($s) => $e,
            Store::Postgres($s) => $e,
        }
    };
}
pub(crate) use each;

/// The store as the node it speaks for holds it: where it is, whether other nodes share it,
/// the node's lease and package data.
pub trait StoreNode: Sized + Send + Sync + 'static {
    /// Opens (and migrates) the store at `location` for the node instance of `lease`.
    fn open(
        location: &Location,
        lease: Lease,
    ) -> impl Future<Output = Result<Self, StoreError>> + Send;

    /// Whether other nodes may share this database (PostgreSQL).
    fn is_shared(&self) -> bool;

    /// The lease of the node this store speaks for.
    fn lease(&self) -> &Lease;

    /// How long a node may go without a heartbeat before it counts as dead.
    fn lease_duration(&self) -> Duration {
        self.lease().duration()
    }

    /// This store with the node's package data: on a shared database (PostgreSQL) claims
    /// refuse submissions made against other data; a SQLite daemon, the only node of its
    /// file, claims anything (and its worker logs the difference). Rejudges through either
    /// record the node's hash as the submission's new `submitted_data_hash`.
    fn with_data(self, data: NodeData) -> Self;

    /// The package data this store's node judges with, if set.
    fn data(&self) -> Option<&NodeData>;

    /// Pokes `wake` when another node queues a submission (PostgreSQL's `NOTIFY`); on SQLite
    /// the one daemon pokes its own workers, so there is nothing to listen to.
    fn forward_queue_notifications(
        &self,
        wake: Arc<Notify>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}

impl StoreNode for Store {
    async fn open(location: &Location, lease: Lease) -> Result<Store, StoreError> {
        Ok(match location {
            Location::Sqlite(path) => Store::Sqlite(SqliteStore::open_as(path, lease).await?),
            Location::Postgres(url) => Store::Postgres(PgStore::open(url, lease).await?),
        })
    }

    fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    fn lease(&self) -> &Lease {
        each!(self, s => &s.lease)
    }

    fn with_data(self, data: NodeData) -> Store {
        match self {
            Store::Sqlite(s) => Store::Sqlite(s.with_data(data.claiming_anything())),
            Store::Postgres(s) => Store::Postgres(s.with_data(data)),
        }
    }

    fn data(&self) -> Option<&NodeData> {
        each!(self, s => s.data.as_ref())
    }

    async fn forward_queue_notifications(&self, wake: Arc<Notify>) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(_) => Ok(()),
            Store::Postgres(s) => s.forward_queue_notifications(wake).await,
        }
    }
}
