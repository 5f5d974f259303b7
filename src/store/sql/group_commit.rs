//! Group commit on PostgreSQL: the bounded inserts of concurrent requests
//! ([`crate::store::Queue::enqueue_bounded`]) go through one task that stores whatever is waiting
//! in one transaction, so one commit (one flush of the log, one `NOTIFY`) serves a batch instead
//! of each request paying its own. Durability is unchanged: a request is answered once the
//! commit of its batch returned. Each request still gets its own id, and its own error: when a
//! batch fails, its requests are stored again one by one, each in its own transaction. The
//! requests waiting are bounded (`WAITING` in `postgres/group.rs`): past that, a request waits for room (a flood
//! cannot grow memory). SQLite's one writer gains nothing from this and inserts directly.
//!
//! A batch that fits under every request's bounds, as if all of it were stored (the common
//! case), is stored with a few statements whatever its size ([`store_together`]); one that
//! might not is stored a request at a time, each checked as `enqueue_bounded` checks it.

use sqlx::PgConnection;
use tokio::sync::mpsc;

use super::insert_bounded::insert_bounded;
use crate::store::dialect::Dialect;
use crate::store::model::Enqueued;
use crate::store::postgres::group::{GroupCommit, Request};
use crate::store::{PgStore, StoreError};

/// Requests in one transaction at most.
const BATCH: usize = 64;

/// The group commit of `pg`, started on first use (in the runtime of that first request).
pub(super) fn of(pg: &PgStore) -> &GroupCommit {
    pg.group.get_or_init(|| {
        let (handle, waiting) = GroupCommit::channel();
        tokio::spawn(run(pg.without_group(), waiting));
        handle
    })
}

async fn run(store: PgStore, mut waiting: mpsc::Receiver<Request>) {
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
async fn store_batch(db: &PgStore, batch: &[Request]) -> Result<Vec<Enqueued>, StoreError> {
    let mut tx = db.write().await?;
    let outcomes = match store_together(&mut tx, batch).await? {
        Some(outcomes) => outcomes,
        None => {
            let mut outcomes = Vec::with_capacity(batch.len());
            for request in batch {
                outcomes.push(insert_bounded!(db, tx, &request.new, request.bounds));
            }
            outcomes
        }
    };
    if outcomes.iter().any(|o| matches!(o, Enqueued::Stored(_))) {
        db.queued(&mut tx).await?;
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// Takes the per-owner locks `insert_bounded!` takes, in the batch's (owner) order.
const LOCK_OWNERS: &str = "SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
 FROM UNNEST($1::text[]) WITH ORDINALITY AS l(k, n) ORDER BY n";

/// Everyone's queued submissions, and those of each owner in `$1`.
const COUNTS: &str = "SELECT CAST(-1 AS BIGINT), CAST(COALESCE(SUM(queued), 0) AS BIGINT)
 FROM queue_owners
 UNION ALL
 SELECT owner, CAST(SUM(queued) AS BIGINT) FROM queue_owners
 WHERE owner = ANY($1::bigint[]) GROUP BY owner";

/// The batch's submissions, in its order (the ids are drawn in that order).
const INSERT_ALL: &str =
    "INSERT INTO submissions (problem, language, source, user_id, submitted_data_hash)
 SELECT p, l, s, u, h
 FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[])
      WITH ORDINALITY AS r(p, l, s, u, h, n)
 ORDER BY n
 RETURNING id";

/// Stores the whole of `batch` with one insert when every request fits under its bounds with
/// all the batch's earlier requests stored (what storing them one at a time would find); `None`
/// (nothing stored) when one might not, for the caller to check them one at a time.
async fn store_together(
    tx: &mut PgConnection,
    batch: &[Request],
) -> Result<Option<Vec<Enqueued>>, StoreError> {
    let mut bounded: Vec<i64> = batch
        .iter()
        .filter(|r| r.bounds.per_user.is_some())
        .filter_map(|r| r.new.owner)
        .collect();
    bounded.dedup();
    let keys: Vec<String> = bounded.iter().map(|o| format!("queued/{o}")).collect();
    if !keys.is_empty() {
        sqlx::query(LOCK_OWNERS)
            .bind(&keys)
            .execute(&mut *tx)
            .await?;
    }
    let counts: Vec<(i64, i64)> = sqlx::query_as(COUNTS)
        .bind(&bounded)
        .fetch_all(&mut *tx)
        .await?;
    let mut total = counts.first().map_or(0, |c| c.1);
    let mut mine = std::collections::HashMap::new();
    for (owner, queued) in counts.into_iter().skip(1) {
        mine.insert(owner, queued);
    }
    for request in batch {
        if u64::try_from(total).unwrap_or(0) >= request.bounds.max_queued {
            return Ok(None);
        }
        total += 1;
        if let (Some(owner), Some(cap)) = (request.new.owner, request.bounds.per_user) {
            let queued = mine.entry(owner).or_insert(0);
            if u64::try_from(*queued).unwrap_or(0) >= cap {
                return Ok(None);
            }
            *queued += 1;
        } else if let Some(owner) = request.new.owner {
            *mine.entry(owner).or_insert(0) += 1;
        }
    }
    let column = |f: fn(&Request) -> &str| batch.iter().map(f).collect::<Vec<&str>>();
    let owners: Vec<Option<i64>> = batch.iter().map(|r| r.new.owner).collect();
    let hashes: Vec<Option<&str>> = batch.iter().map(|r| r.new.data_hash.as_deref()).collect();
    let mut ids: Vec<i64> = sqlx::query_scalar(INSERT_ALL)
        .bind(column(|r| &r.new.problem))
        .bind(column(|r| &r.new.language))
        .bind(column(|r| &r.new.source))
        .bind(owners)
        .bind(hashes)
        .fetch_all(&mut *tx)
        .await?;
    if ids.len() != batch.len() {
        return Err(StoreError::Corrupt {
            id: 0,
            what: format!("{} ids for a batch of {}", ids.len(), batch.len()),
        });
    }
    ids.sort_unstable();
    Ok(Some(ids.into_iter().map(Enqueued::Stored).collect()))
}
