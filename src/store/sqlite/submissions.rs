//! [`SubmissionReads`] on SQLite, through the reader pool: the SQL is the text both stores
//! run (`store/submissions.rs`).

use crate::store::model::{to_submission, ListFilter, Submission, SubmissionRow, TestRow};
use crate::store::submissions::{
    assemble, list_filtered_query, owner_counts, SubmissionReads, QUEUED_BY_OWNER, SUBMISSION,
    TESTS_OF,
};
use crate::store::StoreError;

use super::SqliteStore;

impl SubmissionReads for SqliteStore {
    async fn get(&self, id: i64) -> Result<Option<Submission>, StoreError> {
        let mut tx = self.reader.begin().await?;
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
        let mut submission = assemble(row, tests)?;
        crate::store::stderr_tails::load_sqlite(&mut tx, id, &mut submission.tests).await?;
        tx.commit().await?;
        Ok(Some(submission))
    }

    async fn queued_by_owner(&self, limit: u32) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = sqlx::query_as(QUEUED_BY_OWNER)
            .bind(i64::from(limit))
            .fetch_all(&self.reader)
            .await?;
        Ok(owner_counts(rows))
    }

    async fn list_filtered(
        &self,
        owner: Option<i64>,
        filter: &ListFilter,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        let rows = list_filtered_query(owner, filter, limit, before)
            .fetch_all(&self.reader)
            .await?;
        rows.into_iter().map(to_submission).collect()
    }
}
