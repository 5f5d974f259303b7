//! Two package versions on one PostgreSQL database, as real processes: the API node A
//! (`serve --workers 0`) and worker B, whose copy of the package has one test changed.
//! A submission made through A is refused by B (it logs why, naming the problem and both
//! hashes), waits in the queue (`sudojudge_queue_unclaimable` says so, and `GET /api/nodes`
//! shows the two hashes), B's heartbeat age in A's `/metrics` grows once B is killed, and a
//! worker C with A's data judges it exactly once, on the data it was submitted against.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries; skipped without them unless
//! `CI` is set.

use crate::fixtures::{daemon, package, worker};
use sudojudge_testkit::postgres;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use daemon::{client, Daemon};
use postgres::PgServer;
use serde_json::Value;
use sqlx::PgPool;
use worker::Worker;

const LEASE_MS: u64 = 3000;
const PROBLEM: &str = "binary-sudoku";

/// The package in `dir/problems`; `changed`: its second test is another grid (still valid
/// data with its right answer: a node refuses to serve a package whose data fails `verify`).
fn package_in(dir: &Path, changed: bool) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let pkg = package::small_binary_sudoku(dir);
    if changed {
        std::fs::write(pkg.join("data/secret/02-ones.in"), "000000000\n".repeat(9)).unwrap();
        std::fs::write(pkg.join("data/secret/02-ones.ans"), "0\n").unwrap();
    }
    (dir.join("problems"), pkg)
}

/// One sample value of the Prometheus text `text`, by metric name and label text.
fn sample(text: &str, metric_and_labels: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(metric_and_labels)?.trim().parse().ok())
}

async fn metrics(c: &reqwest::Client, api: &Daemon) -> String {
    let r = c.get(api.url("/metrics")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    r.text().await.unwrap()
}

/// The package hash of the node whose `field` is `value` in `GET /api/nodes`.
fn hash_of(nodes: &Value, field: &str, value: &str) -> String {
    let n = nodes
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n[field] == value)
        .unwrap_or_else(|| panic!("no node with {field} {value} in {nodes}"));
    n["hashes"][PROBLEM].as_str().unwrap().to_string()
}

async fn wait_until(limit: Duration, what: &str, mut ok: impl AsyncFnMut() -> bool) {
    let started = Instant::now();
    while !ok().await {
        assert!(started.elapsed() < limit, "{what} not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_with_other_data_never_judges_and_one_with_the_same_data_does() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let url = server.database();
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[queue]\nlease_ms = {LEASE_MS}\n");
    let (a_problems, pkg) = package_in(&dir.path().join("a"), false);
    let (b_problems, _) = package_in(&dir.path().join("b"), true);
    let (c_problems, _) = package_in(&dir.path().join("c"), false);
    let b_config = daemon::write_config(&dir.path().join("b"), &b_problems, &extra);
    let c_config = daemon::write_config(&dir.path().join("c"), &c_problems, &extra);

    let api = Daemon::start_with(
        &dir.path().join("a"),
        Path::new(&url),
        &a_problems,
        0,
        &extra,
    );
    let mut b = Worker::start(&dir.path().join("b"), &b_config, &url, "b", 1);
    let pool = PgPool::connect(&url).await.unwrap();
    let c = client();

    let nodes = daemon::get_json(&c, api.url("/api/nodes")).await;
    let (a_hash, b_hash) = (
        hash_of(&nodes, "kind", "serve"),
        hash_of(&nodes, "name", "b"),
    );
    assert_ne!(a_hash, b_hash, "one changed byte changes the hash: {nodes}");

    let source = package::python_solution(&pkg, 0, true);
    let id = daemon::submit(&c, &api, PROBLEM, "python", &source).await;
    let stored = daemon::get(&c, &api, id).await;
    assert_eq!(
        stored["submitted_data_hash"].as_str(),
        Some(a_hash.as_str())
    );

    // B says why it does not take it, once, naming the problem and both hashes.
    wait_until(
        Duration::from_secs(30),
        "B's refusal in its log",
        async || b.log().contains("refusing to claim"),
    )
    .await;
    let log = b.log();
    let line = log
        .lines()
        .find(|l| l.contains("refusing to claim"))
        .unwrap();
    assert!(line.contains(PROBLEM), "{line}");
    assert!(line.contains(&a_hash) && line.contains(&b_hash), "{line}");
    assert!(line.contains("none: no live judging node"), "{line}");
    // Several heartbeats later: still queued, never claimed, the refusal not repeated.
    tokio::time::sleep(Duration::from_millis(3 * LEASE_MS / 2)).await;
    let s = daemon::get(&c, &api, id).await;
    assert_eq!(s["status"], "queued", "{s}");
    let attempts: i64 = sqlx::query_scalar("SELECT attempt FROM submissions WHERE id = $1")
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(attempts, 0, "never claimed");
    assert_eq!(b.log().matches("refusing to claim").count(), 1);

    // A's /metrics: the waiting submission, and B's heartbeat age, which grows once B dies.
    let text = metrics(&c, &api).await;
    assert_eq!(
        sample(&text, "sudojudge_queue_unclaimable "),
        Some(1.0),
        "{text}"
    );
    let b_age = r#"sudojudge_node_heartbeat_age_seconds{node="b"} "#;
    let first = sample(&text, b_age).unwrap_or_else(|| panic!("no age of b: {text}"));
    assert!(first < 3.0, "{first}");
    b.kill9();
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let later = sample(&metrics(&c, &api).await, b_age).expect("b's row stays until it expires");
    assert!(later >= first + 2.0, "{first} then {later}");

    // C, with A's data, judges it: on the data it was submitted against, once.
    let c_node = Worker::start(&dir.path().join("c"), &c_config, &url, "c", 1);
    let done = daemon::wait_done(&c, &api, &[id], Duration::from_secs(120)).await;
    assert_eq!(done[0]["verdict"], "AC", "{}", done[0]);
    assert_eq!(done[0]["judged_data_hash"], done[0]["submitted_data_hash"]);
    let (rows, distinct, attempt): (i64, i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COUNT(DISTINCT ordinal),
                (SELECT attempt FROM submissions WHERE id = $1)
         FROM test_results WHERE submission_id = $1",
    )
    .bind(id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        (rows, distinct, attempt),
        (3, 3, 1),
        "each test once, one claim"
    );
    let text = metrics(&c, &api).await;
    assert_eq!(
        sample(&text, "sudojudge_queue_unclaimable "),
        Some(0.0),
        "{text}"
    );
    assert!(!c_node.log().contains("refusing to claim"));
}
