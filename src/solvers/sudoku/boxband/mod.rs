//! The box-and-band solver: the state is kept per box and per band in SIMD vectors, with
//! box-line intersections (triads) and a digit's arrangements across a band as first-class
//! facts, and the search branches on a band's arrangements. The representation follows the
//! ideas of tdoku's SIMD solver (<https://t-dillon.github.io/tdoku/>), written anew.
//!
//! It needs AVX-512 (VL, BW, BITALG) and AVX2; [`available`] says whether this machine has
//! them (checked once). Callers fall back to [`super::fast`] when it does not.
//!
//! - `layout.rs`: what sits in which lane, and the index tables;
//! - `state.rs`: the state, its set-up from the givens and the propagation worklist;
//! - `boxes.rs`: one box's reasoning and what it tells its bands;
//! - `bands.rs`: one band's reasoning and what it tells its boxes;
//! - `search.rs`: the branching.

mod bands;
mod boxes;
mod layout;
mod search;
mod state;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use super::Grid;
use search::Counter;
use state::State;

/// Whether this machine runs the box-and-band solver (x86-64 with AVX2 and AVX-512 VL, BW
/// and BITALG); looked up once and remembered.
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512bitalg")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
    })
}

/// The search for up to `limit` solutions; `None` when this machine lacks the instructions.
fn run(puzzle: &Grid, limit: usize, want_grid: bool) -> Option<Counter> {
    if !available() {
        return None;
    }
    let mut counter = Counter {
        limit,
        want_grid,
        count: 0,
        first: None,
        guesses: 0,
    };
    if limit > 0 {
        if let Some(mut state) = State::new(puzzle) {
            // SAFETY: `available` said this machine has every feature these are compiled with.
            unsafe {
                if state.propagate::<false>() {
                    counter.search(&mut state);
                }
            }
        }
    }
    Some(counter)
}

/// Solves `puzzle`; `Some(None)` when it has no solution, `None` when this machine cannot
/// run this solver.
pub fn solve(puzzle: &Grid) -> Option<Option<Grid>> {
    run(puzzle, 1, true).map(|c| c.first)
}

/// Counts the completions of `puzzle`, stopping at `limit`; `None` when this machine cannot
/// run this solver.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> Option<usize> {
    run(puzzle, limit, false).map(|c| c.count)
}

/// Counts up to `limit` completions and the branch nodes visited (for measurements);
/// `None` when this machine cannot run this solver.
pub fn count_with_guesses(puzzle: &Grid, limit: usize) -> Option<(usize, usize)> {
    run(puzzle, limit, false).map(|c| (c.count, c.guesses))
}
