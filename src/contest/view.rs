//! Which board an audience sees at a given instant: the format's rules over the scoring.

use jiff::{SignedDuration, Timestamp};

use super::board::{Audience, Scoreboard, Submission};
use super::file::Contest;
use super::format::Format;
use super::timing::Timing;
use super::{icpc, ioi, oi};

/// What a board hides at one instant for one audience: the only ways `now` and the audience
/// change a board, so a board computed once serves every request with the same `Shown` (the
/// daemon caches boards by it and by the data's version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shown {
    /// ICPC: submissions from the freeze on show as pending.
    pub frozen: bool,
    /// OI: scores are shown (after the end, or to admins).
    pub revealed: bool,
}

/// What `audience` sees of `contest`'s board at `now`.
///
/// ICPC: contestants see the board frozen from the contest's freeze (the last
/// `freeze_minutes` of each contestant's time) until an admin unfreezes it (`unfrozen`);
/// admins always see it whole. OI: contestants see results only after the contest's end.
pub fn shown(contest: &Contest, now: Timestamp, audience: Audience, unfrozen: bool) -> Shown {
    let frozen = contest.format == Format::Icpc
        && audience == Audience::Public
        && !unfrozen
        && contest
            .freeze_from()
            .is_some_and(|from| freeze_started(&contest.timing, from, now));
    let over = contest.timing.end().is_some_and(|end| now >= end);
    Shown {
        frozen,
        revealed: contest.format != Format::Oi || audience == Audience::Admin || over,
    }
}

/// The board of `contest` for `audience` at `now`, with a row for each of `users` even
/// without submissions (see [`shown`] for what is hidden).
pub fn scoreboard(
    contest: &Contest,
    users: &[String],
    submissions: &[Submission],
    now: Timestamp,
    audience: Audience,
    unfrozen: bool,
) -> Scoreboard {
    board(
        contest,
        users,
        submissions,
        shown(contest, now, audience, unfrozen),
    )
}

/// The board of `contest` with what `shown` hides hidden.
pub fn board(
    contest: &Contest,
    users: &[String],
    submissions: &[Submission],
    shown: Shown,
) -> Scoreboard {
    let labels = contest.labels();
    match contest.format {
        Format::Icpc => {
            let freeze = shown.frozen.then(|| contest.freeze_from()).flatten();
            icpc::scoreboard(&labels, users, submissions, freeze)
        }
        Format::Ioi => ioi::scoreboard(&labels, users, submissions),
        Format::Oi => oi::scoreboard(&labels, users, submissions, shown.revealed),
    }
}

/// When `contest`'s board freezes for the public (the earliest clock reaching the freeze:
/// the start plus `duration - freeze_minutes`; for window timing, from the window's opening);
/// `None` when it never freezes (not icpc, no `freeze_minutes`, open timing).
pub fn freeze_begins(contest: &Contest) -> Option<Timestamp> {
    if contest.format != Format::Icpc {
        return None;
    }
    let from = contest.freeze_from()?;
    contest.timing.opens()?.saturating_add(from).ok()
}

/// Whether anyone's clock can have reached `from` at `now` (the freeze is on).
fn freeze_started(timing: &Timing, from: SignedDuration, now: Timestamp) -> bool {
    let opens = match *timing {
        Timing::Fixed { start, .. } => start,
        Timing::Window { window_start, .. } => window_start,
        Timing::Open => return false,
    };
    opens.saturating_add(from).is_ok_and(|t| now >= t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_freeze_starts_when_the_earliest_timer_can_reach_it() {
        let window = Timing::Window {
            window_start: "2026-03-06T00:00:00Z".parse().unwrap(),
            window_end: "2026-03-09T00:00:00Z".parse().unwrap(),
            duration: SignedDuration::from_hours(4),
        };
        let from = SignedDuration::from_hours(3);
        assert!(!freeze_started(
            &window,
            from,
            "2026-03-06T02:59:59Z".parse().unwrap()
        ));
        assert!(freeze_started(
            &window,
            from,
            "2026-03-06T03:00:00Z".parse().unwrap()
        ));
        assert!(!freeze_started(&Timing::Open, from, Timestamp::MAX));
    }
}
