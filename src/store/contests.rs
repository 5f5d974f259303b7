//! Contest runtime state as a trait, so the PostgreSQL store carries it too: participations
//! with their personal start, contest submissions (contest, label, the contest clock's
//! instant) stored under the contest's rate, the board's data and version, the freeze state,
//! a contest-wide rejudge, and clarifications. [`super::Store`] implements it in
//! `sql/contests.rs`; the rules (who may, when) are the caller's, this only stores.

use std::collections::HashMap;
use std::future::Future;

use jiff::{SignedDuration, Timestamp};

use crate::contest::Rate;
use crate::judge::Verdict;

use super::model::{NewSubmission, Status};
use super::StoreError;

/// A submission to a contest, to store under the contest's rate and the queue's bound.
#[derive(Debug, Clone)]
pub struct NewContestSubmission {
    /// The submission itself (problem id, language, source, owner).
    pub submission: NewSubmission,
    /// The contest's id.
    pub contest: String,
    /// The problem's label in the contest.
    pub label: String,
    /// The instant on the contest clock: what the board and the rate count.
    pub at: Timestamp,
    /// The contest's per-user rate, checked in the same transaction as the insert over the
    /// owner's stored submissions to this contest (so it holds across restarts and races).
    pub rate: Option<Rate>,
    /// Queued submissions allowed at most (`[server] max_queued`: contest submissions may
    /// use the contest reserve that plain ones may not).
    pub max_queued: u64,
    /// The owner's queued submissions allowed at most (`[server] max_queued_per_user`);
    /// `None` for the jury.
    pub max_per_user: Option<u64>,
    /// Record the owner as a participant starting at `at` if not one yet (contestants; an
    /// admin's jury submission does not take part).
    pub register: bool,
}

#[cfg(test)]
impl NewContestSubmission {
    /// A contestant's submission with no rate and room in the queue: what most store and
    /// worker tests store.
    pub(crate) fn registered(
        submission: NewSubmission,
        contest: impl Into<String>,
        label: impl Into<String>,
        at: Timestamp,
    ) -> Self {
        NewContestSubmission {
            submission,
            contest: contest.into(),
            label: label.into(),
            at,
            rate: None,
            max_queued: 100,
            max_per_user: None,
            register: true,
        }
    }
}

/// What storing a contest submission did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContestEnqueue {
    /// Stored and queued, with this id.
    Stored(i64),
    /// The queue is full: nothing stored.
    QueueFull,
    /// The owner has their bound of queued submissions already: nothing stored.
    OwnerFull,
    /// Over the contest's rate: nothing stored; it fits again after this long.
    RateLimited(SignedDuration),
}

/// A contest's counters: the board's version and the freeze state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContestState {
    /// Bumped by every change a board can show (new submission, status or result change,
    /// unfreeze): a board computed at one version is current while the version is the same.
    pub version: u64,
    /// An admin has unfrozen the board.
    pub unfrozen: bool,
}

/// One participant of a contest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Participant {
    /// The user's name.
    pub user: String,
    /// When their clock started (their personal start in window timing).
    pub started_at: Timestamp,
}

/// One contest submission as the board needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardEntry {
    /// Submission id.
    pub id: i64,
    /// The owner's name.
    pub user: String,
    /// The problem's label.
    pub label: String,
    /// The instant on the contest clock.
    pub at: Timestamp,
    /// Where its judging stands.
    pub status: Status,
    /// The verdict once done.
    pub verdict: Option<Verdict>,
    /// The score once done.
    pub score: Option<i64>,
}

/// Everything a contest's board is computed from, read in one transaction.
#[derive(Debug, Clone, Default)]
pub struct BoardData {
    /// The counters at the time of reading.
    pub state: ContestState,
    /// Participants (contestants only: admins never take part).
    pub participants: Vec<Participant>,
    /// Contestants' submissions to the contest (admins' jury submissions are left out).
    pub submissions: Vec<BoardEntry>,
}

/// What a contest-wide rejudge of one problem did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct RejudgeCount {
    /// Judged submissions queued again.
    pub requeued: u64,
    /// Submissions still queued or being judged (left as they are).
    pub pending: u64,
}

/// A question or an announcement to store.
#[derive(Debug, Clone)]
pub struct NewClarification {
    /// The contest.
    pub contest: String,
    /// The author (a contestant asking, an admin announcing; `None` in open mode).
    pub author: Option<i64>,
    /// The problem's label, or `None` for the whole contest.
    pub label: Option<String>,
    /// The question (`None`: an announcement, whose text is `answer`).
    pub question: Option<String>,
    /// An announcement's text.
    pub answer: Option<String>,
    /// Shown to every participant (announcements).
    pub public: bool,
    /// When, on the contest clock.
    pub at: Timestamp,
}

