//! The two compiled copies of the search (portable and native) against each other and
//! against `naive`: the same counts and the same first solution on every grid.

use super::{native_features, run_on};
use crate::solvers::sudoku::tests::parse;
use crate::solvers::sudoku::{is_valid_solution, naive, Grid};

/// Up to `n` puzzles from a list in the repository's `datasets/`.
fn list(file: &str, n: usize) -> Vec<Grid> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("datasets")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the lists ship with the repository)",
            path.display()
        )
    });
    text.lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .take(n)
        .map(parse)
        .collect()
}

/// Each puzzle, and variants with more solutions (a given removed), no solution (a digit
/// changed, which may clash or not) and a cell out of range.
pub(crate) fn grids() -> Vec<Grid> {
    let mut all = Vec::new();
    for file in [
        "puzzles2_17_clue.txt",
        "puzzles3_magictour_top1465.txt",
        "puzzles5_forum_hardest_1905_11+.txt",
    ] {
        for (k, p) in list(file, 60).into_iter().enumerate() {
            let givens: Vec<usize> = (0..81).filter(|&i| p[i] != 0).collect();
            let mut fewer = p;
            fewer[givens[k % givens.len()]] = 0;
            fewer[givens[(k * 7 + 3) % givens.len()]] = 0;
            let mut changed = p;
            let i = givens[(k * 5 + 1) % givens.len()];
            changed[i] = changed[i] % 9 + 1;
            let mut wild = p;
            wild[k % 81] = 10;
            all.extend([p, fewer, changed, wild]);
        }
    }
    all
}

#[test]
fn both_copies_count_and_solve_like_naive() {
    let native = native_features();
    for grid in grids() {
        for limit in [1, 2, 3] {
            let portable = run_on(&grid, limit, true, false);
            assert_eq!(
                portable.count,
                naive::count_solutions(&grid, limit),
                "{grid:?} limit {limit}"
            );
            if let Some(sol) = portable.first {
                assert!(is_valid_solution(&grid, &sol), "{grid:?}");
            }
            if native {
                let fast = run_on(&grid, limit, true, true);
                assert_eq!(fast.count, portable.count, "{grid:?} limit {limit}");
                assert_eq!(fast.first, portable.first, "{grid:?} limit {limit}");
            }
        }
    }
}
