//! The fair claim's SQL (`contest::pick`'s rule) in O(owners), common to both backends: the
//! load of each owner is read from `queue_owners` (kept by triggers, migrations sqlite/0013
//! and postgres/0007), and each owner's first queued submission from the index
//! `submissions_owner_queue`, so a claim costs one index probe per owner with something
//! queued, however long the queue.
//!
//! The rule: contest submissions first, then fewest of the owner's submissions in flight,
//! then oldest queued (`queued_at`, then id). The owner's load is the same for all its
//! submissions, so the first of the whole queue is the first, by that order, of the owners'
//! firsts (each owner's first by contest, `queued_at`, id).

use crate::store::dialect::Dialect;

/// The submission the fair rule picks among those this node accepts (`$1`, the claim filter
/// of [`Dialect::accepts`]): its id, or no row. `+o.owner` has no type affinity on SQLite,
/// without which SQLite cannot search the index on `COALESCE(user_id, 0)` with it.
pub(super) fn candidate(db: &impl Dialect) -> String {
    format!(
        "SELECT s.id
         FROM (SELECT o.in_flight AS load,
                      (SELECT q.id FROM submissions q
                       WHERE q.status = 'queued' AND COALESCE(q.user_id, 0) = +o.owner AND {}
                       ORDER BY q.contest IS NULL, q.queued_at, q.id
                       LIMIT 1) AS first
               FROM queue_owners o WHERE o.queued > 0) f
         JOIN submissions s ON s.id = f.first
         ORDER BY s.contest IS NULL, f.load, s.queued_at, s.id
         LIMIT 1",
        db.accepts(1)
    )
}

/// [`Dialect::claim`]'s choice of the [`candidate`] (`$4`), if it is still queued.
pub(super) const CHOSEN: &str =
    "SELECT q.id FROM submissions q WHERE q.id = $4 AND q.status = 'queued'";

/// [`Dialect::claim`]'s choice when the [`candidate`] was taken under our feet (PostgreSQL:
/// another node holds it locked): the same order over the whole queue (`$4`, the claim
/// filter), each row's owner load read from `queue_owners`; O(queue), so only for that case.
pub(super) fn scan(db: &impl Dialect) -> String {
    format!(
        "SELECT q.id FROM submissions q WHERE q.status = 'queued' AND {}
         ORDER BY q.contest IS NULL,
                  (SELECT o.in_flight FROM queue_owners o
                   WHERE o.owner = COALESCE(q.user_id, 0)),
                  q.queued_at, q.id
         LIMIT 1",
        db.accepts(4)
    )
}
