//! Binary Sudoku (USACO 2011 Nov Gold): the minimum number of flips to even parity everywhere.

/// The minimum number of cells to flip so that every row, column and 3x3 box of `grid`
/// (cells `0` or `1`) holds an even number of ones. Always solvable; never more than 9.
pub fn min_flips(grid: &[u8; 81]) -> u32 {
    todo!("{grid:?}")
}
