//! One test of an interactive problem: the submission and the package's validator run at
//! once, each in a box of its own, talking through pipes; the verdict is the one
//! problemtools gives (its `judge/execute.py`):
//!
//! - the validator ended first with a wrong answer (43): `WA`, whatever the submission did
//!   after (a submission that floods, or keeps asking after the validator gave up);
//! - the validator ended first accepting (42): the submission's own ending decides (a
//!   crash or a time limit after the right answer is still that), else `AC`;
//! - the submission ended first over its time limit (CPU, or the wall clock when both
//!   programs wait for each other): `TLE`;
//! - otherwise a validator ending in anything but 42 or 43 is a judging error (`SE`); a
//!   submission that crashed or passed another limit gets that verdict; else the
//!   validator's (a submission that exits early leaves the validator reading end of file:
//!   `WA`).
//!
//! The submission's limits apply to it alone; the validator has its own.

use crate::checkers::CheckOutcome;
use crate::problem::validator::ValidatorProgram;
use crate::problem::TestCase;
use crate::sandbox::{Limits, RunReport, RunStatus};

use super::executor::{Executor, ExecutorError, InteractiveCall};
use super::report::TestResult;
use super::validate;
use super::verdict::Verdict;

/// Runs `test` with the submission `program` and the compiled validator `compiled` (or why
/// it did not compile: then the test is `SE`). Returns the result and whether the runs were
/// degraded; `Err` is the judge's fault.
pub fn run_test<E: Executor>(
    executor: &E,
    program: &E::Program,
    compiled: &Result<E::Program, String>,
    v: &ValidatorProgram,
    test: &TestCase,
    limits: Limits,
    max_processes: u32,
) -> Result<(TestResult, bool), ExecutorError> {
    let validator = match compiled {
        Ok(p) => p,
        Err(e) => {
            return Ok((
                result(test, None, Verdict::SE, Some(format!("checker: {e}"))),
                false,
            ))
        }
    };
    let work = tempfile::tempdir()
        .map_err(|e| ExecutorError(format!("a temporary folder for the validator: {e}")))?;
    let (args, files) = validate::kattis_arguments(test);
    let mut validator_limits = validate::limits_of(v, max_processes);
    // The validator waits on the submission: it must outlast the submission's wall clock,
    // or a slow submission would turn into the validator's time limit (a judging error).
    validator_limits.wall_time_ms = validator_limits
        .wall_time_ms
        .max(limits.wall_time_ms.saturating_add(1000));
    let call = InteractiveCall {
        submission_limits: limits,
        args,
        files,
        validator_limits,
        collect: validate::feedback_files(work.path()),
    };
    let report = executor.run_interactive(program, validator, &call)?;
    let validated = validate::outcome_of(v, &validator_limits, &report.validator, work.path());
    let (verdict, message) = decide(
        &report.submission,
        &limits,
        validated.outcome,
        report.validator_first,
    );
    let degraded = report.submission.degraded || report.validator.degraded;
    let mut result = result(test, Some(&report.submission), verdict, message);
    if verdict != Verdict::SE {
        result.team_message = validated.team_message;
    }
    if verdict == Verdict::AC {
        result.score = validated.score;
    }
    if report.validator_first && verdict == Verdict::WA {
        // Rejected before the submission ended: what it spent after is not its time (as
        // problemtools caps it).
        result.time_ms = result.time_ms.min(limits.cpu_time_ms);
    }
    Ok((result, degraded))
}

fn result(
    test: &TestCase,
    run: Option<&RunReport>,
    verdict: Verdict,
    message: Option<String>,
) -> TestResult {
    TestResult {
        name: test.name.clone(),
        verdict,
        time_ms: run.map_or(0, |r| r.time_ms),
        wall_ms: run.map_or(0, |r| r.wall_ms),
        memory_kib: run.map_or(0, |r| r.memory_kib),
        exit_code: run.and_then(|r| r.exit_code),
        signal: run.and_then(|r| r.signal),
        message,
        stderr_tail: run
            .filter(|_| verdict == Verdict::RE)
            .and_then(|r| super::stderr_tail::tail(&r.stderr)),
        team_message: None,
        score: None,
    }
}

