//! The reference answer of an input, as the bytes of a `.ans` file, from the exact solvers.

use super::format::{self, FormatError};
use super::CheckerKind;
use crate::solvers;

/// Why no reference answer could be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The input does not follow the problem's format (the fault is part of the message, as
    /// it is a leaf: no source chain to print twice).
    #[error("malformed input: {0}")]
    Format(FormatError),
    /// A sudoku puzzle has no solution, so the input breaks the statement's promise.
    #[error("puzzle {0} has no solution")]
    Unsolvable(usize),
}

impl From<FormatError> for AnswerError {
    fn from(fault: FormatError) -> AnswerError {
        AnswerError::Format(fault)
    }
}

/// The answer bytes for `input`: solved grids for `sudoku`, one integer line otherwise.
pub fn reference_answer(kind: CheckerKind, input: &[u8]) -> Result<Vec<u8>, AnswerError> {
    match kind {
        CheckerKind::Sudoku => {
            let puzzles = format::sudoku::parse(input)?;
            let mut out = Vec::with_capacity(puzzles.len() * 82);
            for (i, puzzle) in puzzles.iter().enumerate() {
                let solved =
                    solvers::sudoku::solve(puzzle).ok_or(AnswerError::Unsolvable(i + 1))?;
                format::sudoku::append_solution(&mut out, &solved);
            }
            Ok(out)
        }
        CheckerKind::TargetSudoku => {
            let grid = format::target::parse(input)?;
            Ok(integer_line(
                solvers::target::max_score(&grid).map_or(-1, i64::from),
            ))
        }
        CheckerKind::BinarySudoku => {
            let grid = format::binary::parse(input)?;
            Ok(integer_line(i64::from(solvers::binary::min_flips(&grid))))
        }
    }
}

/// One integer and a newline, the `.ans` form of `target-sudoku` and `binary-sudoku`.
pub fn integer_line(value: i64) -> Vec<u8> {
    format!("{value}\n").into_bytes()
}
