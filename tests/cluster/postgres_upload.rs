//! A package uploaded to one node reaches the others (issue 29, point 3), as real processes on
//! one PostgreSQL database: the API node A (`serve --workers 0`, open mode) receives the
//! upload; worker B, with a problems folder of its own that lacks the package, fetches it
//! from the database by its hash, serves it and judges a submission made through A, which B
//! never received.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries; skipped without them unless
//! `CI` is set.

use crate::fixtures::{daemon, package, worker, zips};
use sudojudge_testkit::postgres;

use std::path::Path;
use std::time::{Duration, Instant};

use daemon::{client, Daemon};
use postgres::PgServer;
use serde_json::Value;
use sqlx::PgPool;
use worker::Worker;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_package_uploaded_to_one_node_is_judged_by_another() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let url = server.database();
    let dir = tempfile::tempdir().unwrap();
    let extra = "rescan_ms = 500\n";
    let (a_dir, b_dir) = (dir.path().join("a"), dir.path().join("b"));
    for d in [&a_dir, &b_dir] {
        std::fs::create_dir_all(d).unwrap();
        package::small_binary_sudoku(d);
    }
    let (a_problems, b_problems) = (a_dir.join("problems"), b_dir.join("problems"));
    let b_config = daemon::write_config(&b_dir, &b_problems, extra);
    let api = Daemon::start_with(&a_dir, Path::new(&url), &a_problems, 0, extra);
    let b = Worker::start(&b_dir, &b_config, &url, "b", 1);
    let c = client();

    let r = c
        .post(api.url("/api/problems"))
        .header("content-type", "application/zip")
        .body(zips::kattis_zip("sum", &[]))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "{}", api.log());
    let id = daemon::submit(
        &c,
        &api,
        "sum",
        "python",
        "a, b = map(int, input().split())\nprint(a + b)\n",
    )
    .await;
    let done = daemon::wait_done(&c, &api, &[id], Duration::from_secs(120)).await;
    assert_eq!(done[0]["verdict"], "AC", "{}\n{}", done[0], b.log());
    assert_eq!(done[0]["judged_data_hash"], done[0]["submitted_data_hash"]);

    let pool = PgPool::connect(&url).await.unwrap();
    let worker: Option<String> = sqlx::query_scalar("SELECT worker FROM submissions WHERE id = $1")
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(
        worker.as_deref().is_some_and(|w| w.starts_with("b/")),
        "judged by {worker:?}, not by b"
    );
    assert!(b_problems.join("sum/problem.yaml").is_file());
    assert!(b.log().contains("package added"), "{}", b.log());
    // B's row in the nodes table shows the problem's hash once B serves it.
    let started = Instant::now();
    loop {
        let nodes = daemon::get_json(&c, api.url("/api/nodes")).await;
        let b_row = nodes
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == "b")
            .cloned()
            .unwrap_or(Value::Null);
        if b_row["hashes"]["sum"] == done[0]["submitted_data_hash"] {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{nodes}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Nothing of the upload's staging is left in either folder.
    for problems in [&a_problems, &b_problems] {
        let staging: Vec<String> = zips::tree(problems)
            .into_iter()
            .filter(|l| l.contains(".upload-"))
            .collect();
        assert!(staging.is_empty(), "{staging:?}");
    }
}
