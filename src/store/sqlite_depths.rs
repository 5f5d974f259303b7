//! The queue's depth by status, for the `sudojudge_queue_depth` gauge of `/metrics`: the
//! SQLite query, and the rows both stores make of their counts ([`depths`]).

use super::{SqliteStore, Status, StoreError};

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
}

/// The gauge's rows from the two counts both stores make (queued; in flight by status), each
/// through its partial index.
pub(super) fn depths(queued: i64, in_flight: &[(String, i64)]) -> Vec<(Status, u64)> {
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
