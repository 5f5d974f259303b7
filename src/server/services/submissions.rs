//! Submissions as the API and the web pages share them: submitting (the language, the source
//! and the queue's bounds checked, a worker woken), reading one with what the caller may see
//! of it, listing, and rejudging. `api_submissions.rs`, `api_runs.rs`, the contest services
//! and the submission pages call these; none of them touches the store.

use crate::accounts::{access, Caller, SubmissionScope};
use crate::store::JudgingStore;
use crate::store::SubmissionReads;
use crate::store::{AccountStore, Enqueued, NewSubmission, Queue, QueueBounds, RejudgeOutcome};

pub use crate::store::{ListFilter, Status, Submission};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::contests::hiding::{problem_visible, shown};

/// Checks the language and the source size; shared with `POST /api/runs`. Returns the id
/// the source is compiled as (an alias such as `cpp` gives its entry's id, `cpp17`), which
/// is what a submission records.
pub(crate) fn check_language_and_source(
    state: &AppState,
    language: &str,
    source: &str,
) -> ApiResult<String> {
    let Some(entry) = state.language_table.get(language) else {
        return Err(ApiError::UnknownLanguage(
            language.to_string(),
            state.language_table.known_ids().join(", "),
        ));
    };
    if source.len() > state.max_source_bytes {
        return Err(ApiError::TooLarge(format!(
            "source is {} bytes; the limit is {} KiB",
            source.len(),
            state.max_source_bytes / 1024
        )));
    }
    if crate::languages::is_blank(source.as_bytes()) {
        return Err(ApiError::Invalid(crate::languages::EMPTY_SOURCE.into()));
    }
    Ok(entry.id.clone())
}

/// Seconds a submission refused by a full queue is told to wait (`Retry-After`).
const QUEUE_RETRY_AFTER_S: u64 = 30;

/// Checks and stores a submission of a caller allowed to submit, and wakes a worker: the API
/// and the web pages' submit form share it. 503 `busy` when `[server] max_queued` wait.
pub async fn enqueue(
    state: &AppState,
    caller: &Caller,
    problem: String,
    language: String,
    source: String,
) -> ApiResult<i64> {
    if !state.problems.contains_key(&problem) || !problem_visible(state, caller, &problem) {
        return Err(ApiError::UnknownProblem(problem));
    }
    super::contests::outside::check(state, caller, &problem, None).await?;
    let language = check_language_and_source(state, &language, &source)?;
    let new = NewSubmission {
        data_hash: state.problems.get(&problem).map(|p| p.data_hash.to_hex()),
        problem,
        language,
        source,
        owner: caller.user_id(),
    };
    let bounds = QueueBounds {
        max_queued: state.plain_max_queued(),
        per_user: state.per_user_bound(caller),
    };
    match state.store.enqueue_bounded(new, bounds).await? {
        Enqueued::Stored(id) => {
            state.wake.notify_one();
            Ok(id)
        }
        Enqueued::QueueFull => Err(queue_full(bounds.max_queued)),
        Enqueued::OwnerFull => Err(own_queue_full(bounds.per_user.unwrap_or(0))),
    }
}

/// The 503 of a full queue (`max_queued` waiting), with `Retry-After`.
pub(crate) fn queue_full(max_queued: u64) -> ApiError {
    ApiError::Busy {
        message: format!("{max_queued} submissions are waiting to be judged; try again later"),
        retry_after_s: QUEUE_RETRY_AFTER_S,
    }
}

/// The 429 of a caller with `per_user` submissions waiting already, with `Retry-After`.
pub(crate) fn own_queue_full(per_user: u64) -> ApiError {
    ApiError::OwnQueueFull {
        message: format!(
            "you have {per_user} submissions waiting to be judged, the most one user may; \
             submit again when some are judged"
        ),
        retry_after_s: QUEUE_RETRY_AFTER_S,
    }
}

fn no_submission(id: &str) -> String {
    format!("no submission {id}")
}

/// Submission `id` (its path segment: not a number is no submission) with its results and
/// source, whoever owns it: the caller's right is the adapter's to check (see [`read`]).
pub async fn find(state: &AppState, id: &str) -> ApiResult<Option<Submission>> {
    Ok(match id.parse::<i64>() {
        Ok(n) => state.store.get(n).await?,
        Err(_) => None,
    })
}

