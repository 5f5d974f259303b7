//! The stored shapes of submissions and test results, as the API shows them.

use serde::{Deserialize, Serialize};

use crate::judge::{CompileInfo, TestResult, Verdict};

use super::StoreError;

/// Where a submission is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Stored, waiting for a worker.
    Queued,
    /// Claimed by a worker, being compiled.
    Compiling,
    /// Compiled, tests running.
    Running,
    /// Judged: verdict and results are final (until a rejudge).
    Done,
    /// Cancelled by an admin while it waited in the queue: kept, never judged (final).
    Cancelled,
}

impl Status {
    /// The name stored in the database and shown by the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Compiling => "compiling",
            Status::Running => "running",
            Status::Done => "done",
            Status::Cancelled => "cancelled",
        }
    }

    /// Whether nothing more will happen to it (judged, or cancelled): the end of a wait.
    pub fn is_final(self) -> bool {
        matches!(self, Status::Done | Status::Cancelled)
    }

    pub(crate) fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "queued" => Status::Queued,
            "compiling" => Status::Compiling,
            "running" => Status::Running,
            "done" => Status::Done,
            "cancelled" => Status::Cancelled,
            _ => return None,
        })
    }
}

/// A submission to store (already validated by the caller).
#[derive(Debug, Clone)]
pub struct NewSubmission {
    /// Problem id.
    pub problem: String,
    /// Language id.
    pub language: String,
    /// The source text.
    pub source: String,
    /// The user who made it (`None`: open single-user mode, or the CLI).
    pub owner: Option<i64>,
    /// The hash of the problem's data on the node that took the submission
    /// ([`crate::problem::DataHash`]); `None` when that node does not have the problem.
    pub data_hash: Option<String>,
}

/// A submission a worker has claimed: what it needs to judge it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    /// Submission id.
    pub id: i64,
    /// The claim's attempt number; completing with a stale attempt is ignored.
    pub attempt: i64,
    /// Problem id.
    pub problem: String,
    /// Language id.
    pub language: String,
    /// The source text.
    pub source: String,
    /// The contest it was made to, whose format decides how much is judged.
    pub contest: Option<String>,
    /// The data hash of the problem on the node that took the submission (`None` for
    /// submissions older than the hashes), for a judging node to compare with its own.
    pub submitted_data_hash: Option<String>,
}

/// A submission with its results, as `GET /api/submissions/{id}` shows it.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Submission {
    /// Submission id.
    pub id: i64,
    /// Problem id.
    pub problem: String,
    /// Language id.
    pub language: String,
    /// queued, compiling, running or done.
    pub status: Status,
    /// The verdict once done.
    pub verdict: Option<Verdict>,
    /// Share of tests passed once done.
    pub score: Option<i64>,
    /// Maximum CPU time over the tests.
    pub time_ms: Option<u64>,
    /// Maximum peak memory over the tests.
    pub memory_kib: Option<u64>,
    /// The compile step once done.
    pub compile: Option<CompileInfo>,
    /// The cause of a submission-level SE.
    pub message: Option<String>,
    /// Whether some run was not fully isolated.
    pub degraded: bool,
    /// When the submission was stored (ISO 8601 UTC).
    pub created_at: String,
    /// When the last judgement finished.
    pub finished_at: Option<String>,
    /// Per-test results in judging order (empty until done).
    pub tests: Vec<TestResult>,
    /// A scoring problem's groups with their scores, computed from the tests and the
    /// package's groups when read (empty for pass-fail problems and until done).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<crate::judge::GroupResult>,
    /// The source text (absent from listings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The owner's user id (`None` for open-mode work); for the access rules, not shown.
    #[serde(skip)]
    pub owner: Option<i64>,
    /// The owner's name (`null` for submissions made in the open single-user mode).
    #[serde(default)]
    pub user: Option<String>,
    /// The contest it was made to (absent outside contests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<String>,
    /// The problem's label in that contest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The results are hidden until the contest's end (an `oi` contest, to its contestants):
    /// `status` says whether it is judged, every result field is empty.
    #[serde(default)]
    pub results_hidden: bool,
    /// The hash of the problem's data the submission was made against (the API node's).
    #[serde(default)]
    pub submitted_data_hash: Option<String>,
    /// The hash of the problem's data the last judgement used (the judging node's).
    #[serde(default)]
    pub judged_data_hash: Option<String>,
}

/// Which submissions a listing shows (each `None` is no filter).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Only this problem.
    pub problem: Option<String>,
    /// Only this user's (by name).
    pub user: Option<String>,
    /// Only this verdict.
    pub verdict: Option<Verdict>,
    /// Only submissions to this contest.
    pub contest: Option<String>,
}

/// The bounds a new submission is stored under (checked in the insert's transaction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueBounds {
    /// Queued submissions (everyone's) at most for this kind of submission: `[server]
    /// max_queued` for contest submissions, less the contest reserve for the others.
    pub max_queued: u64,
    /// The owner's own queued submissions at most (`[server] max_queued_per_user`); `None`:
    /// not bounded (the jury, the open mode's host).
    pub per_user: Option<u64>,
}

