//! The contests as the front page shows them to anyone: running, upcoming and past, each
//! with its contest-wide clock (seconds to the start or to the end), when its board freezes,
//! and whether spectators may read the board.

use jiff::Timestamp;

use crate::accounts::{access, Caller};
use crate::contest::view::freeze_begins;

use crate::server::auth::allow;
use crate::server::error::ApiResult;
use crate::server::state::AppState;

use super::view::{db_time, summary, ContestSummary};

/// Where a contest stands for everyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Running (window timing: the window is open; open timing: always).
    Running,
    /// Not open yet.
    Upcoming,
    /// Over for everyone.
    Past,
}

/// A contest on the front page.
#[derive(Debug, Clone)]
pub struct FrontContest {
    /// What it is and when it runs.
    pub summary: ContestSummary,
    /// Running, upcoming or past.
    pub stage: Stage,
    /// Upcoming: seconds to the start; running: seconds to the end (`None`: open timing).
    pub seconds: Option<i64>,
    /// When the public board freezes (icpc with `freeze_minutes`), ISO 8601 UTC.
    pub freeze_at: Option<String>,
    /// The public board is frozen now: the freeze has begun and no admin has unfrozen it.
    pub frozen: bool,
}

/// Where a contest with these times stands at `now`, and the seconds its clock shows.
pub fn stage(
    opens: Option<Timestamp>,
    end: Option<Timestamp>,
    now: Timestamp,
) -> (Stage, Option<i64>) {
    match (opens, end) {
        (Some(o), _) if now < o => (Stage::Upcoming, Some(now.duration_until(o).as_secs())),
        (_, Some(e)) if now >= e => (Stage::Past, None),
        (_, e) => (Stage::Running, e.map(|e| now.duration_until(e).as_secs())),
    }
}

/// Every contest with its stage and clock, for anyone (the list's rule), in file order.
pub async fn contests(state: &AppState, caller: &Caller) -> ApiResult<Vec<FrontContest>> {
    allow(access::list_contests(caller), String::new)?;
    let now = state.contests.now();
    let mut out = Vec::new();
    for c in state.contests.all().iter() {
        let (stage, seconds) = stage(c.timing.opens(), c.timing.end(), now);
        let freeze = freeze_begins(c);
        let begun = freeze.is_some_and(|f| now >= f);
        // The board's own read of the contest's state (shared by concurrent requests).
        let unfrozen = begun
            && state
                .contests
                .boards
                .states
                .read(&state.store, c.id.as_str())
                .await?
                .unfrozen;
        out.push(FrontContest {
            summary: summary(c),
            stage,
            seconds,
            freeze_at: freeze.map(db_time),
            frozen: begun && !unfrozen,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contest_is_upcoming_running_or_past_with_its_clock() {
        let t = |s: &str| s.parse::<Timestamp>().unwrap();
        let (o, e) = (
            Some(t("2026-03-01T10:00:00Z")),
            Some(t("2026-03-01T15:00:00Z")),
        );
        assert_eq!(
            stage(o, e, t("2026-03-01T09:00:00Z")),
            (Stage::Upcoming, Some(3600))
        );
        assert_eq!(
            stage(o, e, t("2026-03-01T14:59:00Z")),
            (Stage::Running, Some(60))
        );
        assert_eq!(stage(o, e, t("2026-03-01T15:00:00Z")), (Stage::Past, None));
        assert_eq!(
            stage(None, None, t("2026-03-01T15:00:00Z")),
            (Stage::Running, None)
        );
    }
}

/// A contest's clock as a page heading shows it to the caller: the caller's own time (window
/// timing: their personal timer), when the public board freezes and whether it is frozen now.
#[derive(Debug, Clone)]
pub struct ContestClock {
    /// The contest's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Running, upcoming or past, for the caller.
    pub stage: Stage,
    /// What the seconds count down to: "Starts in", "Time left", "Window closes in".
    pub words: &'static str,
    /// Seconds on the clock (`None`: no clock, open timing or over).
    pub seconds: Option<i64>,
    /// When the public board freezes (icpc with `freeze_minutes`), ISO 8601 UTC.
    pub freeze_at: Option<String>,
    /// The public board is frozen now (begun, not unfrozen).
    pub frozen: bool,
}

/// The clock of contest `id` for `caller` (anyone may read a contest's times). Only window
/// timing reads the caller's own start; the others are the contest's clock for everyone.
pub async fn clock(state: &AppState, caller: &Caller, id: &str) -> ApiResult<ContestClock> {
    allow(access::list_contests(caller), String::new)?;
    let c = super::find(state, id)?;
    let c = &*c;
    let now = state.contests.now();
    let (mut stage, mut seconds) = stage(c.timing.opens(), c.timing.end(), now);
    let mut words = match stage {
        Stage::Upcoming => "Starts in",
        _ => "Time left",
    };
    if let (crate::contest::Timing::Window { .. }, Caller::User(_)) = (&c.timing, caller) {
        let (facts, _) = super::facts(state, caller, c, now).await?;
        match facts.phase {
            crate::contest::Phase::Ready { .. } => words = "Window closes in",
            crate::contest::Phase::Running { remaining, .. } => {
                seconds = remaining.map(|r| r.as_secs());
            }
            crate::contest::Phase::Over => (stage, seconds) = (Stage::Past, None),
            crate::contest::Phase::NotStarted { .. } => {}
        }
    }
    let freeze = freeze_begins(c);
    let begun = freeze.is_some_and(|f| now >= f) && stage != Stage::Upcoming;
    let unfrozen = begun
        && state
            .contests
            .boards
            .states
            .read(&state.store, id)
            .await?
            .unfrozen;
    Ok(ContestClock {
        id: c.id.to_string(),
        title: c.title.clone(),
        stage,
        words,
        seconds,
        freeze_at: freeze.map(db_time),
        frozen: begun && !unfrozen,
    })
}
