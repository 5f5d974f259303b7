//! Workers against a real SQLite store and a fake executor (no sandbox).

use std::path::Path;

use super::*;
use crate::checkers::CheckOutcome;
use crate::judge::{CacheUse, Compilation, ExecutorError, JudgeSettings};
use crate::problem::{OutputValidator, TestCase};
use crate::sandbox::{Limits, RunReport, RunStatus};
use crate::store::{NewSubmission, SqliteStore, Status, Store, SubmissionReads};

/// Echoes its input after `delay` (the source "wa" prints a wrong answer instead); the
/// source "bad" does not compile. Its first
/// `failures` runs fail on the judge's side (like a box that cannot be set up). Every source
/// it compiles is added to `compiled`, so a test sees the order of judging.
struct Echo {
    delay: Duration,
    failures: Arc<std::sync::atomic::AtomicU32>,
    compiled: Compiled,
}

/// The sources the workers compiled, in order.
type Compiled = Arc<std::sync::Mutex<Vec<String>>>;

impl Executor for Echo {
    type Program = Vec<u8>;

    fn compile(&self, _: &str, source: &[u8]) -> Result<Compilation<Vec<u8>>, ExecutorError> {
        self.compiled
            .lock()
            .map_err(|e| ExecutorError(e.to_string()))?
            .push(String::from_utf8_lossy(source).into_owned());
        Ok(if source == b"bad" {
            Compilation::Failed {
                log: "no".into(),
                cache: CacheUse::Off,
            }
        } else {
            Compilation::Ready {
                program: source.to_vec(),
                log: String::new(),
                cache: CacheUse::Off,
            }
        })
    }

    fn run(&self, program: &Vec<u8>, stdin: &Path, _: Limits) -> Result<RunReport, ExecutorError> {
        std::thread::sleep(self.delay);
        let failing = self.failures.fetch_update(
            std::sync::atomic::Ordering::SeqCst,
            std::sync::atomic::Ordering::SeqCst,
            |n| n.checked_sub(1),
        );
        if failing.is_ok() {
            return Err(ExecutorError("mount tmpfs on /box: EMFILE".into()));
        }
        Ok(RunReport {
            status: RunStatus::Ok,
            exit_code: Some(0),
            signal: None,
            time_ms: 1,
            wall_ms: 1,
            memory_kib: 1,
            stdout: if program == b"wa" {
                b"wrong".to_vec()
            } else {
                std::fs::read(stdin).map_err(|e| ExecutorError(e.to_string()))?
            },
            stderr: Vec::new(),
            degraded: false,
        })
    }
}

fn same(_: &OutputValidator, _: &[String], _: &[u8], out: &[u8], ans: &[u8]) -> CheckOutcome {
    if out == ans {
        CheckOutcome::Accepted
    } else {
        CheckOutcome::WrongAnswer("differs".into())
    }
}

fn problems(dir: &Path) -> Problems {
    let tests = (0..3)
        .map(|i| {
            let input = dir.join(format!("{i}.in"));
            std::fs::write(&input, format!("{i}")).unwrap();
            TestCase {
                name: format!("secret/{i}"),
                input: input.clone(),
                answer: input,
                validator_args: Vec::new(),
            }
        })
        .collect();
    let p = crate::problem::test_problem(dir, tests);
    [(p.id.clone(), p)].into_iter().collect()
}

async fn setup(
    dir: &Path,
    delay: Duration,
    workers: usize,
) -> (
    Arc<Store>,
    WorkerContext<Store>,
    watch::Sender<bool>,
    Vec<JoinHandle<()>>,
) {
    setup_failing(dir, delay, workers, 0, Compiled::default()).await
}

async fn setup_failing(
    dir: &Path,
    delay: Duration,
    workers: usize,
    failures: u32,
    compiled: Compiled,
) -> (
    Arc<Store>,
    WorkerContext<Store>,
    watch::Sender<bool>,
    Vec<JoinHandle<()>>,
) {
    let store = Arc::new(Store::Sqlite(
        SqliteStore::open(&dir.join("db")).await.unwrap(),
    ));
    let (stop, shutdown) = watch::channel(false);
    let ctx = WorkerContext {
        queue: Arc::clone(&store),
        problems: Arc::new(problems(dir)),
        wake: Arc::new(Notify::new()),
        shutdown,
        max_attempts: 3,
        modes: Arc::new(crate::worker::JudgeModes::new(BTreeMap::from([(
            "icpc-contest".to_string(),
            JudgeMode::StopAtFirstFailure,
        )]))),
        metrics: crate::metrics::Metrics::new("test"),
    };
    let failures = Arc::new(std::sync::atomic::AtomicU32::new(failures));
    let settings = JudgeSettings {
        wall_factor: 2,
        max_processes: 4,
    };
    let handles = (0..workers)
        .map(|i| {
            let echo = Echo {
                delay,
                failures: Arc::clone(&failures),
                compiled: Arc::clone(&compiled),
            };
            let judge = Judge::new(Arc::new(echo), settings.clone()).with_checker(same);
            spawn(format!("w{i}"), judge, ctx.clone())
        })
        .collect();
    (store, ctx, stop, handles)
}

