//! [`Gauges`] on SQLite: the queue's depth by status, for the `sudojudge_queue_depth` gauge
//! of `/metrics`, and the queued submissions grouped by problem and submitted hash (what a
//! node refuses, what no live node can take); the SQL is the text both stores run.

use super::accepts;
use crate::store::gauges::{depths, Gauges, IN_FLIGHT, QUEUED};
use crate::store::node_data::{refused_sql, NodeData, QueuedGroup, QUEUED_GROUPS};
use crate::store::{SqliteStore, Status, StoreError};

impl Gauges for SqliteStore {
    /// The conditions are written out so SQLite uses the partial indexes of queued and
    /// in-flight rows instead of scanning every submission.
    async fn depth_by_status(&self) -> Result<Vec<(Status, u64)>, StoreError> {
        let queued: i64 = sqlx::query_scalar(QUEUED).fetch_one(&self.reader).await?;
        let in_flight: Vec<(String, i64)> =
            sqlx::query_as(IN_FLIGHT).fetch_all(&self.reader).await?;
        Ok(depths(queued, &in_flight))
    }

    async fn queued_groups(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        Ok(sqlx::query_as(QUEUED_GROUPS)
            .fetch_all(&self.reader)
            .await?)
    }

    async fn refused(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        let Some(filter) = NodeData::claim_filter(self.data.as_ref()) else {
            return Ok(Vec::new());
        };
        Ok(sqlx::query_as(&refused_sql(&accepts(1)))
            .bind(filter)
            .fetch_all(&self.reader)
            .await?)
    }
}

impl SqliteStore {
    /// This store with `data`: claims refuse other data if it says so, rejudges record it.
    pub fn with_data(mut self, data: NodeData) -> SqliteStore {
        self.data = Some(data);
        self
    }
}
