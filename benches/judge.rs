//! Judge benchmarks (`cargo bench --bench judge`), medians over rounds measured in one run:
//!
//! 1. accept: submissions stored per second by `POST /api/submissions` under 32 concurrent
//!    clients, with p50/p99 latency, on SQLite and then on PostgreSQL (a throwaway cluster
//!    started by the bench, `initdb` + `postgres`; skipped with a note when none can start);
//!    baseline: `GET /api/problems` (HTTP alone, no database) under the same load.
//!    Then, on the same daemon and database: a Prometheus scrape (`GET /metrics`) next to
//!    `GET /api/health`, one client, alternating, median and p99 of each.
//! 2. overhead: what the judge adds per test over the sandboxed runs themselves (claim,
//!    scheduling, checker, storage), judging an accepted C solution through the real worker
//!    and sandbox; baseline: the sandboxed run's own time per test.
//!
//! `SUDOJUDGE_BENCH_ROUNDS` (default 5 and 15) changes the number of rounds. Part 2 needs
//! root and a usable sandbox; it is skipped with a note otherwise.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudojudge::config::Config;
use sudojudge::judge::{Judge, JudgeReport, JudgeSettings, SandboxExecutor, Timed};
use sudojudge::server::{router, AppState};
use sudojudge::store::rejudgings::ClaimedRun;
use sudojudge::store::{
    Claimed, Enqueued, Lease, Location, NewSubmission, Queue, QueueBounds, RejudgeOutcome,
    RejudgeQueue, SqliteStore, StaleOutcome, Store, StoreError, StoreNode, SubmissionReads,
};

mod support;

use sudojudge_testkit::postgres::PgServer;

use sudojudge::worker::{self, Problems, WorkerContext};
use support::{median, rounds};
use tokio::sync::{watch, Notify};

const CLIENTS: usize = 32;
const POSTS_PER_CLIENT: usize = 100;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn load_problems(config: &Config) -> Problems {
    sudojudge::problem::load_all(&config.problems.dir)
        .expect("problems load")
        .into_iter()
        .map(|p| (p.id.clone(), p))
        .collect()
}

/// One round of 32 clients x POSTS_PER_CLIENT requests; returns (requests/s, latencies).
async fn load_round(base: &str, post: bool) -> (f64, Vec<Duration>) {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(CLIENTS)
        .build()
        .unwrap();
    let body = serde_json::json!({
        "problem": "binary-sudoku",
        "language": "c",
        "source": "#include <stdio.h>\nint main(void){puts(\"0\");return 0;}\n",
    });
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..CLIENTS {
        let (client, body) = (client.clone(), body.clone());
        let url = if post {
            format!("{base}/api/submissions")
        } else {
            format!("{base}/api/problems")
        };
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(POSTS_PER_CLIENT);
            for _ in 0..POSTS_PER_CLIENT {
                let t = Instant::now();
                let r = if post {
                    client.post(&url).json(&body).send().await
                } else {
                    client.get(&url).send().await
                };
                let r = r.expect("request");
                assert!(r.status().is_success(), "status {}", r.status());
                let _ = r.bytes().await.expect("body");
                latencies.push(t.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let rate = all.len() as f64 / started.elapsed().as_secs_f64();
    all.sort();
    (rate, all)
}

/// The accept benchmark on `store` (`label` names it in the output).
async fn bench_accept(config: &Config, label: &str, store: Store) {
    let state = AppState::new(
        config,
        store,
        Arc::new(load_problems(config)),
        0,
        serde_json::Value::Null,
        None,
        Arc::new(Notify::new()),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router(state)).await });

    let _ = load_round(&base, true).await; // warm-up
    let n = rounds(5);
    let (mut rates, mut p50s, mut p99s, mut base_rates, mut base_p99s) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let (rate, lat) = load_round(&base, true).await;
        rates.push(rate);
        p50s.push(percentile(&lat, 0.50).as_secs_f64() * 1e3);
        p99s.push(percentile(&lat, 0.99).as_secs_f64() * 1e3);
        let (rate, lat) = load_round(&base, false).await;
        base_rates.push(rate);
        base_p99s.push(percentile(&lat, 0.99).as_secs_f64() * 1e3);
    }
    let (rate, base_rate) = (median(&mut rates), median(&mut base_rates));
    println!(
        "accept on {label}: {CLIENTS} clients x {POSTS_PER_CLIENT} POSTs, {n} rounds (medians)\n  \
         POST /api/submissions  {rate:8.0} stored/s   p50 {:6.2} ms   p99 {:6.2} ms\n  \
         GET  /api/problems     {base_rate:8.0} req/s      p99 {:6.2} ms   (baseline: HTTP, no database)\n  \
         ratio stored/baseline  {:.2}",
        median(&mut p50s),
        median(&mut p99s),
        median(&mut base_p99s),
        rate / base_rate
    );
    bench_scrape(&base, label).await;
}

