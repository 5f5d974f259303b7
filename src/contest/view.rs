//! Which board an audience sees at a given instant: the format's rules over the scoring.

use jiff::{SignedDuration, Timestamp};

use super::board::{Audience, Scoreboard, Submission};
use super::file::Contest;
use super::format::Format;
use super::timing::Timing;
use super::{icpc, ioi, oi};

/// The board of `contest` for `audience` at `now`, with a row for each of `users` even
/// without submissions.
///
/// ICPC: contestants see the board frozen from the contest's freeze (the last
/// `freeze_minutes` of each contestant's time) until an admin unfreezes it (`unfrozen`);
/// admins always see it whole. OI: contestants see results only after the contest's end.
pub fn scoreboard(
    contest: &Contest,
    users: &[String],
    submissions: &[Submission],
    now: Timestamp,
    audience: Audience,
    unfrozen: bool,
) -> Scoreboard {
    let labels = contest.labels();
    match contest.format {
        Format::Icpc => {
            let freeze = (audience == Audience::Public && !unfrozen)
                .then(|| contest.freeze_from())
                .flatten()
                .filter(|from| freeze_started(&contest.timing, *from, now));
            icpc::scoreboard(&labels, users, submissions, freeze)
        }
        Format::Ioi => ioi::scoreboard(&labels, users, submissions),
        Format::Oi => {
            let over = contest.timing.end().is_some_and(|end| now >= end);
            oi::scoreboard(
                &labels,
                users,
                submissions,
                audience == Audience::Admin || over,
            )
        }
    }
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
