//! Scoreboard benchmark (`cargo bench --bench scoreboard`): the board of 1,000 contestants
//! x 4 problems x 20,000 submissions, computed whole for each format; median over rounds
//! measured in one run. Goal: under 50 ms each.
//!
//! Baseline, measured in the same run: sorting references to the 20,000 submissions by
//! time (the first step of every format) and summing their scores, the least any board
//! computation must do.
//!
//! `SUDOJUDGE_BENCH_ROUNDS` (default 31) changes the number of rounds.

#[path = "../tests/fixtures/rng.rs"]
mod rng;

use rng::Rng;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use jiff::{SignedDuration, Timestamp};
use sudojudge::contest::{self, Audience, Contest, Label, Outcome, Submission};
use sudojudge::judge::Verdict;

const USERS: u64 = 1_000;
const SUBMISSIONS: u64 = 20_000;
const LABELS: [&str; 4] = ["A", "B", "C", "D"];

fn rounds() -> usize {
    std::env::var("SUDOJUDGE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n: &usize| *n > 0)
        .unwrap_or(31)
}

fn submissions() -> Vec<Submission> {
    let mut rng = Rng(0x5eed_2026);
    let verdicts = [
        Verdict::AC,
        Verdict::WA,
        Verdict::TLE,
        Verdict::RE,
        Verdict::CE,
    ];
    (0..SUBMISSIONS)
        .map(|id| {
            let verdict = verdicts[rng.below(verdicts.len() as u64) as usize];
            let score = if verdict == Verdict::AC {
                100
            } else {
                rng.below(100) as i64
            };
            Submission {
                id,
                user: format!("user{:04}", rng.below(USERS)),
                label: Label::parse(LABELS[rng.below(4) as usize]).expect("a label"),
                at: SignedDuration::from_secs(rng.below(5 * 3600) as i64),
                outcome: if rng.below(50) == 0 {
                    Outcome::Pending
                } else {
                    Outcome::Judged { verdict, score }
                },
            }
        })
        .collect()
}

fn contest(format: &str, extra: &str) -> Contest {
    let text = format!(
        "title = \"bench\"\nformat = \"{format}\"\n{extra}\n[timing]\nkind = \"fixed\"\n\
         start = 2026-03-01T09:00:00Z\nduration = \"5h\"\n{}",
        LABELS
            .iter()
            .enumerate()
            .map(|(i, l)| format!("[[problems]]\nlabel = \"{l}\"\nproblem = \"p{i}\"\n"))
            .collect::<String>()
    );
    Contest::parse(Path::new("contests/bench.toml"), &text).expect("the bench contest parses")
}

fn median_ms(rounds: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let rounds = rounds();
    let subs = submissions();
    let users: Vec<String> = (0..USERS).map(|u| format!("user{u:04}")).collect();
    let during_freeze: Timestamp = "2026-03-01T13:30:00Z".parse().expect("a time");
    let after: Timestamp = "2026-03-01T15:00:00Z".parse().expect("a time");
    println!(
        "scoreboard: {USERS} contestants x {} problems x {SUBMISSIONS} submissions, median of {rounds} rounds",
        LABELS.len()
    );
    let baseline = median_ms(rounds, || {
        let mut order: Vec<&Submission> = subs.iter().collect();
        order.sort_unstable_by_key(|s| (s.at, s.id));
        let total: i64 = order
            .iter()
            .map(|s| match s.outcome {
                Outcome::Judged { score, .. } => score,
                Outcome::Pending => 0,
            })
            .sum();
        black_box(total);
    });
    println!("  baseline (sort by time + sum):       {baseline:8.2} ms");
    let cases = [
        (
            "icpc, frozen (public)",
            contest("icpc", "freeze_minutes = 60"),
            during_freeze,
            Audience::Public,
        ),
        (
            "icpc, whole (admin)",
            contest("icpc", "freeze_minutes = 60"),
            after,
            Audience::Admin,
        ),
        ("ioi", contest("ioi", ""), after, Audience::Public),
        ("oi, published", contest("oi", ""), after, Audience::Public),
    ];
    for (name, c, now, audience) in &cases {
        let board = contest::scoreboard(c, &users, &subs, *now, *audience, false);
        assert_eq!(
            board.rows.len(),
            USERS as usize,
            "every contestant has a row"
        );
        let ms = median_ms(rounds, || {
            black_box(contest::scoreboard(
                c, &users, &subs, *now, *audience, false,
            ));
        });
        let verdict = if ms < 50.0 {
            "goal met"
        } else {
            "OVER the 50 ms goal"
        };
        println!(
            "  {name:<36} {ms:8.2} ms  ({:.1}x baseline, {verdict})",
            ms / baseline
        );
    }
}
