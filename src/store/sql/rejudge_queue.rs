//! [`RejudgeQueue`] for [`Store`]: a rejudging's runs claimed as submissions are (the node's
//! data filter, a lease; PostgreSQL skips rows other nodes hold), judged, released and
//! renewed.

use crate::judge::JudgeReport;
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::signed;
use crate::store::node_data::NodeData;
use crate::store::rejudgings::{ClaimedRun, RejudgeQueue};
use crate::store::{Store, StoreError, StoreNode};

/// The run a claim returns, and its submission.
#[derive(sqlx::FromRow)]
struct ClaimRow {
    id: i64,
    attempt: i64,
    submission_id: i64,
    problem: String,
    submitted_data_hash: Option<String>,
}

impl RejudgeQueue for Store {
    async fn claim_run(&self, worker: &str) -> Result<Option<ClaimedRun>, StoreError> {
        each!(self, |db| {
            let claim = format!(
                "UPDATE rejudging_runs
                 SET status = 'judging', attempt = attempt + 1, worker = $1, lease_owner = $2,
                     lease_expires_at = {}
                 WHERE id = (SELECT q.id FROM rejudging_runs q
                             WHERE (q.status = 'queued'
                                    OR (q.status = 'judging' AND q.lease_expires_at < {}))
                               AND EXISTS (SELECT 1 FROM rejudgings r
                                           WHERE r.id = q.rejudging_id AND r.state = 'open')
                               AND {}
                             ORDER BY q.id LIMIT 1 {})
                 RETURNING id, attempt, submission_id, problem, submitted_data_hash",
                db.lease_end(3),
                db.instant(),
                db.accepts(4),
                db.skip_locked()
            );
            let mut tx = db.write().await?;
            let row: Option<ClaimRow> = sqlx::query_as(&claim)
                .bind(worker)
                .bind(self.lease().instance())
                .bind(self.lease().millis())
                .bind(NodeData::claim_filter(self.data()))
                .fetch_optional(&mut *tx)
                .await?;
            let Some(row) = row else {
                tx.commit().await?;
                return Ok(None);
            };
            let (language, source, contest): (String, String, Option<String>) =
                sqlx::query_as("SELECT language, source, contest FROM submissions WHERE id = $1")
                    .bind(row.submission_id)
                    .fetch_one(&mut *tx)
                    .await?;
            tx.commit().await?;
            Ok(Some(ClaimedRun {
                run: row.id,
                attempt: row.attempt,
                submission: row.submission_id,
                problem: row.problem,
                language,
                source,
                contest,
                submitted_data_hash: row.submitted_data_hash,
            }))
        })
    }

    async fn complete_run(
        &self,
        run: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        let tests = serde_json::to_string(&report.tests).map_err(|e| StoreError::Corrupt {
            id: run,
            what: format!("rejudging run's test results: {e}"),
        })?;
        each!(self, |db| {
            let sql = format!(
                "UPDATE rejudging_runs
                 SET status = 'done', verdict = $1, score = $2, time_ms = $3, memory_kib = $4,
                     compile_ok = $5, compile_log = $6, message = $7, degraded = $8,
                     judged_data_hash = $9, tests = $10, lease_owner = NULL,
                     lease_expires_at = NULL, finished_at = {}
                 WHERE id = $11 AND attempt = $12 AND status = 'judging'",
                db.now()
            );
            let n = db
                .execute(
                    sqlx::query(&sql)
                        .bind(report.verdict.as_str())
                        .bind(report.score)
                        .bind(signed(report.time_ms))
                        .bind(signed(report.memory_kib))
                        .bind(report.compile.ok)
                        .bind(&report.compile.log)
                        .bind(&report.message)
                        .bind(report.degraded)
                        .bind(&report.data_hash)
                        .bind(&tests)
                        .bind(run)
                        .bind(attempt),
                )
                .await?;
            Ok(n > 0)
        })
    }

    async fn release_run(&self, run: i64, attempt: i64) -> Result<(), StoreError> {
        const RELEASE: &str = "UPDATE rejudging_runs
             SET status = 'queued', worker = NULL, lease_owner = NULL, lease_expires_at = NULL
             WHERE id = $1 AND attempt = $2 AND status = 'judging'";
        each!(self, |db| {
            let mut tx = db.write().await?;
            sqlx::query(RELEASE)
                .bind(run)
                .bind(attempt)
                .execute(&mut *tx)
                .await?;
            db.queued(&mut tx).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    async fn renew_runs(&self) -> Result<u64, StoreError> {
        each!(self, |db| {
            let sql = format!(
                "UPDATE rejudging_runs SET lease_expires_at = {}
                 WHERE lease_owner = $2 AND status = 'judging'",
                db.lease_end(1)
            );
            db.execute(
                sqlx::query(&sql)
                    .bind(self.lease().millis())
                    .bind(self.lease().instance()),
            )
            .await
        })
    }
}