/// Submission `id`'s number and owner (`None` owner: the open mode's), if it exists.
pub async fn owner(state: &AppState, id: &str) -> ApiResult<Option<(i64, Option<i64>)>> {
    Ok(match id.parse::<i64>() {
        Ok(n) => state.store.submission_owner(n).await?.map(|o| (n, o)),
        Err(_) => None,
    })
}

/// One submission with its results, if the caller may read it (another's is a 404, exactly
/// like a missing one). Secret tests show what [`access::feedback`] allows.
pub async fn read(state: &AppState, caller: &Caller, id: &str) -> ApiResult<Submission> {
    let Some(submission) = find(state, id).await? else {
        allow(access::read_submission(caller, None), || no_submission(id))?;
        return Err(ApiError::NotFound(no_submission(id)));
    };
    allow(access::read_submission(caller, submission.owner), || {
        no_submission(id)
    })?;
    Ok(shown_to(state, caller, submission))
}

/// `submission` as `caller` may see it: secret tests as [`access::feedback`] allows, what
/// contests hide hidden.
pub fn shown_to(state: &AppState, caller: &Caller, submission: Submission) -> Submission {
    let view = access::feedback(caller, state.feedback);
    let submission = super::groups::with_groups(&state.problems, submission);
    shown(state, caller, view, submission)
}

/// Submissions in `scope` newest first (of `problem` only, if named; at most `limit`, ids
/// below `before`), each as the caller may see it.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    scope: SubmissionScope,
    problem: Option<&str>,
    limit: u32,
    before: Option<i64>,
) -> ApiResult<Vec<Submission>> {
    let rows = state
        .store
        .list_scoped(scope, problem, limit, before)
        .await?;
    Ok(rows
        .into_iter()
        .map(|s| shown_to(state, caller, s))
        .collect())
}

/// The submissions page's list: `owner`'s (everyone's for `None`) matching `filter`, newest
/// first, at most `limit` below `before`, each as the caller may see it.
pub async fn list_filtered(
    state: &AppState,
    caller: &Caller,
    owner: Option<i64>,
    filter: &ListFilter,
    limit: u32,
    before: Option<i64>,
) -> ApiResult<Vec<Submission>> {
    let rows = state
        .store
        .list_filtered(owner, filter, limit, before)
        .await?;
    Ok(rows
        .into_iter()
        .map(|s| shown_to(state, caller, s))
        .collect())
}

/// Puts submission `id` back in the queue if the caller may (a missing or unreadable one is
/// a 404), and wakes a worker; its number.
pub async fn rejudge(state: &AppState, caller: &Caller, id: &str) -> ApiResult<i64> {
    let Some((n, owner)) = owner(state, id).await? else {
        allow(access::rejudge(caller, None), || no_submission(id))?;
        return Err(ApiError::NotFound(no_submission(id)));
    };
    allow(access::rejudge(caller, owner), || no_submission(id))?;
    requeue(state, n).await?;
    Ok(n)
}

/// Queues a submission again (the caller's right already checked) and wakes a worker; 409
/// while it is being judged. The API and the web pages share it. A judged contest
/// submission's result is kept, with the contest clock's instant, for the Contest API: the
/// new judging is a new judgement ([`crate::store::JudgingStore`]).
pub async fn requeue(state: &AppState, n: i64) -> ApiResult<()> {
    match state.store.rejudge_kept(n, state.contests.now()).await? {
        RejudgeOutcome::Requeued | RejudgeOutcome::AlreadyQueued => {
            state.wake.notify_one();
            Ok(())
        }
        RejudgeOutcome::InProgress => Err(ApiError::Conflict(format!(
            "submission {n} is being judged right now; rejudge it when it is done"
        ))),
        RejudgeOutcome::Cancelled => Err(ApiError::Conflict(format!(
            "submission {n} was cancelled: a cancelled submission is final and never judged"
        ))),
        RejudgeOutcome::NotFound => Err(ApiError::NotFound(format!("no submission {n}"))),
    }
}
