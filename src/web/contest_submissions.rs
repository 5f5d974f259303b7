//! `/contests/{id}/submissions`: a contest's submissions, newest first, 50 a page: a
//! contestant's own, everyone's for the jury, filtered by user (the jury), problem label and
//! verdict; with the contest's clock bar. The scope is [`access::list_submissions`]'s and
//! each row is shown as [`submissions::shown_to`] shows it (hidden `oi` results stay
//! hidden), exactly as on `/submissions`.

use askama::Template;
use axum::extract::{Path, Query, State};
use serde::Deserialize;

use crate::accounts::{access, SubmissionScope};
use crate::judge::Verdict;
use crate::server::services::contests::view;
use crate::server::services::submissions::{self, ListFilter};
use crate::server::{ApiError, AppState};

use super::clock::ClockBar;
use super::page::{refusal, render, Nav, Visitor, WebError, WebResult};
use super::submissions::Row;

/// Rows per page.
const PAGE_ROWS: u32 = 50;

/// The filters (the jury: user, label, verdict; contestants: label, verdict).
#[derive(Debug, Default, Deserialize)]
pub struct Filters {
    #[serde(default)]
    user: String,
    #[serde(default)]
    label: String,
    #[serde(default)]
    verdict: String,
    before: Option<i64>,
}

#[derive(Template)]
#[template(path = "contest_submissions.html")]
struct Page {
    nav: Nav,
    id: String,
    title: String,
    all: bool,
    filter: Filters,
    labels: Vec<(String, bool)>,
    verdicts: Vec<(&'static str, bool)>,
    rows: Vec<Row>,
    pending: bool,
    older: Option<String>,
    clock: Option<ClockBar>,
}

/// The contest's submissions page.
pub async fn list(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    Query(filter): Query<Filters>,
) -> WebResult {
    let here = format!("/contests/{id}/submissions");
    let scope =
        access::list_submissions(&caller).map_err(|d| refusal(d, &nav, &here, String::new))?;
    // The contest as the caller may see it (sign in first; 404 for an unknown one).
    let v = view::get(&state, &caller, &id).await.map_err(|e| match e {
        ApiError::Unauthenticated(_) => WebError::SignIn { next: here.clone() },
        e => WebError::api(&nav, e),
    })?;
    let (owner, all) = match scope {
        SubmissionScope::All => (None, true),
        SubmissionScope::Owner(user) => (Some(user), false),
    };
    let bad =
        |e: String| WebError::page(&nav, axum::http::StatusCode::BAD_REQUEST, "Bad filter", e);
    let verdict = match filter.verdict.as_str() {
        "" => None,
        v => Some(Verdict::parse(v).map_err(|e| bad(e.to_string()))?),
    };
    let contest = state
        .contests
        .get(&id)
        .ok_or_else(|| WebError::not_found(&nav, format!("no contest {id:?}")))?;
    // A label names a problem only once the caller may see the problems.
    let problem = match filter.label.as_str() {
        "" => None,
        l => Some(
            contest
                .problem(l)
                .filter(|_| v.problems_visible)
                .map(|p| p.problem.clone())
                .ok_or_else(|| bad(format!("the contest has no problem {l:?}")))?,
        ),
    };
    let wanted = ListFilter {
        problem,
        user: Some(filter.user.clone()).filter(|u| all && !u.is_empty()),
        verdict,
        contest: Some(id.clone()),
    };
    let found =
        submissions::list_filtered(&state, &caller, owner, &wanted, PAGE_ROWS, filter.before)
            .await
            .map_err(|e| WebError::api(&nav, e))?;
    let (rows, older) = super::submissions::page_rows(
        &found,
        &here,
        [
            ("user", filter.user.as_str()),
            ("label", filter.label.as_str()),
            ("verdict", filter.verdict.as_str()),
        ],
    );
    let labels = if v.problems_visible {
        contest
            .problems
            .iter()
            .map(|p| (p.label.to_string(), p.label.as_str() == filter.label))
            .collect()
    } else {
        Vec::new()
    };
    Ok(render(&Page {
        clock: ClockBar::of(&state, &caller, &id).await,
        nav,
        title: v.summary.title,
        id,
        all,
        pending: rows.iter().any(|r| r.class == "pending"),
        labels,
        verdicts: Verdict::ALL
            .iter()
            .map(|v| (v.as_str(), v.as_str() == filter.verdict))
            .collect(),
        filter,
        rows,
        older,
    }))
}
