//! Checkers: decide whether a submission's output is right for one test.
//!
//! Output is read as whitespace-separated tokens, so trailing spaces, CRLF and a missing final
//! newline never matter. Garbage and oversized output give a wrong-answer message, never a panic.
//! Tokens are borrowed slices of the output, so checking needs no copy of it: the extra memory
//! is a few grids whatever the output size.
//!
//! - [`tokens`]: the whitespace tokenizer.
//! - [`sudoku`]: grid validity for every puzzle of a batch.
//! - [`integer`]: one integer against the reference answer (`target-sudoku`, `binary-sudoku`).

pub mod integer;
pub mod sudoku;
pub mod tokens;

use crate::problem::CheckerKind;

/// What a checker concluded about one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckOutcome {
    /// The output is right.
    Accepted,
    /// The output is wrong; the message names the first fault precisely.
    WrongAnswer(String),
    /// The test's own input or answer is malformed: the judge's fault, reported as `SE`.
    JudgeError(String),
}

/// Checks `output` for the test with the given `input` and reference `answer` bytes.
pub fn check(kind: CheckerKind, input: &[u8], output: &[u8], answer: &[u8]) -> CheckOutcome {
    match kind {
        CheckerKind::Sudoku => sudoku::check(input, output, answer),
        CheckerKind::TargetSudoku | CheckerKind::BinarySudoku => integer::check(output, answer),
    }
}