/// What storing a question or an announcement did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClarificationAdded {
    /// Stored, with this id.
    Stored(i64),
    /// The author is over the question rate: nothing stored; a question fits again after
    /// this long.
    RateLimited(SignedDuration),
}

/// Which page of a contest's clarifications a listing reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClarificationPage {
    /// Only ids above this one (the next page, oldest first).
    pub after: Option<i64>,
    /// Only ids below this one (the next page, newest first).
    pub before: Option<i64>,
    /// At most this many.
    pub limit: u32,
    /// Newest first (the pages) instead of oldest first (the API).
    pub newest_first: bool,
}

/// A stored clarification, as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Clarification {
    /// Its id.
    pub id: i64,
    /// Who asked or announced (`null`: open mode, or a deleted user).
    pub author: Option<String>,
    /// The problem's label, or `null` for the whole contest.
    pub problem: Option<String>,
    /// The question (`null` for an announcement).
    pub question: Option<String>,
    /// The answer, or an announcement's text (`null` until answered).
    pub answer: Option<String>,
    /// Shown to every participant.
    pub public: bool,
    /// When it was asked or announced (ISO 8601 UTC, contest clock).
    pub created_at: String,
    /// When it was answered.
    pub answered_at: Option<String>,
    /// The author's user id, for the access rules; not shown.
    #[serde(skip)]
    pub author_id: Option<i64>,
}

/// Contest runtime state.
pub trait ContestStore: Send + Sync + 'static {
    /// When `user_id`'s clock started in `contest`, if they take part.
    fn participation(
        &self,
        contest: &str,
        user_id: i64,
    ) -> impl Future<Output = Result<Option<Timestamp>, StoreError>> + Send;

    /// Records `user_id` as taking part from `at`, unless they already do; returns their
    /// start (the first one: starting twice does not restart a timer) and whether this call
    /// started it.
    fn start_participation(
        &self,
        contest: &str,
        user_id: i64,
        at: Timestamp,
    ) -> impl Future<Output = Result<(Timestamp, bool), StoreError>> + Send;

    /// Stores a contest submission as `queued`, unless the queue is full or the owner is
    /// over the contest's rate (checked in the same transaction).
    fn enqueue_contest(
        &self,
        new: NewContestSubmission,
    ) -> impl Future<Output = Result<ContestEnqueue, StoreError>> + Send;

    /// The contest's counters (zero for a contest nothing happened in yet).
    fn contest_state(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<ContestState, StoreError>> + Send;

    /// Everything the board of `contest` is computed from.
    fn board_data(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<BoardData, StoreError>> + Send;

    /// Unfreezes (or freezes again) the board of `contest`.
    fn set_unfrozen(
        &self,
        contest: &str,
        unfrozen: bool,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Queues again every judged submission to `label` of `contest` (its old results gone);
    /// those still queued or being judged are left alone and counted.
    fn rejudge_label(
        &self,
        contest: &str,
        label: &str,
    ) -> impl Future<Output = Result<RejudgeCount, StoreError>> + Send;

    /// Stores a question or an announcement; returns its id. A question (with an author) is
    /// refused when its author asked `rate` questions of this contest already in the span
    /// (counted from the stored questions' contest-clock times, in the insert's
    /// transaction).
    fn add_clarification(
        &self,
        new: NewClarification,
        rate: Option<Rate>,
    ) -> impl Future<Output = Result<ClarificationAdded, StoreError>> + Send;

    /// How many questions of `contest` wait for an answer.
    fn unanswered(&self, contest: &str) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Answers clarification `id` of `contest` (again, if it was: the new answer replaces
    /// the old); `false` when there is none.
    fn answer_clarification(
        &self,
        contest: &str,
        id: i64,
        answer: &str,
        public: bool,
        by: Option<i64>,
        at: Timestamp,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// One page of the clarifications of `contest`: every one (`viewer` `None`), or those
    /// `viewer` asked and the public ones.
    fn clarifications(
        &self,
        contest: &str,
        viewer: Option<i64>,
        page: ClarificationPage,
    ) -> impl Future<Output = Result<Vec<Clarification>, StoreError>> + Send;

    /// Each submission of `contest` (by id) with its language id: the one fact the Contest
    /// API's submissions need that the board's read ([`ContestStore::board_data`]) leaves out.
    fn contest_languages(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<HashMap<i64, String>, StoreError>> + Send;
}

/// An instant as the contest tables store it: ISO 8601 UTC with milliseconds, so text order
/// is time order (`2026-03-01T09:00:00.000Z`).
pub fn db_time(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// An instant read back from the contest tables.
pub fn parse_db_time(text: &str) -> Result<Timestamp, StoreError> {
    text.parse().map_err(|e| StoreError::Corrupt {
        id: 0,
        what: format!("time {text:?}: {e}"),
    })
}
