//! The judging queue as a small trait, implemented by [`super::SqliteStore`] (one daemon) and
//! [`super::PgStore`] (several nodes, `FOR UPDATE SKIP LOCKED`). Every claim is a lease of the
//! node instance the store speaks for ([`super::Lease`]).

use std::future::Future;

use crate::judge::JudgeReport;

use super::model::{Claimed, NewSubmission, RejudgeOutcome, StaleOutcome};
use super::StoreError;

/// Durable queue operations the server and the workers rely on.
pub trait Queue: Send + Sync + 'static {
    /// Stores a new submission as `queued`; returns its id once it is durable.
    fn enqueue(&self, new: NewSubmission) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// Stores a new submission as `queued` unless `max_queued` are already waiting (`None`
    /// then, and nothing is stored): a flood of submissions cannot fill the disk. The default
    /// checks then inserts; a backend should do both in one transaction, as SQLite's does.
    fn enqueue_bounded(
        &self,
        new: NewSubmission,
        max_queued: u64,
    ) -> impl Future<Output = Result<Option<i64>, StoreError>> + Send {
        async move {
            if self.depth().await? >= max_queued {
                return Ok(None);
            }
            self.enqueue(new).await.map(Some)
        }
    }

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
