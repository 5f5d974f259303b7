//! The handle of a node's group commit (`store/sql/group_commit.rs` runs the batches): where
//! `enqueue_bounded` on PostgreSQL sends a request and waits for its outcome. Kept apart from
//! the task so the store holds the handle without depending on the queries.

use std::sync::{Arc, OnceLock};

use tokio::sync::{mpsc, oneshot};

use crate::store::model::{Enqueued, NewSubmission, QueueBounds};
use crate::store::StoreError;

/// A store's group commit, started by its first bounded insert (each clone of the store
/// shares it; the task's own store has a cell of its own, so the task does not keep itself
/// alive).
pub(crate) type GroupCell = Arc<OnceLock<GroupCommit>>;

/// Requests waiting for a batch at most (each holds its submission, up to the source limit).
const WAITING: usize = 256;

/// One request: what to store, under which bounds, and where its outcome goes.
pub(crate) struct Request {
    pub(crate) new: NewSubmission,
    pub(crate) bounds: QueueBounds,
    pub(crate) reply: oneshot::Sender<Result<Enqueued, StoreError>>,
}

/// The handle of the batching task; the task ends when the last handle is dropped.
#[derive(Debug, Clone)]
pub(crate) struct GroupCommit {
    requests: mpsc::Sender<Request>,
}

impl GroupCommit {
    /// A handle and the receiving end its task reads.
    pub(crate) fn channel() -> (GroupCommit, mpsc::Receiver<Request>) {
        let (requests, waiting) = mpsc::channel(WAITING);
        (GroupCommit { requests }, waiting)
    }

    /// [`crate::store::Queue::enqueue_bounded`] through the next batch; `Err(new)` when the
    /// task is gone (its runtime ended) before taking the request, for the caller to store
    /// it directly.
    pub(crate) async fn enqueue(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> Result<Result<Enqueued, StoreError>, NewSubmission> {
        let (reply, outcome) = oneshot::channel();
        let request = Request { new, bounds, reply };
        if let Err(refused) = self.requests.send(request).await {
            return Err(refused.0.new);
        }
        // Taken but not answered: the task ended with the runtime, mid-batch.
        Ok(outcome
            .await
            .unwrap_or(Err(StoreError::Query(sqlx::Error::WorkerCrashed))))
    }
}
