//! Properties of the scoreboards over random contests: what the docs promise for every
//! input, not only for the worked examples (src/contest/examples.rs).

use std::collections::HashMap;
use std::path::Path;

use jiff::{SignedDuration, Timestamp};
use proptest::prelude::*;
use sudojudge::contest::{
    self, Audience, CellState, Contest, Label, Outcome, Scoreboard, Submission,
};
use sudojudge::judge::Verdict;

const LABELS: [&str; 3] = ["A", "B", "C"];
const VERDICTS: [Verdict; 6] = [
    Verdict::AC,
    Verdict::WA,
    Verdict::TLE,
    Verdict::RE,
    Verdict::CE,
    Verdict::SE,
];

fn contest(format: &str) -> Contest {
    let freeze = if format == "icpc" {
        "freeze_minutes = 60"
    } else {
        ""
    };
    let text = format!(
        "title = \"p\"\nformat = \"{format}\"\n{freeze}\n[timing]\nkind = \"fixed\"\n\
         start = 2026-03-01T09:00:00Z\nduration = \"5h\"\n\
         [[problems]]\nlabel = \"A\"\nproblem = \"a\"\n\
         [[problems]]\nlabel = \"B\"\nproblem = \"b\"\n\
         [[problems]]\nlabel = \"C\"\nproblem = \"c\"\n"
    );
    Contest::parse(Path::new("contests/p.toml"), &text).expect("the contest parses")
}

fn after() -> Timestamp {
    "2026-03-01T15:00:00Z".parse().expect("a time")
}

/// Random submissions: (user 0-5, label, second 0-18000, verdict or pending, score: 100 for
/// AC, 0 for CE, else -50 to 100, as a scoring package's range may go below 0).
fn submissions() -> impl Strategy<Value = Vec<Submission>> {
    prop::collection::vec(
        (
            0..6u8,
            0..3usize,
            0..18_000i64,
            prop::option::weighted(0.9, 0..6usize),
            -50..=100i64,
        ),
        0..60,
    )
    .prop_map(|list| {
        list.into_iter()
            .enumerate()
            .map(|(i, (user, label, second, verdict, score))| Submission {
                id: i as u64,
                user: format!("u{user}"),
                label: Label::parse(LABELS[label]).expect("a label"),
                at: SignedDuration::from_secs(second),
                outcome: match verdict {
                    None => Outcome::Pending,
                    Some(v) => Outcome::Judged {
                        verdict: VERDICTS[v],
                        score: match VERDICTS[v] {
                            Verdict::AC => 100,
                            Verdict::CE => 0,
                            _ => score,
                        },
                    },
                },
            })
            .collect()
    })
}

fn board(format: &str, subs: &[Submission], audience: Audience) -> Scoreboard {
    contest::scoreboard(&contest(format), &[], subs, after(), audience, false)
}

/// Ranks start at 1, never decrease, and two rows share a rank exactly when `key` is equal.
fn ranks_are_consistent<K: PartialEq>(b: &Scoreboard, key: impl Fn(&sudojudge::contest::Row) -> K) {
    for (i, pair) in b.rows.windows(2).enumerate() {
        let (x, y) = (&pair[0], &pair[1]);
        if key(x) == key(y) {
            assert_eq!(x.rank, y.rank, "{b:?}");
        } else {
            assert_eq!(y.rank as usize, i + 2, "{b:?}");
        }
    }
    if let Some(first) = b.rows.first() {
        assert_eq!(first.rank, 1);
    }
}

