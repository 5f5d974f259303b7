//! [`Dialect`] on SQLite: writes in `BEGIN IMMEDIATE` on the one writer (so nothing else needs
//! a lock), times as `strftime` text, the node's data filter through `json_each`.

use sqlx::{Pool, Sqlite, SqliteConnection, Transaction};

use super::SqliteStore;
use crate::store::dialect::{Args, Dialect};
use crate::store::StoreError;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

impl Dialect for SqliteStore {
    type Db = Sqlite;

    fn read(&self) -> &Pool<Sqlite> {
        &self.reader
    }

    async fn write(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?)
    }

    async fn execute<'q>(&self, query: Args<'q, Self>) -> Result<u64, StoreError> {
        let mut tx = self.write().await?;
        let n = query.execute(&mut *tx).await?.rows_affected();
        tx.commit().await?;
        Ok(n)
    }

    async fn snapshot(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        Ok(self.reader.begin().await?)
    }

    async fn lock(&self, _tx: &mut SqliteConnection, _key: &str) -> Result<(), StoreError> {
        Ok(())
    }

    async fn queued(&self, _tx: &mut SqliteConnection) -> Result<(), StoreError> {
        Ok(())
    }

    fn now(&self) -> &'static str {
        NOW
    }

    fn later(&self, n: u8) -> String {
        format!("strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ${n} || ' seconds')")
    }

    fn instant(&self) -> &'static str {
        NOW
    }

    fn lease_end(&self, n: u8) -> String {
        format!("strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('+%.3f seconds', ${n} / 1000.0))")
    }

    fn age_ms(&self, column: &str) -> String {
        format!("CAST((julianday('now') - julianday({column})) * 86400000 AS INTEGER)")
    }

    fn lock_row(&self) -> &'static str {
        ""
    }

    fn skip_locked(&self) -> &'static str {
        ""
    }

    fn accepts(&self, n: u8) -> String {
        format!(
            "(${n} IS NULL OR EXISTS (SELECT 1 FROM json_each(${n}) j WHERE j.key = q.problem
               AND (q.submitted_data_hash IS NULL OR j.value = q.submitted_data_hash)))"
        )
    }

    fn stamp(&self, n: u8) -> String {
        format!(
            "COALESCE((SELECT j.value FROM json_each(${n}) j WHERE j.key = submissions.problem),
                      submitted_data_hash)"
        )
    }

    /// SQLite's one writer runs one claim at a time: `next` is still queued.
    fn claim(&self, next: &str) -> String {
        format!(
            "UPDATE submissions
             SET status = 'compiling', attempt = attempt + 1, worker = $1, started_at = {NOW},
                 lease_owner = $2, lease_expires_at = {}
             WHERE id = ({next})
             RETURNING id, attempt, problem, language, source, contest, submitted_data_hash",
            self.lease_end(3)
        )
    }

    fn claim_plan(&self) -> Option<&'static str> {
        None
    }

    /// `submitted_at` as milliseconds since the epoch, computed by SQLite.
    fn packed_entries(&self) -> &'static str {
        "SELECT s.user_id, group_concat(
            s.id || ' ' || s.label || ' ' ||
            CAST(round(unixepoch(s.submitted_at, 'subsec') * 1000) AS INTEGER) || ' ' ||
            s.status || ' ' || coalesce(s.verdict, '-') || ' ' || coalesce(s.score, '-'), ',')
         FROM submissions s
         WHERE s.contest = $1 AND s.user_id IS NOT NULL AND s.status <> 'cancelled'
         GROUP BY s.user_id"
    }
}
