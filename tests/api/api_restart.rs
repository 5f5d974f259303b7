//! Durability: `kill -9` while judging, restart, every submission finished with the right
//! verdict; SIGTERM exits cleanly and requeues what was in flight.

use crate::fixtures::{daemon, sandbox_support};

use std::time::{Duration, Instant};

use daemon::{client, fixture, get, submit, trimmed_problems, wait_done, Daemon};

async fn wait_running(c: &reqwest::Client, d: &Daemon, id: i64) {
    let started = Instant::now();
    while get(c, d, id).await["status"] != "running" {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{id} never ran:\n{}",
            d.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_while_judging_then_restart_finishes_everything() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 2);
    let db = dir.path().join("judge.db");
    let c = client();
    let cases = [
        ("tle.c", "c", "TLE"),
        ("tle.c", "c", "TLE"),
        ("ac.c", "c", "AC"),
        ("wa.py", "python", "WA"),
        ("re.c", "c", "RE"),
        ("ce.c", "c", "CE"),
    ];
    let mut ids = Vec::new();
    let killed;
    {
        let mut d = Daemon::start(dir.path(), &db, &problems, 2);
        for (file, lang, _) in cases {
            ids.push(
                submit(
                    &c,
                    &d,
                    "binary-sudoku",
                    lang,
                    &fixture("binary-sudoku", file),
                )
                .await,
            );
        }
        wait_running(&c, &d, ids[0]).await;
        killed = d.pid();
        d.kill9();
    }
    let d = Daemon::start(dir.path(), &db, &problems, 2);
    assert!(d.log().contains("queued again"), "{}", d.log());
    let done = wait_done(&c, &d, &ids, Duration::from_secs(120)).await;
    for (s, (file, _, expected)) in done.iter().zip(cases) {
        assert_eq!(s["verdict"], expected, "{file}: {s}");
    }
    let left = sandbox_support::leftovers_of(killed);
    assert!(left.is_empty(), "left by the killed daemon: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_cleanly_and_requeues_the_submission_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 2);
    let db = dir.path().join("judge.db");
    let c = client();
    let mut d = Daemon::start(dir.path(), &db, &problems, 1);
    let id = submit(
        &c,
        &d,
        "binary-sudoku",
        "c",
        &fixture("binary-sudoku", "tle.c"),
    )
    .await;
    wait_running(&c, &d, id).await;
    let status = d.terminate(Duration::from_secs(20));
    assert!(status.success(), "exit status {status:?}:\n{}", d.log());
    assert!(d.log().contains("requeued"), "{}", d.log());

    let d = Daemon::start(dir.path(), &db, &problems, 1);
    let done = wait_done(&c, &d, &[id], Duration::from_secs(60)).await;
    assert_eq!(done[0]["verdict"], "TLE");
}
