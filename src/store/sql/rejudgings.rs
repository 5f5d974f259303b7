//! [`RejudgingStore`] for [`Store`]: rejudgings started under a lock (one open per contest, a
//! bound over all), their results kept aside, and applied in one transaction. Their runs are
//! claimed in `rejudge_queue.rs`.

use crate::judge::{TestResult, Verdict};
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::Status;
use crate::store::node_data::NodeData;
use crate::store::rejudgings::{
    Closed, NewRejudging, Rejudging, RejudgingCreated, RejudgingRun, RejudgingState, RejudgingStore,
};
use crate::store::result_rows::insert_statements;
use crate::store::{Store, StoreError, StoreNode};

/// A rejudging's columns and progress, as [`RejudgingRow`] reads them.
const SELECT: &str = "SELECT r.id, r.contest, r.label, r.chosen, r.created_by, r.created_at,
            r.state, r.closed_by, r.closed_at,
            (SELECT COUNT(*) FROM rejudging_runs x WHERE x.rejudging_id = r.id) AS total,
            (SELECT COUNT(*) FROM rejudging_runs x
             WHERE x.rejudging_id = r.id AND x.status = 'done') AS judged
     FROM rejudgings r";

/// A stored rejudging.
#[derive(sqlx::FromRow)]
struct RejudgingRow {
    id: i64,
    contest: String,
    label: Option<String>,
    chosen: Option<String>,
    created_by: String,
    created_at: String,
    state: String,
    closed_by: Option<String>,
    closed_at: Option<String>,
    total: i64,
    judged: i64,
}

impl TryFrom<RejudgingRow> for Rejudging {
    type Error = StoreError;

