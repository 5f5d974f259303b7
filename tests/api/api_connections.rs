//! Hostile connections against the real daemon (issue 9, findings 5 and 7).
//!
//! - 1,100 clients sending their headers a byte at a time to a daemon whose descriptor limit
//!   is 512: the daemon lowers `max_connections` to keep a reserve for judging, keeps at most
//!   that many (the rest are closed at once), closes those after the header timeout, never
//!   runs out of descriptors; a normal request succeeds within the timeout and a submission
//!   judged meanwhile is judged right (AC, not SE).
//! - A 5 MB body posted by Python's urllib: the client reads the 413 and its JSON error
//!   instead of a broken pipe.

use crate::fixtures::daemon;

use std::time::{Duration, Instant};

use daemon::{fixture, get, restart_fresh, start_fresh, start_fresh_with_nofile, wait_done};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

const SLOW_CLIENTS: usize = 1100;
/// The daemon's descriptor limit (soft and hard): fewer than the slow clients.
const NOFILE: u64 = 512;
/// More connections than that limit allows: the daemon lowers the cap to keep its reserve.
const ASKED_CAP: usize = 1000;
const HEADER_TIMEOUT_MS: u64 = 2000;

fn open_descriptors(pid: i32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// A client that opens a new connection for each request (no pool), so a refused connection
/// is retried on a fresh one.
fn fresh_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_cannot_starve_the_daemon() {
    let (dir, d) = start_fresh_with_nofile(
        1,
        1,
        &format!(
            "[server]\nmax_connections = {ASKED_CAP}\nheader_timeout_ms = {HEADER_TIMEOUT_MS}\n"
        ),
        Some(NOFILE),
    );
    let addr = d.base.trim_start_matches("http://").to_string();
    let idle_fds = open_descriptors(d.pid());
    let log = d.log();
    let cap: usize = log
        .lines()
        .find(|l| l.contains("max_connections lowered"))
        .and_then(|l| l.split("cap=").nth(1))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("the daemon says it lowered the cap: {log}"));
    assert!(cap < NOFILE as usize - 128, "cap {cap} leaves a reserve");

    let attack = Instant::now();
    let mut slow = Vec::with_capacity(SLOW_CLIENTS);
    for _ in 0..SLOW_CLIENTS {
        let mut s = TcpStream::connect(&addr).await.expect("connect");
        let _ = s
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await;
        slow.push(s);
    }
    let opened_in = attack.elapsed();
    let peak_fds = open_descriptors(d.pid());

    // The slow clients go on sending a byte every 200 ms; in the meantime a normal request
    // and a submission must get through.
    let trickle = tokio::spawn(async move {
        let mut open = slow;
        let mut closed_after = Vec::new();
        let started = Instant::now();
        while !open.is_empty() && started.elapsed() < Duration::from_secs(20) {
            let mut still = Vec::with_capacity(open.len());
            for mut s in open {
                if s.write_all(b"a").await.is_ok() && !peer_closed(&s) {
                    still.push(s);
                } else {
                    closed_after.push(started.elapsed());
                }
            }
            open = still;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        (open.len(), closed_after)
    });

    let c = fresh_client();
    let health = loop {
        if let Ok(r) = c.get(d.url("/api/health")).send().await {
            break r;
        }
        assert!(
            attack.elapsed() < Duration::from_millis(HEADER_TIMEOUT_MS + 8000),
            "no normal request got through; log:\n{}",
            d.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let health_after = attack.elapsed();
    assert_eq!(health.status(), 200);
    let id = loop {
        let posted = c
            .post(d.url("/api/submissions"))
            .json(
                &json!({"problem": "sudoku", "language": "c", "source": fixture("sudoku", "ac.c")}),
            )
            .send()
            .await;
        if let Ok(r) = posted {
            assert_eq!(r.status(), 202);
            break r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let judged = wait_done(&c, &d, &[id], Duration::from_secs(120)).await;
    assert_eq!(judged[0]["verdict"], "AC", "{:#}", judged[0]);

    let (left_open, closed_after) = trickle.await.unwrap();
    assert_eq!(
        left_open, 0,
        "every slow client is closed by the header timeout"
    );
    let last_closed = closed_after.iter().max().copied().unwrap_or_default();
    let log = d.log();
    assert!(!log.contains("Too many open files"), "{log}");
    assert!(
        peak_fds <= idle_fds + cap + 8,
        "descriptors: {idle_fds} idle, {peak_fds} with {SLOW_CLIENTS} slow clients (cap {cap})"
    );
    assert!(
        last_closed < Duration::from_millis(HEADER_TIMEOUT_MS + 3000),
        "the last slow client was closed after {last_closed:?}"
    );
    assert_eq!(get(&c, &d, id).await["verdict"], "AC");
    drop(d);
    let d = restart_fresh(dir.path(), 1, "");
    assert_eq!(get(&c, &d, id).await["verdict"], "AC", "after a restart");
    eprintln!(
        "{SLOW_CLIENTS} slow clients opened in {opened_in:?}; descriptor limit {NOFILE}, cap \
         lowered from {ASKED_CAP} to {cap}; daemon descriptors {idle_fds} idle, {peak_fds} under \
         attack; health answered {health_after:?} after the attack began; \
         last slow client closed after {last_closed:?}"
    );
}

/// Whether the daemon has closed `s` (a read, without waiting, sees EOF, an answer or an error).
fn peer_closed(s: &TcpStream) -> bool {
    let mut buf = [0u8; 512];
    match s.try_read(&mut buf) {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => false,
        // EOF, an error, or an answer (408/400), which the close follows.
        _ => true,
    }
}

const URLLIB_POST: &str = r#"
import json, sys, urllib.request, urllib.error
body = json.dumps({"problem": "sudoku", "language": "c", "source": "x" * (5 * 1000 * 1000)}).encode()
req = urllib.request.Request(sys.argv[1], data=body, headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        print(r.status, "no error")
except urllib.error.HTTPError as e:
    print(e.code, json.load(e)["error"]["code"])
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_clients_read_the_413_of_an_oversized_body() {
    let (_dir, d) = start_fresh(0, 1, "");
    for _ in 0..3 {
        let out = tokio::process::Command::new("/usr/bin/python3")
            .args(["-c", URLLIB_POST, &d.url("/api/submissions")])
            .output()
            .await
            .expect("run /usr/bin/python3");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            stdout.trim(),
            "413 too_large",
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let c = fresh_client();
    let health = c.get(d.url("/api/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
}

/// A client that sends its headers, then its body a byte at a time, gets 408 after the body
/// timeout; one that keeps its connection idle after an answer is closed after the header
/// timeout (the keep-alive idle timeout).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_get_408_and_idle_connections_are_closed() {
    use tokio::io::AsyncReadExt;
    let (_dir, d) = start_fresh(
        0,
        1,
        "[server]\nbody_timeout_ms = 1000\nheader_timeout_ms = 1500\n",
    );
    let addr = d.base.trim_start_matches("http://").to_string();

    let mut slow = TcpStream::connect(&addr).await.unwrap();
    slow.write_all(
        b"POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n\
          content-length: 100\r\n\r\n{",
    )
    .await
    .unwrap();
    let started = Instant::now();
    let reader = tokio::spawn(async move {
        let mut answer = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            tokio::select! {
                n = slow.read(&mut buf) => match n {
                    Ok(0) | Err(_) => break,
                    Ok(n) => answer.extend_from_slice(&buf[..n]),
                },
                () = tokio::time::sleep(Duration::from_millis(200)) => {
                    if slow.write_all(b" ").await.is_err() {
                        break;
                    }
                }
            }
            if started.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        String::from_utf8_lossy(&answer).into_owned()
    });
    let answer = reader.await.unwrap();
    let took = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("body_timeout"), "{answer}");
    assert!(took < Duration::from_secs(5), "408 after {took:?}");

    let mut idle = TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    let first = idle.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..first]).starts_with("HTTP/1.1 200"));
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match idle.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    let took = started.elapsed();
    assert!(closed.is_ok(), "an idle keep-alive connection stays open");
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_secs(5),
        "idle connection closed after {took:?}"
    );
    let c = fresh_client();
    assert_eq!(
        c.get(d.url("/api/health")).send().await.unwrap().status(),
        200
    );
}
