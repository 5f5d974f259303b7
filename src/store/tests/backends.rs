//! The two backends for the store's tests: every test body takes a [`Backend`] and runs once
//! on a SQLite file and once on a database of a throwaway PostgreSQL cluster
//! (`testkit/src/postgres.rs`), through the [`both!`] macro.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::store::*;

pub(super) use sudojudge_testkit::postgres::PgServer;

/// Where a test's store lives.
pub(super) enum Backend {
    /// A SQLite file in a temporary folder (kept as long as the backend).
    Sqlite(#[allow(dead_code)] tempfile::TempDir, PathBuf),
    /// A fresh database on the shared cluster (kept running as long as the backend).
    Postgres(#[allow(dead_code)] Arc<PgServer>, String),
}

impl Backend {
    /// A SQLite file (in a nested folder, which `open` creates).
    pub(super) fn sqlite() -> Backend {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/folder/db.sqlite");
        Backend::Sqlite(dir, path)
    }

    /// A fresh PostgreSQL database; `None` (skip) when no cluster can be started outside CI.
    pub(super) fn postgres() -> Option<Backend> {
        let server = PgServer::shared()?;
        let url = server.database();
        Some(Backend::Postgres(server, url))
    }

    /// The store, as node `local` with the default lease.
    pub(super) async fn open(&self) -> Store {
        self.open_as(Lease::default()).await
    }

    /// The store as the node instance of `lease`.
    pub(super) async fn open_as(&self, lease: Lease) -> Store {
        let location = match self {
            Backend::Sqlite(_, path) => Location::Sqlite(path.clone()),
            Backend::Postgres(_, url) => Location::Postgres(url.clone()),
        };
        Store::open(&location, lease).await.unwrap()
    }

    /// A node `name` whose leases last `ms` milliseconds.
    pub(super) async fn node(&self, name: &str, ms: u64) -> Store {
        self.open_as(Lease::new(name, Duration::from_millis(ms)))
            .await
    }
}

/// `both!(body)` makes a module `body` with a `sqlite` and a `postgres` test, each running
/// `body(&Backend)`.
macro_rules! both {
    ($($body:ident),* $(,)?) => {$(
        mod $body {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$body(&$crate::store::tests::backends::Backend::sqlite()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(backend) = $crate::store::tests::backends::Backend::postgres() else {
                    return;
                };
                super::$body(&backend).await;
            }
        }
    )*};
}
pub(super) use both;