/// `GET /metrics` next to `GET /api/health` on the daemon at `base`, one request at a time,
/// alternating so both see the same load: what a Prometheus scrape costs the judge.
async fn bench_scrape(base: &str, label: &str) {
    const SCRAPES: usize = 300;
    let client = reqwest::Client::new();
    let time = |path: &'static str| {
        let (client, url) = (client.clone(), format!("{base}{path}"));
        async move {
            let t = Instant::now();
            let r = client.get(&url).send().await.expect("request");
            assert!(r.status().is_success(), "{path}: status {}", r.status());
            let _ = r.bytes().await.expect("body");
            t.elapsed()
        }
    };
    let (mut metrics, mut health) = (Vec::new(), Vec::new());
    for _ in 0..SCRAPES {
        metrics.push(time("/metrics").await);
        health.push(time("/api/health").await);
    }
    metrics.sort();
    health.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (m50, h50) = (ms(percentile(&metrics, 0.5)), ms(percentile(&health, 0.5)));
    println!(
        "scrape on {label}: {SCRAPES} each, one client, alternating\n  \
         GET /metrics     median {m50:6.2} ms   p99 {:6.2} ms\n  \
         GET /api/health  median {h50:6.2} ms   p99 {:6.2} ms   (baseline)\n  \
         ratio metrics/health  {:.2}",
        ms(percentile(&metrics, 0.99)),
        ms(percentile(&health, 0.99)),
        m50 / h50
    );
}

/// The SQLite queue, signalling each completion.
struct Signalling {
    inner: Store,
    done: Notify,
}

