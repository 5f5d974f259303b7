//! The worked examples of docs/contests.md, one test each: the numbers in the docs are the
//! numbers asserted here.

use jiff::{SignedDuration, Timestamp};

use super::board::{Audience, CellState, Outcome, Scoreboard, Submission};
use super::file::Contest;
use super::ids::Label;
use super::timing::Phase;
use crate::judge::Verdict;

fn contest(format: &str, timing: &str, extra: &str) -> Contest {
    let text = format!(
        "title = \"example\"\nformat = \"{format}\"\n{extra}\n[timing]\n{timing}\n\
         [[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n\
         [[problems]]\nlabel = \"B\"\nproblem = \"target-sudoku\"\n"
    );
    Contest::parse(std::path::Path::new("contests/example.toml"), &text).unwrap()
}

const FIXED_5H: &str = "kind = \"fixed\"\nstart = 2026-03-01T09:00:00Z\nduration = \"5h\"";

fn at(hm: &str) -> SignedDuration {
    let (h, m) = hm.split_once(':').unwrap();
    SignedDuration::from_mins(h.parse::<i64>().unwrap() * 60 + m.parse::<i64>().unwrap())
}

fn time(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// `(user, label, h:mm, verdict and score)`; `None` is still pending.
type Line<'a> = (&'a str, &'a str, &'a str, Option<(Verdict, i64)>);

/// Submissions from [`Line`]s, ids in list order.
fn subs(list: &[Line]) -> Vec<Submission> {
    list.iter()
        .enumerate()
        .map(|(i, (user, label, hm, outcome))| Submission {
            id: i as u64 + 1,
            user: user.to_string(),
            label: Label::parse(label).unwrap(),
            at: at(hm),
            outcome: match outcome {
                None => Outcome::Pending,
                Some((verdict, score)) => Outcome::Judged {
                    verdict: *verdict,
                    score: *score,
                },
            },
        })
        .collect()
}

/// `user rank solved penalty` or `user rank score` per row, and each cell as the docs
/// write it.
fn lines(board: &Scoreboard) -> Vec<String> {
    board
        .rows
        .iter()
        .map(|r| {
            let cells: Vec<String> = r
                .cells
                .iter()
                .map(|c| {
                    let star = if c.first_solve { "*" } else { "" };
                    match c.state {
                        CellState::Empty => "-".to_string(),
                        CellState::Solved => {
                            format!("+{}@{}{star}", c.attempts, c.minutes.unwrap_or(-1))
                        }
                        CellState::Rejected => format!("-{}", c.attempts),
                        CellState::Pending => format!("-{}?{}", c.attempts, c.pending),
                        CellState::Scored => c.score.unwrap_or(0).to_string(),
                        CellState::Judged => "judged".to_string(),
                    }
                })
                .collect();
            match board.format {
                super::Format::Icpc => {
                    format!(
                        "{} {} {} {} | {}",
                        r.user,
                        r.rank,
                        r.solved,
                        r.penalty,
                        cells.join(" ")
                    )
                }
                _ => format!("{} {} {} | {}", r.user, r.rank, r.score, cells.join(" ")),
            }
        })
        .collect()
}

use Verdict::{AC, CE, RE, TLE, WA};

fn icpc_submissions() -> Vec<Submission> {
    subs(&[
        ("alice", "A", "0:10", Some((WA, 0))),
        ("alice", "A", "0:15", Some((CE, 0))),
        ("carol", "A", "0:20", Some((AC, 100))),
        ("alice", "A", "0:25", Some((AC, 100))),
        ("bob", "B", "0:30", Some((RE, 0))),
        ("bob", "A", "0:45", Some((AC, 100))),
        ("bob", "B", "1:20", Some((AC, 100))),
        ("carol", "B", "1:30", Some((WA, 0))),
        ("alice", "B", "1:40", Some((AC, 100))),
        ("dave", "A", "3:50", Some((TLE, 0))),
        ("carol", "B", "4:10", Some((WA, 0))),
        ("dave", "A", "4:30", Some((AC, 100))),
    ])
}

#[test]
fn icpc_ties_penalty_without_ce_and_first_solves() {
    let c = contest("icpc", FIXED_5H, "freeze_minutes = 60");
    let after = time("2026-03-01T15:00:00Z");
    let board = super::scoreboard(&c, &[], &icpc_submissions(), after, Audience::Admin, false);
    assert_eq!(
        lines(&board),
        [
            "alice 1 2 145 | +2@25 +1@100",
            "bob 1 2 145 | +1@45 +2@80*",
            "carol 3 1 20 | +1@20* -2",
            "dave 4 1 290 | +2@270 -",
        ]
    );
}

#[test]
fn icpc_first_ac_after_the_freeze_shows_as_pending_until_unfrozen() {
    let c = contest("icpc", FIXED_5H, "freeze_minutes = 60");
    let during = time("2026-03-01T13:45:00Z");
    let public = super::scoreboard(
        &c,
        &[],
        &icpc_submissions(),
        during,
        Audience::Public,
        false,
    );
    assert!(public.frozen);
    assert_eq!(
        lines(&public),
        [
            "alice 1 2 145 | +2@25 +1@100",
            "bob 1 2 145 | +1@45 +2@80*",
            "carol 3 1 20 | +1@20* -1?1",
            "dave 4 0 0 | -1?1 -",
        ]
    );
    let before_freeze = time("2026-03-01T12:59:00Z");
    let board = super::scoreboard(
        &c,
        &[],
        &icpc_submissions(),
        before_freeze,
        Audience::Public,
        false,
    );
    assert!(!board.frozen);
    let unfrozen = super::scoreboard(&c, &[], &icpc_submissions(), during, Audience::Public, true);
    let admin = super::scoreboard(&c, &[], &icpc_submissions(), during, Audience::Admin, false);
    assert_eq!(lines(&unfrozen), lines(&admin));
    assert_eq!(lines(&admin)[3], "dave 4 1 290 | +2@270 -");
}

