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

const LIST: &str =
    "SELECT id, submission_id, clock, old_verdict, old_score, queued_wall, ended_wall
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
