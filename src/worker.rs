//! Takes queued submissions and judges them.
//!
//! Each worker owns one judge (one sandbox slot), claims the oldest queued submission, compiles
//! it, runs its tests and stores the report. Idle workers sleep on a [`Notify`] that the server
//! pokes on every new submission (with a slow poll as a safety net). On shutdown a worker stops
//! taking work; a submission in flight is put back in the queue between two tests.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::judge::{CompileInfo, Compiled, Executor, Interrupted, Judge, JudgeReport, Verdict};
use crate::problem::Problem;
use crate::store::{Claimed, Queue};

/// Loaded problems by id.
pub type Problems = BTreeMap<String, Problem>;

/// How long an idle worker sleeps before looking at the queue without being woken.
const IDLE_POLL: Duration = Duration::from_secs(5);
/// Pause after a database error before trying again.
const ERROR_PAUSE: Duration = Duration::from_millis(500);

/// What every worker shares.
pub struct WorkerContext<Q> {
    /// The durable queue.
    pub queue: Arc<Q>,
    /// The problems, by id.
    pub problems: Arc<Problems>,
    /// Poked when a submission is queued.
    pub wake: Arc<Notify>,
    /// Turns true when the daemon is shutting down.
    pub shutdown: watch::Receiver<bool>,
    /// Claims of one submission the judge fails on before it is stored as `SE`.
    pub max_attempts: u32,
}

impl<Q> Clone for WorkerContext<Q> {
    fn clone(&self) -> Self {
        WorkerContext {
            queue: Arc::clone(&self.queue),
            problems: Arc::clone(&self.problems),
            wake: Arc::clone(&self.wake),
            shutdown: self.shutdown.clone(),
            max_attempts: self.max_attempts,
        }
    }
}

/// Starts one worker on its own judge; it returns when shutdown is signalled.
pub fn spawn<Q: Queue, E: Executor>(
    name: String,
    judge: Judge<E>,
    ctx: WorkerContext<Q>,
) -> JoinHandle<()> {
    tokio::spawn(async move { work(name, judge, ctx).await })
}

async fn work<Q: Queue, E: Executor>(name: String, judge: Judge<E>, mut ctx: WorkerContext<Q>) {
    tracing::debug!(worker = %name, "worker started");
    loop {
        if *ctx.shutdown.borrow() {
            break;
        }
        let wake = Arc::clone(&ctx.wake);
        let notified = wake.notified();
        tokio::pin!(notified);
        // Registered before looking at the queue, so a submission queued in between still
        // wakes this worker.
        notified.as_mut().enable();
        match ctx.queue.claim(&name).await {
            Ok(Some(claimed)) => process(&name, &judge, &ctx, claimed).await,
            Ok(None) => {
                tokio::select! {
                    _ = &mut notified => {}
                    _ = ctx.shutdown.changed() => {}
                    _ = tokio::time::sleep(IDLE_POLL) => {}
                }
            }
            Err(e) => {
                tracing::error!(worker = %name, error = %e, "cannot claim from the queue");
                tokio::time::sleep(ERROR_PAUSE).await;
            }
        }
    }
    tracing::debug!(worker = %name, "worker stopped");
}

async fn process<Q: Queue, E: Executor>(
    name: &str,
    judge: &Judge<E>,
    ctx: &WorkerContext<Q>,
    claimed: Claimed,
) {
    let started = Instant::now();
    let Claimed {
        id,
        attempt,
        problem,
        language,
        source,
    } = claimed;
    let report = match ctx.problems.get(&problem) {
        None => JudgeReport::without_tests(
            &problem,
            &language,
            Verdict::SE,
            CompileInfo {
                ok: false,
                log: String::new(),
            },
            Some(format!("problem {problem:?} is not loaded on this judge")),
        ),
        Some(p) => match judge.compile(p, &language, source.into_bytes()).await {
            Compiled::Done(report) => report,
            Compiled::Ready { program, compile } => {
                if let Err(e) = ctx.queue.mark_running(id, attempt).await {
                    tracing::warn!(worker = %name, id, error = %e, "cannot mark running");
                }
                let shutdown = ctx.shutdown.clone();
                match judge
                    .run_tests(p, &language, program, compile, move || *shutdown.borrow())
                    .await
                {
                    Ok(report) => report,
                    Err(Interrupted) => {
                        match ctx.queue.release(id, attempt).await {
                            Ok(()) => tracing::info!(worker = %name, id, "shutdown: requeued"),
                            Err(e) => {
                                tracing::error!(worker = %name, id, error = %e,
                                    "shutdown: cannot requeue; it will be requeued on start")
                            }
                        }
                        return;
                    }
                }
            }
        },
    };
    let report = match report.judge_failure.clone() {
        None => report,
        Some(cause) if attempt < i64::from(ctx.max_attempts) => {
            tracing::warn!(worker = %name, id, attempt, cause = %cause,
                "the judge failed on this submission; it is queued again");
            if let Err(e) = ctx.queue.release(id, attempt).await {
                tracing::error!(worker = %name, id, error = %e,
                    "cannot requeue; it will be requeued on start");
            }
            // Whatever failed (descriptors, a box set-up) gets a moment to clear.
            tokio::time::sleep(ERROR_PAUSE).await;
            return;
        }
        Some(cause) => gave_up(report, attempt, &cause),
    };
    store_report(name, ctx, id, attempt, &report).await;
    tracing::info!(
        id,
        problem = %report.problem,
        language = %report.language,
        verdict = %report.verdict,
        score = report.score,
        time_ms = report.time_ms,
        took_ms = started.elapsed().as_millis() as u64,
        worker = %name,
        cause = report.message.as_deref(),
        "judged"
    );
}

