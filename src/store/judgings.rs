//! Immediate rejudges kept for the Contest API: CLICS gives each judging of a submission a
//! judgement of its own, and a judgement a client has seen stays (`current: false` once
//! superseded). An immediate rejudge (`POST /api/submissions/{id}/rejudge`,
//! `POST /api/contests/{id}/rejudge`, the jury's button) queues a judged submission again and
//! its results go; these keep, in the rejudge's own transaction, the verdict and score it
//! replaced and the contest-clock instant of the rejudge (`immediate_rejudges`, migrations
//! sqlite/0019, postgres/0013), so the event feed stays a function of the records; since
//! sqlite/0020, postgres/0014, triggers also keep the database's instants of the rejudge and
//! of the new judging's end, so the feed can send the new judgement when it starts and again
//! with its end time when it ends.
//! Implemented for [`super::Store`] in `sql/judgings.rs`.

use std::future::Future;

use jiff::Timestamp;

use super::contests::RejudgeCount;
use super::model::RejudgeOutcome;
use super::StoreError;

/// Keeps submission `$2`'s result (a judged contest submission's) with the clock `$1`.
pub(in crate::store) const KEEP_ONE: &str =
    "INSERT INTO immediate_rejudges (submission_id, contest, old_verdict, old_score, clock)
     SELECT id, contest, verdict, score, CAST($1 AS TEXT) FROM submissions
     WHERE id = $2 AND contest IS NOT NULL AND status = 'done' AND verdict IS NOT NULL";

/// Keeps the results of contest `$2`'s judged submissions to label `$3` with the clock `$1`.
pub(in crate::store) const KEEP_PROBLEM: &str =
    "INSERT INTO immediate_rejudges (submission_id, contest, old_verdict, old_score, clock)
     SELECT id, contest, verdict, score, CAST($1 AS TEXT) FROM submissions
     WHERE contest = $2 AND label = $3 AND status = 'done' AND verdict IS NOT NULL
     ORDER BY id";

/// A judged contest submission queued again by an immediate rejudge.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ImmediateRejudge {
    /// The record's number (the new judgement's id is made of it).
    pub id: i64,
    /// The submission.
    pub submission_id: i64,
    /// When it was queued again, on the contest clock (RFC 3339).
    pub clock: String,
    /// The verdict it replaced.
    pub old_verdict: String,
    /// The score it replaced.
    pub old_score: Option<i64>,
    /// The database's instant of the rejudge (RFC 3339; sqlite 0020, postgres 0014); `None`
    /// for a record kept before.
    pub queued_wall: Option<String>,
    /// The database's instant the new judging ended (the submission done again), on the
    /// clock of [`ImmediateRejudge::queued_wall`]; `None` while it runs and for a record kept
    /// before sqlite 0020.
    pub ended_wall: Option<String>,
}

/// Immediate rejudges that keep what they replace.
pub trait JudgingStore: Send + Sync + 'static {
    /// [`super::Queue::rejudge`], keeping a judged contest submission's replaced result with
    /// `clock`, the contest clock's instant, in the same transaction.
    fn rejudge_kept(
        &self,
        id: i64,
        clock: Timestamp,
    ) -> impl Future<Output = Result<RejudgeOutcome, StoreError>> + Send;

    /// [`super::ContestStore::rejudge_label`], keeping each judged submission's replaced
    /// result with `clock` in the same transaction.
    fn rejudge_label_kept(
        &self,
        contest: &str,
        label: &str,
        clock: Timestamp,
    ) -> impl Future<Output = Result<RejudgeCount, StoreError>> + Send;

    /// Every immediate rejudge of `contest`'s submissions kept so far, in the order they
    /// were made.
    fn immediate_rejudges(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<Vec<ImmediateRejudge>, StoreError>> + Send;
}