impl Queue for Signalling {
    async fn enqueue(&self, new: NewSubmission) -> Result<i64, StoreError> {
        self.inner.enqueue(new).await
    }
    async fn enqueue_bounded(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> Result<Enqueued, StoreError> {
        self.inner.enqueue_bounded(new, bounds).await
    }
    async fn cancel_queued(&self, owner: i64) -> Result<u64, StoreError> {
        self.inner.cancel_queued(owner).await
    }
    async fn claim(&self, worker: &str) -> Result<Option<Claimed>, StoreError> {
        self.inner.claim(worker).await
    }
    async fn mark_running(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        self.inner.mark_running(id, attempt).await
    }
    async fn complete(
        &self,
        id: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        let r = self.inner.complete(id, attempt, report).await;
        self.done.notify_one();
        r
    }
    async fn release(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        self.inner.release(id, attempt).await
    }
    async fn requeue_stale(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        self.inner.requeue_stale(max_attempts).await
    }
    async fn rejudge(&self, id: i64) -> Result<RejudgeOutcome, StoreError> {
        self.inner.rejudge(id).await
    }
    async fn depth(&self) -> Result<u64, StoreError> {
        self.inner.depth().await
    }
}

/// The rejudging runs' queue, as the store's (a worker asks it when no submission waits).
impl RejudgeQueue for Signalling {
    async fn claim_run(&self, worker: &str) -> Result<Option<ClaimedRun>, StoreError> {
        self.inner.claim_run(worker).await
    }
    async fn complete_run(
        &self,
        run: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        self.inner.complete_run(run, attempt, report).await
    }
    async fn release_run(&self, run: i64, attempt: i64) -> Result<(), StoreError> {
        self.inner.release_run(run, attempt).await
    }
    async fn renew_runs(&self) -> Result<u64, StoreError> {
        self.inner.renew_runs().await
    }
}

/// A copy of `binary-sudoku` whose tests are its real tests repeated up to `count`, so the
/// fixed cost per submission and the cost per test can be told apart.
fn repeated_problem(config: &Config, dir: &Path, count: usize) -> sudojudge::problem::Problem {
    let src = config.problems.dir.join("binary-sudoku");
    let dst = dir.join(format!("n{count}")).join("binary-sudoku");
    std::fs::create_dir_all(dst.join("data/secret")).unwrap();
    for f in ["problem.toml", "statement.md"] {
        std::fs::copy(src.join(f), dst.join(f)).unwrap();
    }
    let real = sudojudge::problem::load(&src).unwrap().tests;
    for i in 0..count {
        let t = &real[i % real.len()];
        std::fs::copy(&t.input, dst.join(format!("data/secret/{i:03}.in"))).unwrap();
        std::fs::copy(&t.answer, dst.join(format!("data/secret/{i:03}.ans"))).unwrap();
    }
    sudojudge::problem::load(&dst).unwrap()
}

/// Judges `rounds` submissions of the accepted C solution one at a time through the worker;
/// returns the medians of (judge overhead per submission, sandboxed run time per test) in ms.
async fn overhead_rounds(
    config: &Config,
    executor: &Arc<Timed<SandboxExecutor>>,
    problem: sudojudge::problem::Problem,
    rounds: usize,
) -> (f64, f64) {
    let source = std::fs::read_to_string("tests/fixtures/binary-sudoku/ac.c").unwrap();
    let tests = problem.tests.len();
    let dir = tempfile::tempdir().unwrap();
    let queue = Arc::new(Signalling {
        inner: Store::Sqlite(
            SqliteStore::open(&dir.path().join("bench.db"))
                .await
                .unwrap(),
        ),
        done: Notify::new(),
    });
    let (stop, shutdown) = watch::channel(false);
    let problems: Problems = [(problem.id.clone(), problem)].into_iter().collect();
    let ctx = WorkerContext {
        queue: Arc::clone(&queue),
        problems: Arc::new(problems),
        wake: Arc::new(Notify::new()),
        shutdown,
        max_attempts: config.queue.max_attempts,
        modes: Default::default(),
        metrics: sudojudge::metrics::Metrics::new("bench"),
    };
    let judge = Judge::new(Arc::clone(executor), JudgeSettings::from_config(config));
    let handle = worker::spawn("bench".into(), judge, ctx.clone());
    let (mut overheads, mut run_per_test) = (Vec::new(), Vec::new());
    for round in 0..=rounds {
        let timed = &**executor;
        let (c0, r0, k0) = (
            timed.compile_ns.load(Ordering::Relaxed),
            timed.run_ns.load(Ordering::Relaxed),
            timed.runs.load(Ordering::Relaxed),
        );
        let t = Instant::now();
        let id = queue
            .enqueue(NewSubmission {
                data_hash: None,
                problem: "binary-sudoku".into(),
                language: "c".into(),
                source: source.clone(),
                owner: None,
            })
            .await
            .unwrap();
        ctx.wake.notify_one();
        queue.done.notified().await;
        let total = t.elapsed().as_nanos() as f64;
        let compile = (timed.compile_ns.load(Ordering::Relaxed) - c0) as f64;
        let runs = (timed.run_ns.load(Ordering::Relaxed) - r0) as f64;
        let count = (timed.runs.load(Ordering::Relaxed) - k0) as usize;
        let got = queue.inner.get(id).await.unwrap().unwrap();
        assert_eq!(got.verdict.map(|v| v.as_str()), Some("AC"), "{got:?}");
        assert_eq!(count, tests);
        if round == 0 {
            continue; // warm-up
        }
        overheads.push((total - compile - runs) / 1e6);
        run_per_test.push(runs / count as f64 / 1e6);
    }
    let _ = stop.send(true);
    let _ = handle.await;
    (median(&mut overheads), median(&mut run_per_test))
}

async fn bench_overhead(config: &Config) {
    if std::env::var_os("SUDOJUDGE_HELPER").is_none() {
        std::env::set_var("SUDOJUDGE_HELPER", env!("CARGO_BIN_EXE_sudojudge"));
    }
    let executor = match SandboxExecutor::new(config, 0) {
        Ok(e) => e,
        Err(e) => {
            println!("overhead: skipped, the sandbox is unusable here: {e}");
            return;
        }
    };
    let timed = Arc::new(Timed::new(executor));
    let dir = tempfile::tempdir().unwrap();
    let n = rounds(15);
    const MANY: usize = 20;
    let (one, run_one) =
        overhead_rounds(config, &timed, repeated_problem(config, dir.path(), 1), n).await;
    let (many, run_many) = overhead_rounds(
        config,
        &timed,
        repeated_problem(config, dir.path(), MANY),
        n,
    )
    .await;
    let marginal = (many - one) / (MANY - 1) as f64;
    println!(
        "overhead: binary-sudoku, accepted C, {n} rounds (medians, ms), compile excluded\n  \
         1 test:   judge overhead per submission {one:7.3}   sandboxed run per test {run_one:7.3}\n  \
         {MANY} tests:  judge overhead per submission {many:7.3}   sandboxed run per test {run_many:7.3}\n  \
         overhead per test at {MANY} tests  {:7.3} ms   (ratio to the run: {:.3})\n  \
         marginal overhead per extra test  {marginal:7.3} ms   (ratio to the run: {:.3})",
        many / MANY as f64,
        many / MANY as f64 / run_many,
        marginal / run_many
    );
}

fn main() {
    // `cargo bench` passes `--bench`; with `cargo test --benches` the bench is only built.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let mut config = Config::embedded().expect("embedded config");
    // The accept rounds store 3,200 submissions each and nothing judges them: the queue's cap
    // (`[server] max_queued`, 1,000 by default, a 503 past it) would end the first round.
    config.server.max_queued = u64::MAX;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let sqlite = Location::Sqlite(dir.path().join("bench.db"));
        let store = Store::open(&sqlite, Lease::default()).await.unwrap();
        bench_accept(&config, "SQLite", store).await;
        // The same load on PostgreSQL, a throwaway cluster of the bench's own with its durable
        // defaults: every commit is flushed to disk (SQLite's WAL at synchronous = NORMAL
        // flushes at checkpoints only, so the comparison favours SQLite).
        match PgServer::start_durable() {
            Ok(server) => {
                let postgres = Location::Postgres(server.database());
                let store = Store::open(&postgres, Lease::default()).await.unwrap();
                bench_accept(&config, "PostgreSQL", store).await;
            }
            Err(why) => println!("accept on PostgreSQL: skipped, no cluster: {why}"),
        }
        bench_overhead(&config).await;
    });
}
