//! The judgements an applied rejudging made, for the Contest API (issue 30's leftover): CLICS
//! gives a rejudged submission a new judgement that supersedes the old one (which stays, with
//! `current: false`), so the event feed needs, per contest, each submission whose verdict or
//! score an applied rejudging changed, what it was and when (contest clock) it changed. Kept
//! on the rejudging's runs (`old_verdict`, `old_score`) and the rejudging
//! (`applied_clock`) by [`super::rejudgings::RejudgingStore::apply_rejudging`]; implemented for
//! [`super::Store`] in `sql/judgements.rs`.

use std::future::Future;

use super::StoreError;

/// One submission's result changed by an applied rejudging.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Rejudged {
    /// The submission.
    pub submission_id: i64,
    /// The rejudging that changed it.
    pub rejudging_id: i64,
    /// When the rejudging was applied, on the contest clock (RFC 3339).
    pub applied_at: String,
    /// The verdict it replaced.
    pub old_verdict: String,
    /// The score it replaced.
    pub old_score: Option<i64>,
    /// The verdict it took.
    pub verdict: String,
    /// The score it took.
    pub score: Option<i64>,
}

/// The judgements rejudgings made.
pub trait JudgementStore: Send + Sync + 'static {
    /// Every change applied rejudgings of `contest` made to a submission's verdict or score,
    /// in the order they were applied (then by submission). A rejudging applied before these
    /// were recorded (sqlite/0018, postgres/0012) lists nothing.
    fn rejudged(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<Vec<Rejudged>, StoreError>> + Send;
}
