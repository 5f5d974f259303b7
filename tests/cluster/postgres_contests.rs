//! A contest run on PostgreSQL by real processes: two API nodes (`serve --workers 0`) and one
//! judge-only node (`sudojudge worker`) on a throwaway cluster, the contest clock driven by
//! `[contests] clock_file`. The worker judges contest submissions in the contest's mode (icpc:
//! stop at the first failing test) and the rest in full; the board shows what was judged,
//! whichever API node is asked; the per-contestant rate holds across the two API nodes under
//! concurrent submissions; a clarification asked on one node is answered on the other.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries; skipped without them unless `CI`
//! is set: then it fails.

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::pg_contest::{PgContest, PgContestSetup};
use crate::fixtures::{accounts, daemon, package};
use sudojudge_testkit::postgres;

use std::time::Duration;

use accounts::{get_as, post_as};
use daemon::{wait_done_as, Daemon};
use postgres::PgServer;
use serde_json::{json, Value};

/// icpc, fixed from 09:00 for 5 h, anyone, 3 submissions a minute; A is the small package.
fn cup() -> String {
    fixed_five_hours(
        "Cup",
        "icpc",
        &["rate = { submissions = 3, per_minutes = 1 }"],
        &[("A", "binary-sudoku")],
    )
}

/// Waits (as `token`) until submission `id` is done on `node`; returns it.
async fn wait_done(c: &reqwest::Client, node: &Daemon, token: &str, id: i64) -> Value {
    wait_done_as(c, node, Some(token), &[id], Duration::from_secs(120))
        .await
        .remove(0)
}

/// Submits `source` to A of the cup as `token` through `node`: status and body.
async fn submit(c: &reqwest::Client, node: &Daemon, token: &str, source: &str) -> (u16, Value) {
    post_as(
        c,
        node,
        "/api/contests/cup/submissions",
        Some(token),
        Some(json!({"problem": "A", "language": "python", "source": source})),
    )
    .await
}

