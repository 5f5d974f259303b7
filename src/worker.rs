//! Takes queued submissions and judges them.
//!
//! Each worker owns one judge (one sandbox slot), claims the next queued submission (the oldest
//! of the owner with the least judging in flight, see `Queue::claim`), compiles
//! it, runs its tests and stores the report. Idle workers sleep on a [`Notify`] that the server
//! pokes on every new submission (with a slow poll as a safety net). On shutdown a worker stops
//! taking work; a submission in flight is put back in the queue between two tests.
//!
//! - [`pool`]: the judging half of a node (`serve` or `worker`): workers, heartbeat, stop.
//! - [`node`]: the store a node opens (SQLite locked for it alone, or a shared PostgreSQL).
//! - [`heartbeat`]: renews the node's leases; on PostgreSQL, requeues dead nodes' claims.
//! - [`catalog`]: [`Problems`], the problems by id, to which a package can be added.
//! - [`refusals`]: logs once what the node's claims refuse (other package data).
//! - `aside`: a rejudging's runs, claimed when no submission waits, their results stored
//!   aside until the jury applies the rejudging.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::judge::{
    CompileInfo, Compiled, Executor, Interrupted, Judge, JudgeMode, JudgeReport, Verdict,
};
use crate::metrics::Metrics;
use crate::store::{Claimed, Queue, RejudgeQueue};

mod aside;
pub mod catalog;
pub mod heartbeat;
pub mod node;
pub mod pool;
pub mod refusals;

pub use catalog::Problems;
pub use pool::{PoolSettings, WorkerPool};

/// How much each contest's submissions are judged, by contest id: replaced whole when the
/// node's contests change (a contest made or edited at runtime, a contest file reloaded).
#[derive(Debug, Default)]
pub struct JudgeModes(std::sync::RwLock<BTreeMap<String, JudgeMode>>);

impl JudgeModes {
    /// These modes.
    pub fn new(modes: BTreeMap<String, JudgeMode>) -> JudgeModes {
        JudgeModes(std::sync::RwLock::new(modes))
    }

    /// The mode of contest `id`, if known.
    pub fn get(&self, id: &str) -> Option<JudgeMode> {
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .copied()
    }

    /// Replaces every mode.
    pub fn replace(&self, modes: BTreeMap<String, JudgeMode>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = modes;
    }
}

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
    /// How much of a contest's submissions is judged, by contest id (its format's mode:
    /// icpc stops at the first failing test); submissions outside contests run every test.
    pub modes: Arc<JudgeModes>,
    /// The daemon's metrics: judged counts and durations, the node's heartbeat.
    pub metrics: Metrics,
}

impl<Q> Clone for WorkerContext<Q> {
    fn clone(&self) -> Self {
        WorkerContext {
            queue: Arc::clone(&self.queue),
            problems: Arc::clone(&self.problems),
            wake: Arc::clone(&self.wake),
            shutdown: self.shutdown.clone(),
            max_attempts: self.max_attempts,
            modes: Arc::clone(&self.modes),
            metrics: self.metrics.clone(),
        }
    }
}

/// Starts one worker on its own judge; it returns when shutdown is signalled.
pub fn spawn<Q: Queue + RejudgeQueue, E: Executor>(
    name: String,
    judge: Judge<E>,
    ctx: WorkerContext<Q>,
) -> JoinHandle<()> {
    tokio::spawn(async move { work(name, judge, ctx).await })
}

