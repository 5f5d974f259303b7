//! [`SubmissionReads`] for [`Store`]: a submission and its tests are read in one snapshot.

use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::{to_submission, ListFilter, Submission, SubmissionRow, TestRow};
use crate::store::submissions::{
    assemble, list_filtered_query, owner_counts, SubmissionReads, QUEUED_BY_OWNER, SUBMISSION,
    TESTS_OF,
};
use crate::store::{Store, StoreError};

impl SubmissionReads for Store {
    async fn get(&self, id: i64) -> Result<Option<Submission>, StoreError> {
        each!(self, |db| {
            let mut tx = db.snapshot().await?;
            let row: Option<SubmissionRow> = sqlx::query_as(SUBMISSION)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let tests: Vec<TestRow> = sqlx::query_as(TESTS_OF)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
            tx.commit().await?;
            assemble(row, tests).map(Some)
        })
    }

    async fn queued_by_owner(&self, limit: u32) -> Result<Vec<(String, u64)>, StoreError> {
        each!(self, |db| {
            let rows = sqlx::query_as(QUEUED_BY_OWNER)
                .bind(i64::from(limit))
                .fetch_all(db.read())
                .await?;
            Ok(owner_counts(rows))
        })
    }

    async fn list_filtered(
        &self,
        owner: Option<i64>,
        filter: &ListFilter,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        each!(self, |db| {
            let rows = list_filtered_query(owner, filter, limit, before)
                .fetch_all(db.read())
                .await?;
            rows.into_iter().map(to_submission).collect()
        })
    }
}
