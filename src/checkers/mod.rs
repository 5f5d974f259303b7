//! Checkers: decide whether a submission's output is right for one test.
//!
//! Output is read as whitespace-separated tokens, so trailing spaces, CRLF and a missing final
//! newline never matter. Garbage and oversized output give a wrong-answer message, never a panic.

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
    todo!("{kind:?} {} {} {}", input.len(), output.len(), answer.len())
}
