//! Clarifications: a contestant asks the jury (privately); an admin answers privately or to
//! all, and posts announcements (to all).

use serde::{Deserialize, Serialize};

use crate::accounts::access;
use crate::accounts::{Caller, Decision};
use crate::contest::Audience;
use crate::store::{Clarification, ContestStore, NewClarification};

use super::super::auth::{allow, refusal};
use super::super::error::{ApiError, ApiResult};
use super::super::state::AppState;
use super::find;

/// Longest question, answer or announcement, in bytes.
pub const MAX_TEXT_BYTES: usize = 4000;

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

fn checked(text: &str) -> ApiResult<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::Invalid("the text is empty".into()));
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(ApiError::TooLarge(format!(
            "the text is {} bytes; the limit is {MAX_TEXT_BYTES}",
            text.len()
        )));
    }
    Ok(text.to_string())
}

/// What `caller` may read of contest `id`'s clarifications: the jury all, a contestant their
/// own questions and the public ones, oldest first.
pub async fn list(state: &AppState, caller: &Caller, id: &str) -> ApiResult<Vec<Clarification>> {
    allow(access::read_contest(caller), String::new)?;
    find(state, id)?;
    let viewer = match access::contest_audience(caller) {
        Audience::Admin => None,
        // A contestant sees their own and the public ones; an id no user has sees only those.
        Audience::Public => Some(caller.user_id().unwrap_or(0)),
    };
    Ok(state.store.clarifications(id, viewer).await?)
}

/// A contestant's question, or the jury's announcement.
pub async fn post(
    state: &AppState,
    caller: &Caller,
    id: &str,
    req: ClarificationRequest,
) -> ApiResult<i64> {
    let c = find(state, id)?;
    let jury = access::contest_jury(caller) == Decision::Allow;
    if !jury {
        let admitted = match caller {
            Caller::User(u) => c.participants.admits(u.name.as_str()),
            _ => false,
        };
        access::ask_question(caller, admitted)
            .map_err(|d| refusal(d, String::new))?
            .map_err(ApiError::Contest)?;
    }
    let label = match &req.problem {
        None => None,
        Some(p) => Some(
            c.problem(p)
                .ok_or_else(|| ApiError::UnknownProblem(p.clone()))?
                .label
                .to_string(),
        ),
    };
    let text = checked(&req.text)?;
    let (question, answer) = if jury {
        (None, Some(text))
    } else {
        (Some(text), None)
    };
    let new = NewClarification {
        contest: id.to_string(),
        author: caller.user_id(),
        label,
        question,
        answer,
        public: jury,
        at: state.contests.now(),
    };
    Ok(state.store.add_clarification(new).await?)
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
    let text = checked(&req.answer)?;
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
