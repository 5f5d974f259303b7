//! A rejudging on PostgreSQL across real processes: started through one API node (`serve
//! --workers 0`), its runs claimed and judged by the judge-only node (`sudojudge worker`),
//! its progress and preview read and the rejudging applied through the other API node, the
//! stored results never touched before the apply.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries; skipped without them unless `CI`
//! is set: then it fails.

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::{accounts, daemon, package, worker};
use sudojudge_testkit::postgres;

use std::path::Path;
use std::time::{Duration, Instant};

use accounts::{add_user, get_as, login, post_as};
use daemon::{client, wait_done_as, Daemon};
use postgres::PgServer;
use serde_json::json;
use worker::Worker;

fn cup() -> String {
    fixed_five_hours("Cup", "icpc", &[], &[("A", "binary-sudoku")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejudging_started_on_one_node_is_judged_by_the_worker_and_applied_on_another() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let url = server.database();
    let db = Path::new(&url);
    let dir = tempfile::tempdir().unwrap();
    let pkg = package::small_binary_sudoku(dir.path());
    let problems = dir.path().join("problems");
    std::fs::create_dir_all(dir.path().join("contests")).unwrap();
    std::fs::write(dir.path().join("contests/cup.toml"), &cup()).unwrap();
    std::fs::write(dir.path().join("clock.txt"), "2026-03-01T09:30:00Z").unwrap();
    let extra = "[contests]\nclock_file = \"clock.txt\"\n[queue]\nlease_ms = 3000\n";
    let config = daemon::write_config(dir.path(), &problems, extra);
    const PW: &str = "correct horse battery";
    for (name, admin) in [("boss", true), ("alice", false)] {
        add_user(&config, db, name, admin, PW);
    }
    let one = Daemon::start_with(dir.path(), db, &problems, 0, extra);
    let two = Daemon::start_with(dir.path(), db, &problems, 0, extra);
    let judge = Worker::start(dir.path(), &config, &url, "judge-1", 2);
    let c = client();
    let boss = login(&c, &one.base, "boss", PW).await;
    let alice = login(&c, &one.base, "alice", PW).await;

    let mut ids = Vec::new();
    for (i, right) in [(0, true), (1, false)] {
        let source = package::python_solution(&pkg, i, right);
        let (s, v) = post_as(
            &c,
            &one,
            "/api/contests/cup/submissions",
            Some(&alice),
            Some(json!({"problem": "A", "language": "python", "source": source})),
        )
        .await;
        assert_eq!(s, 202, "{v}");
        ids.push(v["id"].as_i64().unwrap());
    }
    let limit = Duration::from_secs(120);
    let before = wait_done_as(&c, &one, Some(&boss), &ids, limit).await;
    let finished: Vec<_> = before.iter().map(|s| s["finished_at"].clone()).collect();

    let (s, v) = post_as(
        &c,
        &one,
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
        let (s, v) = get_as(&c, &two, &format!("/api/rejudgings/{id}"), Some(&boss)).await;
        assert_eq!(s, 200, "{v}");
        if v["judged"] == 2 {
            break v;
        }
        assert!(
            started.elapsed() < limit,
            "{v}\n{}\n{}",
            one.log(),
            judge.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        (preview["changes"].clone(), preview["board"].clone()),
        (json!([]), json!([])),
        "the same data gives the same verdicts: {preview}"
    );
    let now = wait_done_as(&c, &two, Some(&boss), &ids, limit).await;
    let untouched: Vec<_> = now.iter().map(|s| s["finished_at"].clone()).collect();
    assert_eq!(untouched, finished, "judged aside");
    let (s, v) = post_as(
        &c,
        &two,
        &format!("/api/rejudgings/{id}/apply"),
        Some(&boss),
        None,
    )
    .await;
    assert_eq!((s, v["state"].clone()), (200, json!("applied")), "{v}");
    let (_, v) = get_as(&c, &one, "/api/rejudgings", Some(&boss)).await;
    assert_eq!(v[0]["state"], "applied", "{v}");
    let after = wait_done_as(&c, &one, Some(&boss), &ids, limit).await;
    let verdicts = |all: &[serde_json::Value]| -> Vec<serde_json::Value> {
        all.iter().map(|s| s["verdict"].clone()).collect()
    };
    assert_eq!(verdicts(&after), verdicts(&before));
    assert_ne!(
        after[0]["finished_at"], before[0]["finished_at"],
        "the applied result is the run's, judged later"
    );
}
