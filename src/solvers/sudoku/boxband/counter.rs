//! What the search keeps between nodes.

use crate::solvers::sudoku::Grid;

/// Search bookkeeping: solutions counted so far, the first one, and when to stop.
pub(super) struct Counter {
    /// Stop once this many solutions are counted.
    pub(super) limit: usize,
    /// Whether the caller wants the first solution's grid (counting alone does not).
    pub(super) want_grid: bool,
    /// Solutions counted so far.
    pub(super) count: usize,
    /// The first solution found, when `want_grid`.
    pub(super) first: Option<Grid>,
    /// Branch nodes visited (each tries one arrangement, then the others).
    pub(super) guesses: usize,
}
