//! The queue as `/metrics`, `/api/health` and the workers' refusal log read it, as a trait
//! implemented for [`super::Store`] in `sql/gauges.rs`, so both backends answer the same
//! questions.

use std::future::Future;

use super::model::Status;
use super::node_data::QueuedGroup;
use super::StoreError;

/// Counts of the queue.
pub trait Gauges: Send + Sync + 'static {
    /// How many submissions are queued, compiling and running now (every status of
    /// [`IN_QUEUE`], zero when none): the queue-depth gauge of `/metrics`.
    fn depth_by_status(
        &self,
    ) -> impl Future<Output = Result<Vec<(Status, u64)>, StoreError>> + Send;

    /// Queued submissions by problem and submitted hash.
    fn queued_groups(&self) -> impl Future<Output = Result<Vec<QueuedGroup>, StoreError>> + Send;

    /// Queued submissions this node's claims refuse, by problem and submitted hash.
    fn refused(&self) -> impl Future<Output = Result<Vec<QueuedGroup>, StoreError>> + Send;
}

/// The queued submissions: the sum of the owners' counts (`queue_owners`, kept by triggers),
/// O(owners) where a count of the rows grows with the queue.
pub(super) const QUEUED: &str = "SELECT CAST(COALESCE(SUM(queued), 0) AS BIGINT) FROM queue_owners";

/// The in-flight submissions by status (read through the partial index of in-flight rows).
pub(super) const IN_FLIGHT: &str = "SELECT status, COUNT(*) FROM submissions
     WHERE status IN ('compiling', 'running') GROUP BY status";

/// The statuses of submissions not judged yet, in the order the gauge lists them.
pub const IN_QUEUE: [Status; 3] = [Status::Queued, Status::Compiling, Status::Running];

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