impl QueueBounds {
    /// Only the global bound.
    pub fn global(max_queued: u64) -> QueueBounds {
        QueueBounds {
            max_queued,
            per_user: None,
        }
    }
}

/// What storing a bounded submission did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// Stored and queued, with this id.
    Stored(i64),
    /// The queue is full (for this kind of submission): nothing stored.
    QueueFull,
    /// The owner has their bound of queued submissions already: nothing stored.
    OwnerFull,
}

impl Enqueued {
    /// The id, when stored.
    pub fn id(self) -> Option<i64> {
        match self {
            Enqueued::Stored(id) => Some(id),
            _ => None,
        }
    }
}

/// What [`super::Queue::requeue_stale`] did at start-up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StaleOutcome {
    /// Submissions queued again.
    pub requeued: u64,
    /// Submissions stored as `SE`: the judge had died judging them `max_attempts` times.
    pub failed: u64,
}

/// What a rejudge request found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejudgeOutcome {
    /// The submission was done and is queued again; its old results are gone.
    Requeued,
    /// It was still waiting in the queue: nothing to do.
    AlreadyQueued,
    /// A worker is judging it right now.
    InProgress,
    /// It was cancelled: final, never judged.
    Cancelled,
    /// No such submission.
    NotFound,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct SubmissionRow {
    pub id: i64,
    pub problem: String,
    pub language: String,
    pub source: Option<String>,
    pub status: String,
    pub verdict: Option<String>,
    pub score: Option<i64>,
    pub time_ms: Option<i64>,
    pub memory_kib: Option<i64>,
    pub compile_ok: Option<bool>,
    pub compile_log: Option<String>,
    pub message: Option<String>,
    pub degraded: bool,
    pub created_at: String,
    pub finished_at: Option<String>,
    pub user_id: Option<i64>,
    pub user: Option<String>,
    pub contest: Option<String>,
    pub label: Option<String>,
    pub submitted_data_hash: Option<String>,
    pub judged_data_hash: Option<String>,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct TestRow {
    pub name: String,
    pub verdict: String,
    pub time_ms: i64,
    pub wall_ms: i64,
    pub memory_kib: i64,
    pub exit_code: Option<i64>,
    pub signal: Option<i64>,
    pub message: Option<String>,
    pub stderr_tail: Option<String>,
    pub team_message: Option<String>,
    pub score: Option<f64>,
}

/// A stored row as the API shows it (no tests yet).
pub(crate) fn to_submission(row: SubmissionRow) -> Result<Submission, StoreError> {
    let status = Status::parse(&row.status).ok_or_else(|| StoreError::Corrupt {
        id: row.id,
        what: format!("status {:?}", row.status),
    })?;
    let verdict = row
        .verdict
        .as_deref()
        .map(Verdict::parse)
        .transpose()
        .map_err(|e| StoreError::Corrupt {
            id: row.id,
            what: e.to_string(),
        })?;
    Ok(Submission {
        id: row.id,
        problem: row.problem,
        language: row.language,
        status,
        verdict,
        score: row.score,
        time_ms: row.time_ms.and_then(|v| u64::try_from(v).ok()),
        memory_kib: row.memory_kib.and_then(|v| u64::try_from(v).ok()),
        compile: row.compile_ok.map(|ok| CompileInfo {
            ok,
            log: row.compile_log.unwrap_or_default(),
            cached: false,
        }),
        message: row.message,
        degraded: row.degraded,
        created_at: row.created_at,
        finished_at: row.finished_at,
        tests: Vec::new(),
        groups: Vec::new(),
        source: row.source,
        owner: row.user_id,
        user: row.user,
        contest: row.contest,
        label: row.label,
        results_hidden: false,
        submitted_data_hash: row.submitted_data_hash,
        judged_data_hash: row.judged_data_hash,
    })
}

/// A stored test result.
pub(crate) fn to_test_result(row: TestRow) -> Result<TestResult, StoreError> {
    let verdict = Verdict::parse(&row.verdict).map_err(|e| StoreError::Corrupt {
        id: 0,
        what: format!("test {}: {e}", row.name),
    })?;
    let unsigned = |v: i64| u64::try_from(v).unwrap_or(0);
    Ok(TestResult {
        name: row.name,
        verdict,
        time_ms: unsigned(row.time_ms),
        wall_ms: unsigned(row.wall_ms),
        memory_kib: unsigned(row.memory_kib),
        exit_code: row.exit_code.and_then(|v| i32::try_from(v).ok()),
        signal: row.signal.and_then(|v| i32::try_from(v).ok()),
        message: row.message,
        stderr_tail: row.stderr_tail,
        team_message: row.team_message,
        score: row
            .score
            .filter(|s| s.is_finite())
            .map(crate::judge::Points),
    })
}

/// A count for an SQL integer column (saturating).
pub(crate) fn signed(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
