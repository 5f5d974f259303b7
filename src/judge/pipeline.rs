//! Compile once, run every test in order, check each output, build the report.
//!
//! Every test runs even after a failure: the score is the share of tests passed (in
//! [`JudgeMode::StopAtFirstFailure`], judging stops at the verdict). A scoring
//! problem's groups decide instead ([`super::grading`]): which tests run (`on_reject: break`
//! ends a group at its first rejection), the verdict and the score. The blocking
//! sandbox calls and the checker run in `spawn_blocking`, so the tokio runtime never stalls.

use std::sync::Arc;

use crate::config::Config;
use crate::problem::{OutputValidator, Problem};
use crate::sandbox::Limits;

use super::executor::{CacheUse, Compilation, Executor};
use super::grading::TestOutcome;
use super::one_test::{run_and_check, Checker};
use super::report::{truncate_log, CompileInfo, JudgeReport, TestResult};
use super::verdict::Verdict;

pub use super::one_test::CheckFn;

/// The sandbox settings that turn a problem's limits into run limits.
///
/// A language's `extra_memory_mb` is not added here: the executor's program adds it
/// (`languages::Program::run_request`), so it is counted exactly once.
#[derive(Debug, Clone)]
pub struct JudgeSettings {
    /// Wall limit = `wall_factor` x CPU limit.
    pub wall_factor: u64,
    /// Processes and threads a run may have at once.
    pub max_processes: u32,
}

impl JudgeSettings {
    /// The settings of a configuration.
    pub fn from_config(config: &Config) -> JudgeSettings {
        JudgeSettings {
            wall_factor: config.sandbox.wall_factor.max(1),
            max_processes: config.sandbox.max_processes,
        }
    }

    /// The limits of one test of `problem` (before the language's extra memory). The wall
    /// limit is `wall_factor` x CPU, or for a Kattis package its own `time_safety_margin`
    /// x CPU when that is more.
    pub fn test_limits(&self, problem: &Problem) -> Limits {
        let wall_time_ms = match &problem.kattis {
            Some(k) => crate::problem::kattis::timing::wall_limit_ms(
                k.timing,
                problem.time_limit_ms,
                self.wall_factor,
            ),
            None => problem.time_limit_ms.saturating_mul(self.wall_factor),
        };
        Limits {
            cpu_time_ms: problem.time_limit_ms,
            wall_time_ms,
            memory_bytes: problem.memory_limit_mb.saturating_mul(1024 * 1024),
            output_bytes: problem.output_limit_mb.saturating_mul(1024 * 1024),
            max_processes: self.max_processes,
        }
    }
}

/// A compiled submission ready for its tests, or the report that ends it early.
pub enum Compiled<P> {
    /// Compiled: run the tests with this program.
    Ready {
        /// The program, shared by the blocking test runs.
        program: Arc<P>,
        /// The compile step as reported.
        compile: CompileInfo,
    },
    /// `CE` or a compile-time `SE`: the final report (boxed: far larger than `Ready`).
    Done(Box<JudgeReport>),
}

/// The tests ended early because the caller asked to stop (shutdown): requeue the submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// The judging pipeline over an [`Executor`].
pub struct Judge<E: Executor> {
    executor: Arc<E>,
    settings: JudgeSettings,
    check: CheckFn,
    mode: JudgeMode,
}

/// How much of a submission is judged (a contest's format decides it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum JudgeMode {
    /// Every test runs, for the score (IOI, OI, and outside contests).
    #[default]
    AllTests,
    /// Judging stops at the first test that is not AC: only the verdict counts (ICPC, as
    /// DOMjudge's lazy evaluation), so a TLE submission costs one time limit, not all. A
    /// scoring problem stops at the first rejection no later test can outweigh.
    StopAtFirstFailure,
}

