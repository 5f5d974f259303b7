//! Bounded lines instead of unbounded waiting (issue 9, finding 6), against the real daemon.
//!
//! - 400 custom runs at once, each with 1 MB of stdin: the runs that find the line
//!   (`slots x (1 + waiting_per_slot)`) full get 503 with `Retry-After` at once, and the
//!   daemon's memory stays bounded (it used to hold them all: 10 MB -> 695 MB).
//! - Submissions past `[server] max_queued` get 503 with `Retry-After` and store nothing.

use crate::fixtures::daemon;

use std::time::{Duration, Instant};

use daemon::{client, get_json, restart_fresh, retry_after, start_fresh};
use serde_json::{json, Value};

const SLEEP_1S: &str = "#include <unistd.h>\nint main(void) { sleep(1); return 0; }\n";

/// The daemon's resident memory in KiB (`VmRSS`).
fn rss_kib(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_custom_runs_gets_503_and_memory_stays_bounded() {
    const RUNS: usize = 400;
    // Room for every client's connection, all from 127.0.0.1: the line, not the connection
    // cap nor one address's share of it (tests/api/api_connection_shares.rs), is under test.
    let (_dir, d) = start_fresh(
        0,
        1,
        "[server]\nmax_connections = 1000\nmax_connections_per_address = 0\n\
         max_connections_per_network = 0\n[run]\nslots = 2\nwaiting_per_slot = 2\n",
    );
    let pid = d.pid();
    let c = client();
    assert_eq!(get_json(&c, d.url("/api/health")).await["ok"], true);
    let idle_kib = rss_kib(pid);

    let body: &'static [u8] = Box::leak(
        serde_json::to_vec(&json!({
            "language": "c",
            "source": SLEEP_1S,
            "stdin": "7".repeat(1_000_000),
        }))
        .unwrap()
        .into_boxed_slice(),
    );
    let sampling = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let sampling = std::sync::Arc::clone(&sampling);
        tokio::spawn(async move {
            let mut peak = 0;
            while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(rss_kib(pid));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            peak
        })
    };
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let c = c.clone();
        let url = d.url("/api/runs");
        tasks.push(tokio::spawn(async move {
            let r = c
                .post(url)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .expect("every run is answered");
            let status = r.status().as_u16();
            let retry_after = retry_after(&r);
            let v: Value = r.json().await.unwrap();
            (status, retry_after, v)
        }));
    }
    let (mut ran, mut busy) = (0, 0);
    for t in tasks {
        let (status, retry_after, v) = t.await.unwrap();
        match status {
            200 => {
                assert_eq!(v["status"], "ok", "{v}");
                ran += 1;
            }
            503 => {
                assert_eq!(v["error"]["code"], "busy", "{v}");
                assert!(retry_after.is_some_and(|s| s > 0), "Retry-After on a 503");
                busy += 1;
            }
            other => panic!("status {other}: {v}"),
        }
    }
    let took = started.elapsed();
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    let peak_kib = sampler.await.unwrap();
    eprintln!(
        "{RUNS} runs: {ran} ran, {busy} got 503, in {took:?}; daemon RSS {idle_kib} KiB idle, \
         peak {peak_kib} KiB"
    );
    assert!(ran >= 2, "the line still serves runs");
    assert!(
        busy >= RUNS - 60,
        "runs past the line are refused ({busy} of {RUNS})"
    );
    assert!(
        peak_kib < idle_kib + 100 * 1024,
        "RSS grew from {idle_kib} KiB to {peak_kib} KiB"
    );
    assert_eq!(get_json(&c, d.url("/api/health")).await["ok"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_past_the_queue_bound_get_503_and_are_not_stored() {
    const MAX_QUEUED: usize = 5;
    const POSTS: usize = 30;
    let (dir, d) = start_fresh(0, 1, &format!("[server]\nmax_queued = {MAX_QUEUED}\n"));
    let c = client();
    let (mut accepted, mut busy) = (0, 0);
    for _ in 0..POSTS {
        let r = c
            .post(d.url("/api/submissions"))
            .json(&json!({"problem": "sudoku", "language": "c", "source": SLEEP_1S}))
            .send()
            .await
            .unwrap();
        match r.status().as_u16() {
            202 => accepted += 1,
            503 => {
                assert!(
                    retry_after(&r).is_some_and(|s| s > 0),
                    "Retry-After on a 503"
                );
                let v: Value = r.json().await.unwrap();
                assert_eq!(v["error"]["code"], "busy", "{v}");
                busy += 1;
            }
            other => panic!("status {other}"),
        }
    }
    // The single worker may have taken one or two off the queue while the posts went in.
    assert!(
        (MAX_QUEUED..=MAX_QUEUED + 2).contains(&accepted),
        "{accepted} accepted with max_queued {MAX_QUEUED}"
    );
    assert_eq!(accepted + busy, POSTS);
    let health = get_json(&c, d.url("/api/health")).await;
    assert!(
        health["queue_depth"].as_u64().unwrap() <= MAX_QUEUED as u64,
        "{health}"
    );
    let stored = get_json(&c, d.url("/api/submissions?limit=500")).await;
    assert_eq!(
        stored.as_array().unwrap().len(),
        accepted,
        "nothing is stored past the bound"
    );
    drop(d);
    let d = restart_fresh(dir.path(), 1, "");
    let stored = get_json(&c, d.url("/api/submissions?limit=500")).await;
    assert_eq!(
        stored.as_array().unwrap().len(),
        accepted,
        "after a restart"
    );
    assert_eq!(get_json(&c, d.url("/api/health")).await["ok"], true);
}
