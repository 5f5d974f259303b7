//! Persistence with sqlx on SQLite: submissions, per-test results and the judging queue.
//!
//! - [`model`]: the stored shapes (status, submissions as the API shows them).
//! - [`queue`]: the [`Queue`] trait the server and workers depend on.
//! - [`sqlite`]: [`SqliteStore`], the SQLite implementation (WAL, `BEGIN IMMEDIATE` writes).

pub mod model;
pub mod queue;
pub mod sqlite;

use std::path::PathBuf;

pub use model::{Claimed, NewSubmission, RejudgeOutcome, Status, Submission};
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

#[cfg(test)]
mod tests;
