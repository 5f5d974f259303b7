//! Group commit on PostgreSQL: the bounded inserts of concurrent requests
//! ([`crate::store::Queue::enqueue_bounded`]) go through one task that stores whatever is waiting
//! in one transaction, so one commit (one flush of the log, one `NOTIFY`) serves a batch instead
//! of each request paying its own. Durability is unchanged: a request is answered once the
//! commit of its batch returned. Each request still gets its own id, and its own error: when a
//! batch fails, its requests are stored again one by one, each in its own transaction. The
//! requests waiting are bounded ([`WAITING`]): past that, a request waits for room (a flood
//! cannot grow memory). SQLite's one writer gains nothing from this and inserts directly.

use tokio::sync::{mpsc, oneshot};

use super::queue::insert_bounded;
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::{Enqueued, NewSubmission, QueueBounds};
use crate::store::{Store, StoreError};

/// Requests waiting for a batch at most (each holds its submission, up to the source limit).
const WAITING: usize = 256;

/// Requests in one transaction at most.
const BATCH: usize = 64;

/// One request: what to store, under which bounds, and where its outcome goes.
struct Request {
    new: NewSubmission,
    bounds: QueueBounds,
    reply: oneshot::Sender<Result<Enqueued, StoreError>>,
}

/// The handle of the batching task; the task ends when the last handle is dropped.
#[derive(Debug, Clone)]
pub(crate) struct GroupCommit {
    requests: mpsc::Sender<Request>,
}

impl GroupCommit {
    /// Starts the task, storing through `store` (a store without a group commit of its own,
    /// so the task does not keep itself alive).
    pub(crate) fn start(store: Store) -> GroupCommit {
        let (requests, waiting) = mpsc::channel(WAITING);
        tokio::spawn(run(store, waiting));
        GroupCommit { requests }
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

async fn run(store: Store, mut waiting: mpsc::Receiver<Request>) {
    let mut batch = Vec::with_capacity(BATCH);
    while waiting.recv_many(&mut batch, BATCH).await > 0 {
        // One owner's requests after another's, the same order in every batch of every node:
        // the per-owner locks of two batches cannot deadlock.
        batch.sort_by_key(|r: &Request| r.new.owner);
        match store_batch(&store, &batch).await {
            Ok(outcomes) => {
                for (request, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = request.reply.send(Ok(outcome));
                }
            }
            Err(_) => {
                for request in batch.drain(..) {
                    let outcome = store_batch(&store, std::slice::from_ref(&request)).await;
                    let outcome = outcome.map(|mut o| o.remove(0));
                    let _ = request.reply.send(outcome);
                }
            }
        }
    }
}

/// Stores `batch` in one transaction; its outcomes in its order.
async fn store_batch(store: &Store, batch: &[Request]) -> Result<Vec<Enqueued>, StoreError> {
    each!(store, |db| {
        let mut tx = db.write().await?;
        let mut outcomes = Vec::with_capacity(batch.len());
        for request in batch {
            outcomes.push(insert_bounded!(db, tx, &request.new, request.bounds));
        }
        if outcomes.iter().any(|o| matches!(o, Enqueued::Stored(_))) {
            db.queued(&mut tx).await?;
        }
        tx.commit().await?;
        Ok(outcomes)
    })
}