impl<E: Executor> Clone for Judge<E> {
    fn clone(&self) -> Self {
        Judge {
            executor: Arc::clone(&self.executor),
            settings: self.settings.clone(),
            check: self.check,
            mode: self.mode,
        }
    }
}

impl<E: Executor> Judge<E> {
    /// A judge using the real checkers.
    pub fn new(executor: Arc<E>, settings: JudgeSettings) -> Judge<E> {
        Judge {
            executor,
            settings,
            check: crate::validators::check,
            mode: JudgeMode::AllTests,
        }
    }

    /// The same judge judging as much as `mode` says.
    pub fn with_mode(mut self, mode: JudgeMode) -> Judge<E> {
        self.mode = mode;
        self
    }

    /// The same judge with another checker (unit tests of the aggregation).
    pub fn with_checker(mut self, check: CheckFn) -> Judge<E> {
        self.check = check;
        self
    }

    /// The executor (benchmarks wrap it to time the sandboxed runs).
    pub fn executor(&self) -> &Arc<E> {
        &self.executor
    }

    /// Compiles once. `CE` and executor failures end the submission with a report.
    pub async fn compile(
        &self,
        problem: &Problem,
        language: &str,
        source: Vec<u8>,
    ) -> Compiled<E::Program> {
        let executor = Arc::clone(&self.executor);
        let lang = language.to_string();
        let joined = tokio::task::spawn_blocking(move || executor.compile(&lang, &source)).await;
        let se = |cause: String| {
            Compiled::Done(Box::new(
                JudgeReport::without_tests(
                    &problem.id,
                    language,
                    Verdict::SE,
                    CompileInfo {
                        ok: false,
                        log: String::new(),
                        cached: false,
                    },
                    Some(cause.clone()),
                )
                .failed_judge(cause),
            ))
        };
        match joined {
            Err(e) => se(format!("compile task failed: {e}")),
            Ok(Err(e)) => se(format!("compile failed in the sandbox: {e}")),
            Ok(Ok(Compilation::Failed { log, .. })) => {
                Compiled::Done(Box::new(JudgeReport::without_tests(
                    &problem.id,
                    language,
                    Verdict::CE,
                    CompileInfo {
                        ok: false,
                        log: truncate_log(&log),
                        cached: false,
                    },
                    None,
                )))
            }
            Ok(Ok(Compilation::Ready {
                program,
                log,
                cache,
            })) => Compiled::Ready {
                program: Arc::new(program),
                compile: CompileInfo {
                    ok: true,
                    log: truncate_log(&log),
                    cached: cache == CacheUse::Hit,
                },
            },
        }
    }

