//! Hostile submissions against the real daemon (issue 9, finding 1): 100,000 nested folders
//! in `/box`, once through an anonymous `POST /api/runs` and once as a submission. Before
//! each box had a file system of its own, removing such a box overflowed the stack of a
//! tokio worker and aborted the daemon, and the requeued submission killed it again on
//! every restart. Now: the contained verdict, the daemon answers `/api/health` afterwards
//! and after a restart, and nothing of its runs is left.

use crate::fixtures::{daemon, sandbox_support};

use std::time::Duration;

use daemon::{client, get_json, submit, trimmed_problems, wait_done, Daemon};
use serde_json::{json, Value};

fn deep_folders() -> String {
    std::fs::read_to_string(sandbox_support::hostile("deep_folders.c")).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_folders_neither_crash_the_daemon_nor_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 2);
    let db = dir.path().join("judge.db");
    let c = client();
    let first_pid;
    {
        let mut d = Daemon::start(dir.path(), &db, &problems, 1);
        first_pid = d.pid();
        let r = c
            .post(d.url("/api/runs"))
            .json(&json!({"language": "c", "source": deep_folders(), "stdin": ""}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", d.log());
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["status"], "ok", "{v}");
        assert!(v["stdout"].as_str().unwrap().starts_with("depth "), "{v}");
        let h = get_json(&c, d.url("/api/health")).await;
        assert_eq!(h["ok"], true, "{h}");

        let id = submit(&c, &d, "binary-sudoku", "c", &deep_folders()).await;
        let done = wait_done(&c, &d, &[id], Duration::from_secs(120)).await;
        // The program prints its depth, not a grid: the submission's own verdict.
        assert_eq!(done[0]["verdict"], "WA", "{}", done[0]);
        let h = get_json(&c, d.url("/api/health")).await;
        assert_eq!(h["ok"], true, "{h}");
        d.kill9();
    }
    let d = Daemon::start(dir.path(), &db, &problems, 1);
    let h = get_json(&c, d.url("/api/health")).await;
    assert_eq!(h["ok"], true, "{h}");
    let left = sandbox_support::leftovers_of(first_pid);
    assert!(left.is_empty(), "left by the first daemon: {left:?}");
}
