//! The SQLite store: WAL, `synchronous = NORMAL`, every write in `BEGIN IMMEDIATE`.
//!
//! Writes go through a pool of one connection (SQLite has one writer anyway; queueing in the
//! pool is fairer and faster than the busy handler's sleeps), reads through a pool of several.
//! Beside this file (the store and its migrations from `migrations/sqlite/`): `dialect.rs`,
//! what SQLite does its own way; the queries themselves are written once, in `store/sql/`.

mod dialect;

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

use super::lease::Lease;
use super::node_data::NodeData;
use super::StoreError;

/// Submissions, test results and the queue in one SQLite file.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pub(super) writer: SqlitePool,
    pub(super) reader: SqlitePool,
    pub(super) lease: Lease,
    pub(super) data: Option<NodeData>,
}

impl SqliteStore {
    /// Opens (creating the file and its folder if needed) and migrates the database, for the
    /// default node `local`.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_as(path, Lease::default()).await
    }

    /// [`SqliteStore::open`] for the node instance of `lease`.
    pub async fn open_as(path: &Path, lease: Lease) -> Result<SqliteStore, StoreError> {
        super::create_parent_dir(path)?;
        let private = |file: &Path, create: bool| {
            super::make_private(file, create).map_err(|source| StoreError::Private {
                path: file.to_path_buf(),
                source,
            })
        };
        private(path, true)?;
        for suffix in ["-wal", "-shm"] {
            let mut side = path.as_os_str().to_owned();
            side.push(suffix);
            private(Path::new(&side), false)?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let open = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .map_err(open)?;
        sqlx::migrate!("migrations/sqlite")
            .run(&writer)
            .await
            .map_err(StoreError::Migrate)?;
        let reader = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await
            .map_err(open)?;
        Ok(SqliteStore {
            writer,
            reader,
            lease,
            data: None,
        })
    }

    /// This store with `data`: claims refuse other data if it says so, rejudges record it.
    pub fn with_data(mut self, data: NodeData) -> SqliteStore {
        self.data = Some(data);
        self
    }
}
