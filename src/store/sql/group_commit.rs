//! Group commit on PostgreSQL: the bounded inserts of concurrent requests
//! ([`crate::store::Queue::enqueue_bounded`]) go through one task that stores whatever is waiting
//! in one transaction, so one commit (one flush of the log, one `NOTIFY`) serves a batch instead
//! of each request paying its own. Durability is unchanged: a request is answered once the
//! commit of its batch returned. Each request still gets its own id, and its own error: when a
//! batch fails, its requests are stored again one by one, each in its own transaction. The
//! requests waiting are bounded ([`WAITING`]): past that, a request waits for room (a flood
//! cannot grow memory). SQLite's one writer gains nothing from this and inserts directly.

use tokio::sync::mpsc;

use super::insert_bounded::insert_bounded;
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::Enqueued;
use crate::store::postgres::group::{GroupCommit, Request};
use crate::store::{PgStore, Store, StoreError};

/// Requests in one transaction at most.
const BATCH: usize = 64;

/// The group commit of `pg`, started on first use (in the runtime of that first request).
pub(super) fn of(pg: &PgStore) -> &GroupCommit {
    pg.group.get_or_init(|| {
        let (handle, waiting) = GroupCommit::channel();
        tokio::spawn(run(Store::Postgres(pg.without_group()), waiting));
        handle
    })
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
