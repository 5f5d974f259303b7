//! Rejudgings, as DOMjudge's rejudging sets (issue 30, point 3): a jury member's rejudge of a
//! contest, one of its problems or chosen submissions first runs aside. Each submission in
//! scope gets a run in `rejudging_runs` (migrations sqlite/0017 and postgres/0011), a queue of
//! its own that any node's workers claim under a lease as they claim submissions (after the
//! submissions queue: new submissions are judged first), whose results stay in that table;
//! `submissions` and `test_results`, and so the board, change only when the jury applies the
//! rejudging. [`super::Store`] implements both traits in `sql/rejudgings.rs`.

use std::future::Future;

use crate::judge::{JudgeReport, Verdict};

use super::model::Status;
use super::StoreError;

/// Where a rejudging stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RejudgingState {
    /// Its runs are judged (or judged already) aside; nothing is changed yet.
    Open,
    /// Its results became the submissions' results.
    Applied,
    /// Dropped: nothing was changed.
    Cancelled,
}

impl RejudgingState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            RejudgingState::Open => "open",
            RejudgingState::Applied => "applied",
            RejudgingState::Cancelled => "cancelled",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<RejudgingState> {
        Some(match s {
            "open" => RejudgingState::Open,
            "applied" => RejudgingState::Applied,
            "cancelled" => RejudgingState::Cancelled,
            _ => return None,
        })
    }
}

/// A rejudging to start: its scope, who starts it and the bound on open rejudgings.
#[derive(Debug, Clone)]
pub struct NewRejudging {
    /// The contest whose judged submissions are in scope.
    pub contest: String,
    /// Only this problem's (its label), or every problem's.
    pub label: Option<String>,
    /// Only these submissions (of the contest, and of `label` when set), or all in scope.
    pub chosen: Option<Vec<i64>>,
    /// The jury member's name.
    pub created_by: String,
    /// How many rejudgings may be open at once over every contest; one per contest always.
    pub max_open: u32,
}

/// What starting a rejudging did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejudgingCreated {
    /// Started with this many runs.
    Created {
        /// The rejudging's id.
        id: i64,
        /// Submissions to judge again.
        runs: u64,
    },
    /// The contest has an open rejudging already (its id): apply or drop it first.
    Busy(i64),
    /// `max_open` rejudgings are open already.
    TooMany(u64),
    /// No judged submission is in scope: nothing was started.
    Nothing,
}

/// A rejudging as stored, with its progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejudging {
    /// Its id.
    pub id: i64,
    /// The contest.
    pub contest: String,
    /// The problem's label it is limited to, if any.
    pub label: Option<String>,
    /// The chosen submissions it is limited to, if any.
    pub chosen: Option<Vec<i64>>,
    /// Who started it.
    pub created_by: String,
    /// When (wall clock, ISO 8601 UTC).
    pub created_at: String,
    /// Open, applied or cancelled.
    pub state: RejudgingState,
    /// Who applied or dropped it.
    pub closed_by: Option<String>,
    /// When.
    pub closed_at: Option<String>,
    /// Its runs.
    pub total: u64,
    /// Its runs judged already.
    pub judged: u64,
}

/// One submission of a rejudging: its stored result beside the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RejudgingRun {
    /// The submission.
    pub submission: i64,
    /// Its owner's name (none for an admin's open-mode submission).
    pub user: Option<String>,
    /// Its problem's label in the contest.
    pub label: Option<String>,
    /// Where the submission stands now (normally `done`).
    pub stored_status: Status,
    /// Its stored verdict.
    pub old_verdict: Option<Verdict>,
    /// Its stored score.
    pub old_score: Option<i64>,
    /// Whether the run is judged yet.
    pub judged: bool,
    /// The new verdict, once judged.
    pub new_verdict: Option<Verdict>,
    /// The new score, once judged.
    pub new_score: Option<i64>,
}

/// What applying or dropping a rejudging did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// Done: `applied` submissions took their new results; `skipped` were being judged
    /// again meanwhile (an immediate rejudge) and kept what that gives them.
    Done {
        /// Submissions whose results were replaced.
        applied: u64,
        /// Submissions left alone.
        skipped: u64,
    },
    /// No such rejudging.
    NotFound,
    /// It is not open any more.
    NotOpen(RejudgingState),
    /// Applying waits for every run: this many are not judged yet.
    Unfinished(u64),
}

/// A run claimed by a worker: the submission to judge again, aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedRun {
    /// The run's id.
    pub run: i64,
    /// The claim's attempt number; completing with a stale attempt is ignored.
    pub attempt: i64,
    /// The submission.
    pub submission: i64,
    /// Problem id.
    pub problem: String,
    /// Language id.
    pub language: String,
    /// The source text.
    pub source: String,
    /// The contest, whose format decides how much is judged.
    pub contest: Option<String>,
    /// The data hash the run is to be judged with (the starting node's).
    pub submitted_data_hash: Option<String>,
}

/// The jury's side: start, read, apply and drop rejudgings.
pub trait RejudgingStore: Send + Sync + 'static {
    /// Starts a rejudging of the judged (`done`) submissions in scope, unless the contest
    /// has one open or `max_open` are open (counted under a lock, exact across nodes). Each
    /// run is stamped with this node's data hash of its problem, as an immediate rejudge.
    fn create_rejudging(
        &self,
        new: &NewRejudging,
    ) -> impl Future<Output = Result<RejudgingCreated, StoreError>> + Send;

    /// One rejudging.
    fn rejudging(
        &self,
        id: i64,
    ) -> impl Future<Output = Result<Option<Rejudging>, StoreError>> + Send;

    /// The newest `limit` rejudgings, newest first.
    fn rejudgings(
        &self,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<Rejudging>, StoreError>> + Send;

    /// A rejudging's runs beside their submissions' stored results, by submission id.
    fn rejudging_runs(
        &self,
        id: i64,
    ) -> impl Future<Output = Result<Vec<RejudgingRun>, StoreError>> + Send;

    /// Applies an open rejudging whose runs are all judged: in one transaction each judged
    /// submission takes its run's result and test results (the board's version moves by the
    /// submissions' trigger), its run keeps the verdict and score it replaced, and the
    /// rejudging is closed by `by` at `at` on the contest clock (where the Contest API's feed
    /// places the judgements it makes: `store::judgements`).
    fn apply_rejudging(
        &self,
        id: i64,
        by: &str,
        at: jiff::Timestamp,
    ) -> impl Future<Output = Result<Closed, StoreError>> + Send;

    /// Drops an open rejudging: nothing else changes; its waiting runs are never claimed.
    fn cancel_rejudging(
        &self,
        id: i64,
        by: &str,
    ) -> impl Future<Output = Result<Closed, StoreError>> + Send;
}

/// The workers' side: the runs' queue.
pub trait RejudgeQueue: Send + Sync + 'static {
    /// Claims the oldest waiting run of an open rejudging this node accepts (its data
    /// filter, as a submission's claim), or one whose lease ran out (its node died).
    fn claim_run(
        &self,
        worker: &str,
    ) -> impl Future<Output = Result<Option<ClaimedRun>, StoreError>> + Send;

    /// Stores a run's result aside. `false` when the claim was stale.
    fn complete_run(
        &self,
        run: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Puts a claimed run back (shutdown, a judge failure to retry).
    fn release_run(
        &self,
        run: i64,
        attempt: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Renews the leases of the runs this node instance holds (the heartbeat).
    fn renew_runs(&self) -> impl Future<Output = Result<u64, StoreError>> + Send;
}
