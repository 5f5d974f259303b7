//! [`Gauges`] on PostgreSQL (the SQL is the text both stores run), and the count of judged
//! submissions the benchmarks wait on.

use crate::store::gauges::{depths, Gauges, IN_FLIGHT, QUEUED};
use crate::store::node_data::{refused_sql, NodeData, QueuedGroup, QUEUED_GROUPS};
use crate::store::{Status, StoreError};

use super::queue::accepts;
use super::PgStore;

impl Gauges for PgStore {
    /// Two counts, each written so it reads one partial index (queued rows, in-flight rows):
    /// one `status IN (...) GROUP BY` over the three reads the whole table (4.1 ms against
    /// 1.8 ms for `/api/health` with 19,000 rows queued, `cargo bench --bench judge`).
    async fn depth_by_status(&self) -> Result<Vec<(Status, u64)>, StoreError> {
        let queued: i64 = sqlx::query_scalar(QUEUED).fetch_one(&self.pool).await?;
        let in_flight: Vec<(String, i64)> = sqlx::query_as(IN_FLIGHT).fetch_all(&self.pool).await?;
        Ok(depths(queued, &in_flight))
    }

    async fn queued_groups(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        Ok(sqlx::query_as(QUEUED_GROUPS).fetch_all(&self.pool).await?)
    }

    async fn refused(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        let Some(filter) = NodeData::claim_filter(self.data.as_ref()) else {
            return Ok(Vec::new());
        };
        Ok(sqlx::query_as(&refused_sql(&accepts(1)))
            .bind(filter)
            .fetch_all(&self.pool)
            .await?)
    }
}

impl PgStore {
    /// Submissions judged (`done`), for benchmarks that wait for a batch.
    pub async fn count_done(&self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'done'")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
