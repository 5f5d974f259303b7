//! Property tests: each reference solver against an independent, slow but obviously right
//! method, on random inputs.

use std::sync::OnceLock;

use proptest::prelude::*;
use sudojudge::solvers::{binary, sudoku, target};

/// A full valid grid chosen by `seed`: a pattern grid relabelled and with rows, columns,
/// bands and stacks shuffled (each transformation keeps a grid valid).
fn full_grid(seed: u64) -> [u8; 81] {
    let mut state = seed;
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % n as u64) as usize
    };
    let mut shuffle = |items: &mut [usize]| {
        for i in (1..items.len()).rev() {
            items.swap(i, next(i + 1));
        }
    };
    let mut lines = || {
        let mut bands = [0, 1, 2];
        shuffle(&mut bands);
        let mut order = [0; 9];
        for (b, &band) in bands.iter().enumerate() {
            let mut within = [0, 1, 2];
            shuffle(&mut within);
            for (k, &r) in within.iter().enumerate() {
                order[b * 3 + k] = band * 3 + r;
            }
        }
        order
    };
    let rows = lines();
    let cols = lines();
    let mut digits = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    shuffle(&mut digits);
    let mut grid = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = (rows[r], cols[c]);
            grid[r * 9 + c] = digits[(sr * 3 + sr / 3 + sc) % 9] as u8 + 1;
        }
    }
    grid
}

/// `grid` with the cells selected by `holes` (indices, taken mod 81) emptied.
fn punch(grid: &[u8; 81], holes: &[usize]) -> [u8; 81] {
    let mut out = *grid;
    for &h in holes {
        out[h % 81] = 0;
    }
    out
}

