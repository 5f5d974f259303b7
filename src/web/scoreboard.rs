//! `/contests/{id}/scoreboard`: the board the contest service computes for the caller's
//! audience (frozen and hidden cells as the format says), laid out as a table: first solves
//! and the caller's own row highlighted, frozen cells marked, refreshing by itself.

use askama::Template;
use axum::extract::{Path, State};

use crate::accounts::Caller;
use crate::contest::{Cell, CellState, Format};
use crate::server::services::contests::board::{cell_text, scoreboard};
use crate::server::{ApiError, AppState};

use super::clock::ClockBar;
use super::page::{render, Nav, Visitor, WebError, WebResult};

struct CellView {
    text: String,
    class: &'static str,
    title: String,
}

struct RowView {
    rank: u32,
    /// The display name (else the login name).
    user: String,
    /// The login name, when a display name is shown instead.
    login: String,
    solved: u32,
    penalty: i64,
    score: i64,
    me: bool,
    cells: Vec<CellView>,
}

#[derive(Template)]
#[template(path = "scoreboard.html")]
struct BoardPage {
    nav: Nav,
    id: String,
    title: String,
    format: &'static str,
    icpc: bool,
    frozen: bool,
    hidden: bool,
    labels: Vec<String>,
    rows: Vec<RowView>,
    /// Per problem: contestants who solved it (ioi/oi: full score), and who tried it.
    totals: Vec<(usize, usize)>,
    /// Any frozen cell on the board (the legend's lilac swatch).
    any_frozen: bool,
    clock: Option<ClockBar>,
}

/// Per problem: how many rows solved it (icpc: solved; ioi/oi: the problem's full score, as
/// the board marks it) and how many tried it (any submission counted, pending or judged).
fn totals(b: &crate::contest::Scoreboard) -> Vec<(usize, usize)> {
    (0..b.problems.len())
        .map(|i| {
            let cells = b.rows.iter().filter_map(|r| r.cells.get(i));
            cells.fold((0, 0), |(solved, tried), c| {
                let done = c.solved;
                let any = c.state != CellState::Empty;
                (solved + usize::from(done), tried + usize::from(any))
            })
        })
        .collect()
}

/// The CSS class and hover text of a cell.
fn cell_view(c: &Cell, frozen: bool) -> CellView {
    let (class, title) = match c.state {
        CellState::Solved if c.first_solve => ("first", "first to solve".to_string()),
        CellState::Solved => ("solved", String::new()),
        CellState::Rejected => ("failed", String::new()),
        CellState::Pending if frozen => (
            "frozen",
            format!("{} attempt(s) during the freeze", c.pending),
        ),
        CellState::Pending => ("pending", "being judged".to_string()),
        CellState::Scored if c.solved => ("solved", "full score".to_string()),
        CellState::Scored if c.score.unwrap_or(0) > 0 => ("partial", String::new()),
        CellState::Scored => ("failed", String::new()),
        CellState::Judged => ("judged", "judged; published at the end".to_string()),
        CellState::Empty => ("", String::new()),
    };
    CellView {
        text: cell_text(c),
        class,
        title,
    }
}

/// The scoreboard page.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    let board = scoreboard(&state, &caller, &id)
        .await
        .map_err(|e| match e {
            ApiError::Unauthenticated(_) => WebError::SignIn {
                next: format!("/contests/{id}/scoreboard"),
            },
            e => WebError::api(&nav, e),
        })?;
    let b = &board.view.board;
    let me = match &caller {
        Caller::User(u) => Some(u.name.to_string()),
        _ => None,
    };
    let clock = ClockBar::of(&state, &caller, &id).await;
    Ok(render(&BoardPage {
        totals: totals(b),
        any_frozen: b.frozen
            && b.rows
                .iter()
                .any(|r| r.cells.iter().any(|c| c.state == CellState::Pending)),
        clock,
        title: state
            .contests
            .get(&id)
            .map(|c| c.title.clone())
            .unwrap_or_default(),
        format: b.format.as_str(),
        icpc: b.format == Format::Icpc,
        frozen: b.frozen,
        hidden: b.hidden,
        labels: b.problems.iter().map(|l| l.to_string()).collect(),
        rows: b
            .rows
            .iter()
            .map(|r| RowView {
                rank: r.rank,
                me: me.as_deref() == Some(r.user.as_str()),
                user: board.view.shown_name(&r.user).to_string(),
                login: if board.view.display_names.contains_key(&r.user) {
                    r.user.clone()
                } else {
                    String::new()
                },
                solved: r.solved,
                penalty: r.penalty,
                score: r.score,
                cells: r.cells.iter().map(|c| cell_view(c, b.frozen)).collect(),
            })
            .collect(),
        id,
        nav,
    }))
}
