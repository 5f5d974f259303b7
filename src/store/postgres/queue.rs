//! [`Queue`] on PostgreSQL. A claim locks the row it takes with `FOR UPDATE SKIP LOCKED`, so
//! nodes claiming at once never wait on each other nor take the same submission; the order is
//! SQLite's fair one (the oldest queued submission of the owner with the fewest in flight).

use crate::judge::JudgeReport;

use super::{PgStore, QUEUE_CHANNEL};
use crate::store::model::{
    signed, Claimed, Enqueued, NewSubmission, QueueBounds, RejudgeOutcome, StaleOutcome, Status,
};
use crate::store::node_data::NodeData;
use crate::store::queue::Queue;
use crate::store::result_rows::insert_statements;
use crate::store::StoreError;

/// Whether the queued submission `q` is one this node takes: `$N` is [`NodeData`]'s claim
/// filter (a JSON object of problem id to hash; NULL takes anything): the node has the
/// problem, and the submission's hash is unset or the node's.
pub(super) fn accepts(n: u8) -> String {
    format!(
        "(${n}::text IS NULL OR (${n}::jsonb ->> q.problem IS NOT NULL
           AND (q.submitted_data_hash IS NULL
                OR q.submitted_data_hash = ${n}::jsonb ->> q.problem)))"
    )
}

/// `contest::pick`'s rule in one ORDER BY (see `sqlite.rs`'s `fair_next`), among what this
/// node accepts (`$4`), locking the row; rows other nodes hold locked are skipped.
fn fair_next() -> String {
    format!(
        "SELECT q.id FROM submissions q WHERE q.status = 'queued' AND {}
         ORDER BY q.contest IS NULL,
                  (SELECT COUNT(*) FROM submissions f
                   WHERE f.status IN ('compiling', 'running')
                     AND f.user_id IS NOT DISTINCT FROM q.user_id),
                  q.queued_at, q.id
         LIMIT 1 FOR UPDATE SKIP LOCKED",
        accepts(4)
    )
}

/// A rejudge's new `submitted_data_hash`: the rejudging node's hash of the submission's
/// problem (`$N`, the [`NodeData`] JSON), or the stored one when there is none.
pub(super) fn stamp(n: u8) -> String {
    format!("COALESCE(${n}::jsonb ->> problem, submitted_data_hash)")
}

/// Wakes idle workers on every node when the transaction commits (`NOTIFY` is delivered then).
pub(super) async fn notify_queue(tx: &mut sqlx::PgConnection) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_notify($1, '')")
        .bind(QUEUE_CHANNEL)
        .execute(tx)
        .await?;
    Ok(())
}

/// Takes the lock of `owner`'s queued submissions to the end of the transaction: their
/// count (the per-user bound) is then exact across every API node.
pub(super) async fn owner_lock(tx: &mut sqlx::PgConnection, owner: i64) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('queued/' || $1, 0))")
        .bind(owner.to_string())
        .execute(tx)
        .await?;
    Ok(())
}

/// How many submissions of `owner` are queued.
pub(super) async fn queued_of(tx: &mut sqlx::PgConnection, owner: i64) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM submissions WHERE status = 'queued' AND user_id = $1",
    )
    .bind(owner)
    .fetch_one(tx)
    .await?)
}

async fn insert_queued(
    tx: &mut sqlx::PgConnection,
    new: &NewSubmission,
) -> Result<i64, StoreError> {
    let id = sqlx::query_scalar(
        "INSERT INTO submissions (problem, language, source, user_id, submitted_data_hash)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(&new.problem)
    .bind(&new.language)
    .bind(&new.source)
    .bind(new.owner)
    .bind(&new.data_hash)
    .fetch_one(&mut *tx)
    .await?;
    // Delivered at commit: idle workers on every node wake up.
    notify_queue(&mut *tx).await?;
    Ok(id)
}

/// Which claims a sweep takes back from their node.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lost {
    /// Leases that ran out (their node stopped beating).
    Expired,
    /// Claims of earlier instances of this node's name (it was restarted).
    EarlierInstances,
}

impl Lost {
    /// The SQL condition; `$2` is the node's name, `$3` its instance.
    fn condition(self) -> &'static str {
        match self {
            Lost::Expired => "lease_expires_at < now()",
            Lost::EarlierInstances => {
                "left(lease_owner, length($2) + 1) = $2 || '#' AND lease_owner <> $3"
            }
        }
    }
}

