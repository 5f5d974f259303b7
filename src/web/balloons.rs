//! `/contests/{id}/balloons` (the jury): every contestant's first AC per problem in the order
//! solved, with the contestant's display name, the first solve of each problem marked, and a
//! "Delivered" button that stores the mark (`POST /contests/{id}/balloons/{user}/{label}`,
//! `delivered` = 1 or 0). Everything is [`balloons`]'s; the page refreshes itself.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::server::services::contests::view::db_time;
use crate::server::services::contests::{balloons, board};
use crate::server::{ApiError, AppState};

use super::clock::ClockBar;
use super::page::{fmt, render, see_other, Nav, Visitor, WebError, WebResult};

struct Line {
    submission: i64,
    when: String,
    minute: i64,
    user: String,
    name: String,
    label: String,
    first: bool,
    delivered: bool,
}

#[derive(Template)]
#[template(path = "balloons.html")]
struct Page {
    nav: Nav,
    id: String,
    title: String,
    waiting: usize,
    lines: Vec<Line>,
    clock: Option<ClockBar>,
}

fn page_error(nav: &Nav, here: String, e: ApiError) -> WebError {
    match e {
        ApiError::Unauthenticated(_) => WebError::SignIn { next: here },
        e => WebError::api(nav, e),
    }
}

/// The balloon list.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    let here = format!("/contests/{id}/balloons");
    let list = balloons::list(&state, &caller, &id)
        .await
        .map_err(|e| page_error(&nav, here.clone(), e))?;
    // Display names come with the (jury's) board, computed once per version.
    let names = board::scoreboard(&state, &caller, &id)
        .await
        .map_err(|e| page_error(&nav, here.clone(), e))?;
    let contest = state.contests.get(&id);
    let start = contest.as_ref().and_then(|c| c.timing.opens());
    let lines: Vec<Line> = list
        .into_iter()
        .map(|b| Line {
            submission: b.submission,
            when: fmt::when(&db_time(b.at)),
            minute: start.map_or(0, |s| s.duration_until(b.at).as_mins()),
            name: names.view.shown_name(&b.user).to_string(),
            user: b.user,
            label: b.label,
            first: b.first,
            delivered: b.delivered,
        })
        .collect();
    Ok(render(&Page {
        waiting: lines.iter().filter(|l| !l.delivered).count(),
        title: contest.map(|c| c.title.clone()).unwrap_or_default(),
        clock: ClockBar::of(&state, &caller, &id).await,
        nav,
        id,
        lines,
    }))
}

/// The "Delivered" form.
#[derive(Debug, Deserialize)]
pub struct Mark {
    delivered: String,
}

/// Marks a balloon delivered (or not), then back to the list.
pub async fn mark(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path((id, user, label)): Path<(String, String, String)>,
    Form(f): Form<Mark>,
) -> WebResult<Response> {
    let here = format!("/contests/{id}/balloons");
    balloons::mark(&state, &caller, &id, &user, &label, f.delivered == "1")
        .await
        .map_err(|e| page_error(&nav, here.clone(), e))?;
    Ok(see_other(&here))
}
