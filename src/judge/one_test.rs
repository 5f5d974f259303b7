//! One test of a submission: run (batch, or joined to its validator by pipes when the problem
//! is interactive) and its output checked by the problem's validator, for the pipeline
//! (`pipeline.rs`).

use crate::checkers::CheckOutcome;
use crate::problem::{FileIo, OutputValidator, TestCase};
use crate::sandbox::{Limits, RunReport};

use super::executor::{Executor, ExecutorError};
use super::points::Points;
use super::report::TestResult;
use super::verdict::{status_verdict, Verdict};

/// An in-process checker function (the real one is [`crate::validators::check`]; tests may
/// swap it).
pub type CheckFn = fn(&OutputValidator, &[String], &[u8], &[u8], &[u8]) -> CheckOutcome;

/// What checks the outputs of one submission: the problem's validator, the in-process check
/// function, and a validator program compiled for this submission's tests (or why not).
pub(super) struct Checker<'a, P> {
    pub(super) validator: &'a OutputValidator,
    pub(super) check: CheckFn,
    pub(super) compiled: Option<&'a Result<P, String>>,
    pub(super) max_processes: u32,
    /// A scoring problem: a test's `score.txt` counts (elsewhere it is a judging error).
    pub(super) scoring: bool,
}

/// Runs one test and checks its output (blocking), the executor's failure (the judge's
/// fault) kept apart. Returns the result and whether the run was degraded.
pub(super) fn run_and_check<E: Executor>(
    executor: &E,
    program: &E::Program,
    test: &TestCase,
    files: &FileIo,
    limits: Limits,
    checker: &Checker<'_, E::Program>,
) -> Result<(TestResult, bool), ExecutorError> {
    if let (Some(v), Some(compiled)) = (checker.validator.interactive(), checker.compiled) {
        let (result, degraded) = super::interactive::run_test(
            executor,
            program,
            compiled,
            v,
            test,
            limits,
            checker.max_processes,
        )?;
        return Ok((scored_only_if(result, checker.scoring), degraded));
    }
    let report = executor.run_test(program, &test.input, files, limits)?;
    let degraded = report.degraded;
    let (verdict, message, team_message, score) = match status_verdict(&report, &limits) {
        Some((verdict, message)) => (verdict, message, None, None),
        None => check_output(executor, test, &report, checker),
    };
    let result = TestResult {
        name: test.name.clone(),
        verdict,
        time_ms: report.time_ms,
        wall_ms: report.wall_ms,
        memory_kib: report.memory_kib,
        exit_code: report.exit_code,
        signal: report.signal,
        message,
        stderr_tail: if verdict == Verdict::RE {
            super::stderr_tail::tail(&report.stderr)
        } else {
            None
        },
        team_message,
        score,
    };
    Ok((scored_only_if(result, checker.scoring), degraded))
}

/// A `score.txt` on a pass-fail problem is the package's fault (as problemtools has it).
fn scored_only_if(mut result: TestResult, scoring: bool) -> TestResult {
    if !scoring && result.score.is_some() {
        result.verdict = Verdict::SE;
        result.score = None;
        result.message = Some(
            "checker: the output validator wrote score.txt, but the problem is not a scoring \
             problem (type: scoring)"
                .into(),
        );
    }
    result
}

fn check_output<E: Executor>(
    executor: &E,
    test: &TestCase,
    report: &RunReport,
    checker: &Checker<'_, E::Program>,
) -> (Verdict, Option<String>, Option<String>, Option<Points>) {
    let input = match std::fs::read(&test.input) {
        Ok(b) => b,
        Err(e) => {
            return (
                Verdict::SE,
                Some(format!("cannot read {}: {e}", test.input.display())),
                None,
                None,
            )
        }
    };
    let answer = match std::fs::read(&test.answer) {
        Ok(b) => b,
        Err(e) => {
            return (
                Verdict::SE,
                Some(format!("cannot read {}: {e}", test.answer.display())),
                None,
                None,
            )
        }
    };
    let (outcome, team_message, score) = match (checker.validator, checker.compiled) {
        (OutputValidator::Program(v), Some(Ok(compiled))) => {
            let validated = super::validate::validate(
                executor,
                compiled,
                v,
                test,
                &report.stdout,
                checker.max_processes,
            );
            (validated.outcome, validated.team_message, validated.score)
        }
        (OutputValidator::Program(_), Some(Err(e))) => {
            (CheckOutcome::JudgeError(e.clone()), None, None)
        }
        (validator, _) => (
            (checker.check)(
                validator,
                &test.validator_args,
                &input,
                &report.stdout,
                &answer,
            ),
            None,
            None,
        ),
    };
    match outcome {
        CheckOutcome::Accepted => (Verdict::AC, None, team_message, score),
        CheckOutcome::WrongAnswer(msg) => (Verdict::WA, Some(msg), team_message, None),
        CheckOutcome::JudgeError(msg) => (Verdict::SE, Some(format!("checker: {msg}")), None, None),
    }
}
