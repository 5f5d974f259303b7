//! The box-and-band solver against `naive` and `fast`: the same counts at every limit, valid
//! first solutions (the unique one when there is one), nothing for clashing, out-of-range and
//! unsolvable grids, and the same answer every time; each test runs every build this machine
//! has (the AVX2 build too where the dispatch would pick AVX-512).

use super::{count_solutions_at, count_with_guesses_at, level, solve_at, Level};
use crate::solvers::sudoku::fast::copies_tests::grids;
use crate::solvers::sudoku::tests::parse;
use crate::solvers::sudoku::{fast, is_valid_solution, naive, Grid};

/// The builds to test: those this machine runs (on a machine with none the callers use
/// `fast`, which its own tests cover).
fn builds() -> Vec<Level> {
    let here: Vec<Level> = Level::ALL.into_iter().filter(|l| l.supported()).collect();
    for missing in Level::ALL.iter().filter(|l| !here.contains(l)) {
        eprintln!(
            "skipped: this machine cannot run the {} build",
            missing.name()
        );
    }
    here
}

fn count(level: Level, grid: &Grid, limit: usize) -> usize {
    count_solutions_at(level, grid, limit).expect("supported")
}

fn first(level: Level, grid: &Grid) -> Option<Grid> {
    solve_at(level, grid).expect("supported")
}

#[test]
fn the_dispatch_picks_the_best_build_here() {
    let best = Level::ALL.into_iter().find(|l| l.supported());
    assert_eq!(level(), best);
    // The AVX2 build runs wherever the AVX-512 one does (it needs a subset).
    if Level::Avx512.supported() {
        assert!(Level::Avx2.supported());
    }
}

#[test]
fn counts_and_solves_like_naive_and_fast_on_720_grids() {
    let builds = builds();
    for grid in grids() {
        // One naive count to 3 gives the count at every limit up to 3.
        let up_to_three = naive::count_solutions(&grid, 3);
        let mut firsts = Vec::new();
        for &level in &builds {
            for limit in [1, 2, 3] {
                let n = count(level, &grid, limit);
                assert_eq!(
                    n,
                    up_to_three.min(limit),
                    "{level:?} {grid:?} limit {limit}"
                );
                assert_eq!(
                    n,
                    fast::count_solutions(&grid, limit),
                    "{level:?} {grid:?} limit {limit}"
                );
            }
            let sol = first(level, &grid);
            assert_eq!(sol.is_some(), up_to_three > 0, "{level:?} {grid:?}");
            if let Some(sol) = sol {
                assert!(is_valid_solution(&grid, &sol), "{level:?} {grid:?}");
                if up_to_three == 1 {
                    // The only completion: every exact solver returns it.
                    assert_eq!(Some(sol), fast::solve(&grid), "{level:?} {grid:?}");
                }
            }
            assert_eq!(first(level, &grid), sol, "solve is deterministic");
            let tree = count_with_guesses_at(level, &grid, 2).expect("supported").1;
            firsts.push((sol, tree));
        }
        // Both builds run the same search: the same first completion, the same tree.
        assert!(firsts.windows(2).all(|w| w[0] == w[1]), "{grid:?}");
    }
}

#[test]
fn counts_every_completion_with_a_large_limit() {
    for level in builds() {
        counts_every_completion(level);
    }
}

fn counts_every_completion(level: Level) {
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
        assert_eq!(count(level, &fewer, usize::MAX), all, "{fewer:?}");
        assert_eq!(count(level, &fewer, all + 1), all, "{fewer:?}");
        if all > 1 {
            assert_eq!(count(level, &fewer, all - 1), all - 1, "{fewer:?}");
        }
    }
    assert!(
        several > 20,
        "only {several} grids with several completions"
    );
    let empty = [0u8; 81];
    assert_eq!(count(level, &empty, 1000), 1000);
    let sol = first(level, &empty).expect("solvable");
    assert!(is_valid_solution(&empty, &sol));
    assert_eq!(count(level, &empty, 0), 0);
}

#[test]
fn clashing_out_of_range_and_unsolvable_grids_have_none() {
    let builds = builds();
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
        for &level in &builds {
            assert_eq!(first(level, &g), None, "{level:?} {g:?}");
            for limit in [1, 2, usize::MAX] {
                assert_eq!(count(level, &g, limit), 0, "{level:?} {g:?}");
            }
        }
    }
}

#[test]
fn hard_puzzles_branch_on_bands() {
    // A 1905_11+ puzzle is not solved by propagation alone: the search branches, the same
    // tree in every build.
    let hard =
        parse("98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6");
    let mut trees = Vec::new();
    for level in builds() {
        let (n, guesses) = count_with_guesses_at(level, &hard, 2).expect("supported");
        assert_eq!(n, 1);
        assert!(
            guesses > 0,
            "a 1905_11+ puzzle is not solved by propagation alone"
        );
        trees.push(guesses);
    }
    assert!(trees.windows(2).all(|w| w[0] == w[1]), "{trees:?}");
}