/// Stores the `lost` claims as `SE` when claimed `max_attempts` times, and puts the rest back
/// in the queue; shared by the start-up and the lease-expiry sweeps.
pub(super) async fn requeue_lost(
    store: &PgStore,
    lost: Lost,
    max_attempts: u32,
) -> Result<StaleOutcome, StoreError> {
    let condition = lost.condition();
    let mut tx = store.pool.begin().await?;
    let failed = sqlx::query(&format!(
        "UPDATE submissions
         SET status = 'done', verdict = 'SE', score = 0, time_ms = 0, memory_kib = 0,
             message = 'the judge stopped while judging this submission, ' || attempt ||
                       ' times (it crashed, was killed or lost its lease); not judged again',
             worker = NULL, lease_owner = NULL, lease_expires_at = NULL, finished_at = sj_now()
         WHERE status IN ('compiling', 'running') AND ({condition}) AND attempt >= $1"
    ))
    .bind(i64::from(max_attempts))
    .bind(store.lease.node())
    .bind(store.lease.instance())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let requeued = sqlx::query(&format!(
        "UPDATE submissions
         SET status = 'queued', worker = NULL, lease_owner = NULL, lease_expires_at = NULL
         WHERE status IN ('compiling', 'running') AND ({condition}) AND $1::bigint >= 0"
    ))
    .bind(i64::from(max_attempts))
    .bind(store.lease.node())
    .bind(store.lease.instance())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if requeued > 0 {
        notify_queue(&mut tx).await?;
    }
    tx.commit().await?;
    Ok(StaleOutcome { requeued, failed })
}

impl Queue for PgStore {
    async fn enqueue(&self, new: NewSubmission) -> Result<i64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let id = insert_queued(&mut tx, &new).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The global count and the insert are one statement, without a global lock: enqueuers
    /// never wait for each other (a global lock would serialise every commit's flush), and
    /// concurrent ones may overshoot `max_queued` by at most their number (the connections of
    /// the API nodes), which keeps the bound's purpose: a flood cannot fill the disk. The
    /// owner's bound is exact: their submissions are counted under a lock of their own
    /// (`owner_lock`), held to the commit.
    async fn enqueue_bounded(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> Result<Enqueued, StoreError> {
        let mut tx = self.pool.begin().await?;
        let per_user = match (new.owner, bounds.per_user) {
            (Some(owner), Some(n)) => {
                owner_lock(&mut tx, owner).await?;
                Some(i64::try_from(n).unwrap_or(i64::MAX))
            }
            _ => None,
        };
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO submissions (problem, language, source, user_id, submitted_data_hash)
             SELECT $1, $2, $3, $4, $6
             WHERE (SELECT COUNT(*) FROM submissions WHERE status = 'queued') < $5
               AND ($7::bigint IS NULL OR (SELECT COUNT(*) FROM submissions
                                           WHERE status = 'queued' AND user_id = $4) < $7)
             RETURNING id",
        )
        .bind(&new.problem)
        .bind(&new.language)
        .bind(&new.source)
        .bind(new.owner)
        .bind(i64::try_from(bounds.max_queued).unwrap_or(i64::MAX))
        .bind(&new.data_hash)
        .bind(per_user)
        .fetch_optional(&mut *tx)
        .await?;
        let outcome = match id {
            Some(id) => {
                notify_queue(&mut tx).await?;
                Enqueued::Stored(id)
            }
            None => match (new.owner, per_user) {
                (Some(owner), Some(n)) if queued_of(&mut tx, owner).await? >= n => {
                    Enqueued::OwnerFull
                }
                _ => Enqueued::QueueFull,
            },
        };
        tx.commit().await?;
        Ok(outcome)
    }

