//! `GET /metrics` and the data hashes against the real daemon on port 0: submissions judged,
//! then a scrape whose counters, histogram and gauges moved with the right labels, parsed as
//! Prometheus text; who may read it; and the data hash each submission records.

use crate::fixtures::{accounts, daemon};

use std::collections::BTreeMap;
use std::time::Duration;

use accounts::{add_user, get_as, login, start_judge};
use daemon::{client, fixture, get_json, start_fresh, submit, wait_done, Daemon};
use prometheus_parse::{Scrape, Value as Sample};

/// The scrape, parsed; panics (with the text) when it is not Prometheus text.
async fn scrape(c: &reqwest::Client, d: &Daemon) -> (Scrape, String) {
    let r = c.get(d.url("/metrics")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let kind = r.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let text = r.text().await.unwrap();
    check_exposition(&text);
    let lines: Vec<std::io::Result<String>> = text.lines().map(|l| Ok(l.to_string())).collect();
    let parsed = Scrape::parse(lines.into_iter())
        .unwrap_or_else(|e| panic!("not Prometheus text ({e}):\n{text}"));
    (parsed, text)
}

/// The text format's grammar, line by line, beyond what the lenient parser checks: every
/// sample `name{label="value",...} number`, every family typed before its samples.
fn check_exposition(text: &str) {
    let mut typed = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("# TYPE name kind");
            assert!(
                ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                "{line}"
            );
            assert!(
                typed.insert(name.to_string(), kind.to_string()).is_none(),
                "twice: {line}"
            );
            continue;
        }
        if line.starts_with('#') {
            assert!(line.starts_with("# HELP "), "{line}");
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect("series value");
        assert!(value.parse::<f64>().is_ok() || value == "+Inf", "{line}");
        let name = series.split('{').next().unwrap();
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
            "{line}"
        );
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| {
                name.strip_suffix(s)
                    .filter(|f| typed.get(*f).is_some_and(|k| k == "histogram"))
            })
            .unwrap_or(name);
        assert!(
            typed.contains_key(family),
            "sample before its # TYPE: {line}"
        );
        if let Some(labels) = series.strip_prefix(name) {
            if !labels.is_empty() {
                let inner = labels.strip_prefix('{').and_then(|l| l.strip_suffix('}'));
                let inner = inner.unwrap_or_else(|| panic!("labels: {line}"));
                for pair in inner.split("\",").filter(|p| !p.is_empty()) {
                    let (k, v) = pair.split_once("=\"").unwrap_or_else(|| panic!("{line}"));
                    assert!(
                        k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                        "{line}"
                    );
                    assert!(!v.trim_end_matches('"').contains('"'), "{line}");
                }
            }
        }
    }
}

fn value(s: &Scrape, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    s.samples
        .iter()
        .find(|x| x.metric == name && labels.iter().all(|(k, v)| x.labels.get(k) == Some(*v)))
        .and_then(|x| match &x.value {
            Sample::Counter(v) | Sample::Gauge(v) | Sample::Untyped(v) => Some(*v),
            _ => None,
        })
}

