//! The judging queue as a small trait, implemented for [`super::Store`] in `sql/queue.rs`
//! (SQLite: one daemon; PostgreSQL: several nodes, `FOR UPDATE SKIP LOCKED`). Every claim is
//! a lease of the node instance the store speaks for ([`super::Lease`]).

use std::future::Future;

use crate::judge::JudgeReport;

use super::model::{Claimed, Enqueued, NewSubmission, QueueBounds, RejudgeOutcome, StaleOutcome};
use super::StoreError;

/// Durable queue operations the server and the workers rely on.
pub trait Queue: Send + Sync + 'static {
    /// Stores a new submission as `queued`; returns its id once it is durable.
    fn enqueue(&self, new: NewSubmission) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// Stores a new submission as `queued` unless `bounds.max_queued` are already waiting
    /// (a flood cannot fill the disk) or its owner has `bounds.per_user` waiting already (one
    /// user's flood cannot fill the queue); nothing is stored then. Both counts are made in
    /// the insert's transaction (SQLite's writer; PostgreSQL's per-owner lock).
    fn enqueue_bounded(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> impl Future<Output = Result<Enqueued, StoreError>> + Send;

    /// Cancels every queued submission of `owner` (an admin's decision): each keeps its
    /// record, with the final status `cancelled`, and is never claimed; those being judged
    /// are left to finish. Returns how many were cancelled.
    fn cancel_queued(&self, owner: i64) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Atomically claims a queued submission (now `compiling`), if any: the oldest one of the
    /// owner with the fewest submissions being judged (`contest::pick`'s rule), so one
    /// contestant's flood cannot delay another's first submission.
    fn claim(
        &self,
        worker: &str,
    ) -> impl Future<Output = Result<Option<Claimed>, StoreError>> + Send;

    /// Marks a claimed submission as `running` (compiled, tests started).
    fn mark_running(
        &self,
        id: i64,
        attempt: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Stores the final report, replacing any older results. `false` when the claim was stale.
    fn complete(
        &self,
        id: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Puts a claimed submission back in the queue, ahead of newer ones (shutdown).
    fn release(&self, id: i64, attempt: i64)
        -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Start-up after a crash: every `compiling`/`running` submission was a failed attempt
    /// (the judge died judging it). Those claimed fewer than `max_attempts` times go back in
    /// the queue; the others are stored as `SE` with the crash as the cause, so a submission
    /// that kills the daemon cannot do it forever.
    fn requeue_stale(
        &self,
        max_attempts: u32,
    ) -> impl Future<Output = Result<StaleOutcome, StoreError>> + Send;

    /// Queues a finished submission again.
    fn rejudge(&self, id: i64) -> impl Future<Output = Result<RejudgeOutcome, StoreError>> + Send;

    /// Submissions waiting in the queue.
    fn depth(&self) -> impl Future<Output = Result<u64, StoreError>> + Send;
}

/// How many submissions of the owner `$1` are queued (its count in `queue_owners`, kept by
/// triggers).
pub(super) const OWNER_QUEUED: &str =
    "SELECT CAST(COALESCE(SUM(queued), 0) AS BIGINT) FROM queue_owners WHERE owner = $1";