#[test]
fn ioi_sums_the_best_scores_and_equal_totals_share_a_rank() {
    let c = contest("ioi", FIXED_5H, "");
    let s = subs(&[
        ("erin", "A", "0:10", Some((WA, 30))),
        ("erin", "A", "0:40", Some((AC, 100))),
        ("erin", "A", "1:00", Some((TLE, 60))),
        ("erin", "B", "1:30", Some((WA, 40))),
        ("frank", "A", "0:20", Some((AC, 100))),
        ("frank", "B", "0:50", Some((CE, 0))),
        ("frank", "B", "2:00", Some((WA, 40))),
        ("gina", "A", "3:00", Some((WA, 70))),
        ("gina", "B", "4:59", None),
    ]);
    let users = ["hugo".to_string()];
    let now = time("2026-03-01T12:00:00Z");
    let board = super::scoreboard(&c, &users, &s, now, Audience::Public, false);
    assert_eq!(
        lines(&board),
        [
            "erin 1 140 | 100 40",
            "frank 1 140 | 100 40",
            "gina 3 70 | 70 -0?1",
            "hugo 4 0 | - -",
        ]
    );
}

#[test]
fn ioi_keeps_negative_bests_and_a_compile_error_never_lifts_them() {
    let c = contest("ioi", FIXED_5H, "");
    let s = subs(&[
        // A scoring package with a range below 0: the best is -5, the CE's 0 does not count.
        ("kim", "A", "0:10", Some((WA, -15))),
        ("kim", "A", "0:20", Some((CE, 0))),
        ("kim", "A", "0:30", Some((WA, -5))),
        // A CE first: the judged -3 replaces its 0.
        ("lou", "A", "0:10", Some((CE, 0))),
        ("lou", "A", "0:20", Some((WA, -3))),
        ("lou", "B", "0:40", Some((CE, 0))),
    ]);
    let users = ["max".to_string()];
    let now = time("2026-03-01T12:00:00Z");
    let board = super::scoreboard(&c, &users, &s, now, Audience::Public, false);
    assert_eq!(
        lines(&board),
        ["max 1 0 | - -", "lou 2 -3 | -3 0", "kim 3 -5 | -5 -"]
    );
}

#[test]
fn oi_counts_only_the_last_submission_and_only_after_the_end() {
    let c = contest("oi", FIXED_5H, "");
    let s = subs(&[
        ("hal", "A", "1:00", Some((AC, 100))),
        ("hal", "A", "3:00", Some((WA, 40))),
        ("hal", "B", "0:30", Some((WA, 0))),
        ("hal", "B", "2:00", Some((WA, 90))),
        ("ivy", "A", "4:00", Some((WA, 80))),
        ("ivy", "B", "4:30", Some((CE, 0))),
    ]);
    let during = time("2026-03-01T13:00:00Z");
    let hidden = super::scoreboard(&c, &[], &s, during, Audience::Public, false);
    assert!(hidden.hidden);
    assert_eq!(
        lines(&hidden),
        ["hal 1 0 | judged judged", "ivy 1 0 | judged judged"]
    );
    let admin = super::scoreboard(&c, &[], &s, during, Audience::Admin, false);
    let end = time("2026-03-01T14:00:00Z");
    let published = super::scoreboard(&c, &[], &s, end, Audience::Public, false);
    assert_eq!(lines(&published), ["hal 1 130 | 40 90", "ivy 2 80 | 80 0"]);
    assert_eq!(lines(&admin), lines(&published));
}

#[test]
fn a_window_timer_started_late_ends_at_the_windows_end() {
    let c = contest(
        "ioi",
        "kind = \"window\"\nwindow_start = 2026-03-06T00:00:00Z\n\
         window_end = 2026-03-09T00:00:00Z\nduration = \"4h\"",
        "",
    );
    let jay = Some(time("2026-03-06T10:00:00Z"));
    assert_eq!(
        c.timing.contestant_end(jay),
        Some(time("2026-03-06T14:00:00Z"))
    );
    let kim = Some(time("2026-03-08T22:00:00Z"));
    assert_eq!(
        c.timing.contestant_end(kim),
        Some(time("2026-03-09T00:00:00Z"))
    );
    assert_eq!(
        c.timing.phase(time("2026-03-08T23:30:00Z"), kim),
        Phase::Running {
            elapsed: Some(SignedDuration::from_mins(90)),
            remaining: Some(SignedDuration::from_mins(30)),
        }
    );
    assert_eq!(
        c.timing.phase(time("2026-03-09T00:00:00Z"), kim),
        Phase::Over
    );
    assert_eq!(
        c.timing.phase(time("2026-03-09T00:00:00Z"), None),
        Phase::Over
    );
    assert!(!c.timing.may_start_timer(time("2026-03-09T00:00:00Z")));
}
