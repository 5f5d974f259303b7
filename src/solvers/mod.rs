//! Pure reference solvers, one per problem. No I/O: grids in, answers out.
//!
//! Grids are plain arrays so that checkers, generators and benchmarks share one shape:
//! `[u8; 81]` in row-major order with `0` for an empty cell.

pub mod binary;
pub mod sudoku;
pub mod target;
