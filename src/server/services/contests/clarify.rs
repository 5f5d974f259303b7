//! Clarifications: a contestant asks the jury (privately); an admin answers privately or to
//! all, and posts announcements (to all). Questions are bounded: at most `[contests]
//! max_question_chars` characters (422 `too_long`), at most `[contests] question_rate` per
//! contestant and contest (429, counted from the stored questions); lists are read by pages.

use serde::{Deserialize, Serialize};

use crate::accounts::access;
use crate::accounts::{Caller, Decision};
use crate::contest::Audience;
use crate::store::{Clarification, ClarificationAdded, ContestStore, NewClarification};

pub use crate::store::ClarificationPage;

use crate::server::auth::{allow, refusal};
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::find;

/// Longest answer or announcement (the jury's), in characters; a question's bound is
/// `[contests] max_question_chars`.
pub const MAX_JURY_CHARS: usize = 4000;

/// Clarifications per page of the API's list at most (and by default).
pub const MAX_PAGE: u32 = 200;

/// The body of `POST /api/contests/{id}/clarifications`: a question (contestants) or an
/// announcement (admins).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClarificationRequest {
    /// The question or the announcement.
    #[schema(example = "Is the output one line per puzzle?")]
    pub text: String,
    /// The problem it is about (its label or id); absent for the whole contest.
    #[serde(default)]
    pub problem: Option<String>,
}

/// The body of `POST /api/contests/{id}/clarifications/{clarification}/answer`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// The answer.
    #[schema(example = "Yes: one line per puzzle.")]
    pub answer: String,
    /// Show the question and its answer to every participant (default: only the asker).
    #[serde(default)]
    pub public: bool,
}

/// The id of a stored clarification.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ClarificationId {
    /// Its id.
    pub id: i64,
}

/// `text` trimmed, if it is not empty and at most `max` characters (else 422).
fn checked(text: &str, what: &str, max: usize) -> ApiResult<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::Invalid(format!("the {what} is empty")));
    }
    let chars = text.chars().count();
    if chars > max {
        return Err(ApiError::TooLong(format!(
            "the {what} is {chars} characters; the limit is {max}"
        )));
    }
    Ok(text.to_string())
}

/// The query of `GET /api/contests/{id}/clarifications`: pages, oldest first.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ClarificationQuery {
    /// Only ids above this one (the next page: the last id of the previous one).
    pub after: Option<i64>,
    /// At most this many (default and most: 200).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
}

/// One page of what `caller` may read of contest `id`'s clarifications: the jury all, a
/// contestant their own questions and the public ones.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    id: &str,
    page: ClarificationPage,
) -> ApiResult<Vec<Clarification>> {
    allow(access::read_contest(caller), String::new)?;
    find(state, id)?;
    let viewer = match access::contest_audience(caller) {
        Audience::Admin => None,
        // A contestant sees their own and the public ones; an id no user has sees only those.
        Audience::Public => Some(caller.user_id().unwrap_or(0)),
    };
    Ok(state.store.clarifications(id, viewer, page).await?)
}

/// The API's page: oldest first after `q.after`, at most `q.limit` (1 to [`MAX_PAGE`]).
pub fn api_page(q: &ClarificationQuery) -> ApiResult<ClarificationPage> {
    let limit = q.limit.unwrap_or(MAX_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::BadQuery(format!(
            "limit must be 1 to {MAX_PAGE}, not {limit}"
        )));
    }
    Ok(ClarificationPage {
        after: q.after,
        before: None,
        limit,
        newest_first: false,
    })
}

/// A contestant's question, or the jury's announcement.
pub async fn post(
    state: &AppState,
    caller: &Caller,
    id: &str,
    req: ClarificationRequest,
) -> ApiResult<i64> {
    let c = find(state, id)?;
    let c = &*c;
    let jury = access::contest_jury(caller) == Decision::Allow;
    let now = state.contests.now();
    let mut shows_problems = true;
    if !jury {
        let (facts, _) = super::facts(state, caller, c, now).await?;
        access::ask_question(caller, facts.admitted)
            .map_err(|d| refusal(d, String::new))?
            .map_err(ApiError::Contest)?;
        shows_problems = access::see_contest_problems(caller, facts).is_ok();
    }
    let label = match &req.problem {
        None => None,
        // Before the caller may see the problems, a question names none of them, real or
        // made up: the same answer for both (else it tells which ids the contest holds).
        Some(_) if !shows_problems => {
            return Err(ApiError::Invalid(
                "the problems are not shown to you yet: ask about the contest as a whole \
                 (no problem)"
                    .into(),
            ))
        }
        Some(p) => Some(
            c.problem(p)
                .ok_or_else(|| ApiError::UnknownProblem(p.clone()))?
                .label
                .to_string(),
        ),
    };
    let (question, answer) = if jury {
        (
            None,
            Some(checked(&req.text, "announcement", MAX_JURY_CHARS)?),
        )
    } else {
        let max = state.max_question_chars;
        (Some(checked(&req.text, "question", max)?), None)
    };
    let new = NewClarification {
        contest: id.to_string(),
        author: caller.user_id(),
        label,
        question,
        answer,
        public: jury,
        at: now,
    };
    let rate = if jury { None } else { state.question_rate };
    match state.store.add_clarification(new, rate).await? {
        ClarificationAdded::Stored(cid) => Ok(cid),
        ClarificationAdded::RateLimited(wait) => {
            let r = rate.map_or((0, 0), |r| (r.submissions, r.per.as_mins()));
            Err(ApiError::RateLimited {
                retry_after_secs: (u64::try_from(wait.as_secs()).unwrap_or(0)
                    + u64::from(wait.subsec_nanos() > 0))
                .max(1),
                message: format!("you may ask {} questions in any {} minutes", r.0, r.1),
            })
        }
    }
}

/// The jury answers clarification `clarification` of contest `id`.
pub async fn answer(
    state: &AppState,
    caller: &Caller,
    id: &str,
    clarification: &str,
    req: AnswerRequest,
) -> ApiResult<()> {
    allow(access::contest_jury(caller), String::new)?;
    find(state, id)?;
    let missing = || ApiError::NotFound(format!("no clarification {clarification:?} in {id:?}"));
    let n: i64 = clarification.parse().map_err(|_| missing())?;
    let text = checked(&req.answer, "answer", MAX_JURY_CHARS)?;
    let now = state.contests.now();
    if state
        .store
        .answer_clarification(id, n, &text, req.public, caller.user_id(), now)
        .await?
    {
        Ok(())
    } else {
        Err(missing())
    }
}

/// Questions of contest `id` still waiting for an answer (the jury's count on the admin
/// page).
pub async fn unanswered(state: &AppState, caller: &Caller, id: &str) -> ApiResult<u64> {
    allow(access::contest_jury(caller), String::new)?;
    Ok(state.store.unanswered(id).await?)
}
