//! The fair claim's cost (`cargo bench --bench claim`): the median time of one claim with
//! 10,000 submissions queued, next to the same claim with 100 queued (the baseline, same run,
//! same store), on SQLite and on PostgreSQL (a throwaway cluster the bench starts; skipped
//! with a note when none can start).
//!
//! The queue is made as the ignored unit test of the old claim made it, larger: `OWNERS`
//! contestants' submissions, round-robin, every other one of each owner's made against other
//! package data than the claiming node's (whose claims refuse them, the rule on a shared
//! database). (A claim reads each owner's queue up to its first submission the node accepts:
//! an owner whose whole queue is refused costs a scan of it; docs/scaling.md.) Eight
//! claims stay in flight (eight workers): each claim past the eighth releases the oldest back
//! to the queue, so the queue's length and the owners' loads stay as they are through the
//! run. Only the claim is timed. The PostgreSQL cluster is the tests' (no `fsync`): the
//! figure is the claim's database work, not the disk's flush.
//!
//! Then, on the 10,000 queue, what the rest of a judging costs the database: `mark_running`
//! and the storing of a result of ten tests (`complete`), each timed on claims of their own;
//! docs/scaling.md turns these into how many judging nodes one PostgreSQL serves.
//!
//! And what a `/metrics` scrape reads of that queue on a shared database: the queued
//! submissions by problem and submitted hash (`Gauges::queued_groups`, from the per-owner
//! counts `queue_groups` keeps), next to the grouping of every queued row that it replaced
//! (the baseline, the same database in the same run).
//! `SUDOJUDGE_BENCH_CLAIMS` (default 300) changes the number of claims timed per queue.

mod support;

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudojudge::accounts::{Role, UserName};
use sudojudge::judge::{CompileInfo, JudgeReport, TestResult, Verdict};
use sudojudge::store::{
    AccountStore, Enqueued, Gauges, Lease, NewSubmission, NewUser, NodeData, PgStore, Queue,
    QueueBounds, SqliteStore, Store,
};
use sudojudge_testkit::postgres::PgServer;
use support::env_or;

const OWNERS: usize = 100;
const IN_FLIGHT: usize = 8;
const QUEUES: [usize; 2] = [100, 10_000];

/// The claiming node's data: problem `sudoku` with hash `aa`.
fn data() -> NodeData {
    NodeData::new(BTreeMap::from([("sudoku".to_string(), "aa".to_string())]))
}