proptest! {
    #[test]
    fn icpc_compile_errors_never_change_the_board(subs in submissions(), extra in prop::collection::vec((0..6u8, 0..3usize, 0..18_000i64), 0..10)) {
        let mut with_ce = subs.clone();
        for (i, (user, label, second)) in extra.into_iter().enumerate() {
            // Only for users already on the board: a CE-only user would add an empty row.
            let user = format!("u{user}");
            if !subs.iter().any(|s| s.user == user) {
                continue;
            }
            with_ce.push(Submission {
                id: 1_000 + i as u64,
                user,
                label: Label::parse(LABELS[label]).expect("a label"),
                at: SignedDuration::from_secs(second),
                outcome: Outcome::Judged { verdict: Verdict::CE, score: 0 },
            });
        }
        prop_assert_eq!(board("icpc", &subs, Audience::Admin), board("icpc", &with_ce, Audience::Admin));
    }

    #[test]
    fn icpc_penalty_is_minutes_plus_twenty_per_counted_rejection(subs in submissions()) {
        let b = board("icpc", &subs, Audience::Admin);
        ranks_are_consistent(&b, |r| (r.solved, r.penalty));
        for row in &b.rows {
            let mut expected = (0u32, 0i64);
            for label in LABELS {
                let mut mine: Vec<&Submission> = subs.iter().filter(|s| s.user == row.user && s.label.as_str() == label).collect();
                mine.sort_by_key(|s| (s.at, s.id));
                let mut rejected = 0;
                for s in mine {
                    match s.outcome {
                        Outcome::Judged { verdict: Verdict::AC, .. } => {
                            expected.0 += 1;
                            expected.1 += s.at.as_secs() / 60 + 20 * rejected;
                            break;
                        }
                        Outcome::Judged { verdict: Verdict::CE | Verdict::SE, .. } | Outcome::Pending => {}
                        Outcome::Judged { .. } => rejected += 1,
                    }
                }
            }
            prop_assert_eq!((row.solved, row.penalty), expected, "{}", row.user);
        }
    }

    #[test]
    fn a_frozen_board_never_shows_more_than_the_whole_one(subs in submissions()) {
        let during: Timestamp = "2026-03-01T13:30:00Z".parse().expect("a time");
        let c = contest("icpc");
        let public = contest::scoreboard(&c, &[], &subs, during, Audience::Public, false);
        let admin = contest::scoreboard(&c, &[], &subs, during, Audience::Admin, false);
        let whole: HashMap<_, _> = admin.rows.iter().map(|r| (r.user.clone(), r)).collect();
        for row in &public.rows {
            let full = whole[&row.user];
            prop_assert!(row.solved <= full.solved);
            for (cell, full_cell) in row.cells.iter().zip(&full.cells) {
                if cell.state == CellState::Solved {
                    prop_assert_eq!(cell, full_cell);
                }
            }
        }
    }

    #[test]
    fn ioi_is_the_sum_of_best_scores_whatever_the_order(subs in submissions()) {
        let b = board("ioi", &subs, Audience::Public);
        let mut reversed = subs.clone();
        reversed.reverse();
        prop_assert_eq!(&b, &board("ioi", &reversed, Audience::Public));
        ranks_are_consistent(&b, |r| r.score);
        // The best judged score, below 0 too; a CE's 0 only when nothing else was judged.
        let mut best: HashMap<(&str, &str), i64> = HashMap::new();
        let mut compiled: HashMap<(&str, &str), i64> = HashMap::new();
        for s in &subs {
            if let Outcome::Judged { verdict, score } = s.outcome {
                let key = (s.user.as_str(), s.label.as_str());
                best.entry(key).or_insert(0);
                if verdict != Verdict::CE {
                    let e = compiled.entry(key).or_insert(score);
                    *e = (*e).max(score);
                }
            }
        }
        best.extend(compiled);
        for row in &b.rows {
            let total: i64 = best.iter().filter(|((u, _), _)| *u == row.user).map(|(_, v)| v).sum();
            prop_assert_eq!(row.score, total);
        }
    }

    #[test]
    fn oi_depends_only_on_each_problems_last_submission(subs in submissions()) {
        let b = board("oi", &subs, Audience::Public);
        ranks_are_consistent(&b, |r| r.score);
        let mut last: HashMap<(&str, &str), &Submission> = HashMap::new();
        for s in &subs {
            let e = last.entry((s.user.as_str(), s.label.as_str())).or_insert(s);
            if (s.at, s.id) > (e.at, e.id) {
                *e = s;
            }
        }
        for row in &b.rows {
            let total: i64 = last
                .iter()
                .filter(|((u, _), _)| *u == row.user)
                .map(|(_, s)| match s.outcome { Outcome::Judged { score, .. } => score, Outcome::Pending => 0 })
                .sum();
            prop_assert_eq!(row.score, total);
        }
        let before_end: Timestamp = "2026-03-01T13:59:59Z".parse().expect("a time");
        let hidden = contest::scoreboard(&contest("oi"), &[], &subs, before_end, Audience::Public, false);
        prop_assert!(hidden.hidden);
        prop_assert!(hidden.rows.iter().all(|r| r.rank == 1 && r.score == 0 && r.cells.iter().all(|c| c.score.is_none())));
    }
}
