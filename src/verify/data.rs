//! The data half of `sudojudge verify`: every input obeys the statement's constraints, every
//! `sudoku` puzzle has exactly one solution, every `.ans` equals the reference solver's answer,
//! the checker accepts it, and the samples are the ones the statement shows.
//!
//! The result is a [`DataReport`] rather than an error, so that every fault of a package is
//! listed at once, and so that the judging half of `verify` (running `submissions/`) can report
//! next to it.

use serde::Serialize;

use crate::checkers::{check, CheckOutcome};
use crate::problem::answer::reference_answer;
use crate::problem::format;
use crate::problem::{CheckerKind, Problem, TestCase, SUDOKU_MAX_PUZZLES, TARGET_MIN_GIVENS};
use crate::solvers::sudoku::count_solutions;

/// One thing wrong with a package's data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataFault {
    /// The test at fault (`sample/1`), or `None` for the package as a whole.
    pub test: Option<String>,
    /// What is wrong, precisely enough to fix it.
    pub message: String,
}

/// The outcome of checking one package's data.
#[derive(Debug, Clone, Serialize)]
pub struct DataReport {
    /// The problem id.
    pub problem: String,
    /// Tests checked.
    pub tests: usize,
    /// `true` when there is no fault.
    pub ok: bool,
    /// Every fault found, in test order.
    pub faults: Vec<DataFault>,
}

/// Checks every test of `problem`; never stops at the first fault.
pub fn verify_data(problem: &Problem) -> DataReport {
    let mut faults = Vec::new();
    for test in &problem.tests {
        let verified = match problem.validator.builtin() {
            Some(kind) => verify_test(kind, test).and_then(|()| profile_promise(problem, test)),
            None => verify_with_validator(problem, test),
        };
        if let Err(message) = verified {
            faults.push(DataFault {
                test: Some(test.name.clone()),
                message,
            });
        }
        // An interactive problem's statement shows its sample interactions instead.
        if test.name.starts_with("sample/") && problem.validator.interactive().is_none() {
            faults.extend(sample_in_statement(problem, test));
        }
    }
    DataReport {
        problem: problem.id.clone(),
        tests: problem.tests.len(),
        ok: faults.is_empty(),
        faults,
    }
}

/// What a package's generator profile promises beyond its checker kind: target-sudoku's
/// `noip` profile (the default) holds NOIP's kind of grids, so no two givens clash.
fn profile_promise(problem: &Problem, test: &TestCase) -> Result<(), String> {
    let noip = problem.validator.builtin() == Some(CheckerKind::TargetSudoku)
        && matches!(problem.gen_profile.as_deref(), None | Some("noip"));
    if !noip {
        return Ok(());
    }
    let grid = format::target::parse(&read(&test.input)?)
        .map_err(|e| format!("{}: {e}", test.input.display()))?;
    match crate::problem::gen::target::first_clash(&grid) {
        None => Ok(()),
        Some((a, b)) => Err(format!(
            "{}: givens at row {} column {} and row {} column {} clash; NOIP's data (the \
             `noip` profile) has no clashing givens: such tests belong to the `clashing` \
             profile (target-sudoku-clash)",
            test.input.display(),
            a / 9 + 1,
            a % 9 + 1,
            b / 9 + 1,
            b % 9 + 1
        )),
    }
}