async fn wait_until(store: &Store, id: i64, status: Status) {
    for _ in 0..500 {
        if store.get(id).await.unwrap().unwrap().status == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("submission {id} never reached {status:?}");
}

fn new(problem: &str, source: &str) -> NewSubmission {
    NewSubmission {
        data_hash: None,
        problem: problem.into(),
        language: "c".into(),
        source: source.into(),
        owner: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_judge_everything_queued_and_wake_on_notify() {
    let dir = tempfile::tempdir().unwrap();
    let (store, ctx, stop, handles) = setup(dir.path(), Duration::ZERO, 2).await;
    // Let the workers go idle first, so only the notification can wake them quickly.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut ids = Vec::new();
    for i in 0..10 {
        let (p, s) = match i {
            0 => ("p", "bad"),
            1 => ("gone", "x"),
            _ => ("p", "x"),
        };
        ids.push(store.enqueue(new(p, s)).await.unwrap());
        ctx.wake.notify_one();
    }
    for &id in &ids {
        wait_until(&store, id, Status::Done).await;
    }
    let verdict = |s: crate::store::Submission| s.verdict.unwrap();
    assert_eq!(
        verdict(store.get(ids[0]).await.unwrap().unwrap()),
        Verdict::CE
    );
    let gone = store.get(ids[1]).await.unwrap().unwrap();
    assert_eq!(gone.verdict, Some(Verdict::SE));
    assert!(gone.message.unwrap().contains("gone"));
    for &id in &ids[2..] {
        let s = store.get(id).await.unwrap().unwrap();
        assert_eq!(
            (s.verdict, s.score, s.tests.len()),
            (Some(Verdict::AC), Some(100), 3)
        );
    }
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_requeues_the_submission_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let (store, ctx, stop, handles) = setup(dir.path(), Duration::from_millis(300), 1).await;
    let id = store.enqueue(new("p", "x")).await.unwrap();
    ctx.wake.notify_one();
    wait_until(&store, id, Status::Running).await;
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
    let s = store.get(id).await.unwrap().unwrap();
    assert_eq!(s.status, Status::Queued);
    assert!(s.tests.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_judge_failing_every_time_ends_as_se_with_the_cause_after_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let (store, ctx, stop, handles) =
        setup_failing(dir.path(), Duration::ZERO, 1, u32::MAX, Compiled::default()).await;
    let id = store.enqueue(new("p", "x")).await.unwrap();
    ctx.wake.notify_one();
    wait_until(&store, id, Status::Done).await;
    let s = store.get(id).await.unwrap().unwrap();
    assert_eq!(s.verdict, Some(Verdict::SE));
    let message = s.message.unwrap();
    assert!(message.contains("3 times"), "{message}");
    assert!(message.contains("EMFILE"), "{message}");
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transient_judge_failure_is_retried_and_the_real_verdict_stored() {
    let dir = tempfile::tempdir().unwrap();
    // The first test of the first attempt fails on the judge's side, then all is well.
    let (store, ctx, stop, handles) =
        setup_failing(dir.path(), Duration::ZERO, 1, 1, Compiled::default()).await;
    let id = store.enqueue(new("p", "x")).await.unwrap();
    ctx.wake.notify_one();
    wait_until(&store, id, Status::Done).await;
    let s = store.get(id).await.unwrap().unwrap();
    assert_eq!(
        (s.verdict, s.score, s.tests.len(), s.message),
        (Some(Verdict::AC), Some(100), 3, None)
    );
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_owners_first_submission_overtakes_a_flood_of_fifty() {
    use crate::store::{AccountStore, NewUser};
    let dir = tempfile::tempdir().unwrap();
    let compiled = Compiled::default();
    // 3 tests of 40 ms: 120 ms a submission, 25 rounds of two workers for the flood.
    let (store, ctx, stop, handles) = setup_failing(
        dir.path(),
        Duration::from_millis(40),
        2,
        0,
        Arc::clone(&compiled),
    )
    .await;
    let user = |name: &str| NewUser {
        name: crate::accounts::UserName::parse(name).unwrap(),
        display_name: String::new(),
        role: crate::accounts::Role::Contestant,
        password_hash: "$argon2id$stub".into(),
    };
    let owners = store.add_users(&[user("ann"), user("bob")]).await.unwrap();
    let submit = |owner: i64, source: String| NewSubmission {
        data_hash: None,
        problem: "p".into(),
        language: "c".into(),
        source,
        owner: Some(owner),
    };
    let mut flood = Vec::new();
    for i in 0..50 {
        flood.push(
            store
                .enqueue(submit(owners[0], format!("ann{i}")))
                .await
                .unwrap(),
        );
    }
    ctx.wake.notify_waiters();
    // Both workers busy with ann's first two before bob submits.
    wait_until(&store, flood[1], Status::Running).await;
    wait_until(&store, flood[0], Status::Running).await;
    let bob = store
        .enqueue(submit(owners[1], "bob0".into()))
        .await
        .unwrap();
    ctx.wake.notify_one();
    for &id in flood.iter().chain([&bob]) {
        for _ in 0..6000 {
            if store.get(id).await.unwrap().unwrap().status == Status::Done {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
    let order = compiled.lock().unwrap().clone();
    // First come, first served would judge bob's 51st; fair, it goes when a worker frees.
    let at = order.iter().position(|s| s == "bob0");
    assert!(
        at.is_some_and(|at| at <= 3),
        "bob judged at {at:?}: {order:?}"
    );
    // Everything judged exactly once (two workers may compile their claims in either order).
    let mut expected: Vec<String> = (0..50).map(|i| format!("ann{i}")).collect();
    expected.push("bob0".into());
    expected.sort();
    let mut judged = order.clone();
    judged.sort();
    assert_eq!(judged, expected, "{order:?}");
    for &id in flood.iter().chain([&bob]) {
        let s = store.get(id).await.unwrap().unwrap();
        assert_eq!(
            (s.status, s.verdict, s.tests.len()),
            (Status::Done, Some(Verdict::AC), 3),
            "{id}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_icpc_contest_submission_stops_at_its_first_failing_test() {
    use crate::store::{ContestEnqueue, ContestStore, NewContestSubmission};
    let dir = tempfile::tempdir().unwrap();
    let (store, ctx, stop, handles) = setup(dir.path(), Duration::ZERO, 1).await;
    let to = |contest: Option<&str>| NewContestSubmission {
        submission: new("p", "wa"),
        contest: contest.unwrap_or("ioi-contest").to_string(),
        label: "A".into(),
        at: jiff::Timestamp::UNIX_EPOCH,
        rate: None,
        max_queued: 100,
        max_per_user: None,
        register: false,
    };
    let mut ids = Vec::new();
    for contest in [Some("icpc-contest"), None] {
        match store.enqueue_contest(to(contest)).await.unwrap() {
            ContestEnqueue::Stored(id) => ids.push(id),
            other => panic!("{other:?}"),
        }
    }
    ids.push(store.enqueue(new("p", "wa")).await.unwrap());
    ctx.wake.notify_one();
    let mut tests_run = Vec::new();
    for &id in &ids {
        wait_until(&store, id, Status::Done).await;
        let s = store.get(id).await.unwrap().unwrap();
        assert_eq!((s.verdict, s.score), (Some(Verdict::WA), Some(0)));
        tests_run.push(s.tests.len());
    }
    // icpc: one test (the first fails); a contest of another format, and no contest: all 3.
    assert_eq!(tests_run, [1, 3, 3]);
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_record_the_data_they_were_judged_with_and_count_in_the_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let (store, ctx, stop, handles) = setup(dir.path(), Duration::ZERO, 1).await;
    let local = ctx.problems.get("p").unwrap().data_hash.to_hex();
    let other = "f".repeat(64);
    let mut ids = Vec::new();
    for submitted in [Some(local.clone()), Some(other.clone()), None] {
        let sub = NewSubmission {
            data_hash: submitted,
            ..new("p", "x")
        };
        ids.push(store.enqueue(sub).await.unwrap());
        ctx.wake.notify_one();
    }
    for &id in &ids {
        wait_until(&store, id, Status::Done).await;
    }
    for (id, submitted) in ids.iter().zip([Some(&local), Some(&other), None]) {
        let s = store.get(*id).await.unwrap().unwrap();
        assert_eq!(s.submitted_data_hash.as_ref(), submitted);
        // Judged with this node's data, whatever the submission was made against.
        assert_eq!(s.judged_data_hash.as_ref(), Some(&local));
    }
    let text = ctx.metrics.render();
    assert!(
        text.contains("sudojudge_submissions_judged_total{problem=\"p\",verdict=\"AC\"} 3"),
        "{text}"
    );
    assert!(ctx.metrics.heartbeat_age().is_some());
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
}

/// A rejudging's runs wait for the submissions' queue: a submission queued after the
/// rejudging started is judged first, then the runs, whose results stay aside.
mod aside;
