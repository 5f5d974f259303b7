//! [`JudgingStore`] for [`Store`]: the immediate rejudges (bodies shared with
//! [`crate::store::Queue::rejudge`] and [`crate::store::ContestStore::rejudge_label`], which
//! keep nothing) and the records they keep, one query text on both backends.

use jiff::Timestamp;

use crate::store::any::each;
use crate::store::contests::{db_time, RejudgeCount};
use crate::store::dialect::Dialect;
use crate::store::judgings::{ImmediateRejudge, JudgingStore};
use crate::store::model::RejudgeOutcome;
use crate::store::{Store, StoreError};

use super::contests::rejudge_problem;
use super::queue::rejudge_one;

/// Keeps submission `$2`'s result (a judged contest submission's) with the clock `$1`.
pub(super) const KEEP_ONE: &str =
    "INSERT INTO immediate_rejudges (submission_id, contest, old_verdict, old_score, clock)
     SELECT id, contest, verdict, score, CAST($1 AS TEXT) FROM submissions
     WHERE id = $2 AND contest IS NOT NULL AND status = 'done' AND verdict IS NOT NULL";

/// Keeps the results of contest `$2`'s judged submissions to label `$3` with the clock `$1`.
pub(super) const KEEP_PROBLEM: &str =
    "INSERT INTO immediate_rejudges (submission_id, contest, old_verdict, old_score, clock)
     SELECT id, contest, verdict, score, CAST($1 AS TEXT) FROM submissions
     WHERE contest = $2 AND label = $3 AND status = 'done' AND verdict IS NOT NULL
     ORDER BY id";

const LIST: &str = "SELECT id, submission_id, clock, old_verdict, old_score
     FROM immediate_rejudges WHERE contest = $1 ORDER BY clock, id";

impl JudgingStore for Store {
    async fn rejudge_kept(&self, id: i64, clock: Timestamp) -> Result<RejudgeOutcome, StoreError> {
        rejudge_one(self, id, Some(&db_time(clock))).await
    }

    async fn rejudge_label_kept(
        &self,
        contest: &str,
        label: &str,
        clock: Timestamp,
    ) -> Result<RejudgeCount, StoreError> {
        rejudge_problem(self, contest, label, Some(&db_time(clock))).await
    }

    async fn immediate_rejudges(&self, contest: &str) -> Result<Vec<ImmediateRejudge>, StoreError> {
        each!(self, |db| Ok(sqlx::query_as(LIST)
            .bind(contest)
            .fetch_all(db.read())
            .await?))
    }
}