fn read(path: &std::path::Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// All checks of one test; the first fault found.
fn verify_test(kind: CheckerKind, test: &TestCase) -> Result<(), String> {
    let input = read(&test.input)?;
    let answer = read(&test.answer)?;
    let file = test.input.display();
    let canonical = match kind {
        CheckerKind::Sudoku => {
            let puzzles = format::sudoku::parse(&input).map_err(|e| format!("{file}: {e}"))?;
            sudoku_constraints(&puzzles)?;
            format::sudoku::write_puzzles(&puzzles)
        }
        CheckerKind::TargetSudoku => {
            let grid = format::target::parse(&input).map_err(|e| format!("{file}: {e}"))?;
            let givens = grid.iter().filter(|&&d| d != 0).count();
            if givens < TARGET_MIN_GIVENS {
                return Err(format!(
                    "{givens} givens, the statement promises at least {TARGET_MIN_GIVENS}"
                ));
            }
            format::target::write(&grid)
        }
        CheckerKind::BinarySudoku => {
            let grid = format::binary::parse(&input).map_err(|e| format!("{file}: {e}"))?;
            format::binary::write(&grid)
        }
    };
    if canonical != input {
        return Err(format!(
            "{file}: not in canonical form (single spaces, LF line ends, final newline)"
        ));
    }
    let expected = reference_answer(kind, &input).map_err(|e| format!("{file}: {e}"))?;
    if expected != answer {
        return Err(format!(
            "{}: differs from the reference solver's answer{}",
            test.answer.display(),
            first_difference(&expected, &answer)
        ));
    }
    match check(kind, &input, &answer, &answer) {
        CheckOutcome::Accepted => Ok(()),
        CheckOutcome::WrongAnswer(m) | CheckOutcome::JudgeError(m) => {
            Err(format!("the checker rejects the answer file: {m}"))
        }
    }
}

/// The checks of a test whose package brings its own validator: both files readable and
/// the validator accepting the answer file as output.
fn verify_with_validator(problem: &Problem, test: &TestCase) -> Result<(), String> {
    let input = read(&test.input)?;
    let answer = read(&test.answer)?;
    if let crate::problem::OutputValidator::Program(_) = &problem.validator {
        return Ok(()); // run in the sandbox: `super::programs`
    }
    match crate::validators::check(
        &problem.validator,
        &test.validator_args,
        &input,
        &answer,
        &answer,
    ) {
        CheckOutcome::Accepted => Ok(()),
        CheckOutcome::WrongAnswer(m) | CheckOutcome::JudgeError(m) => {
            Err(format!("the output validator rejects the answer file: {m}"))
        }
    }
}

fn sudoku_constraints(puzzles: &[crate::solvers::sudoku::Grid]) -> Result<(), String> {
    if puzzles.is_empty() || puzzles.len() > SUDOKU_MAX_PUZZLES {
        return Err(format!(
            "{} puzzles, the statement promises 1 to {SUDOKU_MAX_PUZZLES}",
            puzzles.len()
        ));
    }
    for (i, p) in puzzles.iter().enumerate() {
        match count_solutions(p, 2) {
            1 => {}
            0 => return Err(format!("puzzle {} has no solution", i + 1)),
            _ => return Err(format!("puzzle {} has more than one solution", i + 1)),
        }
    }
    Ok(())
}

/// ` (first at line N)` for two differing byte strings.
fn first_difference(expected: &[u8], found: &[u8]) -> String {
    let line = expected
        .split(|&b| b == b'\n')
        .zip(found.split(|&b| b == b'\n'))
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| {
            expected
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                .min(found.iter().filter(|&&b| b == b'\n').count())
        });
    format!(" (first at line {})", line + 1)
}

/// A sample must appear verbatim in the statement as a fenced code block, input and answer both.
fn sample_in_statement(problem: &Problem, test: &TestCase) -> Vec<DataFault> {
    let mut faults = Vec::new();
    for (what, path) in [("input", &test.input), ("answer", &test.answer)] {
        let Ok(bytes) = std::fs::read(path) else {
            continue; // already reported by verify_test
        };
        let text = String::from_utf8_lossy(&bytes);
        let block = format!("```\n{}\n```", text.trim_end());
        if !problem.statement.replace("\r\n", "\n").contains(&block) {
            faults.push(DataFault {
                test: Some(test.name.clone()),
                message: format!(
                    "statement.md does not show this sample's {what} ({}) as a code block",
                    path.display()
                ),
            });
        }
    }
    faults
}