    /// Runs and checks every test in order; stops early when `stop()` turns true, and after
    /// the first failing test in [`JudgeMode::StopAtFirstFailure`].
    ///
    /// The whole loop runs in one `spawn_blocking` task: one thread hand-off per submission
    /// rather than two per test, which is most of the judge's own overhead on a busy host.
    pub async fn run_tests(
        &self,
        problem: &Problem,
        language: &str,
        program: Arc<E::Program>,
        compile: CompileInfo,
        stop: impl Fn() -> bool + Send + 'static,
    ) -> Result<JudgeReport, Interrupted> {
        let limits = self.settings.test_limits(problem);
        let executor = Arc::clone(&self.executor);
        let tests = problem.tests.clone();
        let total = tests.len();
        let (validator, check, mode) = (problem.validator.clone(), self.check, self.mode);
        let max_processes = self.settings.max_processes;
        let file_io = problem.file_io.clone();
        let scoring = problem.scoring().cloned();
        let joined = tokio::task::spawn_blocking(move || {
            let compiled = match &validator {
                OutputValidator::Program(v) => Some(super::validate::compile(&*executor, v)),
                _ => None,
            };
            let checker = Checker {
                validator: &validator,
                check,
                compiled: compiled.as_ref(),
                max_processes,
                scoring: scoring.is_some(),
            };
            let mut results = Vec::with_capacity(tests.len());
            let mut outcomes: Vec<Option<TestOutcome>> = vec![None; tests.len()];
            let mut degraded = false;
            let mut failure = None;
            for (i, test) in tests.iter().enumerate() {
                if stop() {
                    return Err(Interrupted);
                }
                if let Some(s) = &scoring {
                    if !super::grading::should_run(s, i, &outcomes) {
                        continue;
                    }
                }
                let result =
                    match run_and_check(&*executor, &program, test, &file_io, limits, &checker) {
                        Ok((result, was_degraded)) => {
                            degraded |= was_degraded;
                            result
                        }
                        Err(e) => {
                            let cause = format!("sandbox: {e}");
                            failure.get_or_insert_with(|| format!("test {}: {cause}", test.name));
                            system_error(&test.name, cause)
                        }
                    };
                let failed = result.verdict != Verdict::AC;
                outcomes[i] = Some(TestOutcome {
                    verdict: result.verdict,
                    score: result.score,
                });
                results.push(result);
                if failed
                    && mode == JudgeMode::StopAtFirstFailure
                    && scoring
                        .as_ref()
                        .is_none_or(|s| super::grading::rejected_whatever_follows(s, &outcomes))
                {
                    break;
                }
            }
            let graded = scoring.map(|s| super::grading::grade(&s, &outcomes));
            Ok((results, degraded, failure, graded))
        })
        .await;
        match joined {
            Ok(Ok((results, degraded, failure, graded))) => {
                let passed = results.iter().filter(|t| t.verdict == Verdict::AC).count();
                let mut report =
                    JudgeReport::from_tests(&problem.id, language, compile, results, degraded);
                report.judge_failure = failure;
                // Tests skipped after a failure count as not passed.
                if let Some(share) = (passed * 100).checked_div(total) {
                    report.score = i64::try_from(share).unwrap_or(0);
                }
                if let Some(g) = graded {
                    if !report.tests.is_empty() {
                        report.verdict = g.verdict;
                    }
                    report.score = g.score.whole();
                    report.points = Some(g.score);
                    report.groups = g.groups;
                }
                Ok(report)
            }
            Ok(Err(Interrupted)) => Err(Interrupted),
            Err(e) => {
                let cause = format!("the test task failed: {e}");
                Ok(JudgeReport::without_tests(
                    &problem.id,
                    language,
                    Verdict::SE,
                    compile,
                    Some(cause.clone()),
                )
                .failed_judge(cause))
            }
        }
    }

    /// Compiles and runs every test: the whole judgement of one source.
    pub async fn judge(&self, problem: &Problem, language: &str, source: Vec<u8>) -> JudgeReport {
        let mut report = self.judge_unhashed(problem, language, source).await;
        report.data_hash = Some(problem.data_hash.to_hex());
        report
    }

    async fn judge_unhashed(
        &self,
        problem: &Problem,
        language: &str,
        source: Vec<u8>,
    ) -> JudgeReport {
        match self.compile(problem, language, source).await {
            Compiled::Done(report) => *report,
            Compiled::Ready { program, compile } => {
                match self
                    .run_tests(problem, language, program, compile, || false)
                    .await
                {
                    Ok(report) => report,
                    Err(Interrupted) => JudgeReport::without_tests(
                        &problem.id,
                        language,
                        Verdict::SE,
                        CompileInfo {
                            ok: true,
                            log: String::new(),
                            cached: false,
                        },
                        Some("judging was interrupted".into()),
                    ),
                }
            }
        }
    }
}

fn system_error(name: &str, cause: String) -> TestResult {
    TestResult {
        name: name.to_string(),
        verdict: Verdict::SE,
        time_ms: 0,
        wall_ms: 0,
        memory_kib: 0,
        exit_code: None,
        signal: None,
        message: Some(cause),
        stderr_tail: None,
        team_message: None,
        score: None,
    }
}
