//! A rejudging on PostgreSQL across real processes: started through one API node (`serve
//! --workers 0`), its runs claimed and judged by the judge-only node (`sudojudge worker`),
//! its progress and preview read and the rejudging applied through the other API node, the
//! stored results never touched before the apply.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries; skipped without them unless `CI`
//! is set: then it fails.

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::pg_contest::{PgContest, PgContestSetup};
use crate::fixtures::{accounts, daemon, package};
use sudojudge_testkit::postgres;

use std::time::{Duration, Instant};

use accounts::{get_as, post_as};
use daemon::wait_done_as;
use postgres::PgServer;
use serde_json::json;

fn cup() -> String {
    fixed_five_hours("Cup", "icpc", &[], &[("A", "binary-sudoku")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejudging_started_on_one_node_is_judged_by_the_worker_and_applied_on_another() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let k = PgContest::start(
        &server,
        PgContestSetup {
            contests: &[("cup", &cup())],
            clock: "2026-03-01T09:30:00Z",
            extra: "[queue]\nlease_ms = 3000\n",
            users: &[("boss", true), ("alice", false)],
            worker: true,
        },
    );
    let PgContest {
        pkg, one, two, c, ..
    } = &k;
    let boss = k.login(&k.one, "boss").await;
    let alice = k.login(&k.one, "alice").await;

    let mut ids = Vec::new();
    for (i, right) in [(0, true), (1, false)] {
        let source = package::python_solution(pkg, i, right);
        let (s, v) = post_as(
            c,
            one,
            "/api/contests/cup/submissions",
            Some(&alice),
            Some(json!({"problem": "A", "language": "python", "source": source})),
        )
        .await;
        assert_eq!(s, 202, "{v}");
        ids.push(v["id"].as_i64().unwrap());
    }
    let limit = Duration::from_secs(120);
    let before = wait_done_as(c, one, Some(&boss), &ids, limit).await;
    let finished: Vec<_> = before.iter().map(|s| s["finished_at"].clone()).collect();

    let (s, v) = post_as(
        c,
        one,
        "/api/rejudgings",
        Some(&boss),
        Some(json!({"contest": "cup"})),
    )
    .await;
    assert_eq!((s, v["total"].clone()), (202, json!(2)), "{v}");
    let id = v["id"].as_i64().unwrap();
    // Only the worker judges: the API nodes have no workers.
    let started = Instant::now();
    let preview = loop {
        let (s, v) = get_as(c, two, &format!("/api/rejudgings/{id}"), Some(&boss)).await;
        assert_eq!(s, 200, "{v}");
        if v["judged"] == 2 {
            break v;
        }
        assert!(
            started.elapsed() < limit,
            "{v}\n{}\n{}",
            one.log(),
            k.judge_log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        (preview["changes"].clone(), preview["board"].clone()),
        (json!([]), json!([])),
        "the same data gives the same verdicts: {preview}"
    );
    let now = wait_done_as(c, two, Some(&boss), &ids, limit).await;
    let untouched: Vec<_> = now.iter().map(|s| s["finished_at"].clone()).collect();
    assert_eq!(untouched, finished, "judged aside");
    let (s, v) = post_as(
        c,
        two,
        &format!("/api/rejudgings/{id}/apply"),
        Some(&boss),
        None,
    )
    .await;
    assert_eq!((s, v["state"].clone()), (200, json!("applied")), "{v}");
    let (_, v) = get_as(c, one, "/api/rejudgings", Some(&boss)).await;
    assert_eq!(v[0]["state"], "applied", "{v}");
    let after = wait_done_as(c, one, Some(&boss), &ids, limit).await;
    let verdicts = |all: &[serde_json::Value]| -> Vec<serde_json::Value> {
        all.iter().map(|s| s["verdict"].clone()).collect()
    };
    assert_eq!(verdicts(&after), verdicts(&before));
    assert_ne!(
        after[0]["finished_at"], before[0]["finished_at"],
        "the applied result is the run's, judged later"
    );
}