    fn try_from(r: RejudgingRow) -> Result<Rejudging, StoreError> {
        let corrupt = |what: String| StoreError::Corrupt { id: r.id, what };
        let state =
            RejudgingState::parse(&r.state).ok_or_else(|| corrupt(format!("state {}", r.state)))?;
        let chosen = r
            .chosen
            .as_deref()
            .map(|c| {
                c.split(',')
                    .map(|n| n.parse::<i64>())
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()
            .map_err(|e| corrupt(format!("chosen: {e}")))?;
        Ok(Rejudging {
            id: r.id,
            contest: r.contest,
            label: r.label,
            chosen,
            created_by: r.created_by,
            created_at: r.created_at,
            state,
            closed_by: r.closed_by,
            closed_at: r.closed_at,
            total: u64::try_from(r.total).unwrap_or(0),
            judged: u64::try_from(r.judged).unwrap_or(0),
        })
    }
}

/// A run beside its submission.
#[derive(sqlx::FromRow)]
struct RunRow {
    submission_id: i64,
    user_name: Option<String>,
    label: Option<String>,
    stored_status: String,
    old_verdict: Option<String>,
    old_score: Option<i64>,
    status: String,
    new_verdict: Option<String>,
    new_score: Option<i64>,
}

fn verdict_of(id: i64, v: Option<String>) -> Result<Option<Verdict>, StoreError> {
    v.as_deref()
        .map(Verdict::parse)
        .transpose()
        .map_err(|e| StoreError::Corrupt {
            id,
            what: e.to_string(),
        })
}

impl TryFrom<RunRow> for RejudgingRun {
    type Error = StoreError;

    fn try_from(r: RunRow) -> Result<RejudgingRun, StoreError> {
        let id = r.submission_id;
        Ok(RejudgingRun {
            submission: id,
            user: r.user_name,
            label: r.label,
            stored_status: Status::parse(&r.stored_status).ok_or_else(|| StoreError::Corrupt {
                id,
                what: format!("status {}", r.stored_status),
            })?,
            old_verdict: verdict_of(id, r.old_verdict)?,
            old_score: r.old_score,
            judged: r.status == "done",
            new_verdict: verdict_of(id, r.new_verdict)?,
            new_score: r.new_score,
        })
    }
}

/// A judged run's result, as applying copies it.
#[derive(sqlx::FromRow)]
struct ResultRow {
    submission_id: i64,
    verdict: Option<String>,
    score: Option<i64>,
    time_ms: Option<i64>,
    memory_kib: Option<i64>,
    compile_ok: Option<bool>,
    compile_log: Option<String>,
    message: Option<String>,
    degraded: bool,
    judged_data_hash: Option<String>,
    tests: Option<String>,
    finished_at: Option<String>,
}

impl RejudgingStore for Store {
    async fn create_rejudging(&self, new: &NewRejudging) -> Result<RejudgingCreated, StoreError> {
        let chosen = new
            .chosen
            .as_ref()
            .map(|ids| ids.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
        let stamp = NodeData::stamp(self.data());
        each!(self, |db| {
            let mut tx = db.write().await?;
            db.lock(&mut tx, "rejudgings").await?;
            let busy: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM rejudgings WHERE contest = $1 AND state = 'open'",
            )
            .bind(&new.contest)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(id) = busy {
                return Ok(RejudgingCreated::Busy(id));
            }
            let open: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM rejudgings WHERE state = 'open'")
                    .fetch_one(&mut *tx)
                    .await?;
            if open >= i64::from(new.max_open) {
                return Ok(RejudgingCreated::TooMany(u64::try_from(open).unwrap_or(0)));
            }
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO rejudgings (contest, label, chosen, created_by)
                 VALUES ($1, $2, $3, $4) RETURNING id",
            )
            .bind(&new.contest)
            .bind(&new.label)
            .bind(&chosen)
            .bind(&new.created_by)
            .fetch_one(&mut *tx)
            .await?;
            let insert = format!(
                "INSERT INTO rejudging_runs (rejudging_id, submission_id, problem,
                                             submitted_data_hash)
                 SELECT CAST($1 AS BIGINT), id, problem, {} FROM submissions
                 WHERE contest = $3 AND status = 'done'
                   AND (CAST($4 AS TEXT) IS NULL OR label = $4)
                   AND (CAST($5 AS BIGINT) IS NULL OR id = $5)
                 ON CONFLICT DO NOTHING",
                db.stamp(2)
            );
            let mut runs = 0;
            let one_each: Vec<Option<i64>> = match &new.chosen {
                None => vec![None],
                Some(ids) => ids.iter().copied().map(Some).collect(),
            };
            for only in one_each {
                runs += sqlx::query(&insert)
                    .bind(id)
                    .bind(stamp.clone())
                    .bind(&new.contest)
                    .bind(&new.label)
                    .bind(only)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            if runs == 0 {
                tx.rollback().await?;
                return Ok(RejudgingCreated::Nothing);
            }
            db.queued(&mut tx).await?;
            tx.commit().await?;
            Ok(RejudgingCreated::Created { id, runs })
        })
    }

    async fn rejudging(&self, id: i64) -> Result<Option<Rejudging>, StoreError> {
        let sql = format!("{SELECT} WHERE r.id = $1");
        let row: Option<RejudgingRow> = each!(self, |db| sqlx::query_as(&sql)
            .bind(id)
            .fetch_optional(db.read())
            .await?);
        row.map(Rejudging::try_from).transpose()
    }

    async fn rejudgings(&self, limit: u32) -> Result<Vec<Rejudging>, StoreError> {
        let sql = format!("{SELECT} ORDER BY r.id DESC LIMIT $1");
        let rows: Vec<RejudgingRow> = each!(self, |db| sqlx::query_as(&sql)
            .bind(i64::from(limit))
            .fetch_all(db.read())
            .await?);
        rows.into_iter().map(Rejudging::try_from).collect()
    }

    async fn rejudging_runs(&self, id: i64) -> Result<Vec<RejudgingRun>, StoreError> {
        const RUNS: &str = "SELECT r.submission_id, u.name AS user_name, s.label,
                s.status AS stored_status, s.verdict AS old_verdict, s.score AS old_score,
                r.status, r.verdict AS new_verdict, r.score AS new_score
             FROM rejudging_runs r JOIN submissions s ON s.id = r.submission_id
             LEFT JOIN users u ON u.id = s.user_id
             WHERE r.rejudging_id = $1 ORDER BY r.submission_id";
        let rows: Vec<RunRow> = each!(self, |db| sqlx::query_as(RUNS)
            .bind(id)
            .fetch_all(db.read())
            .await?);
        rows.into_iter().map(RejudgingRun::try_from).collect()
    }

    async fn apply_rejudging(
        &self,
        id: i64,
        by: &str,
        at: jiff::Timestamp,
    ) -> Result<Closed, StoreError> {
        close_rejudging(self, id, by, RejudgingState::Applied, Some(at)).await
    }

    async fn cancel_rejudging(&self, id: i64, by: &str) -> Result<Closed, StoreError> {
        close_rejudging(self, id, by, RejudgingState::Cancelled, None).await
    }
}

/// Closes the open rejudging `id` as `to` by `by`; applying it (all its runs judged, at
/// `applied_at` on the contest clock) first copies each run's result onto its submission, where
/// the submission is still `done`, keeping the verdict and score it replaces on the run.
async fn close_rejudging(
    store: &Store,
    id: i64,
    by: &str,
    to: RejudgingState,
    applied_at: Option<jiff::Timestamp>,
) -> Result<Closed, StoreError> {
    const RESULTS: &str = "SELECT submission_id, verdict, score, time_ms, memory_kib,
            compile_ok, compile_log, message, degraded, judged_data_hash, tests, finished_at
         FROM rejudging_runs WHERE rejudging_id = $1 ORDER BY submission_id";
    const TAKE: &str = "UPDATE submissions
         SET verdict = $1, score = $2, time_ms = $3, memory_kib = $4, compile_ok = $5,
             compile_log = $6, message = $7, degraded = $8, judged_data_hash = $9,
             finished_at = $10
         WHERE id = $11 AND status = 'done'";
    const KEEP_OLD: &str = "UPDATE rejudging_runs
         SET old_verdict = (SELECT verdict FROM submissions WHERE id = $2 AND status = 'done'),
             old_score = (SELECT score FROM submissions WHERE id = $2 AND status = 'done')
         WHERE rejudging_id = $1 AND submission_id = $2";
    each!(store, |db| {
        let mut tx = db.write().await?;
        let state: Option<String> = sqlx::query_scalar(&format!(
            "SELECT state FROM rejudgings WHERE id = $1 {}",
            db.lock_row()
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        match state.as_deref().map(RejudgingState::parse) {
            None => return Ok(Closed::NotFound),
            Some(Some(RejudgingState::Open)) => {}
            Some(Some(other)) => return Ok(Closed::NotOpen(other)),
            Some(None) => {
                return Err(StoreError::Corrupt {
                    id,
                    what: format!("rejudging state {state:?}"),
                })
            }
        }
        let (mut applied, mut skipped) = (0, 0);
        if to == RejudgingState::Applied {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM rejudging_runs WHERE rejudging_id = $1 AND status <> 'done'",
            )
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            if waiting > 0 {
                return Ok(Closed::Unfinished(u64::try_from(waiting).unwrap_or(0)));
            }
            let results: Vec<ResultRow> =
                sqlx::query_as(RESULTS).bind(id).fetch_all(&mut *tx).await?;
            for r in results {
                let tests: Vec<TestResult> = match r.tests.as_deref() {
                    None => Vec::new(),
                    Some(json) => serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
                        id: r.submission_id,
                        what: format!("rejudging {id}'s test results: {e}"),
                    })?,
                };
                sqlx::query(KEEP_OLD)
                    .bind(id)
                    .bind(r.submission_id)
                    .execute(&mut *tx)
                    .await?;
                let n = sqlx::query(TAKE)
                    .bind(&r.verdict)
                    .bind(r.score)
                    .bind(r.time_ms)
                    .bind(r.memory_kib)
                    .bind(r.compile_ok)
                    .bind(&r.compile_log)
                    .bind(&r.message)
                    .bind(r.degraded)
                    .bind(&r.judged_data_hash)
                    .bind(&r.finished_at)
                    .bind(r.submission_id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                if n == 0 {
                    skipped += 1;
                    continue;
                }
                applied += 1;
                sqlx::query("DELETE FROM test_results WHERE submission_id = $1")
                    .bind(r.submission_id)
                    .execute(&mut *tx)
                    .await?;
                for mut insert in insert_statements(r.submission_id, &tests) {
                    insert.build().execute(&mut *tx).await?;
                }
            }
        }
        sqlx::query(&format!(
            "UPDATE rejudgings SET state = $1, closed_by = $2, closed_at = {}, applied_clock = $4
             WHERE id = $3",
            db.now()
        ))
        .bind(to.as_str())
        .bind(by)
        .bind(id)
        .bind(applied_at.map(|t| t.to_string()))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Closed::Done { applied, skipped })
    })
}
