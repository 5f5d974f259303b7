//! Time to first byte of the web pages under 200 concurrent clients, next to the JSON API's
//! figures in the same run: the scoreboard page and `GET /api/contests/{id}/scoreboard`, a
//! contest problem page and `GET /api/problems/{id}`. A figure, not a check: it is
//! `#[ignore]`d and run by hand (README, docs/web.md):
//!
//!     cargo test --release --test web web_load:: -- --ignored --nocapture
//!
//! The contest lists 200 participants on 4 problems, so the board has 200 rows.

use crate::fixtures::{accounts, daemon, web};

use std::time::{Duration, Instant};

use accounts::{login, Judge};
use web::{fixed_contest, start_with_contests_and, PW};

const CLIENTS: usize = 200;
/// Requests per client and endpoint (`SUDOJUDGE_BENCH_ROUNDS`, default 20).
fn rounds() -> usize {
    std::env::var("SUDOJUDGE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// Sends `CLIENTS` x [`rounds`] GETs of `path` at once (each client its next request after
/// its previous answer's headers), each client on its own keep-alive connection; returns
/// every time to the answer's headers, sorted.
async fn ttfb(
    clients: &[reqwest::Client],
    url: &str,
    auth: (&'static str, String),
) -> Result<Vec<Duration>, String> {
    let mut tasks = Vec::with_capacity(CLIENTS);
    for c in clients {
        let c = c.clone();
        let url = url.to_string();
        let auth = auth.clone();
        tasks.push(tokio::spawn(async move {
            let mut times = Vec::with_capacity(rounds());
            for _ in 0..rounds() {
                let started = Instant::now();
                let r = match c.get(&url).header(auth.0, &auth.1).send().await {
                    Ok(r) => r,
                    Err(e) => panic!("{url}: {e:?}"),
                };
                times.push(started.elapsed());
                assert_eq!(r.status(), 200, "{url}");
                let _ = r.bytes().await.unwrap();
            }
            times
        }));
    }
    let mut all = Vec::with_capacity(CLIENTS * rounds());
    for t in tasks {
        match t.await {
            Ok(times) => all.extend(times),
            Err(e) => return Err(e.to_string()),
        }
    }
    all.sort();
    Ok(all)
}

fn at(sorted: &[Duration], q: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a figure, run by hand: cargo test --release --test web web_load:: -- --ignored --nocapture"]
async fn time_to_first_byte_of_pages_and_api_under_200_clients() {
    let names: Vec<String> = (0..CLIENTS).map(|i| format!("\"c{i:03}\"")).collect();
    let extra = format!("participants = [\"alice\", {}]", names.join(", "));
    let cup = fixed_contest(
        "Load",
        "icpc",
        10,
        300,
        &extra,
        &["sudoku", "sudoku-hard", "target-sudoku", "binary-sudoku"],
    );
    // Room for the 200 clients of one endpoint and those of the previous one, whose
    // connections the client library may keep open a while.
    // All clients share 127.0.0.1: the per-address and per-network shares (256 by default,
    // issue 21) would close the second endpoint's connections while the first's stay open.
    let more = "[server]\nmax_connections = 1024\nmax_connections_per_address = 1024\n\
                max_connections_per_network = 1024\n";
    let Judge { d, dir: _dir, .. } = start_with_contests_and(1, 1, &[("load", cup)], more);
    let api = daemon::client();
    let new_clients = || -> Vec<reqwest::Client> {
        (0..CLIENTS)
            .map(|_| {
                reqwest::Client::builder()
                    .pool_max_idle_per_host(1)
                    .timeout(Duration::from_secs(120))
                    .build()
                    .unwrap()
            })
            .collect()
    };
    let token = login(&api, &d.base, "alice", PW).await;
    let page_cookie = web::session_cookie(&d, "alice").await;
    let bearer = ("authorization", format!("Bearer {token}"));
    let cookie = ("cookie", page_cookie);
    let pairs = [
        ("scoreboard page", "/contests/load/scoreboard", &cookie),
        ("scoreboard JSON", "/api/contests/load/scoreboard", &bearer),
        ("problem page", "/contests/load/problems/A", &cookie),
        ("problem JSON", "/api/problems/sudoku", &bearer),
    ];
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{CLIENTS} clients x {} requests each; load average before: {}",
        rounds(),
        load.trim()
    );
    println!(
        "{:<18} {:>10} {:>10} {:>10} {:>12}",
        "what", "median ms", "p99 ms", "max ms", "requests/s"
    );
    for (what, path, auth) in pairs {
        // Each endpoint its own 200 clients.
        let clients = new_clients();
        // One warm-up round fills the board cache and the connection pool.
        let tail = |e: String| -> Vec<Duration> {
            let log = d.log();
            let lines: Vec<&str> = log.lines().collect();
            panic!(
                "{e}; daemon log:\n{}",
                lines[lines.len().saturating_sub(30)..].join("\n")
            )
        };
        ttfb(&clients, &d.url(path), (auth.0, auth.1.clone()))
            .await
            .unwrap_or_else(tail);
        let started = Instant::now();
        let times = ttfb(&clients, &d.url(path), (auth.0, auth.1.clone()))
            .await
            .unwrap_or_else(tail);
        let rate = times.len() as f64 / started.elapsed().as_secs_f64();
        println!(
            "{what:<18} {:>10.2} {:>10.2} {:>10.2} {:>12.0}",
            at(&times, 0.5),
            at(&times, 0.99),
            at(&times, 1.0),
            rate
        );
    }
}
