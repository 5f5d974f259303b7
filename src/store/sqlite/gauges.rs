//! The queue's depth by status, for the `sudojudge_queue_depth` gauge of `/metrics` (the
//! SQLite query, and the rows both stores make of their counts: [`depths`]), and the queued
//! submissions grouped by problem and submitted hash (what a node refuses, what no live node
//! can take).

use super::accepts;
use crate::store::node_data::{refused_sql, NodeData, QueuedGroup, QUEUED_GROUPS};
use crate::store::{SqliteStore, Status, StoreError};

/// The statuses of submissions not judged yet, in the order the gauge lists them.
pub const IN_QUEUE: [Status; 3] = [Status::Queued, Status::Compiling, Status::Running];

impl SqliteStore {
    /// How many submissions are queued, compiling and running now (every status of
    /// [`IN_QUEUE`], zero when none). The conditions are written out so SQLite uses the
    /// partial indexes of queued and in-flight rows instead of scanning every submission.
    pub async fn depth_by_status(&self) -> Result<Vec<(Status, u64)>, StoreError> {
        let queued: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'queued'")
                .fetch_one(&self.reader)
                .await?;
        let in_flight: Vec<(String, i64)> = sqlx::query_as(
            "SELECT status, COUNT(*) FROM submissions
             WHERE status IN ('compiling', 'running') GROUP BY status",
        )
        .fetch_all(&self.reader)
        .await?;
        Ok(depths(queued, &in_flight))
    }

    /// This store with `data`: claims refuse other data if it says so, rejudges record it.
    pub fn with_data(mut self, data: NodeData) -> SqliteStore {
        self.data = Some(data);
        self
    }

    /// Queued submissions by problem and submitted hash.
    pub async fn queued_groups(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        Ok(sqlx::query_as(QUEUED_GROUPS)
            .fetch_all(&self.reader)
            .await?)
    }

    /// Queued submissions this node's claims refuse, by problem and submitted hash.
    pub async fn refused(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        let Some(filter) = NodeData::claim_filter(self.data.as_ref()) else {
            return Ok(Vec::new());
        };
        Ok(sqlx::query_as(&refused_sql(&accepts(1)))
            .bind(filter)
            .fetch_all(&self.reader)
            .await?)
    }
}

/// The gauge's rows from the two counts both stores make (queued; in flight by status), each
/// through its partial index.
pub(in crate::store) fn depths(queued: i64, in_flight: &[(String, i64)]) -> Vec<(Status, u64)> {
    IN_QUEUE
        .into_iter()
        .map(|status| {
            let n = match status {
                Status::Queued => queued,
                other => in_flight
                    .iter()
                    .find(|(s, _)| s == other.as_str())
                    .map_or(0, |(_, n)| *n),
            };
            (status, u64::try_from(n).unwrap_or(0))
        })
        .collect()
}