fn row<'a>(board: &'a Value, user: &str) -> &'a Value {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["user"] == user)
        .unwrap_or_else(|| panic!("no row of {user} in {board}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contest_on_two_api_nodes_and_a_worker() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let k = PgContest::start(
        &server,
        PgContestSetup {
            contests: &[("cup", &cup())],
            clock: "2026-03-01T09:30:00Z",
            extra: "[queue]\nlease_ms = 3000\n",
            users: &[("boss", true), ("alice", false), ("bob", false)],
            worker: true,
        },
    );
    let PgContest {
        pkg, one, two, c, ..
    } = &k;
    let boss = k.login(&k.one, "boss").await;
    let alice = k.login(&k.one, "alice").await;
    let bob = k.login(&k.two, "bob").await;

    // The worker judges a contest submission in icpc's mode: a WA stops at its first failing
    // test; the same source outside the contest (the jury's: a contestant's is refused while
    // the contest runs, on every node) runs every test.
    let wrong = package::python_solution(pkg, 0, false);
    let (s, v) = submit(c, one, &alice, &wrong).await;
    assert_eq!(s, 202, "{v}");
    let in_contest = wait_done(c, one, &boss, v["id"].as_i64().unwrap()).await;
    assert_eq!(in_contest["verdict"], "WA", "{in_contest}");
    assert_eq!(
        in_contest["tests"].as_array().unwrap().len(),
        1,
        "{in_contest}"
    );
    assert_eq!(
        (in_contest["contest"].clone(), in_contest["label"].clone()),
        (json!("cup"), json!("A"))
    );
    let plain = json!({"problem": "binary-sudoku", "language": "python", "source": wrong});
    for node in [&one, &two] {
        let (s, v) = post_as(
            c,
            node,
            "/api/submissions",
            Some(&alice),
            Some(plain.clone()),
        )
        .await;
        assert_eq!(
            (s, v["error"]["code"].clone()),
            (403, json!("in_contest")),
            "{v}"
        );
    }
    let (s, v) = post_as(c, one, "/api/submissions", Some(&boss), Some(plain)).await;
    assert_eq!(s, 202, "{v}");
    let outside = wait_done(c, one, &boss, v["id"].as_i64().unwrap()).await;
    assert_eq!(outside["verdict"], "WA");
    assert_eq!(outside["tests"].as_array().unwrap().len(), 3, "{outside}");

    // Bob solves A through the other API node; both nodes show the same board.
    let right = package::python_solution(pkg, 1, true);
    let (s, v) = submit(c, two, &bob, &right).await;
    assert_eq!(s, 202, "{v}");
    let accepted = wait_done(c, two, &bob, v["id"].as_i64().unwrap()).await;
    assert_eq!(accepted["verdict"], "AC", "{accepted}");
    let (_, board_one) = get_as(c, one, "/api/contests/cup/scoreboard", Some(&alice)).await;
    let (_, board_two) = get_as(c, two, "/api/contests/cup/scoreboard", Some(&bob)).await;
    assert_eq!(board_one["rows"], board_two["rows"]);
    let b = &row(&board_one, "bob")["cells"][0];
    assert_eq!(
        (
            b["state"].clone(),
            b["attempts"].clone(),
            b["minutes"].clone()
        ),
        (json!("solved"), json!(1), json!(30)),
        "{board_one}"
    );
    let a = &row(&board_one, "alice")["cells"][0];
    assert_eq!(a["attempts"], 1, "{board_one}");
    assert_eq!(row(&board_one, "bob")["rank"], 1);

    // The rate (3 a minute) holds across the two API nodes: six concurrent submissions of
    // alice's, three through each, store exactly three.
    k.set_clock("2026-03-01T09:40:00Z");
    let sources: Vec<String> = (10..16)
        .map(|i| package::python_solution(pkg, i, false))
        .collect();
    let mut sends = tokio::task::JoinSet::new();
    for (i, src) in sources.into_iter().enumerate() {
        let node = if i % 2 == 0 {
            one.base.clone()
        } else {
            two.base.clone()
        };
        let (c, alice) = (c.clone(), alice.clone());
        sends.spawn(async move {
            let r = c
                .post(format!("{node}/api/contests/cup/submissions"))
                .bearer_auth(&alice)
                .json(&json!({"problem": "A", "language": "python", "source": src}))
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        });
    }
    let answers: Vec<(u16, Value)> = sends.join_all().await;
    let stored = answers.iter().filter(|(s, _)| *s == 202).count();
    let limited = answers
        .iter()
        .filter(|(s, v)| *s == 429 && v["error"]["code"] == "rate_limited")
        .count();
    assert_eq!((stored, limited), (3, 3), "{answers:?}");
    for (_, v) in answers.iter().filter(|(s, _)| *s == 202) {
        wait_done(c, one, &boss, v["id"].as_i64().unwrap()).await;
    }
    let (_, board) = get_as(c, two, "/api/contests/cup/scoreboard", Some(&boss)).await;
    assert_eq!(row(&board, "alice")["cells"][0]["attempts"], 4, "{board}");

    // A question on one node, answered to all on the other, seen by bob on the first.
    let (s, q) = post_as(
        c,
        one,
        "/api/contests/cup/clarifications",
        Some(&alice),
        Some(json!({"text": "Is the answer always below 10?", "problem": "A"})),
    )
    .await;
    assert_eq!(s, 201, "{q}");
    let answer = format!("/api/contests/cup/clarifications/{}/answer", q["id"]);
    let (s, _) = post_as(
        c,
        two,
        &answer,
        Some(&boss),
        Some(json!({"answer": "No: up to 81.", "public": true})),
    )
    .await;
    assert_eq!(s, 204);
    let (_, seen) = get_as(c, one, "/api/contests/cup/clarifications", Some(&bob)).await;
    assert_eq!(seen.as_array().unwrap().len(), 1, "{seen}");
    assert_eq!(seen[0]["answer"], "No: up to 81.");

    // Nothing was judged twice, nothing is left in flight, no node logged an error.
    let pool = sqlx::PgPool::connect(&k.url).await.unwrap();
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT s.id, COUNT(t.ordinal) FROM submissions s
         LEFT JOIN test_results t ON t.submission_id = s.id GROUP BY s.id ORDER BY s.id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), 6, "{rows:?}");
    let pending: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status <> 'done'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(pending, 0);
    pool.close().await;
    for log in [one.log(), two.log(), k.judge_log()] {
        assert!(!log.contains(" ERROR "), "{log}");
    }
}
