//! Reading submissions back as a trait, implemented for [`super::Store`] in
//! `sql/submissions.rs`; and the SQL text both backends run (SQLite takes `$N` placeholders, numbered by first appearance, so each
//! text below names `$1`, `$2`, ... in that order).

use std::future::Future;

use sqlx::query::QueryAs;
use sqlx::{Database, Encode, FromRow, Type};

use super::model::{to_submission, to_test_result, ListFilter, Submission, SubmissionRow, TestRow};
use super::StoreError;

/// One submission by id.
pub(super) const SUBMISSION: &str =
    "SELECT s.*, u.name AS user FROM submissions s LEFT JOIN users u ON u.id = s.user_id
     WHERE s.id = $1";

/// One submission's test results in test order.
pub(super) const TESTS_OF: &str =
    "SELECT name, verdict, time_ms, wall_ms, memory_kib, exit_code, signal, message,
            stderr_tail, team_message, score
     FROM test_results WHERE submission_id = $1 ORDER BY ordinal";

/// The owners with the most queued submissions.
pub(super) const QUEUED_BY_OWNER: &str =
    "SELECT u.name, COUNT(*) AS n FROM submissions s JOIN users u ON u.id = s.user_id
     WHERE s.status = 'queued' GROUP BY u.name ORDER BY n DESC, u.name LIMIT $1";

/// Submissions newest first, without sources or tests: bind problem, before, owner, user,
/// verdict, contest, limit (`CAST` gives PostgreSQL the type of a parameter that may be `NULL`).
pub(super) const LIST_FILTERED: &str =
    "SELECT s.id, s.problem, s.language, NULL AS source, s.status, s.verdict, s.score,
            s.time_ms, s.memory_kib, s.compile_ok, s.compile_log, s.message, s.degraded,
            s.created_at, s.finished_at, s.user_id, u.name AS user, s.contest, s.label,
            s.submitted_data_hash, s.judged_data_hash
     FROM submissions s LEFT JOIN users u ON u.id = s.user_id
     WHERE (CAST($1 AS TEXT) IS NULL OR s.problem = $1)
       AND (CAST($2 AS BIGINT) IS NULL OR s.id < $2)
       AND (CAST($3 AS BIGINT) IS NULL OR s.user_id = $3)
       AND (CAST($4 AS TEXT) IS NULL OR u.name = $4)
       AND (CAST($5 AS TEXT) IS NULL OR s.verdict = $5)
       AND (CAST($6 AS TEXT) IS NULL OR s.contest = $6)
     ORDER BY s.id DESC LIMIT $7";

/// Submissions as the server, the pages and the commands read them back.
pub trait SubmissionReads: Send + Sync + 'static {
    /// One submission with its test results and source.
    fn get(&self, id: i64) -> impl Future<Output = Result<Option<Submission>, StoreError>> + Send;

    /// Submissions newest first, of one owner (`None`: everyone's), matching `filter`, older
    /// than `before` (an id): the admin page's filters.
    fn list_filtered(
        &self,
        owner: Option<i64>,
        filter: &ListFilter,
        limit: u32,
        before: Option<i64>,
    ) -> impl Future<Output = Result<Vec<Submission>, StoreError>> + Send;

    /// The owners with the most queued submissions (name, count), most first, at most
    /// `limit`: the admin page's view of who fills the queue.
    fn queued_by_owner(
        &self,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<(String, u64)>, StoreError>> + Send;

    /// One owner's submissions (`None`: everyone's), newest first, optionally of one problem
    /// and older than `before`.
    fn list_owned(
        &self,
        owner: Option<i64>,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> impl Future<Output = Result<Vec<Submission>, StoreError>> + Send {
        let filter = ListFilter {
            problem: problem.map(str::to_string),
            ..ListFilter::default()
        };
        async move { self.list_filtered(owner, &filter, limit, before).await }
    }

    /// Submissions newest first, optionally of one problem and older than `before`.
    fn list(
        &self,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> impl Future<Output = Result<Vec<Submission>, StoreError>> + Send {
        self.list_owned(None, problem, limit, before)
    }
}

/// [`LIST_FILTERED`] with its parameters bound, for either backend to fetch.
pub(super) fn list_filtered_query<'q, DB>(
    owner: Option<i64>,
    filter: &'q ListFilter,
    limit: u32,
    before: Option<i64>,
) -> QueryAs<'q, DB, SubmissionRow, <DB as Database>::Arguments<'q>>
where
    DB: Database,
    SubmissionRow: for<'r> FromRow<'r, DB::Row>,
    Option<&'q str>: Encode<'q, DB> + Type<DB>,
    Option<i64>: Encode<'q, DB> + Type<DB>,
    i64: Encode<'q, DB> + Type<DB>,
{
    sqlx::query_as(LIST_FILTERED)
        .bind(filter.problem.as_deref())
        .bind(before)
        .bind(owner)
        .bind(filter.user.as_deref())
        .bind(filter.verdict.map(|v| v.as_str()))
        .bind(filter.contest.as_deref())
        .bind(i64::from(limit))
}

/// A submission row and its test rows as the trait's value.
pub(super) fn assemble(row: SubmissionRow, tests: Vec<TestRow>) -> Result<Submission, StoreError> {
    let mut submission = to_submission(row)?;
    submission.tests = tests
        .into_iter()
        .map(to_test_result)
        .collect::<Result<_, _>>()?;
    Ok(submission)
}

/// The rows of [`QUEUED_BY_OWNER`] as (name, count).
pub(super) fn owner_counts(rows: Vec<(String, i64)>) -> Vec<(String, u64)> {
    rows.into_iter()
        .map(|(name, n)| (name, u64::try_from(n).unwrap_or(0)))
        .collect()
}