fn peers_ok(g: &[u8; 81], i: usize, v: u8) -> bool {
    let (r, c) = (i / 9, i % 9);
    (0..9).all(|k| {
        (k == c || g[r * 9 + k] != v) && (k == r || g[k * 9 + c] != v) && {
            let j = (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3;
            j == i || g[j] != v
        }
    })
}

fn is_solution_of(puzzle: &[u8; 81], sol: &[u8; 81]) -> bool {
    (0..81).all(|i| {
        (1..=9).contains(&sol[i])
            && (puzzle[i] == 0 || puzzle[i] == sol[i])
            && peers_ok(sol, i, sol[i])
    })
}

/// Every completion of `grid`, found by trying each digit in each empty cell in cell order
/// (no pruning beyond the rules). `None` when the givens clash.
fn all_completions(grid: &[u8; 81]) -> Option<Vec<[u8; 81]>> {
    fn go(g: &mut [u8; 81], from: usize, out: &mut Vec<[u8; 81]>) {
        let Some(i) = (from..81).find(|&i| g[i] == 0) else {
            out.push(*g);
            return;
        };
        for v in 1..=9 {
            if peers_ok(g, i, v) {
                g[i] = v;
                go(g, i + 1, out);
                g[i] = 0;
            }
        }
    }
    if (0..81).any(|i| grid[i] > 9 || (grid[i] != 0 && !peers_ok(grid, i, grid[i]))) {
        return None;
    }
    let mut g = *grid;
    let mut out = Vec::new();
    go(&mut g, 0, &mut out);
    Some(out)
}

fn score(g: &[u8; 81]) -> u32 {
    (0..81)
        .map(|i| target::weight(i / 9, i % 9) * u32::from(g[i]))
        .sum()
}

fn cell_syndrome(i: usize) -> u32 {
    let (r, c) = (i / 9, i % 9);
    (1 << r) | (1 << (9 + c)) | (1 << (18 + r / 3 * 3 + c / 3))
}

/// Minimum flips for every reachable 27-bit parity syndrome (rows, columns, boxes), by a
/// breadth-first search from the all-even syndrome over single-cell flips.
fn flip_distances() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut dist = vec![u8::MAX; 1 << 27];
        dist[0] = 0;
        let mut frontier = vec![0u32];
        let mut depth = 0u8;
        while !frontier.is_empty() {
            depth += 1;
            let mut next = Vec::new();
            for &s in &frontier {
                for i in 0..81 {
                    let t = s ^ cell_syndrome(i);
                    if dist[t as usize] == u8::MAX {
                        dist[t as usize] = depth;
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        dist
    })
}

fn grid_syndrome(grid: &[u8; 81]) -> u32 {
    (0..81)
        .filter(|&i| grid[i] == 1)
        .fold(0u32, |s, i| s ^ cell_syndrome(i))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn sudoku_solutions_are_valid_and_counts_match_naive(
        seed in any::<u64>(),
        holes in prop::collection::vec(0usize..81, 0..70),
    ) {
        let puzzle = punch(&full_grid(seed), &holes);
        let sol = sudoku::solve(&puzzle);
        prop_assert!(sol.is_some(), "a punched full grid always has a solution");
        prop_assert!(sol.is_some_and(|s| is_solution_of(&puzzle, &s)));
        let fast = sudoku::count_solutions(&puzzle, 3);
        prop_assert!(fast >= 1);
        prop_assert_eq!(fast, sudoku::naive::count_solutions(&puzzle, 3));
    }

    #[test]
    fn sudoku_counts_exact_on_small_puzzles(
        seed in any::<u64>(),
        holes in prop::collection::vec(0usize..81, 0..30),
    ) {
        let puzzle = punch(&full_grid(seed), &holes);
        let all = all_completions(&puzzle).unwrap_or_default();
        prop_assert_eq!(sudoku::count_solutions(&puzzle, usize::MAX), all.len());
        prop_assert_eq!(sudoku::count_solutions(&puzzle, 2), all.len().min(2));
    }

    #[test]
    fn sudoku_random_givens_agree_with_naive(
        givens in prop::collection::vec((0usize..81, 1u8..=9), 0..30),
    ) {
        // Random givens: often clashing, sometimes unsolvable without a clash.
        let mut puzzle = [0u8; 81];
        for &(i, v) in &givens {
            puzzle[i] = v;
        }
        let count = sudoku::count_solutions(&puzzle, 2);
        prop_assert_eq!(count, sudoku::naive::count_solutions(&puzzle, 2));
        match sudoku::solve(&puzzle) {
            Some(sol) => prop_assert!(count >= 1 && is_solution_of(&puzzle, &sol)),
            None => prop_assert_eq!(count, 0),
        }
    }

    #[test]
    fn sudoku_clashing_givens_have_no_solution(
        seed in any::<u64>(),
        holes in prop::collection::vec(0usize..81, 1..60),
        cell in 0usize..81,
    ) {
        let full = full_grid(seed);
        let mut puzzle = punch(&full, &holes);
        // Put a row-mate's digit into `cell` too: that row now holds it twice.
        let mate = cell / 9 * 9 + (cell % 9 + 1) % 9;
        puzzle[cell] = full[mate];
        puzzle[mate] = full[mate];
        prop_assert_eq!(sudoku::count_solutions(&puzzle, 2), 0);
        prop_assert_eq!(sudoku::naive::count_solutions(&puzzle, 2), 0);
        prop_assert_eq!(sudoku::solve(&puzzle), None);
        prop_assert_eq!(target::max_score(&puzzle), None);
    }

    #[test]
    fn target_matches_exhaustive_enumeration(
        seed in any::<u64>(),
        holes in prop::collection::vec(0usize..81, 0..45),
        noise in prop::collection::vec((0usize..81, 1u8..=9), 0..3),
    ) {
        let mut puzzle = punch(&full_grid(seed), &holes);
        // Changed givens make some inputs clash and some unsolvable without a clash.
        for &(i, v) in &noise {
            puzzle[i] = v;
        }
        let expected = all_completions(&puzzle).and_then(|all| all.iter().map(score).max());
        prop_assert_eq!(target::max_score(&puzzle), expected);
    }

    #[test]
    fn binary_matches_breadth_first_search(cells in prop::collection::vec(0u8..2, 81)) {
        let mut grid = [0u8; 81];
        grid.copy_from_slice(&cells);
        let expected = u32::from(flip_distances()[grid_syndrome(&grid) as usize]);
        prop_assert!(expected <= 9);
        prop_assert_eq!(binary::min_flips(&grid), expected);
    }

    #[test]
    fn binary_sparse_grids_match_breadth_first_search(
        ones in prop::collection::vec(0usize..81, 0..12),
    ) {
        let mut grid = [0u8; 81];
        for &i in &ones {
            grid[i] ^= 1;
        }
        let expected = u32::from(flip_distances()[grid_syndrome(&grid) as usize]);
        prop_assert_eq!(binary::min_flips(&grid), expected);
    }
}
