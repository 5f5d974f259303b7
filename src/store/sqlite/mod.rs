//! The SQLite store: WAL, `synchronous = NORMAL`, every write in `BEGIN IMMEDIATE`.
//!
//! Writes go through a pool of one connection (SQLite has one writer anyway; queueing in the
//! pool is fairer and faster than the busy handler's sleeps), reads through a pool of several.
//! Beside this file (the store, its migrations from `migrations/sqlite/`, the queue and the
//! submissions): `accounts.rs`, `contests.rs`, `nodes.rs` and `gauges.rs`, as in `postgres/`.

mod accounts;
mod contests;
mod gauges;
mod nodes;
mod queue;
mod submissions;

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

use super::lease::Lease;
use super::model::{Enqueued, NewSubmission, QueueBounds, Status};
use super::node_data::NodeData;
use super::StoreError;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/// The end of a lease that starts now; binds [`lease_modifier`].
pub(super) const LEASE_END: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)";

/// SQLite's date modifier for the length of `lease` (`+30.000 seconds`).
pub(super) fn lease_modifier(lease: &Lease) -> String {
    let ms = lease.millis();
    format!("+{}.{:03} seconds", ms / 1000, ms % 1000)
}

/// The queued submission a free worker takes, fairly between owners (`contest::pick`'s rule):
/// fewest of its owner's submissions in flight (`compiling`/`running`; the NULL owner of the
/// open mode is one owner, hence `IS`), then oldest queued (`queued_at`, then id). The oldest
/// queued row among the owners with the fewest in flight is that owner's oldest, so one ORDER
/// BY gives "the oldest of the least busy owner, ties to the owner whose oldest is oldest". The
/// count reads the partial index `submissions_in_flight` (migrations/sqlite/0003_fair_queue.sql).
/// Whether the queued submission `q` is one this node takes: `?N` is [`NodeData`]'s claim
/// filter (a JSON object of problem id to hash; NULL takes anything): the node has the
/// problem, and the submission's hash is unset or the node's.
pub(super) fn accepts(n: u8) -> String {
    format!(
        "(?{n} IS NULL OR EXISTS (SELECT 1 FROM json_each(?{n}) j WHERE j.key = q.problem
           AND (q.submitted_data_hash IS NULL OR j.value = q.submitted_data_hash)))"
    )
}

/// `contest::pick`'s rule in one ORDER BY, among what this node accepts (`?4`): contest
/// submissions first, then the oldest queued submission of the owner with the fewest in
/// flight.
fn fair_next() -> String {
    format!(
        "SELECT q.id FROM submissions q WHERE q.status = 'queued' AND {}
         ORDER BY q.contest IS NULL,
                  (SELECT COUNT(*) FROM submissions f
                   WHERE f.status IN ('compiling', 'running') AND f.user_id IS q.user_id),
                  q.queued_at, q.id
         LIMIT 1",
        accepts(4)
    )
}

/// A rejudge's new `submitted_data_hash`: the rejudging node's hash of the submission's
/// problem (the bound [`NodeData`] JSON), or the stored one when there is none.
pub(super) const STAMP: &str = "COALESCE((SELECT j.value FROM json_each(?) j
     WHERE j.key = submissions.problem), submitted_data_hash)";

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
}

/// Why a submission of `owner` may not be stored under `bounds` now (`None`: it may), in
/// the insert's transaction: the owner's own bound first (their flood is theirs to wait
/// for), then the queue's.
pub(super) async fn queue_refusal(
    tx: &mut sqlx::SqliteConnection,
    owner: Option<i64>,
    bounds: QueueBounds,
) -> Result<Option<Enqueued>, StoreError> {
    if let (Some(owner), Some(per_user)) = (owner, bounds.per_user) {
        let mine: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions WHERE user_id = ? AND status = 'queued'",
        )
        .bind(owner)
        .fetch_one(&mut *tx)
        .await?;
        if u64::try_from(mine).unwrap_or(0) >= per_user {
            return Ok(Some(Enqueued::OwnerFull));
        }
    }
    let depth: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'queued'")
        .fetch_one(&mut *tx)
        .await?;
    if u64::try_from(depth).unwrap_or(0) >= bounds.max_queued {
        return Ok(Some(Enqueued::QueueFull));
    }
    Ok(None)
}

async fn insert_queued(
    tx: &mut sqlx::SqliteConnection,
    new: &NewSubmission,
) -> Result<i64, StoreError> {
    let id = sqlx::query_scalar(
        "INSERT INTO submissions (problem, language, source, user_id, submitted_data_hash)
         VALUES (?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(&new.problem)
    .bind(&new.language)
    .bind(&new.source)
    .bind(new.owner)
    .bind(&new.data_hash)
    .fetch_one(tx)
    .await?;
    Ok(id)
}
