//! Classic 9x9 Sudoku: solve and count solutions.

/// A 9x9 grid in row-major order, `0` for an empty cell and `1..=9` for a digit.
pub type Grid = [u8; 81];

/// Solves `puzzle`, returning one completion, or `None` when it has none.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    todo!("fast bitboard solver: {puzzle:?}")
}

/// Counts the completions of `puzzle`, stopping at `limit` (so `limit = 2` tells unique from not).
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    todo!("{puzzle:?} {limit}")
}