/// The final report of a submission the judge failed on `attempts` times: `SE`, with the
/// last failure as the cause.
fn gave_up(mut report: JudgeReport, attempts: i64, cause: &str) -> JudgeReport {
    report.verdict = Verdict::SE;
    report.message = Some(format!(
        "the judge failed on this submission {attempts} times; last: {cause}"
    ));
    report
}

async fn store_report<Q: Queue>(
    name: &str,
    ctx: &WorkerContext<Q>,
    id: i64,
    attempt: i64,
    report: &JudgeReport,
) {
    for try_no in 1..=3 {
        match ctx.queue.complete(id, attempt, report).await {
            Ok(true) => return,
            Ok(false) => {
                tracing::warn!(worker = %name, id, attempt, "stale claim: result dropped");
                return;
            }
            Err(e) => {
                tracing::error!(worker = %name, id, try_no, error = %e, "cannot store result");
                tokio::time::sleep(ERROR_PAUSE * try_no).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::checkers::CheckOutcome;
    use crate::judge::{Compilation, ExecutorError, JudgeSettings};
    use crate::problem::{CheckerKind, TestCase};
    use crate::sandbox::{Limits, RunReport, RunStatus};
    use crate::store::{NewSubmission, SqliteStore, Status};

    /// Echoes its input after `delay`; the source "bad" does not compile. Its first
    /// `failures` runs fail on the judge's side (like a box that cannot be set up).
    struct Echo {
        delay: Duration,
        failures: Arc<std::sync::atomic::AtomicU32>,
    }

    impl Executor for Echo {
        type Program = ();

        fn compile(&self, _: &str, source: &[u8]) -> Result<Compilation<()>, ExecutorError> {
            Ok(if source == b"bad" {
                Compilation::Failed { log: "no".into() }
            } else {
                Compilation::Ready {
                    program: (),
                    log: String::new(),
                }
            })
        }

        fn run(&self, _: &(), stdin: &Path, _: Limits) -> Result<RunReport, ExecutorError> {
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
                stdout: std::fs::read(stdin).map_err(|e| ExecutorError(e.to_string()))?,
                stderr: Vec::new(),
                degraded: false,
            })
        }
    }

    fn same(_: CheckerKind, _: &[u8], out: &[u8], ans: &[u8]) -> CheckOutcome {
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
        Arc<SqliteStore>,
        WorkerContext<SqliteStore>,
        watch::Sender<bool>,
        Vec<JoinHandle<()>>,
    ) {
        setup_failing(dir, delay, workers, 0).await
    }

    async fn setup_failing(
        dir: &Path,
        delay: Duration,
        workers: usize,
        failures: u32,
    ) -> (
        Arc<SqliteStore>,
        WorkerContext<SqliteStore>,
        watch::Sender<bool>,
        Vec<JoinHandle<()>>,
    ) {
        let store = Arc::new(SqliteStore::open(&dir.join("db")).await.unwrap());
        let (stop, shutdown) = watch::channel(false);
        let ctx = WorkerContext {
            queue: Arc::clone(&store),
            problems: Arc::new(problems(dir)),
            wake: Arc::new(Notify::new()),
            shutdown,
            max_attempts: 3,
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
                };
                let judge = Judge::new(Arc::new(echo), settings.clone()).with_checker(same);
                spawn(format!("w{i}"), judge, ctx.clone())
            })
            .collect();
        (store, ctx, stop, handles)
    }

    async fn wait_until(store: &SqliteStore, id: i64, status: Status) {
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
            setup_failing(dir.path(), Duration::ZERO, 1, u32::MAX).await;
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
        let (store, ctx, stop, handles) = setup_failing(dir.path(), Duration::ZERO, 1, 1).await;
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
}
