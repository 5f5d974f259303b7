//! Persistence with sqlx on SQLite (one daemon) or PostgreSQL (several nodes): submissions,
//! per-test results, accounts, the judging queue with leases, and the nodes.
//!
//! - [`model`]: the stored shapes (status, submissions as the API shows them).
//! - [`queue`]: the [`Queue`] trait the server and workers depend on.
//! - [`accounts`]: the [`AccountStore`] trait: users, tokens, submission owners.
//! - [`contests`]: the [`ContestStore`] trait: participations, contest submissions under a
//!   rate, the board's data and version, freeze state, clarifications.
//! - [`nodes`]: the [`NodeStore`] trait: node registration, heartbeats, lease expiry.
//! - [`submissions`]: the [`SubmissionReads`] trait (a submission, lists, who fills the
//!   queue) and the SQL both backends run for it.
//! - [`gauges`]: the [`Gauges`] trait: the queue's depth by status, queued groups, refusals.
//! - [`node_data`]: [`NodeData`], the data hashes a node judges with: claims refuse other
//!   data, rejudges record it.
//! - [`lease`]: [`Lease`], the node instance a store claims for and the length of its claims.
//! - [`location`]: [`Location`], which store a `--database` setting names.
//! - [`any`]: [`Store`], either of the two, and [`StoreNode`]: the node it speaks for
//!   (opening, lease, package data). Every trait here is implemented once, for `Store`, in
//!   `sql/` (one file per concern: `queue.rs`, `submissions.rs`, `gauges.rs`, `accounts.rs`,
//!   `contests.rs`, `nodes.rs`): each body is written once and compiled for each backend by
//!   `each!`, over `dialect.rs`'s `Dialect`, which holds all the two backends do differently.
//! - [`sqlite`]: [`SqliteStore`] (WAL, `BEGIN IMMEDIATE` writes) and [`postgres`]:
//!   [`PgStore`] (`FOR UPDATE SKIP LOCKED` claims, advisory locks, `LISTEN`/`NOTIFY`), each
//!   a folder with the same two files: `mod.rs` (opening, migrating) and `dialect.rs` (its
//!   side of the `Dialect`). SQL is one text for both wherever they accept one (SQLite
//!   takes `$N` placeholders, numbered by first appearance); the shared texts of a trait
//!   live beside it (`submissions.rs`, `gauges.rs`, `contest_rows.rs`, `result_rows.rs`,
//!   `node_data.rs`) or in its `sql/` file.
//! - `tests/`: the store's tests, each run on SQLite and on a throwaway PostgreSQL (`both!`).
//! - Migrations: `migrations/sqlite/` and `migrations/postgres/`.
//! - [`balloons`]: [`BalloonStore`], the jury's "delivered" marks on balloons.
//! - [`contest_removal`]: [`ContestRemovalStore`], deleting a contest made at runtime that
//!   has no submission (a tombstone keeps the definitions' version growing).
//! - [`groups`]: [`GroupStore`], roster groups (contests listing `group:NAME`), and a
//!   contest's counters row made before its first board.
//! - [`judgements`]: [`JudgementStore`], what applied rejudgings changed, for the Contest
//!   API's new judgements.
//! - [`judgings`]: [`JudgingStore`], immediate rejudges that keep the result they replace,
//!   for the Contest API's new judgements.
//! - [`notices`]: [`NoticeStore`], the clarifications a page's live banners announce.
//! - [`owner`]: [`DatabaseOwner`], the lock that keeps a second daemon off a SQLite file.

pub mod accounts;
pub mod any;
pub mod balloons;
pub mod contest_defs;
pub mod contest_removal;
mod contest_rows;
pub mod contests;
mod dialect;
pub mod gauges;
pub mod groups;
pub mod judgements;
pub mod judgings;
pub mod lease;
pub mod location;
pub mod model;
pub mod node_data;
pub mod nodes;
pub mod notices;
pub mod owner;
pub mod packages;
pub mod postgres;
pub mod queue;
pub mod rejudgings;
mod result_rows;
mod sql;
pub mod sqlite;
pub mod submissions;

use std::path::PathBuf;

pub use accounts::{AccountStore, Credentials, NewUser, TokenKind, User};
pub use any::{Store, StoreNode};
pub use balloons::BalloonStore;
pub use contest_defs::{ContestDefStore, DefWrite, StoredContest};
pub use contest_removal::{ContestRemovalStore, DefDelete};
pub use contests::{
    BoardData, BoardEntry, Clarification, ClarificationAdded, ClarificationPage, ContestEnqueue,
    ContestState, ContestStore, NewClarification, NewContestSubmission, Participant, RejudgeCount,
};
pub use gauges::Gauges;
pub use gauges::IN_QUEUE;
pub use groups::{GroupStore, Grouping};
pub use judgements::{JudgementStore, Rejudged};
pub use judgings::{ImmediateRejudge, JudgingStore};
pub use lease::{Lease, DEFAULT_LEASE};
pub use location::Location;
pub use model::{
    Claimed, Enqueued, ListFilter, NewSubmission, QueueBounds, RejudgeOutcome, StaleOutcome,
    Status, Submission,
};
pub use node_data::{unclaimable, NodeData, QueuedGroup};
pub use nodes::{Node, NodeKind, NodeRegistration, NodeStore};
pub use notices::{NoticeReader, NoticeRow, NoticeStore};
pub use owner::DatabaseOwner;
pub use packages::{NewPackage, PackageStore, StoredPackage};
pub use postgres::PgStore;
pub use queue::Queue;
pub use rejudgings::{RejudgeQueue, RejudgingStore};
pub use sqlite::SqliteStore;
pub use submissions::SubmissionReads;

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
    /// The database file (or its `-wal`/`-shm`) could not be made the owner's alone.
    #[error("cannot make {path} private (mode 0600): {source}")]
    Private {
        /// The file.
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
    /// The PostgreSQL server could not be reached or refused the connection.
    #[error("cannot connect to {url}: {source}")]
    Connect {
        /// The URL, without its password.
        url: String,
        /// Why.
        source: sqlx::Error,
    },
    /// A stored node makes no sense (edited by hand, or a newer schema).
    #[error("node {name}: corrupt stored value: {what}")]
    CorruptNode {
        /// The node's name.
        name: String,
        /// What is wrong.
        what: String,
    },
    /// A query failed.
    #[error("database error: {0}")]
    Query(#[from] sqlx::Error),
    /// A user name is taken (or given twice in one import): nothing was written.
    #[error("user {0:?} already exists")]
    DuplicateUser(String),
    /// A stored user makes no sense (edited by hand, or a newer schema).
    #[error("user {name}: corrupt stored value: {what}")]
    CorruptUser {
        /// The stored name.
        name: String,
        /// What is wrong.
        what: String,
    },
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
/// makes `data/` itself. Folders it creates are the owner's alone (0700): the database holds
/// every source and every checker message. A folder that already exists is left as it is.
fn create_parent_dir(file: &std::path::Path) -> Result<(), StoreError> {
    use std::os::unix::fs::DirBuilderExt;
    match file.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|source| StoreError::CreateDir {
                path: dir.to_path_buf(),
                source,
            }),
        None => Ok(()),
    }
}

/// Makes `file` readable and writable by its owner only (0600), creating it if `create`.
/// SQLite gives its `-wal` and `-shm` files the database file's mode, so making the database
/// 0600 before SQLite opens it covers them; an older database made 0644 is tightened too.
fn make_private(file: &std::path::Path, create: bool) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    if create {
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(file)?;
    }
    match std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600)) {
        Err(e) if !create && e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests;
