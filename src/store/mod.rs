//! Persistence with sqlx on SQLite: submissions, per-test results and the judging queue.
//!
//! - [`model`]: the stored shapes (status, submissions as the API shows them).
//! - [`queue`]: the [`Queue`] trait the server and workers depend on.
//! - [`sqlite`]: [`SqliteStore`], the SQLite implementation (WAL, `BEGIN IMMEDIATE` writes).
//! - [`owner`]: [`DatabaseOwner`], the lock that keeps a second daemon off a database.

pub mod model;
pub mod owner;
pub mod queue;
pub mod sqlite;

use std::path::PathBuf;

pub use model::{Claimed, NewSubmission, RejudgeOutcome, StaleOutcome, Status, Submission};
pub use owner::DatabaseOwner;
pub use queue::Queue;
pub use sqlite::SqliteStore;

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database's folder could not be created.
    #[error("cannot create database folder {path}: {source}")]
    CreateDir {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The database could not be opened.
    #[error("cannot open database {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: sqlx::Error,
    },
    /// Another daemon judges from this database.
    #[error(
        "database {database} is in use by another sudojudge daemon ({holder}); stop it, or give \
         this one its own --database"
    )]
    InUse {
        /// The database.
        database: PathBuf,
        /// What the lock file says of its owner (`pid N`).
        holder: String,
    },
    /// The lock file could not be used.
    #[error("database lock {path}: {source}")]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Applying the migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A query failed.
    #[error("database error: {0}")]
    Query(#[from] sqlx::Error),
    /// A stored value makes no sense (edited by hand, or a newer schema).
    #[error("submission {id}: corrupt stored value: {what}")]
    Corrupt {
        /// Submission id.
        id: i64,
        /// What is wrong.
        what: String,
    },
}

/// Creates the folder a database file (or its lock) goes in; the first start of a daemon
/// makes `data/` itself.
fn create_parent_dir(file: &std::path::Path) -> Result<(), StoreError> {
    match file.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
            path: dir.to_path_buf(),
            source,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
