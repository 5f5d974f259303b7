//! [`Queue`] for [`Store`]: enqueue under the bounds, the fair claim, results, releases, stale
//! attempts, rejudges. Every write is one transaction ([`Dialect::write`], or
//! [`Dialect::execute`] for one statement); whatever puts a submission in the queue tells the
//! other nodes ([`Dialect::queued`]).

use crate::judge::JudgeReport;
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::gauges::QUEUED;
use crate::store::model::{
    signed, Claimed, Enqueued, NewSubmission, QueueBounds, RejudgeOutcome, StaleOutcome, Status,
};
use crate::store::node_data::NodeData;
use crate::store::queue::Queue;
use crate::store::result_rows::insert_statements;
use crate::store::sql::fair_claim;
use crate::store::sql::group_commit;
use crate::store::sql::insert_bounded::insert_bounded;
use crate::store::{Store, StoreError, StoreNode};

/// A new submission, queued.
const INSERT: &str =
    "INSERT INTO submissions (problem, language, source, user_id, submitted_data_hash)
     VALUES ($1, $2, $3, $4, $5) RETURNING id";

/// What a rejudge sets: queued again without results, its new `submitted_data_hash` from
/// the node's data (`$1`, [`Dialect::stamp`]).
pub(super) fn requeued(db: &impl Dialect) -> String {
    format!(
        "status = 'queued', verdict = NULL, score = NULL, time_ms = NULL, memory_kib = NULL,
         compile_ok = NULL, compile_log = NULL, message = NULL, degraded = FALSE,
         finished_at = NULL, queued_at = {}, submitted_data_hash = {}",
        db.now(),
        db.stamp(1)
    )
}

/// Which claims a sweep takes back from their node.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lost {
    /// Every claim: the one daemon of a SQLite file starts, so whatever is in flight was
    /// left by its crash.
    All,
    /// Claims of earlier instances of this node's name (it was restarted).
    EarlierInstances,
    /// Leases that ran out (their node stopped beating).
    Expired,
}

impl Lost {
    /// The SQL condition; `$n` is the node's name and `$n+1` its instance where it needs
    /// them ([`Lost::binds_names`]).
    fn condition(self, db: &impl Dialect, n: u8) -> String {
        match self {
            Lost::All => "TRUE".to_string(),
            Lost::EarlierInstances => format!(
                "substr(lease_owner, 1, length(${n}) + 1) = ${n} || '#' AND lease_owner <> ${}",
                n + 1
            ),
            Lost::Expired => format!("lease_expires_at < {}", db.instant()),
        }
    }

    fn binds_names(self) -> bool {
        matches!(self, Lost::EarlierInstances)
    }

    /// Why the submissions lost this way `max_attempts` times are `SE`.
    fn cause(self) -> &'static str {
        match self {
            Lost::All => "it crashed or was killed",
            Lost::EarlierInstances | Lost::Expired => "it crashed, was killed or lost its lease",
        }
    }
}

/// Stores the `lost` claims as `SE` when claimed `max_attempts` times, and puts the rest back
/// in the queue; shared by the start-up and the lease-expiry sweeps.
pub(super) async fn requeue_lost(
    store: &Store,
    lost: Lost,
    max_attempts: u32,
) -> Result<StaleOutcome, StoreError> {
    each!(store, |db| {
        let (node, instance) = (store.lease().node(), store.lease().instance());
        let mut tx = db.write().await?;
        let failed = format!(
            "UPDATE submissions
             SET status = 'done', verdict = 'SE', score = 0, time_ms = 0, memory_kib = 0,
                 message = 'the judge stopped while judging this submission, ' || attempt ||
                           ' times ({}); not judged again',
                 worker = NULL, lease_owner = NULL, lease_expires_at = NULL, finished_at = {}
             WHERE status IN ('compiling', 'running') AND attempt >= $1 AND ({})",
            lost.cause(),
            db.now(),
            lost.condition(db, 2)
        );
        let failed = sqlx::query(&failed).bind(i64::from(max_attempts));
        let failed = if lost.binds_names() {
            failed.bind(node).bind(instance)
        } else {
            failed
        };
        let failed = failed.execute(&mut *tx).await?.rows_affected();
        let requeued = format!(
            "UPDATE submissions
             SET status = 'queued', worker = NULL, lease_owner = NULL, lease_expires_at = NULL
             WHERE status IN ('compiling', 'running') AND ({})",
            lost.condition(db, 1)
        );
        let requeued = sqlx::query(&requeued);
        let requeued = if lost.binds_names() {
            requeued.bind(node).bind(instance)
        } else {
            requeued
        };
        let requeued = requeued.execute(&mut *tx).await?.rows_affected();
        if requeued > 0 {
            db.queued(&mut tx).await?;
        }
        tx.commit().await?;
        Ok(StaleOutcome { requeued, failed })
    })
}

