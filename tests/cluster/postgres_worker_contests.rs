//! A judge-only node follows contests made at runtime (issue 30's leftover): a `sudojudge
//! worker` started before a contest exists reads the database contests' version every
//! `WORKER_POLL` (2 s, `server::services::contests::catalog::follow_database`); a contest then
//! made through an API node is judged by that worker in the contest's mode (icpc: a WA stops
//! at its first failing test), while a submission outside it still runs every test.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries; skipped without them unless `CI`
//! is set: then it fails.

use crate::fixtures::{accounts, daemon, package, worker};
use sudojudge_testkit::postgres;

use std::path::Path;
use std::time::Duration;

use accounts::{add_user, login, post_as};
use daemon::{client, wait_done_as, Daemon};
use postgres::PgServer;
use serde_json::json;
use worker::Worker;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_judges_a_contest_made_after_it_started_in_the_contests_mode() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let url = server.database();
    let db = Path::new(&url);
    let dir = tempfile::tempdir().unwrap();
    let pkg = package::small_binary_sudoku(dir.path());
    let problems = dir.path().join("problems");
    std::fs::create_dir_all(dir.path().join("contests")).unwrap();
    std::fs::write(dir.path().join("clock.txt"), "2026-03-01T09:30:00Z").unwrap();
    let extra = "[contests]\nclock_file = \"clock.txt\"\n[queue]\nlease_ms = 3000\n";
    let config = daemon::write_config(dir.path(), &problems, extra);
    const PW: &str = "correct horse battery";
    for (name, admin) in [("boss", true), ("alice", false)] {
        add_user(&config, db, name, admin, PW);
    }
    // An API node that judges nothing: every result below is the worker's.
    let api = Daemon::start_with(dir.path(), db, &problems, 0, extra);
    // The worker starts with no contest anywhere.
    let judge = Worker::start(dir.path(), &config, &url, "judge-late", 1);
    let c = client();
    let boss = login(&c, &api.base, "boss", PW).await;
    let alice = login(&c, &api.base, "alice", PW).await;

    let made = json!({
        "id": "late", "title": "Late", "format": "icpc",
        "timing": {"kind": "fixed", "start": "2026-03-01T09:00:00Z", "duration": "5h"},
        "problems": [{"label": "A", "problem": "binary-sudoku"}],
    });
    let (s, v) = post_as(&c, &api, "/api/contests", Some(&boss), Some(made)).await;
    assert_eq!(s, 201, "{v}");
    // Three of the worker's polls: it has read the new contest by then, or never will.
    tokio::time::sleep(Duration::from_secs(6)).await;

    let wrong = package::python_solution(&pkg, 0, false);
    let (s, v) = post_as(
        &c,
        &api,
        "/api/contests/late/submissions",
        Some(&alice),
        Some(json!({"problem": "A", "language": "python", "source": wrong})),
    )
    .await;
    assert_eq!(s, 202, "{v}");
    let id = v["id"].as_i64().unwrap();
    let done = wait_done_as(&c, &api, Some(&boss), &[id], Duration::from_secs(120))
        .await
        .remove(0);
    assert_eq!(done["verdict"], "WA", "{done}\n{}", judge.log());
    assert_eq!(
        done["tests"].as_array().unwrap().len(),
        1,
        "icpc's mode stops at the first failing test: {done}\n{}",
        judge.log()
    );
    // Outside the contest (the jury's), the same source runs every test on the same worker.
    let plain = json!({"problem": "binary-sudoku", "language": "python", "source": wrong});
    let (s, v) = post_as(&c, &api, "/api/submissions", Some(&boss), Some(plain)).await;
    assert_eq!(s, 202, "{v}");
    let outside = wait_done_as(
        &c,
        &api,
        Some(&boss),
        &[v["id"].as_i64().unwrap()],
        Duration::from_secs(120),
    )
    .await
    .remove(0);
    assert_eq!(outside["verdict"], "WA", "{outside}");
    assert_eq!(outside["tests"].as_array().unwrap().len(), 3, "{outside}");
    drop(judge);
}
