//! The jury's rejudgings: `/rejudgings` lists them and starts one (a contest, optionally one
//! problem or chosen submissions), `/rejudgings/{id}` shows one's progress and preview (each
//! submission whose verdict or score changes, old beside new, and every contestant whose
//! standing changes) with "Apply" and "Drop" (`POST /rejudgings/{id}/apply|cancel`, CSRF as
//! every form). Everything is [`rejudgings`]'s, the functions the API calls.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::accounts::Caller;
use crate::server::services::contests::rejudgings::{
    self, BoardChange, NewRejudgingRequest, RejudgingState, RejudgingSummary, RunChange, MAX_CHOSEN,
};
use crate::server::{ApiError, AppState};

use super::page::{fmt, render, see_other, Nav, Visitor, WebError, WebResult};

#[derive(Template)]
#[template(path = "rejudgings.html")]
struct ListPage {
    nav: Nav,
    contests: Vec<(String, String)>,
    list: Vec<RejudgingSummary>,
    error: Option<String>,
    max_chosen: usize,
}

#[derive(Template)]
#[template(path = "rejudging.html")]
struct ViewPage {
    nav: Nav,
    r: RejudgingSummary,
    created: String,
    changes: Vec<RunChange>,
    board: Vec<BoardChange>,
    open: bool,
    finished: bool,
}

fn page_error(nav: &Nav, here: String, e: ApiError) -> WebError {
    match e {
        ApiError::Unauthenticated(_) => WebError::SignIn { next: here },
        e => WebError::api(nav, e),
    }
}

async fn list_page(
    state: &AppState,
    caller: &Caller,
    nav: Nav,
    error: Option<String>,
) -> WebResult {
    let list = rejudgings::list(state, caller)
        .await
        .map_err(|e| page_error(&nav, "/rejudgings".into(), e))?;
    let contests = state
        .contests
        .all()
        .iter()
        .map(|c| (c.id.to_string(), c.title.clone()))
        .collect();
    Ok(render(&ListPage {
        nav,
        contests,
        list,
        error,
        max_chosen: MAX_CHOSEN,
    }))
}

/// The list, and the form that starts a rejudging.
pub async fn list(State(state): State<AppState>, Visitor { caller, nav }: Visitor) -> WebResult {
    list_page(&state, &caller, nav, None).await
}

/// The start form: the contest, an optional problem, optional submission ids.
#[derive(Debug, Deserialize)]
pub struct Start {
    contest: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    submissions: String,
}

/// Starts a rejudging, then to its page (the list again, with the refusal, when refused).
pub async fn create(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Form(f): Form<Start>,
) -> WebResult<Response> {
    let mut ids = Vec::new();
    for word in f
        .submissions
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        match word.trim_start_matches('#').parse::<i64>() {
            Ok(id) => ids.push(id),
            Err(_) => {
                let error = format!("{word:?} is not a submission id");
                return list_page(&state, &caller, nav, Some(error)).await;
            }
        }
    }
    let req = NewRejudgingRequest {
        contest: f.contest,
        problem: Some(f.problem.trim().to_string()).filter(|p| !p.is_empty()),
        submissions: (!ids.is_empty()).then_some(ids),
    };
    match rejudgings::create(&state, &caller, &req).await {
        Ok(view) => Ok(see_other(&format!("/rejudgings/{}", view.rejudging.id))),
        Err(
            e @ (ApiError::Conflict(_)
            | ApiError::Invalid(_)
            | ApiError::UnknownProblem(_)
            | ApiError::NotFound(_)),
        ) => list_page(&state, &caller, nav, Some(e.to_string())).await,
        Err(e) => Err(page_error(&nav, "/rejudgings".into(), e)),
    }
}

/// One rejudging: progress, preview, and (while open) the buttons.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    let here = format!("/rejudgings/{id}");
    let Ok(n) = id.parse::<i64>() else {
        return Err(WebError::not_found(&nav, format!("no rejudging {id:?}")));
    };
    let v = rejudgings::view(&state, &caller, n)
        .await
        .map_err(|e| page_error(&nav, here, e))?;
    Ok(render(&ViewPage {
        nav,
        created: fmt::when(&v.rejudging.created_at),
        open: v.rejudging.state == RejudgingState::Open,
        finished: v.rejudging.judged == v.rejudging.total,
        r: v.rejudging,
        changes: v.changes,
        board: v.board,
    }))
}

/// Applies the rejudging, then back to its page.
pub async fn apply(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult<Response> {
    close(state, caller, nav, id, true).await
}

/// Drops the rejudging, then back to its page.
pub async fn cancel(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult<Response> {
    close(state, caller, nav, id, false).await
}

async fn close(
    state: AppState,
    caller: Caller,
    nav: Nav,
    id: String,
    apply: bool,
) -> WebResult<Response> {
    let here = format!("/rejudgings/{id}");
    let Ok(n) = id.parse::<i64>() else {
        return Err(WebError::not_found(&nav, format!("no rejudging {id:?}")));
    };
    let done = if apply {
        rejudgings::apply(&state, &caller, n).await
    } else {
        rejudgings::cancel(&state, &caller, n).await
    };
    done.map_err(|e| page_error(&nav, here.clone(), e))?;
    Ok(see_other(&here))
}
