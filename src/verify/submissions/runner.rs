//! Judging many reference solutions in parallel: one task per judge (sandbox slot), each
//! taking the next solution from a shared list, results returned in the list's order.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::judge::{run_jobs, CompileInfo, Compiled, Executor, Judge, JudgeReport, Verdict};
use crate::problem::kattis::timing;
use crate::problem::Problem;

use super::discover::ReferenceSolution;
use super::evaluate::{evaluate, Outcome};
use super::expectation::Margins;

/// One reference solution to judge, with its problem.
#[derive(Debug, Clone)]
pub struct Job {
    /// The problem, with its real limits (time-limit solutions get a stretched copy).
    pub problem: Arc<Problem>,
    /// The solution.
    pub solution: ReferenceSolution,
}

/// Called as each solution finishes (for a progress bar), from the judging tasks.
pub type OnDone = Arc<dyn Fn(&Outcome) + Send + Sync>;

fn system_error(job: &Job, message: String) -> JudgeReport {
    JudgeReport::without_tests(
        &job.problem.id,
        &job.solution.language,
        Verdict::SE,
        CompileInfo {
            ok: false,
            log: String::new(),
            cached: false,
        },
        Some(message),
    )
}

async fn judge_report<E: Executor>(judge: &Judge<E>, job: &Job, judged: &Problem) -> JudgeReport {
    let solution = &job.solution;
    let source = match tokio::fs::read(&solution.path).await {
        Ok(source) => source,
        Err(e) => {
            return system_error(job, format!("cannot read {}: {e}", solution.path.display()))
        }
    };
    let language = solution.language.as_str();
    let (program, compile) = match judge.compile(judged, language, source).await {
        Compiled::Done(report) => return *report,
        Compiled::Ready { program, compile } => (program, compile),
    };
    // A scoring problem's groups say which tests run (`on_reject`) and what the score is.
    if !solution.expected.stops_at_first_failure() || judged.scoring().is_some() {
        return match judge
            .run_tests(judged, language, program, compile.clone(), || false)
            .await
        {
            Ok(report) => report,
            Err(_) => system_error(job, "judging was interrupted".into()),
        };
    }
    // The verdict is the first failed test's: run the tests one by one and stop there.
    let mut tests = Vec::new();
    let mut degraded = false;
    for test in &judged.tests {
        let single = Problem {
            tests: vec![test.clone()],
            ..judged.clone()
        };
        match judge
            .run_tests(&single, language, program.clone(), compile.clone(), || {
                false
            })
            .await
        {
            Ok(report) => {
                degraded |= report.degraded;
                tests.extend(report.tests);
            }
            Err(_) => return system_error(job, "judging was interrupted".into()),
        }
        if tests.last().is_some_and(|t| t.verdict != Verdict::AC) {
            break;
        }
    }
    JudgeReport::from_tests(&judged.id, language, compile, tests, degraded)
}

/// The margins `problem` is verified with: a Kattis package's own (its time multipliers or
/// safety margin), else `default`.
pub fn problem_margins(problem: &Problem, default: &Margins) -> Margins {
    match &problem.kattis {
        Some(k) => Margins {
            accepted_max_percent: timing::accepted_max_percent(k.timing),
            tle_stretch_percent: timing::tle_stretch_percent(k.timing),
        },
        None => *default,
    }
}

/// Judges one solution and evaluates it against its folder.
pub async fn judge_one<E: Executor>(judge: &Judge<E>, job: &Job, margins: &Margins) -> Outcome {
    let problem = &*job.problem;
    let margins = &problem_margins(problem, margins);
    let limit = margins.judged_limit_ms(job.solution.expected, problem.time_limit_ms);
    let judged = Problem {
        time_limit_ms: limit,
        ..problem.clone()
    };
    let report = judge_report(judge, job, &judged).await;
    evaluate(&job.solution, problem, margins, limit, report)
}

/// Judges every job on the given judges in parallel (one job per judge at a time) and returns
/// the outcomes in the jobs' order. With no judge at all, every job is a system error.
pub async fn judge_all<E: Executor>(
    judges: Vec<Judge<E>>,
    jobs: Vec<Job>,
    margins: Margins,
    on_done: OnDone,
) -> Vec<Outcome> {
    let work = {
        let on_done = Arc::clone(&on_done);
        move |judge: Judge<E>, job: Job| {
            let on_done = Arc::clone(&on_done);
            async move {
                let outcome = judge_one(&judge, &job, &margins).await;
                on_done(&outcome);
                outcome
            }
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let outcomes = run_jobs(judges, jobs.clone(), stop, work).await;
    outcomes
        .into_iter()
        .zip(jobs)
        .map(|(outcome, job)| {
            outcome.unwrap_or_else(|| {
                let report = system_error(&job, "no judge took this solution".into());
                let limit = job.problem.time_limit_ms;
                let outcome = evaluate(&job.solution, &job.problem, &margins, limit, report);
                on_done(&outcome);
                outcome
            })
        })
        .collect()
}
