//! A rejudging's runs (`store::rejudgings`): claimed when the submissions' queue is empty, so
//! new submissions are judged first, and judged as a submission is (the contest's mode, the
//! node's data), their results stored aside; a judge failure is retried as a submission's,
//! then `SE`; shutdown puts the run back.

use std::time::Instant;

use crate::judge::{Executor, Judge, JudgeReport};
use crate::store::rejudgings::ClaimedRun;
use crate::store::RejudgeQueue;

use super::{gave_up, judge_source, Source, WorkerContext, ERROR_PAUSE};

/// Judges the claimed run and stores its result aside.
pub(super) async fn process_run<Q: RejudgeQueue, E: Executor>(
    name: &str,
    judge: &Judge<E>,
    ctx: &WorkerContext<Q>,
    claimed: ClaimedRun,
) {
    let started = Instant::now();
    let (run, attempt, submission) = (claimed.run, claimed.attempt, claimed.submission);
    let report = if attempt > i64::from(ctx.max_attempts) {
        // Its lease ran out that many times: the judge died judging it.
        let mut report = JudgeReport::without_tests(
            &claimed.problem,
            &claimed.language,
            crate::judge::Verdict::SE,
            crate::judge::CompileInfo {
                ok: false,
                log: String::new(),
                cached: false,
            },
            None,
        );
        report.message = Some(format!(
            "the judge stopped while judging this submission {} times; not judged again",
            attempt - 1
        ));
        report
    } else {
        let source = Source {
            problem: &claimed.problem,
            language: &claimed.language,
            source: claimed.source,
            contest: claimed.contest.as_deref(),
            submitted_data_hash: claimed.submitted_data_hash.as_deref(),
        };
        match judge_source(name, judge, ctx, source, async {}).await {
            None => {
                if let Err(e) = ctx.queue.release_run(run, attempt).await {
                    tracing::error!(worker = %name, run, error = %e,
                        "shutdown: cannot put the rejudging run back; its lease will run out");
                }
                return;
            }
            Some(report) => match report.judge_failure.clone() {
                None => report,
                Some(cause) if attempt < i64::from(ctx.max_attempts) => {
                    tracing::warn!(worker = %name, run, submission, attempt, cause = %cause,
                        "the judge failed on this rejudging run; it is queued again");
                    if let Err(e) = ctx.queue.release_run(run, attempt).await {
                        tracing::error!(worker = %name, run, error = %e,
                            "cannot put the rejudging run back; its lease will run out");
                    }
                    tokio::time::sleep(ERROR_PAUSE).await;
                    return;
                }
                Some(cause) => gave_up(report, attempt, &cause),
            },
        }
    };
    for try_no in 1..=3 {
        match ctx.queue.complete_run(run, attempt, &report).await {
            Ok(stored) => {
                tracing::info!(run, submission, verdict = %report.verdict, score = report.score,
                    took_ms = started.elapsed().as_millis() as u64, worker = %name, stored,
                    "rejudging run judged");
                return;
            }
            Err(e) => {
                tracing::error!(worker = %name, run, try_no, error = %e,
                    "cannot store the rejudging run's result");
                tokio::time::sleep(ERROR_PAUSE * try_no).await;
            }
        }
    }
}
