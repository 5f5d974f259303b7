//! The box-and-band solver against `naive` and `fast`: the same counts at every limit, valid
//! first solutions (the unique one when there is one), nothing for clashing, out-of-range and
//! unsolvable grids, and the same answer every time.

use super::{available, count_solutions, count_with_guesses, solve};
use crate::solvers::sudoku::fast::copies_tests::grids;
use crate::solvers::sudoku::tests::parse;
use crate::solvers::sudoku::{fast, is_valid_solution, naive, Grid};

/// Whether to run: the tests below need the instructions; on a machine without them the
/// callers use `fast`, which its own tests cover.
fn runs_here() -> bool {
    if !available() {
        eprintln!("skipped: this machine lacks AVX-512 VL/BW/BITALG");
    }
    available()
}

fn count(grid: &Grid, limit: usize) -> usize {
    count_solutions(grid, limit).expect("available")
}

fn first(grid: &Grid) -> Option<Grid> {
    solve(grid).expect("available")
}

#[test]
fn counts_and_solves_like_naive_and_fast_on_720_grids() {
    if !runs_here() {
        return;
    }
    for grid in grids() {
        // One naive count to 3 gives the count at every limit up to 3.
        let up_to_three = naive::count_solutions(&grid, 3);
        for limit in [1, 2, 3] {
            let n = count(&grid, limit);
            assert_eq!(n, up_to_three.min(limit), "{grid:?} limit {limit}");
            assert_eq!(
                n,
                fast::count_solutions(&grid, limit),
                "{grid:?} limit {limit}"
            );
        }
        let sol = first(&grid);
        assert_eq!(sol.is_some(), up_to_three > 0, "{grid:?}");
        if let Some(sol) = sol {
            assert!(is_valid_solution(&grid, &sol), "{grid:?}");
            if up_to_three == 1 {
                // The only completion: every exact solver returns it.
                assert_eq!(Some(sol), fast::solve(&grid), "{grid:?}");
            }
        }
        assert_eq!(first(&grid), sol, "solve is deterministic");
    }
}

#[test]
fn counts_every_completion_with_a_large_limit() {
    if !runs_here() {
        return;
    }
    // Puzzles with three more givens removed have from one to thousands of completions;
    // `fast` (itself checked against `naive` and exhaustive enumeration) counts them all.
    let mut several = 0;
    for (k, grid) in grids().into_iter().step_by(2).enumerate() {
        let mut fewer = grid;
        let givens: Vec<usize> = (0..81).filter(|&i| grid[i] != 0).collect();
        for j in 0..3 {
            fewer[givens[(k * 5 + j * 7) % givens.len()]] = 0;
        }
        let all = fast::count_solutions(&fewer, 20_001);
        if all > 20_000 {
            continue;
        }
        several += usize::from(all > 2);
        assert_eq!(count(&fewer, usize::MAX), all, "{fewer:?}");
        assert_eq!(count(&fewer, all + 1), all, "{fewer:?}");
        if all > 1 {
            assert_eq!(count(&fewer, all - 1), all - 1, "{fewer:?}");
        }
    }
    assert!(
        several > 20,
        "only {several} grids with several completions"
    );
    let empty = [0u8; 81];
    assert_eq!(count(&empty, 1000), 1000);
    assert!(is_valid_solution(&empty, &first(&empty).expect("solvable")));
    assert_eq!(count(&empty, 0), 0);
}

#[test]
fn clashing_out_of_range_and_unsolvable_grids_have_none() {
    if !runs_here() {
        return;
    }
    let base =
        parse(".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.");
    let mut bad: Vec<Grid> = Vec::new();
    // The same digit twice in a row, a column, a box (same row and column of the box too).
    for (a, b) in [(0, 8), (0, 72), (0, 20), (30, 31), (30, 39), (40, 50)] {
        let mut g = [0u8; 81];
        g[a] = 5;
        g[b] = 5;
        bad.push(g);
    }
    for value in [10u8, 11, 200, 255] {
        for cell in [0, 40, 80] {
            let mut g = base;
            g[cell] = value;
            bad.push(g);
            let mut g = [0u8; 81];
            g[cell] = value;
            bad.push(g);
        }
    }
    // Row 0 lacks only a 9 in its first cell, but column 0 already has one.
    let mut g = [0u8; 81];
    for (c, cell) in g.iter_mut().enumerate().take(9).skip(1) {
        *cell = c as u8;
    }
    g[36] = 9;
    bad.push(g);
    for g in bad {
        assert_eq!(first(&g), None, "{g:?}");
        for limit in [1, 2, usize::MAX] {
            assert_eq!(count(&g, limit), 0, "{g:?}");
        }
    }
}

#[test]
fn hard_puzzles_branch_on_bands() {
    if !runs_here() {
        return;
    }
    // A 1905_11+ puzzle is not solved by propagation alone: the search branches.
    let hard =
        parse("98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6");
    let (n, guesses) = count_with_guesses(&hard, 2).expect("available");
    assert_eq!(n, 1);
    assert!(
        guesses > 0,
        "a 1905_11+ puzzle is not solved by propagation alone"
    );
}
