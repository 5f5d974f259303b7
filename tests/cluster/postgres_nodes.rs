//! Several nodes on one PostgreSQL database, as real processes: one API node
//! (`serve --workers 0`) and three judge-only nodes (`sudojudge worker`), on a throwaway
//! cluster of the test's own. 300 submissions are each judged exactly once with the right
//! verdict although a worker is killed with SIGKILL while judging, another is stopped with
//! SIGTERM, and the API node is restarted; nothing is left behind.
//!
//! Needs root (the sandbox) and PostgreSQL's server binaries (Debian's `postgresql`); without
//! them the test is skipped, unless `CI` is set: then it fails.

use crate::fixtures::{daemon, package, worker};
use sudojudge_testkit::postgres;

use std::path::Path;
use std::time::{Duration, Instant};

use daemon::{client, Daemon};
use postgres::PgServer;
use sqlx::PgPool;
use worker::Worker;

/// Lease of every node: short, so a killed node's work returns within seconds.
const LEASE_MS: u64 = 3000;

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// The query counting the claims node `node` holds.
fn claims_of(node: &str) -> String {
    format!(
        "SELECT COUNT(*) FROM submissions WHERE status IN ('compiling', 'running')
           AND lease_owner LIKE '{node}#%'"
    )
}

async fn wait_for(pool: &PgPool, sql: &str, at_least: i64, limit: Duration, what: &str) {
    let started = Instant::now();
    loop {
        let n = count(pool, sql).await;
        if n >= at_least {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "{what}: {n} < {at_least} after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn submit_all(c: &reqwest::Client, api: &Daemon, sources: &[(String, bool)]) -> Vec<i64> {
    let mut ids = Vec::new();
    for (src, _) in sources {
        ids.push(daemon::submit(c, api, "binary-sudoku", "python", src).await);
    }
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_and_an_api_node_judge_300_submissions_exactly_once() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let url = server.database();
    let dir = tempfile::tempdir().unwrap();
    let pkg = package::small_binary_sudoku(dir.path());
    let problems = dir.path().join("problems");
    let extra = format!("[queue]\nlease_ms = {LEASE_MS}\n[server]\nmax_queued = 1000\n");
    let config = daemon::write_config(dir.path(), &problems, &extra);
    let sources: Vec<(String, bool)> = (0..300)
        .map(|i| {
            let right = i % 3 != 0;
            (package::python_solution(&pkg, i, right), right)
        })
        .collect();

    let mut api = Daemon::start_with(dir.path(), Path::new(&url), &problems, 0, &extra);
    let mut workers: Vec<Worker> = (1..=3)
        .map(|n| Worker::start(dir.path(), &config, &url, &format!("w{n}"), 2))
        .collect();
    let pool = PgPool::connect(&url).await.unwrap();
    let c = client();

    // The API node is listed with the three workers; contestants' view aside, admins see all.
    let nodes = daemon::get_json(&c, api.url("/api/nodes")).await;
    let names: Vec<&str> = nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 4, "{nodes}");
    assert!(
        ["w1", "w2", "w3"].iter().all(|w| names.contains(w)),
        "{nodes}"
    );
    let health = daemon::get_json(&c, api.url("/api/health")).await;
    assert_eq!(health["workers"], 0, "the API node judges nothing");
    assert_eq!(health["nodes"].as_array().unwrap().len(), 4, "{health}");

    // The first half; kill -9 w1 while it holds claims.
    let mut ids = submit_all(&c, &api, &sources[..150]).await;
    wait_for(
        &pool,
        &claims_of("w1"),
        1,
        Duration::from_secs(60),
        "w1 judging",
    )
    .await;
    workers[0].kill9();
    let orphaned = count(&pool, &claims_of("w1")).await;
    // Restart the API node in the middle (SIGTERM, then a new process on the same database).
    assert!(api.terminate(Duration::from_secs(30)).success());
    api = Daemon::start_with(dir.path(), Path::new(&url), &problems, 0, &extra);
    ids.extend(submit_all(&c, &api, &sources[150..]).await);

    // SIGTERM on w2 while it judges: it returns its claims at once (not after a lease).
    wait_for(
        &pool,
        &claims_of("w2"),
        1,
        Duration::from_secs(60),
        "w2 judging",
    )
    .await;
    let (status, took) = workers[1].terminate(Duration::from_secs(30));
    assert!(
        status.success(),
        "w2 exit: {status:?}\n{}",
        workers[1].log()
    );
    assert_eq!(
        count(&pool, &claims_of("w2")).await,
        0,
        "w2 left claims behind after SIGTERM ({took:?})"
    );

    // w3 alone finishes everything, w1's orphans included once their leases run out.
    wait_for(
        &pool,
        "SELECT COUNT(*) FROM submissions WHERE status = 'done'",
        300,
        Duration::from_secs(600),
        "submissions done",
    )
    .await;

    assert_eq!(ids.len(), 300);
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 300, "every submission stored once");
    for (id, (_, right)) in ids.iter().zip(&sources) {
        let got = daemon::get(&c, &api, *id).await;
        let expected = if *right { "AC" } else { "WA" };
        assert_eq!(got["verdict"], expected, "submission {id}: {got}");
        assert_eq!(got["tests"].as_array().unwrap().len(), 3, "{got}");
    }
    // Every submission has exactly its three result rows, and was stored by exactly one
    // completion: a node logs "judged" for each result it stored, and the database names the
    // worker that stored each (`<node>/w<i>`). For the nodes that ran to the end the two
    // agree exactly; w1 may have been killed between a commit and its log line.
    let rows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT submission_id, COUNT(*) FROM test_results GROUP BY submission_id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 300);
    assert!(rows.iter().all(|(_, n)| *n == 3), "{rows:?}");
    let mut logged_total = 0;
    for (n, w) in workers.iter().enumerate() {
        let node = format!("w{}", n + 1);
        let logged = w.log().matches(" judged ").count() as i64;
        let stored = count(
            &pool,
            &format!("SELECT COUNT(*) FROM submissions WHERE worker LIKE '{node}/%'"),
        )
        .await;
        if n == 0 {
            assert!(
                (stored - 1..=stored).contains(&logged),
                "{node}: {logged} logged, {stored} stored"
            );
        } else {
            assert_eq!(logged, stored, "{node}");
        }
        logged_total += logged;
    }
    assert!(
        logged_total <= 300,
        "{logged_total} results stored for 300 submissions"
    );
    let reclaimed = count(&pool, "SELECT COUNT(*) FROM submissions WHERE attempt > 1").await;
    assert!(
        reclaimed >= orphaned,
        "w1's {orphaned} claims were judged again after its lease ran out ({reclaimed} re-claimed)"
    );
    assert!(orphaned >= 1);
    assert_eq!(
        count(
            &pool,
            "SELECT COUNT(*) FROM submissions WHERE verdict = 'SE'"
        )
        .await,
        0
    );

    // Clean stops leave nothing behind: no claims, no live node rows but the API node's.
    workers[2].terminate(Duration::from_secs(30));
    assert!(api.terminate(Duration::from_secs(30)).success());
    assert_eq!(
        count(
            &pool,
            "SELECT COUNT(*) FROM submissions WHERE status <> 'done' OR lease_owner IS NOT NULL"
        )
        .await,
        0
    );
    let left: Vec<String> = sqlx::query_scalar("SELECT name FROM nodes ORDER BY name")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(
        left,
        ["w1"],
        "only the killed node's row stays (marked not alive)"
    );
    pool.close().await;
}
