//! `/`: the front page, for anyone: the contests running, upcoming and past with their
//! clocks (a ticking countdown to the start or the end), when each board freezes, and a link
//! to the board where spectators may read it (`public_board = true`) or the caller is signed
//! in. Everything comes from [`front`], the list's rule.

use askama::Template;
use axum::extract::State;

use crate::server::services::contests::front::{self, FrontContest, Stage};
use crate::server::AppState;

use super::page::{fmt, render, Nav, Visitor, WebError, WebResult};

/// A contest on the front page.
struct Line {
    id: String,
    title: String,
    format: &'static str,
    start: String,
    end: String,
    countdown: Option<i64>,
    clock: String,
    freeze: Option<String>,
    frozen: bool,
    board: bool,
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    nav: Nav,
    running: Vec<Line>,
    upcoming: Vec<Line>,
    past: Vec<Line>,
}

/// The front page.
pub async fn show(State(state): State<AppState>, Visitor { caller, nav }: Visitor) -> WebResult {
    let all = front::contests(&state, &caller)
        .await
        .map_err(|e| WebError::api(&nav, e))?;
    let (mut running, mut upcoming, mut past) = (Vec::new(), Vec::new(), Vec::new());
    for FrontContest {
        summary: s,
        stage,
        seconds,
        freeze_at,
        frozen,
    } in all
    {
        let line = Line {
            board: s.public_board || nav.signed_in,
            id: s.id,
            title: s.title,
            format: s.format.as_str(),
            start: s.start.as_deref().map(fmt::when).unwrap_or_default(),
            end: s.end.as_deref().map(fmt::when).unwrap_or_default(),
            countdown: seconds,
            clock: seconds.map(fmt::hms).unwrap_or_default(),
            freeze: freeze_at.as_deref().map(fmt::when),
            frozen,
        };
        match stage {
            Stage::Running => running.push(line),
            Stage::Upcoming => upcoming.push(line),
            Stage::Past => past.push(line),
        }
    }
    Ok(render(&HomePage {
        nav,
        running,
        upcoming,
        past,
    }))
}
