//! [`Dialect`] on PostgreSQL: advisory locks where SQLite's single writer serialises, a
//! `NOTIFY` with every change to the queue, claims that skip the rows other nodes hold locked,
//! lease times as `timestamptz`, the node's data filter as `jsonb`.

use sqlx::{PgConnection, Pool, Postgres, Transaction};

use super::{PgStore, QUEUE_CHANNEL};
use crate::store::dialect::{Args, Dialect};
use crate::store::StoreError;

impl Dialect for PgStore {
    type Db = Postgres;

    fn read(&self) -> &Pool<Postgres> {
        &self.pool
    }

    async fn write(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        Ok(self.pool.begin().await?)
    }

    async fn execute<'q>(&self, query: Args<'q, Self>) -> Result<u64, StoreError> {
        Ok(query.execute(&self.pool).await?.rows_affected())
    }

    async fn snapshot(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }

    async fn lock(&self, tx: &mut PgConnection, key: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(key)
            .execute(tx)
            .await?;
        Ok(())
    }

    /// `NOTIFY` is delivered at the commit, to every node's listener.
    async fn queued(&self, tx: &mut PgConnection) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, '')")
            .bind(QUEUE_CHANNEL)
            .execute(tx)
            .await?;
        Ok(())
    }

    fn now(&self) -> &'static str {
        "sj_now()"
    }

    fn later(&self, n: u8) -> String {
        format!("sj_time(clock_timestamp() + CAST(${n} AS BIGINT) * interval '1 second')")
    }

    fn instant(&self) -> &'static str {
        "now()"
    }

    fn lease_end(&self, n: u8) -> String {
        format!("now() + CAST(${n} AS DOUBLE PRECISION) * interval '1 millisecond'")
    }

    fn age_ms(&self, column: &str) -> String {
        format!("CAST(EXTRACT(EPOCH FROM (now() - {column})) * 1000 AS BIGINT)")
    }

    fn lock_row(&self) -> &'static str {
        "FOR UPDATE"
    }

    fn skip_locked(&self) -> &'static str {
        "FOR UPDATE SKIP LOCKED"
    }

    fn accepts(&self, n: u8) -> String {
        format!(
            "(${n}::text IS NULL OR (${n}::jsonb ->> q.problem IS NOT NULL
               AND (q.submitted_data_hash IS NULL
                    OR q.submitted_data_hash = ${n}::jsonb ->> q.problem)))"
        )
    }

    fn stamp(&self, n: u8) -> String {
        format!("COALESCE(${n}::jsonb ->> problem, submitted_data_hash)")
    }

    /// `next` locked; a row another node holds locked is skipped, so nodes claiming at once
    /// never wait on each other nor take the same submission.
    fn claim(&self, next: &str) -> String {
        format!(
            "WITH next AS ({next} FOR UPDATE OF q SKIP LOCKED)
             UPDATE submissions s
             SET status = 'compiling', attempt = s.attempt + 1, worker = $1,
                 started_at = sj_now(), lease_owner = $2, lease_expires_at = {}
             FROM next WHERE s.id = next.id
             RETURNING s.id, s.attempt, s.problem, s.language, s.source, s.contest,
                       s.submitted_data_hash",
            self.lease_end(3)
        )
    }

    /// The candidate's plan: each owner's first row by the ordered index (a bitmap scan
    /// reads the owner's whole queue and sorts it), the chosen rows by primary key (a hash
    /// join reads every submission); the planner's estimates of the data filter pick both
    /// otherwise.
    fn claim_plan(&self) -> Option<&'static str> {
        Some(
            "SELECT set_config('enable_bitmapscan', 'off', true),
                    set_config('enable_hashjoin', 'off', true),
                    set_config('enable_mergejoin', 'off', true)",
        )
    }

    fn packed_entries(&self) -> &'static str {
        "SELECT s.user_id, string_agg(
            s.id || ' ' || s.label || ' ' ||
            round(extract(epoch FROM s.submitted_at::timestamptz) * 1000)::bigint || ' ' ||
            s.status || ' ' || coalesce(s.verdict, '-') || ' ' || coalesce(s.score::text, '-'),
            ',')
         FROM submissions s
         WHERE s.contest = $1 AND s.user_id IS NOT NULL AND s.status <> 'cancelled'
         GROUP BY s.user_id"
    }
}