/// Fills `store` with `queued` submissions of `OWNERS` owners, half against hash `ff`,
/// 32 at a time (PostgreSQL batches them in its group commit).
async fn fill(store: &Store, queued: usize) {
    let users: Vec<NewUser> = (0..OWNERS)
        .map(|i| NewUser {
            name: UserName::parse(&format!("owner{i}")).unwrap(),
            display_name: String::new(),
            role: Role::Contestant,
            password_hash: "x".into(),
        })
        .collect();
    let owners = Arc::new(store.add_users(&users).await.unwrap());
    let mut tasks = Vec::new();
    for t in 0..32 {
        let (store, owners) = (store.clone(), owners.clone());
        tasks.push(tokio::spawn(async move {
            for i in (t..queued).step_by(32) {
                let new = NewSubmission {
                    problem: "sudoku".into(),
                    language: "c".into(),
                    source: "int main(){}".into(),
                    owner: Some(owners[i % OWNERS]),
                    data_hash: Some(
                        if (i / OWNERS).is_multiple_of(2) {
                            "aa"
                        } else {
                            "ff"
                        }
                        .into(),
                    ),
                };
                let stored = store.enqueue_bounded(new, QueueBounds::global(u64::MAX));
                assert!(matches!(stored.await.unwrap(), Enqueued::Stored(_)));
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

/// Times `claims` claims on `store`, keeping `IN_FLIGHT` in flight; (median, p90) in ms.
async fn time_claims(store: &Store, claims: usize) -> (f64, f64) {
    let mut flight = VecDeque::new();
    let mut times = Vec::with_capacity(claims);
    for _ in 0..claims {
        let t = Instant::now();
        let claimed = store
            .claim("w")
            .await
            .unwrap()
            .expect("a queued submission");
        times.push(t.elapsed());
        flight.push_back((claimed.id, claimed.attempt));
        if flight.len() > IN_FLIGHT {
            let (id, attempt) = flight.pop_front().unwrap();
            store.release(id, attempt).await.unwrap();
        }
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(times[times.len() / 2]), ms(times[times.len() * 9 / 10]))
}

/// A judged report of ten accepted tests.
fn ten_tests() -> JudgeReport {
    let tests = (0..10)
        .map(|i| TestResult {
            name: format!("secret/{i:02}"),
            verdict: Verdict::AC,
            time_ms: 3,
            wall_ms: 4,
            memory_kib: 1024,
            exit_code: Some(0),
            signal: None,
            message: None,
            stderr_tail: None,
            team_message: None,
            score: None,
        })
        .collect();
    let compile = CompileInfo {
        ok: true,
        log: String::new(),
        cached: false,
    };
    JudgeReport::from_tests("sudoku", "c", compile, tests, false)
}

/// `mark_running` and `complete` (a result of ten tests) on `n` fresh claims; their (median
/// ms) each.
async fn time_results(store: &Store, n: usize) -> (f64, f64) {
    let report = ten_tests();
    let (mut running, mut results) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let c = store
            .claim("w")
            .await
            .unwrap()
            .expect("a queued submission");
        let t = Instant::now();
        store.mark_running(c.id, c.attempt).await.unwrap();
        running.push(t.elapsed());
        let t = Instant::now();
        assert!(store.complete(c.id, c.attempt, &report).await.unwrap());
        results.push(t.elapsed());
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1e3
    };
    (median(&mut running), median(&mut results))
}

/// The grouping of every queued row that `queue_groups` replaced (issue 28's scrape).
const OLD_GROUPS: &str = "SELECT problem, submitted_data_hash, COUNT(*) FROM submissions
     WHERE status = 'queued' GROUP BY problem, submitted_data_hash";

/// A second connection to the store's database, for the baseline query.
enum Raw {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl Raw {
    async fn old_groups(&self) -> usize {
        match self {
            Raw::Sqlite(p) => sqlx::query(OLD_GROUPS).fetch_all(p).await.unwrap().len(),
            Raw::Postgres(p) => sqlx::query(OLD_GROUPS).fetch_all(p).await.unwrap().len(),
        }
    }
}

/// `queued_groups` against the old grouping, alternating, `n` each: (median ms) each.
async fn time_groups(store: &Store, raw: &Raw, n: usize) -> (f64, f64) {
    let (mut new, mut old) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let t = Instant::now();
        let groups = store.queued_groups().await.unwrap();
        new.push(t.elapsed());
        let t = Instant::now();
        let rows = raw.old_groups().await;
        old.push(t.elapsed());
        assert_eq!(groups.len(), rows, "the same groups");
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1e3
    };
    (median(&mut new), median(&mut old))
}

/// One backend: a fresh store per queue length from `open`, with the baseline's connection
/// to the same database.
async fn bench<F, Fut>(label: &str, claims: usize, open: F)
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = (Store, Raw)>,
{
    let mut medians = Vec::new();
    for queued in QUEUES {
        let (store, raw) = open(queued).await;
        fill(&store, queued).await;
        let (median, p90) = time_claims(&store, claims).await;
        println!(
            "claim on {label}: {queued:>6} queued ({OWNERS} owners, half against other data): \
             median {median:6.3} ms  p90 {p90:6.3} ms"
        );
        medians.push(median);
        if queued == QUEUES[1] {
            let (groups, old) = time_groups(&store, &raw, claims).await;
            println!(
                "claim on {label}: {queued:>6} queued: queued groups (the /metrics read) median \
                 {groups:6.3} ms; grouping every queued row (baseline) {old:6.3} ms: {:.3}x",
                groups / old
            );
            let (running, result) = time_results(&store, claims).await;
            println!(
                "claim on {label}: {queued:>6} queued: mark_running median {running:6.3} ms, \
                 complete (10 tests) median {result:6.3} ms"
            );
        }
    }
    println!(
        "claim on {label}: ratio {} queued / {} queued (baseline): {:.2}",
        QUEUES[1],
        QUEUES[0],
        medians[1] / medians[0]
    );
}

async fn sqlite(dir: &Path, queued: usize) -> (Store, Raw) {
    let path = dir.join(format!("claim-{queued}.db"));
    let store = Store::Sqlite(SqliteStore::open(&path).await.unwrap().with_data(data()));
    let url = format!("sqlite:{}", path.display());
    (
        store,
        Raw::Sqlite(sqlx::SqlitePool::connect(&url).await.unwrap()),
    )
}

/// A fresh database of the bench's cluster.
async fn postgres(server: &PgServer) -> (Store, Raw) {
    let url = server.database();
    let store = PgStore::open(&url, Lease::default()).await.unwrap();
    let raw = Raw::Postgres(sqlx::PgPool::connect(&url).await.unwrap());
    (Store::Postgres(store.with_data(data())), raw)
}

fn main() {
    // `cargo bench` passes `--bench`; with `cargo test --benches` the bench is only built.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let claims = env_or("SUDOJUDGE_BENCH_CLAIMS", 300);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        bench("SQLite", claims, |queued| sqlite(dir.path(), queued)).await;
        match PgServer::start() {
            Ok(server) => bench("PostgreSQL", claims, |_| postgres(&server)).await,
            Err(why) => println!("claim on PostgreSQL: skipped, no cluster: {why}"),
        }
    });
}
