//! [`Queue`] on SQLite: enqueue under the bounds, the fair claim, results, releases, stale
//! attempts, rejudges, every write in the writer's `BEGIN IMMEDIATE`.

use crate::judge::JudgeReport;
use crate::store::model::{
    signed, Claimed, Enqueued, NewSubmission, QueueBounds, RejudgeOutcome, StaleOutcome,
};
use crate::store::queue::Queue;
use crate::store::result_rows::insert_statements;
use crate::store::StoreError;

use super::*;

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
        crate::store::stderr_tails::save_sqlite(&mut tx, id, &report.tests).await?;
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
