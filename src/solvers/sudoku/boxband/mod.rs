//! The box-and-band solver: the state is kept per box and per band in SIMD vectors, with
//! box-line intersections (triads) and a digit's arrangements across a band as first-class
//! facts, and the search branches on a band's arrangements. The representation follows the
//! ideas of tdoku's SIMD solver (<https://t-dillon.github.io/tdoku/>), written anew.
//!
//! It is compiled twice from one generic core: for AVX-512 (VL, BW, BITALG) and for AVX2
//! alone (with BMI1/2 and POPCNT: Haswell, Zen 1 to 3). [`level`] picks the first this
//! machine runs (checked once); on a machine with neither, [`available`] is false and
//! callers fall back to [`super::fast`].
//!
//! - `layout.rs`: what sits in which lane, and the index tables;
//! - `simd.rs`: the operations the core needs, a trait; `avx512.rs` and `avx2.rs` its two
//!   implementations, each with its `#[target_feature]` entry points;
//! - `state.rs`: the state and its set-up from the givens;
//! - `propagate.rs`: the propagation, from a worklist or depth first;
//! - `boxes.rs`: one box's reasoning and what it tells its bands;
//! - `bands.rs`: one band's reasoning and what it tells its boxes;
//! - `search.rs`: the branching; `counter.rs`: what it counts and keeps.

mod avx2;
mod avx512;
mod bands;
mod boxes;
mod counter;
mod layout;
mod propagate;
mod search;
mod simd;
mod state;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use super::Grid;
use avx2::Avx2;
use avx512::Avx512;
use counter::Counter;
use simd::Simd;
use state::State;

/// An instruction set the core is compiled for, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// AVX-512 VL, BW and BITALG (with AVX2, POPCNT, BMI1).
    Avx512,
    /// AVX2 with BMI1, BMI2 and POPCNT, no AVX-512.
    Avx2,
}

impl Level {
    /// Both, best first.
    pub const ALL: [Level; 2] = [Level::Avx512, Level::Avx2];

    /// Whether this machine has every instruction this build uses (looked up once).
    pub fn supported(self) -> bool {
        static SUPPORTED: OnceLock<[bool; 2]> = OnceLock::new();
        SUPPORTED.get_or_init(|| Level::ALL.map(Level::detect))[self as usize]
    }

    /// Asks the CPU for every feature of this build.
    fn detect(self) -> bool {
        // `is_x86_feature_detected!` wants a literal: one per feature.
        let has = |feature: &str| match feature {
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
            "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
            "avx512bitalg" => std::arch::is_x86_feature_detected!("avx512bitalg"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
            "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
            _ => false,
        };
        match self {
            Level::Avx512 => avx512::FEATURES.iter().all(|f| has(f)),
            Level::Avx2 => avx2::FEATURES.iter().all(|f| has(f)),
        }
    }

    /// The name the bench and the docs use.
    pub fn name(self) -> &'static str {
        match self {
            Level::Avx512 => "avx512",
            Level::Avx2 => "avx2",
        }
    }
}

/// The best build this machine runs (AVX-512, else AVX2), or `None`; looked up once and
/// remembered.
pub fn level() -> Option<Level> {
    static LEVEL: OnceLock<Option<Level>> = OnceLock::new();
    *LEVEL.get_or_init(|| Level::ALL.into_iter().find(|l| l.supported()))
}

/// Whether this machine runs the box-and-band solver at all.
pub fn available() -> bool {
    level().is_some()
}

/// The search for up to `limit` solutions with build `S`.
///
/// # Safety
/// The machine must have `S`'s instruction set.
unsafe fn run_with<S: Simd>(puzzle: &Grid, limit: usize, want_grid: bool) -> Counter {
    let mut counter = Counter {
        limit,
        want_grid,
        count: 0,
        first: None,
        guesses: 0,
    };
    if limit > 0 {
        if let Some(mut state) = State::new(puzzle) {
            if S::propagate::<false>(&mut state) {
                S::search(&mut counter, &mut state);
            }
        }
    }
    counter
}

/// The search with build `level`, checked to run here (`known`: already checked).
fn run_at(level: Level, known: bool, puzzle: &Grid, limit: usize, want: bool) -> Option<Counter> {
    if !known && !level.supported() {
        return None;
    }
    // SAFETY: the machine has the build's instruction set, checked just now or by `level()`.
    Some(unsafe {
        match level {
            Level::Avx512 => run_with::<Avx512>(puzzle, limit, want),
            Level::Avx2 => run_with::<Avx2>(puzzle, limit, want),
        }
    })
}

/// The search with the best build this machine runs; `None` when it runs none.
fn run(puzzle: &Grid, limit: usize, want_grid: bool) -> Option<Counter> {
    run_at(level()?, true, puzzle, limit, want_grid)
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

/// [`solve`] with the build `level`, whatever the dispatch would pick (for tests and
/// benches: the AVX2 build on a machine with AVX-512); `None` when this machine lacks it.
pub fn solve_at(level: Level, puzzle: &Grid) -> Option<Option<Grid>> {
    run_at(level, false, puzzle, 1, true).map(|c| c.first)
}

/// [`count_solutions`] with the build `level`; `None` when this machine lacks it.
pub fn count_solutions_at(level: Level, puzzle: &Grid, limit: usize) -> Option<usize> {
    run_at(level, false, puzzle, limit, false).map(|c| c.count)
}

/// [`count_with_guesses`] with the build `level`; `None` when this machine lacks it.
pub fn count_with_guesses_at(level: Level, puzzle: &Grid, limit: usize) -> Option<(usize, usize)> {
    run_at(level, false, puzzle, limit, false).map(|c| (c.count, c.guesses))
}