impl Queue for Store {
    async fn enqueue(&self, new: NewSubmission) -> Result<i64, StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            let id = sqlx::query_scalar(INSERT)
                .bind(&new.problem)
                .bind(&new.language)
                .bind(&new.source)
                .bind(new.owner)
                .bind(&new.data_hash)
                .fetch_one(&mut *tx)
                .await?;
            db.queued(&mut tx).await?;
            tx.commit().await?;
            Ok(id)
        })
    }

    /// The counts and the insert are one statement, without a global lock: on PostgreSQL
    /// enqueuers never wait for each other (a global lock would serialise every commit's
    /// flush), and concurrent ones may overshoot `max_queued` by at most their number (the
    /// connections of the API nodes), which keeps the bound's purpose: a flood cannot fill
    /// the disk. The owner's bound is exact: their submissions are counted under a lock of
    /// their own, held to the commit (SQLite's one writer is such a lock already). On
    /// PostgreSQL the insert joins the next batch of the node's group commit
    /// (`group_commit.rs`).
    async fn enqueue_bounded(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> Result<Enqueued, StoreError> {
        let new = match self {
            Store::Postgres(pg) => match group_commit::of(pg).enqueue(new, bounds).await {
                Ok(outcome) => return outcome,
                Err(stopped) => stopped,
            },
            _ => new,
        };
        each!(self, |db| {
            let mut tx = db.write().await?;
            let outcome = insert_bounded!(db, tx, &new, bounds);
            if let Enqueued::Stored(_) = outcome {
                db.queued(&mut tx).await?;
            }
            tx.commit().await?;
            Ok(outcome)
        })
    }

    async fn cancel_queued(&self, owner: i64) -> Result<u64, StoreError> {
        each!(self, |db| {
            let sql = format!(
                "UPDATE submissions SET status = 'cancelled', finished_at = {}
                 WHERE user_id = $1 AND status = 'queued'",
                db.now()
            );
            db.execute(sqlx::query(&sql).bind(owner)).await
        })
    }

    /// The fair claim's candidate (`fair_claim::candidate`), then its claim; when another
    /// node took it between the two (PostgreSQL), the same order over the whole queue,
    /// skipping what others hold.
    async fn claim(&self, worker: &str) -> Result<Option<Claimed>, StoreError> {
        each!(self, |db| {
            let filter = NodeData::claim_filter(self.data());
            let mut tx = db.write().await?;
            if let Some(plan) = db.claim_plan() {
                sqlx::query(plan).execute(&mut *tx).await?;
            }
            let candidate: Option<i64> = sqlx::query_scalar(&fair_claim::candidate(db))
                .bind(filter.clone())
                .fetch_optional(&mut *tx)
                .await?;
            let Some(candidate) = candidate else {
                tx.commit().await?;
                return Ok(None);
            };
            let lease = self.lease();
            let mut claimed: Option<Claimed> = sqlx::query_as(&db.claim(fair_claim::CHOSEN))
                .bind(worker)
                .bind(lease.instance())
                .bind(lease.millis())
                .bind(candidate)
                .fetch_optional(&mut *tx)
                .await?;
            if claimed.is_none() {
                claimed = sqlx::query_as(&db.claim(&fair_claim::scan(db)))
                    .bind(worker)
                    .bind(lease.instance())
                    .bind(lease.millis())
                    .bind(filter)
                    .fetch_optional(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(claimed)
        })
    }

    async fn mark_running(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        const RUNNING: &str = "UPDATE submissions SET status = 'running'
             WHERE id = $1 AND attempt = $2 AND status = 'compiling'";
        each!(self, |db| db
            .execute(sqlx::query(RUNNING).bind(id).bind(attempt))
            .await?);
        Ok(())
    }

    async fn complete(
        &self,
        id: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            let updated = sqlx::query(&format!(
                "UPDATE submissions
                 SET status = 'done', verdict = $1, score = $2, time_ms = $3, memory_kib = $4,
                     compile_ok = $5, compile_log = $6, message = $7, degraded = $8,
                     judged_data_hash = $9, lease_owner = NULL, lease_expires_at = NULL,
                     finished_at = {}
                 WHERE id = $10 AND attempt = $11 AND status IN ('compiling', 'running')",
                db.now()
            ))
            .bind(report.verdict.as_str())
            .bind(report.score)
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
            sqlx::query("DELETE FROM test_results WHERE submission_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            for mut insert in insert_statements(id, &report.tests) {
                insert.build().execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    async fn release(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            let n = sqlx::query(
                "UPDATE submissions
                 SET status = 'queued', worker = NULL, lease_owner = NULL,
                     lease_expires_at = NULL
                 WHERE id = $1 AND attempt = $2 AND status IN ('compiling', 'running')",
            )
            .bind(id)
            .bind(attempt)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n > 0 {
                db.queued(&mut tx).await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// On a shared database a node starting cannot tell a crash's leftovers from another
    /// node's live claims: only this node name's earlier instances are requeued there; the
    /// claims of others return when their lease runs out.
    async fn requeue_stale(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        let lost = if self.is_shared() {
            Lost::EarlierInstances
        } else {
            Lost::All
        };
        requeue_lost(self, lost, max_attempts).await
    }

    async fn rejudge(&self, id: i64) -> Result<RejudgeOutcome, StoreError> {
        rejudge_one(self, id, None).await
    }

    async fn depth(&self) -> Result<u64, StoreError> {
        each!(self, |db| {
            let n: i64 = sqlx::query_scalar(QUEUED).fetch_one(db.read()).await?;
            Ok(u64::try_from(n).unwrap_or(0))
        })
    }
}

/// Queues submission `id` again (its results go), in one transaction; with `clock` (the
/// contest clock's instant) a judged contest submission's replaced verdict and score are
/// kept for the Contest API ([`crate::store::JudgingStore`]).
pub(super) async fn rejudge_one(
    store: &Store,
    id: i64,
    clock: Option<&str>,
) -> Result<RejudgeOutcome, StoreError> {
    each!(store, |db| {
        let mut tx = db.write().await?;
        let status: Option<String> = sqlx::query_scalar(&format!(
            "SELECT status FROM submissions WHERE id = $1 {}",
            db.lock_row()
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let stamp = NodeData::stamp(store.data());
        let stamp = stamp.as_deref();
        let outcome = match status.as_deref().map(Status::parse) {
            None => RejudgeOutcome::NotFound,
            Some(Some(Status::Queued)) => {
                sqlx::query(&format!(
                    "UPDATE submissions SET submitted_data_hash = {} WHERE id = $2",
                    db.stamp(1)
                ))
                .bind(stamp)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                db.queued(&mut tx).await?;
                RejudgeOutcome::AlreadyQueued
            }
            Some(Some(Status::Compiling | Status::Running)) => RejudgeOutcome::InProgress,
            Some(Some(Status::Cancelled)) => RejudgeOutcome::Cancelled,
            Some(Some(Status::Done)) | Some(None) => {
                if let Some(clock) = clock {
                    sqlx::query(crate::store::judgings::KEEP_ONE)
                        .bind(clock)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query(&format!(
                    "UPDATE submissions SET {} WHERE id = $2",
                    requeued(db)
                ))
                .bind(stamp)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM test_results WHERE submission_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                db.queued(&mut tx).await?;
                RejudgeOutcome::Requeued
            }
        };
        tx.commit().await?;
        Ok(outcome)
    })
}
