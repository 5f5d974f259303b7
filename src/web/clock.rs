//! The contest clock a contestant sees at the top of every contest page (problem, board,
//! submissions): the time left (or to the start) ticking, when the board freezes, and that
//! it is frozen; the jury is told the public board is frozen while theirs is whole. Read
//! from [`front::clock`]; a page never fails for its clock (an error leaves it out).

use crate::accounts::{access, Caller, Decision};
use crate::server::services::contests::front::{self, Stage};
use crate::server::AppState;

use super::notices::NoticeBar;
use super::page::fmt;

/// The clock bar of one contest (`templates/clock.html`).
#[derive(Debug, Clone)]
pub struct ClockBar {
    /// Contest id.
    pub id: String,
    /// Contest title.
    pub title: String,
    /// Over for the caller.
    pub over: bool,
    /// Not started yet.
    pub upcoming: bool,
    /// What the clock counts down to.
    pub words: &'static str,
    /// Seconds on the clock, for the script (`None`: no clock).
    pub seconds: Option<i64>,
    /// The clock as text when the page is made.
    pub text: String,
    /// When the public board freezes (`2026-03-01 13:00:00`), if it does.
    pub freeze: Option<String>,
    /// The public board is frozen now.
    pub frozen: bool,
    /// The caller is the jury (sees the whole board while the public one is frozen).
    pub jury: bool,
    /// Where the title leads: the contest page, or for a spectator who may not read it, the
    /// public board.
    pub href: String,
    /// The live notice strip of the contest's pages (`None` for a spectator).
    pub notices: Option<NoticeBar>,
}

/// Clock bars shown at most on a page that is not one contest's.
const MAX_BARS: usize = 4;

impl ClockBar {
    /// The bars of the contests running now with a clock (the submissions list's), at most
    /// a few.
    pub async fn running(state: &AppState, caller: &Caller) -> Vec<ClockBar> {
        let Ok(all) = front::contests(state, caller).await else {
            return Vec::new();
        };
        let mut bars = Vec::new();
        for c in all
            .iter()
            .filter(|c| c.stage == Stage::Running && c.seconds.is_some())
            .take(MAX_BARS)
        {
            if let Some(bar) = ClockBar::of(state, caller, &c.summary.id).await {
                bars.push(bar);
            }
        }
        bars
    }

    /// The bar of contest `id` for `caller`; `None` when it cannot be read.
    pub async fn of(state: &AppState, caller: &Caller, id: &str) -> Option<ClockBar> {
        let k = match front::clock(state, caller, id).await {
            Ok(k) => k,
            Err(e) => {
                tracing::debug!(error = %e, contest = id, "no clock for the page");
                return None;
            }
        };
        let href = if access::read_contest(caller) == Decision::Allow {
            format!("/contests/{}", k.id)
        } else {
            format!("/contests/{}/scoreboard", k.id)
        };
        Some(ClockBar {
            notices: NoticeBar::of(state, caller, &k.id),
            href,
            over: k.stage == Stage::Past,
            upcoming: k.stage == Stage::Upcoming,
            text: k.seconds.map(fmt::hms).unwrap_or_default(),
            id: k.id,
            title: k.title,
            words: k.words,
            seconds: k.seconds,
            freeze: k.freeze_at.as_deref().map(fmt::when),
            frozen: k.frozen,
            jury: access::contest_jury(caller) == Decision::Allow,
        })
    }
}
