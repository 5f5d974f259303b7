//! `sudojudge_http_requests_total` counts the requests the outer layers refuse, against the
//! real daemon on port 0: a body over the size limit (413), a body that comes too slowly
//! (408), a request past the request timeout (503), a method a route does not serve (405)
//! and unknown paths (404) each show up in `/metrics` with their status; unknown paths all
//! count under the one `unmatched` route, so the paths a client invents never mint new label
//! values.

use crate::fixtures::daemon;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use daemon::{client, start_fresh, Daemon};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const HTTP: &str = "sudojudge_http_requests_total";

/// The request counter's series: `(route, method, status)` to count, read from the text (a
/// route pattern holds braces, which the lenient Prometheus parsers misread).
async fn http_counts(c: &reqwest::Client, d: &Daemon) -> BTreeMap<(String, String, String), f64> {
    let r = c.get(d.url("/metrics")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix(HTTP) else {
            continue;
        };
        let (labels, value) = rest.rsplit_once(' ').expect("series value");
        let labels = labels
            .strip_prefix('{')
            .and_then(|l| l.strip_suffix("\"}"))
            .unwrap_or_else(|| panic!("labels: {line}"));
        let mut map = BTreeMap::new();
        for pair in labels.split("\",") {
            let (k, v) = pair.split_once("=\"").unwrap_or_else(|| panic!("{line}"));
            map.insert(k.to_string(), v.to_string());
        }
        let key = (
            map["route"].clone(),
            map["method"].clone(),
            map["status"].clone(),
        );
        let n: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(out.insert(key, n).is_none(), "twice: {line}");
    }
    out
}

fn count(
    counts: &BTreeMap<(String, String, String), f64>,
    route: &str,
    method: &str,
    status: &str,
) -> f64 {
    counts
        .get(&(route.to_string(), method.to_string(), status.to_string()))
        .copied()
        .unwrap_or(0.0)
}

fn routes(counts: &BTreeMap<(String, String, String), f64>) -> BTreeSet<String> {
    counts.keys().map(|(route, _, _)| route.clone()).collect()
}

/// Sends `head` then `body` on a raw socket and reads the answer until the server closes or
/// 10 s pass.
async fn raw(d: &Daemon, head: &str, body: &[u8], trickle: bool) -> String {
    let addr = d.base.trim_start_matches("http://").to_string();
    let mut s = TcpStream::connect(&addr).await.unwrap();
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while started.elapsed() < Duration::from_secs(10) {
        tokio::select! {
            n = s.read(&mut buf) => match n {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            },
            () = tokio::time::sleep(Duration::from_millis(200)) => {
                if trickle && s.write_all(b" ").await.is_err() {
                    break;
                }
            }
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_requests_are_counted_with_their_status() {
    let (_dir, d) = start_fresh(0, 1, "[server]\nbody_timeout_ms = 1000\n");
    let c = client();
    let before = http_counts(&c, &d).await;
    assert_eq!(count(&before, "/api/submissions", "POST", "413"), 0.0);

    // 413: a Content-Length far over the limit is refused before the body is read.
    let oversized = raw(
        &d,
        &format!(
            "POST /api/submissions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n",
            64 * 1024 * 1024
        ),
        b"{\"source\": \"",
        false,
    )
    .await;
    assert!(oversized.starts_with("HTTP/1.1 413"), "{oversized}");

    // 408: a body sent a byte at a time outlasts the body timeout.
    let slow = raw(
        &d,
        "POST /api/submissions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
         content-length: 100\r\n\r\n",
        b"{",
        true,
    )
    .await;
    assert!(slow.starts_with("HTTP/1.1 408"), "{slow}");

    // 405: a known path, a method it does not serve.
    let r = c.delete(d.url("/api/health")).send().await.unwrap();
    assert_eq!(r.status(), 405);

    // 404: paths a client makes up, each different.
    let invented = [
        "/no/such/path",
        "/api/nosuch",
        "/api/submissions/1/nosuch",
        "/%7Bid%7D",
        "/api/problems/sudoku/x/y",
        "/unmatched2",
    ];
    for path in invented {
        let r = c.get(d.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 404, "{path}");
    }

    let after = http_counts(&c, &d).await;
    assert_eq!(
        count(&after, "/api/submissions", "POST", "413"),
        1.0,
        "{after:#?}"
    );
    assert_eq!(
        count(&after, "/api/submissions", "POST", "408"),
        1.0,
        "{after:#?}"
    );
    assert_eq!(
        count(&after, "/api/health", "DELETE", "405"),
        1.0,
        "{after:#?}"
    );
    assert_eq!(
        count(&after, "unmatched", "GET", "404") - count(&before, "unmatched", "GET", "404"),
        invented.len() as f64,
        "{after:#?}"
    );
    // Only route patterns the daemon serves, and `unmatched`, are label values.
    let known: BTreeSet<String> = ["/metrics", "/api/submissions", "/api/health", "unmatched"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(routes(&after), known, "{after:#?}");

    // More invented paths move the `unmatched` count and add no series.
    let series = after.len();
    for i in 0..20 {
        let r = c
            .get(d.url(&format!("/made-up-{i}/{}", "x".repeat(i))))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404);
    }
    let again = http_counts(&c, &d).await;
    assert_eq!(
        count(&again, "unmatched", "GET", "404") - count(&after, "unmatched", "GET", "404"),
        20.0
    );
    assert_eq!(routes(&again), known, "{again:#?}");
    // The scrapes themselves are the only other change: `/metrics` 200 was already a series.
    assert_eq!(again.len(), series, "{again:#?}");
}

/// A request that outlasts the request timeout (here a body trickled slower than it, the body
/// timeout being longer) is answered 503 `timeout` by the outermost limit, and counted so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_the_request_timeout_are_counted_as_503() {
    let (_dir, d) = start_fresh(
        0,
        1,
        "[server]\nrequest_timeout_ms = 800\nbody_timeout_ms = 20000\n",
    );
    let c = client();
    let before = http_counts(&c, &d).await;
    let late = raw(
        &d,
        "POST /api/submissions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
         content-length: 100\r\n\r\n",
        b"{",
        true,
    )
    .await;
    assert!(late.starts_with("HTTP/1.1 503"), "{late}");
    assert!(late.contains("timeout"), "{late}");
    let after = http_counts(&c, &d).await;
    assert_eq!(
        count(&after, "/api/submissions", "POST", "503")
            - count(&before, "/api/submissions", "POST", "503"),
        1.0,
        "{after:#?}"
    );
}
