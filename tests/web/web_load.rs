//! Time to first byte of the web pages under 200 concurrent clients, against baselines
//! measured in the same run: the JSON API's figures (the scoreboard page and
//! `GET /api/contests/{id}/scoreboard`, a contest problem page and `GET /api/problems/{id}`),
//! a static file (`/static/app.js`), and, when `SUDOJUDGE_LOAD_BASELINE` names the
//! `sudojudge` binary of an earlier commit, the same endpoints of a daemon of that build on
//! the same data, rounds taken in turn so both see the same machine. A figure, not a check:
//! it is `#[ignore]`d and run by hand (docs/web.md, docs/figures.md):
//!
//!     cargo test --release --test web web_load:: -- --ignored --nocapture
//!     SUDOJUDGE_LOAD_BASELINE=/path/to/old/sudojudge cargo test --release --test web \
//!         web_load:: -- --ignored --nocapture
//!
//! The contest lists 200 participants on 4 problems, so the board has 200 rows.

use crate::fixtures::{accounts, daemon, web};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use accounts::{login, Judge};
use daemon::{trimmed_problems, Daemon};
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

/// Each daemon's rounds per endpoint, taken in turn with the baseline's.
const TURNS: usize = 5;

/// One daemon under test, signed in as alice.
struct Side {
    name: &'static str,
    d: Daemon,
    cookie: (&'static str, String),
    bearer: (&'static str, String),
    _dir: Option<tempfile::TempDir>,
}

/// The config both daemons get: room for the 200 clients of one endpoint and those of the
/// previous one, whose connections the client library may keep open a while. All clients
/// share 127.0.0.1: the per-address and per-network shares (256 by default, issue 21) would
/// close the second endpoint's connections while the first's stay open.
const MORE: &str = "[server]\nmax_connections = 1024\nmax_connections_per_address = 1024\n\
                    max_connections_per_network = 1024\n";

fn contest_text() -> String {
    let names: Vec<String> = (0..CLIENTS).map(|i| format!("\"c{i:03}\"")).collect();
    let extra = format!("participants = [\"alice\", {}]", names.join(", "));
    fixed_contest(
        "Load",
        "icpc",
        10,
        300,
        &extra,
        &["sudoku", "sudoku-hard", "target-sudoku", "binary-sudoku"],
    )
}

async fn signed_in(name: &'static str, d: Daemon, dir: Option<tempfile::TempDir>) -> Side {
    let token = login(&daemon::client(), &d.base, "alice", PW).await;
    let cookie = ("cookie", web::session_cookie(&d, "alice").await);
    Side {
        name,
        d,
        cookie,
        bearer: ("authorization", format!("Bearer {token}")),
        _dir: dir,
    }
}

/// The same daemon, data and users from an earlier build's binary `bin` (its own database:
/// that build's migrations).
async fn baseline(bin: &Path, contest: &str) -> Side {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 1);
    let folder = dir.path().join("contests");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("load.toml"), contest).unwrap();
    let db = dir.path().join("judge.db");
    let d = Daemon::start_binary(bin, dir.path(), &db, &problems, 1, MORE);
    let config = dir.path().join("config.toml");
    for (name, admin) in [("boss", true), ("alice", false)] {
        let mut args = vec!["add", name, "--password-stdin"];
        if admin {
            args.push("--admin");
        }
        let mut child = Command::new(bin)
            .arg("--config")
            .arg(&config)
            .arg("user")
            .args(&args)
            .arg("--database")
            .arg(&db)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the baseline's user add");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{PW}\n").as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "baseline user add {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    signed_in("baseline", d, Some(dir)).await
}

fn new_clients() -> Vec<reqwest::Client> {
    (0..CLIENTS)
        .map(|_| {
            reqwest::Client::builder()
                .pool_max_idle_per_host(1)
                .timeout(Duration::from_secs(120))
                .build()
                .unwrap()
        })
        .collect()
}

/// Every time of [`TURNS`] rounds of `path` on each side, the rounds taken in turn (after one
/// warm-up round each, which fills the board cache and the connection pool); and each side's
/// requests per second.
async fn measure(sides: &[Side], path: &str, bearer: bool) -> Vec<(Vec<Duration>, f64)> {
    let clients: Vec<Vec<reqwest::Client>> = sides.iter().map(|_| new_clients()).collect();
    let auth = |s: &Side| {
        let a = if bearer { &s.bearer } else { &s.cookie };
        (a.0, a.1.clone())
    };
    let tail = |s: &Side, e: String| -> Vec<Duration> {
        let log = s.d.log();
        let lines: Vec<&str> = log.lines().collect();
        panic!(
            "{}: {e}; daemon log:\n{}",
            s.name,
            lines[lines.len().saturating_sub(30)..].join("\n")
        )
    };
    for (s, c) in sides.iter().zip(&clients) {
        ttfb(c, &s.d.url(path), auth(s))
            .await
            .unwrap_or_else(|e| tail(s, e));
    }
    let mut out: Vec<(Vec<Duration>, f64)> = sides.iter().map(|_| (Vec::new(), 0.0)).collect();
    for _ in 0..TURNS {
        for (i, (s, c)) in sides.iter().zip(&clients).enumerate() {
            let started = Instant::now();
            let times = ttfb(c, &s.d.url(path), auth(s))
                .await
                .unwrap_or_else(|e| tail(s, e));
            out[i].1 += times.len() as f64 / started.elapsed().as_secs_f64() / TURNS as f64;
            out[i].0.extend(times);
        }
    }
    for (times, _) in &mut out {
        times.sort();
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a figure, run by hand: cargo test --release --test web web_load:: -- --ignored --nocapture"]
async fn time_to_first_byte_of_pages_and_api_under_200_clients() {
    let contest = contest_text();
    let Judge { d, dir: _dir, .. } =
        start_with_contests_and(1, 1, &[("load", contest.clone())], MORE);
    let mut sides = vec![signed_in("this build", d, None).await];
    let old: Option<PathBuf> = std::env::var_os("SUDOJUDGE_LOAD_BASELINE").map(PathBuf::from);
    if let Some(bin) = &old {
        sides.push(baseline(bin, &contest).await);
    }
    let endpoints = [
        ("scoreboard page", "/contests/load/scoreboard", false),
        ("scoreboard JSON", "/api/contests/load/scoreboard", true),
        ("problem page", "/contests/load/problems/A", false),
        ("problem JSON", "/api/problems/sudoku", true),
        ("static app.js", "/static/app.js", false),
    ];
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{CLIENTS} clients x {} requests each, {TURNS} rounds per daemon in turn; load average before: {}",
        rounds(),
        load.trim()
    );
    if let Some(bin) = &old {
        println!("baseline: {}", bin.display());
    }
    println!(
        "{:<16} {:<10} {:>9} {:>9} {:>9} {:>11}",
        "what", "daemon", "median ms", "p99 ms", "max ms", "requests/s"
    );
    let mut medians: Vec<Vec<f64>> = Vec::new();
    for (what, path, bearer) in endpoints {
        let results = measure(&sides, path, bearer).await;
        let mut row = Vec::new();
        for (s, (times, rate)) in sides.iter().zip(&results) {
            println!(
                "{what:<16} {:<10} {:>9.2} {:>9.2} {:>9.2} {:>11.0}",
                s.name,
                at(times, 0.5),
                at(times, 0.99),
                at(times, 1.0),
                rate
            );
            row.push(at(times, 0.5));
        }
        medians.push(row);
    }
    // Same-run ratios of medians: each page to its JSON and to the static file, per build;
    // and this build to the baseline's, per endpoint.
    let names = [
        "scoreboard page",
        "scoreboard JSON",
        "problem page",
        "problem JSON",
        "static",
    ];
    for (i, s) in sides.iter().enumerate() {
        println!(
            "{}: scoreboard page/JSON {:.2}x, problem page/JSON {:.2}x, scoreboard page/static {:.2}x, problem page/static {:.2}x",
            s.name,
            medians[0][i] / medians[1][i],
            medians[2][i] / medians[3][i],
            medians[0][i] / medians[4][i],
            medians[2][i] / medians[4][i],
        );
    }
    if sides.len() == 2 {
        for (name, m) in names.iter().zip(&medians) {
            let ratio = m[0] / m[1];
            println!(
                "{name}: this build / baseline, medians: {ratio:.2}x ({})",
                if ratio <= 1.10 {
                    "within 10%"
                } else {
                    "MORE than 10% slower"
                }
            );
        }
    }
}
