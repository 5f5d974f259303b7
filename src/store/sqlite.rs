//! The SQLite store: WAL, `synchronous = NORMAL`, every write in `BEGIN IMMEDIATE`.
//!
//! Writes go through a pool of one connection (SQLite has one writer anyway; queueing in the
//! pool is fairer and faster than the busy handler's sleeps), reads through a pool of several.

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

use crate::judge::JudgeReport;

use super::lease::Lease;
use super::model::{
    signed, to_submission, to_test_result, Claimed, Enqueued, ListFilter, NewSubmission,
    QueueBounds, RejudgeOutcome, StaleOutcome, Status, Submission, SubmissionRow, TestRow,
};
use super::node_data::NodeData;
use super::queue::Queue;
use super::result_rows::insert_statements;
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
/// count reads the partial index `submissions_in_flight` (migrations/0003_fair_queue.sql).
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
        sqlx::migrate!()
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

    /// One submission with its test results and source.
    pub async fn get(&self, id: i64) -> Result<Option<Submission>, StoreError> {
        let mut tx = self.reader.begin().await?;
        let row: Option<SubmissionRow> = sqlx::query_as(
            "SELECT s.*, u.name AS user FROM submissions s LEFT JOIN users u ON u.id = s.user_id
             WHERE s.id = ?",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let tests: Vec<TestRow> = sqlx::query_as(
            "SELECT name, verdict, time_ms, wall_ms, memory_kib, exit_code, signal, message
             FROM test_results WHERE submission_id = ? ORDER BY ordinal",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let mut submission = to_submission(row)?;
        submission.tests = tests
            .into_iter()
            .map(to_test_result)
            .collect::<Result<_, _>>()?;
        Ok(Some(submission))
    }

    /// Submissions newest first, optionally of one problem and older than `before` (an id).
    pub async fn list(
        &self,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        self.list_owned(None, problem, limit, before).await
    }

    /// [`SqliteStore::list`] of one owner's submissions (`None`: everyone's).
    pub(super) async fn list_owned(
        &self,
        owner: Option<i64>,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        let filter = ListFilter {
            problem: problem.map(str::to_string),
            ..ListFilter::default()
        };
        self.list_filtered(owner, &filter, limit, before).await
    }

    /// The owners with the most queued submissions (name, count), most first.
    pub async fn queued_by_owner(&self, limit: u32) -> Result<Vec<(String, u64)>, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT u.name, COUNT(*) AS n FROM submissions s JOIN users u ON u.id = s.user_id
             WHERE s.status = 'queued' GROUP BY u.name ORDER BY n DESC, u.name LIMIT ?",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(name, n)| (name, u64::try_from(n).unwrap_or(0)))
            .collect())
    }

    /// Submissions newest first, of one owner (`None`: everyone's), matching `filter`, older
    /// than `before` (an id): the admin page's filters.
    pub async fn list_filtered(
        &self,
        owner: Option<i64>,
        filter: &ListFilter,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        let rows: Vec<SubmissionRow> = sqlx::query_as(
            "SELECT s.id, s.problem, s.language, NULL AS source, s.status, s.verdict, s.score,
                    s.time_ms, s.memory_kib, s.compile_ok, s.compile_log, s.message, s.degraded,
                    s.created_at, s.finished_at, s.user_id, u.name AS user, s.contest, s.label,
                    s.submitted_data_hash, s.judged_data_hash
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id
             WHERE (?1 IS NULL OR s.problem = ?1) AND (?2 IS NULL OR s.id < ?2)
               AND (?4 IS NULL OR s.user_id = ?4) AND (?5 IS NULL OR u.name = ?5)
               AND (?6 IS NULL OR s.verdict = ?6) AND (?7 IS NULL OR s.contest = ?7)
             ORDER BY s.id DESC LIMIT ?3",
        )
        .bind(filter.problem.as_deref())
        .bind(before)
        .bind(i64::from(limit))
        .bind(owner)
        .bind(filter.user.as_deref())
        .bind(filter.verdict.map(|v| v.as_str()))
        .bind(filter.contest.as_deref())
        .fetch_all(&self.reader)
        .await?;
        rows.into_iter().map(to_submission).collect()
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

impl Queue for SqliteStore {
    async fn enqueue(&self, new: NewSubmission) -> Result<i64, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let id = insert_queued(&mut tx, &new).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn enqueue_bounded(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> Result<Enqueued, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let refused = queue_refusal(&mut tx, new.owner, bounds).await?;
        if let Some(refused) = refused {
            tx.rollback().await?;
            return Ok(refused);
        }
        let id = insert_queued(&mut tx, &new).await?;
        tx.commit().await?;
        Ok(Enqueued::Stored(id))
    }

    async fn cancel_queued(&self, owner: i64) -> Result<u64, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let n = sqlx::query(&format!(
            "UPDATE submissions SET status = 'cancelled', finished_at = {NOW}
             WHERE user_id = ? AND status = 'queued'"
        ))
        .bind(owner)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(n)
    }

    async fn claim(&self, worker: &str) -> Result<Option<Claimed>, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let claimed: Option<Claimed> = sqlx::query_as(&format!(
            "UPDATE submissions
             SET status = 'compiling', attempt = attempt + 1, worker = ?, started_at = {NOW},
                 lease_owner = ?, lease_expires_at = {LEASE_END}
             WHERE id = ({})
             RETURNING id, attempt, problem, language, source, contest, submitted_data_hash",
            fair_next()
        ))
        .bind(worker)
        .bind(self.lease.instance())
        .bind(lease_modifier(&self.lease))
        .bind(NodeData::claim_filter(self.data.as_ref()))
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(claimed)
    }

    async fn mark_running(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "UPDATE submissions SET status = 'running'
             WHERE id = ? AND attempt = ? AND status = 'compiling'",
        )
        .bind(id)
        .bind(attempt)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn complete(
        &self,
        id: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let updated = sqlx::query(&format!(
            "UPDATE submissions
             SET status = 'done', verdict = ?, score = ?, time_ms = ?, memory_kib = ?,
                 compile_ok = ?, compile_log = ?, message = ?, degraded = ?,
                 judged_data_hash = ?, lease_owner = NULL, lease_expires_at = NULL,
                 finished_at = {NOW}
             WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')"
        ))
        .bind(report.verdict.as_str())
        .bind(i64::from(report.score))
        .bind(signed(report.time_ms))
        .bind(signed(report.memory_kib))
        .bind(report.compile.ok)
        .bind(&report.compile.log)
        .bind(&report.message)
        .bind(report.degraded)
        .bind(&report.data_hash)
        .bind(id)
        .bind(attempt)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM test_results WHERE submission_id = ?")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for mut insert in insert_statements::<sqlx::Sqlite>(id, &report.tests) {
            insert.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn release(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "UPDATE submissions
             SET status = 'queued', worker = NULL, lease_owner = NULL, lease_expires_at = NULL
             WHERE id = ? AND attempt = ? AND status IN ('compiling', 'running')",
        )
        .bind(id)
        .bind(attempt)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn requeue_stale(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let failed = sqlx::query(&format!(
            "UPDATE submissions
             SET status = 'done', verdict = 'SE', score = 0, time_ms = 0, memory_kib = 0,
                 message = 'the judge stopped while judging this submission, ' || attempt ||
                           ' times (it crashed or was killed); not judged again',
                 worker = NULL, lease_owner = NULL, lease_expires_at = NULL, finished_at = {NOW}
             WHERE status IN ('compiling', 'running') AND attempt >= ?"
        ))
        .bind(i64::from(max_attempts))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let requeued = sqlx::query(
            "UPDATE submissions
             SET status = 'queued', worker = NULL, lease_owner = NULL, lease_expires_at = NULL
             WHERE status IN ('compiling', 'running')",
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(StaleOutcome { requeued, failed })
    }

    async fn rejudge(&self, id: i64) -> Result<RejudgeOutcome, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let status: Option<String> =
            sqlx::query_scalar("SELECT status FROM submissions WHERE id = ?")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let outcome = match status.as_deref().map(Status::parse) {
            None => RejudgeOutcome::NotFound,
            Some(Some(Status::Queued)) => {
                sqlx::query(&format!(
                    "UPDATE submissions SET submitted_data_hash = {STAMP} WHERE id = ?"
                ))
                .bind(NodeData::stamp(self.data.as_ref()))
                .bind(id)
                .execute(&mut *tx)
                .await?;
                RejudgeOutcome::AlreadyQueued
            }
            Some(Some(Status::Compiling | Status::Running)) => RejudgeOutcome::InProgress,
            Some(Some(Status::Cancelled)) => RejudgeOutcome::Cancelled,
            Some(Some(Status::Done)) | Some(None) => {
                sqlx::query(&format!(
                    "UPDATE submissions
                     SET status = 'queued', verdict = NULL, score = NULL, time_ms = NULL,
                         memory_kib = NULL, compile_ok = NULL, compile_log = NULL,
                         message = NULL, degraded = 0, finished_at = NULL, queued_at = {NOW},
                         submitted_data_hash = {STAMP}
                     WHERE id = ?"
                ))
                .bind(NodeData::stamp(self.data.as_ref()))
                .bind(id)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM test_results WHERE submission_id = ?")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                RejudgeOutcome::Requeued
            }
        };
        tx.commit().await?;
        Ok(outcome)
    }

    async fn depth(&self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'queued'")
            .fetch_one(&self.reader)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