    async fn cancel_queued(&self, owner: i64) -> Result<u64, StoreError> {
        let n = sqlx::query(
            "UPDATE submissions SET status = 'cancelled', finished_at = sj_now()
             WHERE user_id = $1 AND status = 'queued'",
        )
        .bind(owner)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n)
    }

    async fn claim(&self, worker: &str) -> Result<Option<Claimed>, StoreError> {
        let claimed: Option<Claimed> = sqlx::query_as(&format!(
            "WITH next AS ({})
             UPDATE submissions s
             SET status = 'compiling', attempt = s.attempt + 1, worker = $1,
                 started_at = sj_now(), lease_owner = $2,
                 lease_expires_at = now() + $3 * interval '1 millisecond'
             FROM next WHERE s.id = next.id
             RETURNING s.id, s.attempt, s.problem, s.language, s.source, s.contest,
                       s.submitted_data_hash",
            fair_next()
        ))
        .bind(worker)
        .bind(self.lease.instance())
        .bind(self.lease.millis() as f64)
        .bind(NodeData::claim_filter(self.data.as_ref()))
        .fetch_optional(&self.pool)
        .await?;
        Ok(claimed)
    }

    async fn mark_running(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE submissions SET status = 'running'
             WHERE id = $1 AND attempt = $2 AND status = 'compiling'",
        )
        .bind(id)
        .bind(attempt)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn complete(
        &self,
        id: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE submissions
             SET status = 'done', verdict = $1, score = $2, time_ms = $3, memory_kib = $4,
                 compile_ok = $5, compile_log = $6, message = $7, degraded = $8,
                 judged_data_hash = $11, lease_owner = NULL, lease_expires_at = NULL,
                 finished_at = sj_now()
             WHERE id = $9 AND attempt = $10 AND status IN ('compiling', 'running')",
        )
        .bind(report.verdict.as_str())
        .bind(i64::from(report.score))
        .bind(signed(report.time_ms))
        .bind(signed(report.memory_kib))
        .bind(report.compile.ok)
        .bind(&report.compile.log)
        .bind(&report.message)
        .bind(report.degraded)
        .bind(id)
        .bind(attempt)
        .bind(&report.data_hash)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM test_results WHERE submission_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for mut insert in insert_statements::<sqlx::Postgres>(id, &report.tests) {
            insert.build().execute(&mut *tx).await?;
        }
        crate::store::stderr_tails::save_pg(&mut tx, id, &report.tests).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn release(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let n = sqlx::query(
            "UPDATE submissions
             SET status = 'queued', worker = NULL, lease_owner = NULL, lease_expires_at = NULL
             WHERE id = $1 AND attempt = $2 AND status IN ('compiling', 'running')",
        )
        .bind(id)
        .bind(attempt)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n > 0 {
            notify_queue(&mut tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// On a shared database a node starting cannot tell a crash's leftovers from another
    /// node's live claims: only this node name's earlier instances are requeued here; the
    /// claims of others return when their lease runs out.
    async fn requeue_stale(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        requeue_lost(self, Lost::EarlierInstances, max_attempts).await
    }

    async fn rejudge(&self, id: i64) -> Result<RejudgeOutcome, StoreError> {
        let mut tx = self.pool.begin().await?;
        let status: Option<String> =
            sqlx::query_scalar("SELECT status FROM submissions WHERE id = $1 FOR UPDATE")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let outcome = match status.as_deref().map(Status::parse) {
            None => RejudgeOutcome::NotFound,
            Some(Some(Status::Queued)) => {
                sqlx::query(&format!(
                    "UPDATE submissions SET submitted_data_hash = {} WHERE id = $1",
                    stamp(2)
                ))
                .bind(id)
                .bind(NodeData::stamp(self.data.as_ref()))
                .execute(&mut *tx)
                .await?;
                notify_queue(&mut tx).await?;
                RejudgeOutcome::AlreadyQueued
            }
            Some(Some(Status::Compiling | Status::Running)) => RejudgeOutcome::InProgress,
            Some(Some(Status::Cancelled)) => RejudgeOutcome::Cancelled,
            Some(Some(Status::Done)) | Some(None) => {
                sqlx::query(&format!(
                    "UPDATE submissions
                     SET status = 'queued', verdict = NULL, score = NULL, time_ms = NULL,
                         memory_kib = NULL, compile_ok = NULL, compile_log = NULL,
                         message = NULL, degraded = FALSE, finished_at = NULL,
                         queued_at = sj_now(), submitted_data_hash = {}
                     WHERE id = $1",
                    stamp(2)
                ))
                .bind(id)
                .bind(NodeData::stamp(self.data.as_ref()))
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM test_results WHERE submission_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                notify_queue(&mut tx).await?;
                RejudgeOutcome::Requeued
            }
        };
        tx.commit().await?;
        Ok(outcome)
    }

    async fn depth(&self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'queued'")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
