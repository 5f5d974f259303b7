//! Target Sudoku (NOIP 2009): the maximum weighted score over all completions.

/// Cell weights: 6 on the outer ring, then 7, 8, 9, and 10 at the centre.
pub fn weight(row: usize, col: usize) -> u32 {
    let ring = row.min(col).min(8 - row).min(8 - col) as u32;
    6 + ring
}

/// The maximum of sum(weight x digit) over every completion of `grid` (`0` = empty), or
/// `None` when there is no completion (including when the givens clash).
pub fn max_score(grid: &[u8; 81]) -> Option<u32> {
    todo!("{grid:?}")
}