async fn work<Q: Queue + RejudgeQueue, E: Executor>(
    name: String,
    judge: Judge<E>,
    mut ctx: WorkerContext<Q>,
) {
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
        ctx.metrics.beat();
        match ctx.queue.claim(&name).await {
            Ok(Some(claimed)) => process(&name, &judge, &ctx, claimed).await,
            Ok(None) => match ctx.queue.claim_run(&name).await {
                Ok(Some(run)) => aside::process_run(&name, &judge, &ctx, run).await,
                Ok(None) => {
                    tokio::select! {
                        _ = &mut notified => {}
                        _ = ctx.shutdown.changed() => {}
                        _ = tokio::time::sleep(IDLE_POLL) => {}
                    }
                }
                Err(e) => {
                    tracing::error!(worker = %name, error = %e, "cannot claim a rejudging run");
                    tokio::time::sleep(ERROR_PAUSE).await;
                }
            },
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
        contest,
        submitted_data_hash,
    } = claimed;
    let running = async {
        if let Err(e) = ctx.queue.mark_running(id, attempt).await {
            tracing::warn!(worker = %name, id, error = %e, "cannot mark running");
        }
    };
    let judged = judge_source(
        name,
        judge,
        ctx,
        Source {
            problem: &problem,
            language: &language,
            source,
            contest: contest.as_deref(),
            submitted_data_hash: submitted_data_hash.as_deref(),
        },
        running,
    )
    .await;
    let Some(report) = judged else {
        match ctx.queue.release(id, attempt).await {
            Ok(()) => tracing::info!(worker = %name, id, "shutdown: requeued"),
            Err(e) => {
                tracing::error!(worker = %name, id, error = %e,
                    "shutdown: cannot requeue; it will be requeued on start")
            }
        }
        return;
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
    if !store_report(name, ctx, id, attempt, &report).await {
        return;
    }
    ctx.metrics
        .judged(&report.problem, report.verdict.as_str(), started.elapsed());
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

/// A claimed source to judge: a submission, or a rejudging's run of one.
struct Source<'a> {
    problem: &'a str,
    language: &'a str,
    source: String,
    contest: Option<&'a str>,
    submitted_data_hash: Option<&'a str>,
}

/// Judges `s` with the contest's mode (`running` once it compiled and its tests start):
/// its report, stamped with the data hash it ran against, or `None` when shutdown
/// interrupted it (the caller puts it back).
async fn judge_source<Q, E: Executor>(
    name: &str,
    judge: &Judge<E>,
    ctx: &WorkerContext<Q>,
    s: Source<'_>,
    running: impl std::future::Future<Output = ()>,
) -> Option<JudgeReport> {
    let mode = s.contest.and_then(|c| ctx.modes.get(c)).unwrap_or_default();
    let judge = &judge.clone().with_mode(mode);
    let problem = s.problem;
    let mut report = match ctx.problems.get(problem) {
        None => JudgeReport::without_tests(
            problem,
            s.language,
            Verdict::SE,
            CompileInfo {
                ok: false,
                log: String::new(),
                cached: false,
            },
            Some(format!("problem {problem:?} is not loaded on this judge")),
        ),
        Some(p) => match judge.compile(&p, s.language, s.source.into_bytes()).await {
            Compiled::Done(report) => *report,
            Compiled::Ready { program, compile } => {
                running.await;
                let shutdown = ctx.shutdown.clone();
                let metrics = ctx.metrics.clone();
                // Asked between two tests: a worker judging a long submission still beats.
                let stop = move || {
                    metrics.beat();
                    *shutdown.borrow()
                };
                match judge
                    .run_tests(&p, s.language, program, compile, stop)
                    .await
                {
                    Ok(report) => report,
                    Err(Interrupted) => return None,
                }
            }
        },
    };
    if let Some(p) = ctx.problems.get(problem) {
        if p.data_hash.differs_from(s.submitted_data_hash) {
            tracing::warn!(worker = %name, problem = %problem,
                submitted = s.submitted_data_hash.unwrap_or(""), judged = %p.data_hash,
                "judged with other problem data than the submission was made against");
        }
        report.data_hash = Some(p.data_hash.to_hex());
    }
    Some(report)
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

/// Stores the report; `false` when it was not stored (the claim went stale: another node
/// holds the submission now, or a rejudge reset it; or the database kept failing).
async fn store_report<Q: Queue>(
    name: &str,
    ctx: &WorkerContext<Q>,
    id: i64,
    attempt: i64,
    report: &JudgeReport,
) -> bool {
    for try_no in 1..=3 {
        match ctx.queue.complete(id, attempt, report).await {
            Ok(true) => return true,
            Ok(false) => {
                tracing::warn!(worker = %name, id, attempt, "stale claim: result dropped");
                return false;
            }
            Err(e) => {
                tracing::error!(worker = %name, id, try_no, error = %e, "cannot store result");
                tokio::time::sleep(ERROR_PAUSE * try_no).await;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests;