fn count(s: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    value(s, name, labels).unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judged_submissions_move_the_metrics() {
    // A compile cache of its own: every compile of this daemon is a first one.
    let cache = tempfile::tempdir().unwrap();
    let (_dir, d) = start_fresh(
        2,
        1,
        &format!(
            "[node]\nname = \"metrics-node\"\n[compile]\ncache_dir = {:?}\ncache_watch = []\n",
            cache.path().join("programs").display().to_string()
        ),
    );
    let c = client();
    let (before, _) = scrape(&c, &d).await;
    assert_eq!(
        value(&before, "sudojudge_queue_depth", &[("status", "queued")]),
        Some(0.0)
    );
    assert_eq!(
        count(&before, "sudojudge_submissions_judged_total", &[]),
        0.0
    );

    let runs = [
        ("ac.c", "c", "AC"),
        ("wa.py", "python", "WA"),
        ("ce.c", "c", "CE"),
    ];
    let mut ids = Vec::new();
    for (file, lang, _) in runs {
        let source = fixture("binary-sudoku", file);
        ids.push(submit(&c, &d, "binary-sudoku", lang, &source).await);
    }
    let done = wait_done(&c, &d, &ids, Duration::from_secs(300)).await;
    for (s, (_, _, verdict)) in done.iter().zip(runs) {
        assert_eq!(s["verdict"], verdict, "{s:#}");
    }
    let (after, text) = scrape(&c, &d).await;
    let judged = |verdict| {
        count(
            &after,
            "sudojudge_submissions_judged_total",
            &[("problem", "binary-sudoku"), ("verdict", verdict)],
        )
    };
    assert_eq!(
        (judged("AC"), judged("WA"), judged("CE")),
        (1.0, 1.0, 1.0),
        "{text}"
    );
    assert_eq!(judged("RE"), 0.0);

    // The histogram: three observations, cumulative buckets, +Inf = count.
    let hist = after
        .samples
        .iter()
        .find(|x| {
            x.metric == "sudojudge_judge_duration_seconds"
                && x.labels.get("problem") == Some("binary-sudoku")
        })
        .unwrap_or_else(|| panic!("no duration histogram:\n{text}"));
    let Sample::Histogram(buckets) = &hist.value else {
        panic!("not a histogram: {:?}", hist.value)
    };
    let counts: Vec<f64> = buckets.iter().map(|b| b.count).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert_eq!(
        buckets.last().map(|b| (b.less_than, b.count)),
        Some((f64::INFINITY, 3.0))
    );
    assert!(
        text.contains("sudojudge_judge_duration_seconds_count{problem=\"binary-sudoku\"} 3"),
        "{text}"
    );

    // Sandbox runs: three compiles; AC ran every test (1 sample + 2 secret), WA at least one.
    let runs_of = |kind| count(&after, "sudojudge_sandbox_runs_total", &[("kind", kind)]);
    assert_eq!(runs_of("compile"), 3.0, "{text}");
    let cache_count =
        |s: &Scrape, which| count(s, &format!("sudojudge_compile_cache_{which}_total"), &[]);
    assert_eq!(
        (cache_count(&after, "hits"), cache_count(&after, "misses")),
        (0.0, 3.0),
        "{text}"
    );
    assert!(runs_of("test") >= 4.0, "{text}");
    assert_eq!(runs_of("custom"), 0.0);
    assert_eq!(
        count(&after, "sudojudge_sandbox_failures_total", &[]),
        0.0,
        "{text}"
    );

    // Queue empty again; this node's heartbeat is recent and carries its name.
    for status in ["queued", "compiling", "running"] {
        assert_eq!(
            value(&after, "sudojudge_queue_depth", &[("status", status)]),
            Some(0.0)
        );
    }
    let age = value(
        &after,
        "sudojudge_node_heartbeat_age_seconds",
        &[("node", "metrics-node")],
    )
    .unwrap_or_else(|| panic!("no heartbeat of metrics-node:\n{text}"));
    assert!((0.0..10.0).contains(&age), "{age}");

    // HTTP requests by route pattern (ids never become labels), method and status.
    let http = |route, method, status| {
        count(
            &after,
            "sudojudge_http_requests_total",
            &[("route", route), ("method", method), ("status", status)],
        )
    };
    assert_eq!(http("/api/submissions", "POST", "202"), 3.0, "{text}");
    // (prometheus-parse misreads braces inside label values: read this series from the text.)
    let reads = text
        .lines()
        .find_map(|l| {
            l.strip_prefix(
                "sudojudge_http_requests_total{route=\"/api/submissions/{id}\",method=\"GET\",status=\"200\"} ",
            )
        })
        .and_then(|v| v.parse::<f64>().ok());
    assert!(reads.is_some_and(|n| n >= 3.0), "{text}");
    assert_eq!(http("/metrics", "GET", "200"), 1.0, "{text}");
    assert!(
        !text.contains(&format!("/api/submissions/{}", ids[0])),
        "{text}"
    );
    let _ = c.get(d.url("/no/such/path")).send().await.unwrap();
    let (again, _) = scrape(&c, &d).await;
    assert_eq!(
        count(
            &again,
            "sudojudge_http_requests_total",
            &[("route", "unmatched"), ("status", "404")]
        ),
        1.0
    );
    assert_eq!(
        count(
            &again,
            "sudojudge_http_requests_total",
            &[("route", "/metrics")]
        ),
        2.0
    );

    // The accepted source again: its program comes from the compile cache, no box compiles
    // it; the compile error is compiled again (failures are not kept).
    let ids = vec![
        submit(
            &c,
            &d,
            "binary-sudoku",
            "c",
            &fixture("binary-sudoku", "ac.c"),
        )
        .await,
        submit(
            &c,
            &d,
            "binary-sudoku",
            "c",
            &fixture("binary-sudoku", "ce.c"),
        )
        .await,
    ];
    let done = wait_done(&c, &d, &ids, Duration::from_secs(300)).await;
    assert_eq!(
        (done[0]["verdict"].as_str(), done[1]["verdict"].as_str()),
        (Some("AC"), Some("CE"))
    );
    let (last, text) = scrape(&c, &d).await;
    assert_eq!(
        (cache_count(&last, "hits"), cache_count(&last, "misses")),
        (1.0, 4.0),
        "{text}"
    );
    assert_eq!(
        count(
            &last,
            "sudojudge_sandbox_runs_total",
            &[("kind", "compile")]
        ),
        4.0,
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_record_the_data_hash() {
    let (_dir, d) = start_fresh(1, 1, "");
    let c = client();
    let health = get_json(&c, d.url("/api/health")).await;
    let hashes = health["data_hashes"].as_object().expect("data_hashes");
    assert_eq!(hashes.len(), 5, "{health:#}");
    let expected = hashes["binary-sudoku"].as_str().unwrap().to_string();
    assert_eq!(expected.len(), 64);
    assert_ne!(expected, hashes["sudoku"].as_str().unwrap());
    assert!(
        health["node"].as_str().is_some_and(|n| !n.is_empty()),
        "{health:#}"
    );

    let id = submit(
        &c,
        &d,
        "binary-sudoku",
        "c",
        &fixture("binary-sudoku", "ac.c"),
    )
    .await;
    let done = wait_done(&c, &d, &[id], Duration::from_secs(120)).await;
    assert_eq!(
        done[0]["submitted_data_hash"],
        expected.as_str(),
        "{:#}",
        done[0]
    );
    assert_eq!(
        done[0]["judged_data_hash"],
        expected.as_str(),
        "{:#}",
        done[0]
    );
    // Listings carry them too.
    let list = get_json(&c, d.url("/api/submissions")).await;
    assert_eq!(
        list[0]["submitted_data_hash"],
        expected.as_str(),
        "{list:#}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_for_admins_and_the_scraper_token() {
    let j = start_judge(1, "[metrics]\ntoken = \"scrape-me-7Hq\"\n");
    add_user(&j.config, &j.db, "root", true, "admin-password-1");
    add_user(&j.config, &j.db, "alice", false, "alice-password-1");
    let c = client();
    let admin = login(&c, &j.d.base, "root", "admin-password-1").await;
    let alice = login(&c, &j.d.base, "alice", "alice-password-1").await;
    assert_eq!(get_as(&c, &j.d, "/metrics", None).await.0, 401);
    assert_eq!(get_as(&c, &j.d, "/metrics", Some(&alice)).await.0, 403);
    assert_eq!(
        get_as(&c, &j.d, "/metrics", Some("scrape-me-7Hq-not"))
            .await
            .0,
        401
    );
    assert_eq!(get_as(&c, &j.d, "/metrics", Some(&admin)).await.0, 200);
    assert_eq!(
        get_as(&c, &j.d, "/metrics", Some("scrape-me-7Hq")).await.0,
        200
    );
}
