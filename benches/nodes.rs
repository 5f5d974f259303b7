//! Worker nodes on one PostgreSQL database (`cargo bench --bench nodes`): submissions judged
//! per second by 1 and by 2 `sudojudge worker` processes (one slot each) on the same database,
//! medians over rounds measured in one run, and the ratio of the two.
//!
//! The problem is trivial on purpose (a binary-sudoku package of three tests, a Python
//! solution), so the judge's own costs show: claim, compile, three sandboxed runs, checks,
//! storage. The database is a throwaway cluster the bench starts (`initdb` + `postgres`, as
//! the tests do). Needs root (the sandbox) and PostgreSQL's server binaries; skipped with a
//! note otherwise. `SUDOJUDGE_BENCH_ROUNDS` (default 3) and `SUDOJUDGE_BENCH_SUBMISSIONS`
//! (default 60) change the work.

#[path = "../tests/fixtures/package.rs"]
mod package;
mod support;

use sudojudge_testkit::postgres::PgServer;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sudojudge::store::{Lease, Location, NewSubmission, Queue, Store, StoreNode, SubmissionReads};
use support::{env_or, median};

/// Starts `sudojudge worker --slots 1` as node `name`; waits until it judges.
fn start_worker(config: &Path, url: &str, name: &str, log: &Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(config)
        .args(["worker", "--database", url, "--node", name, "--slots", "1"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("start sudojudge worker");
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    match lines.next() {
        Some(Ok(line)) if line.contains("judging with") => {}
        other => panic!(
            "worker {name} did not start ({other:?}): {}",
            std::fs::read_to_string(log).unwrap_or_default()
        ),
    }
    std::thread::spawn(move || lines.for_each(drop));
    child
}

/// One round: `nodes` workers on a fresh database judge `n` submissions queued at once;
/// returns submissions judged per second.
async fn round(server: &PgServer, dir: &Path, pkg: &Path, nodes: usize, n: usize) -> f64 {
    let url = server.database();
    let store = Store::open(&Location::Postgres(url.clone()), Lease::default())
        .await
        .unwrap();
    let config = dir.join("config.toml");
    let mut workers: Vec<Child> = (0..nodes)
        .map(|i| {
            start_worker(
                &config,
                &url,
                &format!("bench{i}"),
                &dir.join(format!("w{i}.log")),
            )
        })
        .collect();
    let started = Instant::now();
    for i in 0..n {
        store
            .enqueue(NewSubmission {
                problem: "binary-sudoku".into(),
                language: "python".into(),
                source: package::python_solution(pkg, i, true),
                owner: None,
                data_hash: None,
            })
            .await
            .unwrap();
    }
    let Store::Postgres(pg) = &store else {
        unreachable!("opened on PostgreSQL")
    };
    loop {
        let done = pg.count_done().await.unwrap();
        if done >= n as u64 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "{done}/{n} after 10 min"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let rate = n as f64 / started.elapsed().as_secs_f64();
    for w in &mut workers {
        let _ = w.kill();
        let _ = w.wait();
    }
    for i in (0..n as i64).map(|k| k + 1) {
        let got = store.get(i).await.unwrap().unwrap();
        assert_eq!(got.verdict.map(|v| v.as_str()), Some("AC"), "{got:?}");
    }
    rate
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let server = match PgServer::start_durable() {
        Ok(s) => s,
        Err(why) => {
            println!("nodes: skipped, no PostgreSQL cluster: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let pkg = package::small_binary_sudoku(dir.path());
    std::fs::write(
        dir.path().join("config.toml"),
        format!("[problems]\ndir = {:?}\n", dir.path().join("problems")),
    )
    .unwrap();
    let (rounds, n) = (
        env_or("SUDOJUDGE_BENCH_ROUNDS", 3),
        env_or("SUDOJUDGE_BENCH_SUBMISSIONS", 60),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let _ = round(&server, dir.path(), &pkg, 1, 10).await; // warm-up
        let (mut one, mut two) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            one.push(round(&server, dir.path(), &pkg, 1, n).await);
            two.push(round(&server, dir.path(), &pkg, 2, n).await);
        }
        let (one, two) = (median(&mut one), median(&mut two));
        println!(
            "nodes: {n} submissions (binary-sudoku, 3 tests, Python), {rounds} rounds (medians)\n  \
             1 worker node  x 1 slot   {one:7.2} judged/s\n  \
             2 worker nodes x 1 slot   {two:7.2} judged/s\n  \
             ratio 2 nodes / 1 node    {:.2}",
            two / one
        );
    });
}