/// The verdict of one interactive run (see the module's documentation).
pub fn decide(
    submission: &RunReport,
    limits: &Limits,
    validator: CheckOutcome,
    validator_first: bool,
) -> (Verdict, Option<String>) {
    let own = super::verdict::status_verdict(submission, limits);
    let judged = |outcome: CheckOutcome| match outcome {
        CheckOutcome::Accepted => (Verdict::AC, None),
        CheckOutcome::WrongAnswer(m) => (Verdict::WA, Some(m)),
        CheckOutcome::JudgeError(m) => (Verdict::SE, Some(format!("checker: {m}"))),
    };
    if validator_first {
        return match validator {
            CheckOutcome::Accepted => own.unwrap_or((Verdict::AC, None)),
            other => judged(other),
        };
    }
    if submission.status == RunStatus::TimeLimit {
        if let Some(tle) = own {
            return tle;
        }
    }
    match (validator, own) {
        (CheckOutcome::JudgeError(m), _) => judged(CheckOutcome::JudgeError(m)),
        (_, Some(fault)) => fault,
        (outcome, None) => judged(outcome),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(status: RunStatus, exit_code: Option<i32>) -> RunReport {
        RunReport {
            status,
            exit_code,
            signal: None,
            time_ms: 10,
            wall_ms: 10,
            memory_kib: 100,
            stdout: Vec::new(),
            stderr: Vec::new(),
            degraded: false,
        }
    }

    const LIMITS: Limits = Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_bytes: 1 << 28,
        output_bytes: 1 << 20,
        max_processes: 4,
    };

    fn verdict(sub: RunStatus, code: Option<i32>, val: CheckOutcome, first: bool) -> Verdict {
        decide(&run(sub, code), &LIMITS, val, first).0
    }

    #[test]
    fn the_verdicts_follow_problemtools() {
        use CheckOutcome::{Accepted, JudgeError, WrongAnswer};
        let wa = || WrongAnswer("no".into());
        let je = || JudgeError("exit 3".into());
        // Both ended well.
        assert_eq!(
            verdict(RunStatus::Ok, Some(0), Accepted, false),
            Verdict::AC
        );
        assert_eq!(verdict(RunStatus::Ok, Some(0), Accepted, true), Verdict::AC);
        // The validator gave up first: WA whatever came after (a flood killed by SIGPIPE).
        assert_eq!(
            verdict(RunStatus::RuntimeError, None, wa(), true),
            Verdict::WA
        );
        assert_eq!(verdict(RunStatus::TimeLimit, None, wa(), true), Verdict::WA);
        // Accepted first, then the submission crashed or ran over.
        assert_eq!(
            verdict(RunStatus::RuntimeError, Some(1), Accepted, true),
            Verdict::RE
        );
        assert_eq!(
            verdict(RunStatus::TimeLimit, None, Accepted, true),
            Verdict::TLE
        );
        // The submission ended first: its limit, then its crash, then the validator.
        assert_eq!(
            verdict(RunStatus::TimeLimit, None, wa(), false),
            Verdict::TLE
        );
        assert_eq!(
            verdict(RunStatus::TimeLimit, None, je(), false),
            Verdict::TLE
        );
        assert_eq!(
            verdict(RunStatus::RuntimeError, Some(1), wa(), false),
            Verdict::RE
        );
        assert_eq!(
            verdict(RunStatus::MemoryLimit, None, wa(), false),
            Verdict::MLE
        );
        assert_eq!(verdict(RunStatus::Ok, Some(0), wa(), false), Verdict::WA);
        // A validator outside its protocol is the judge's fault, never the contestant's.
        assert_eq!(verdict(RunStatus::Ok, Some(0), je(), false), Verdict::SE);
        assert_eq!(verdict(RunStatus::Ok, Some(0), je(), true), Verdict::SE);
        assert_eq!(
            verdict(RunStatus::RuntimeError, Some(1), je(), false),
            Verdict::SE
        );
    }
}
