//! Classic 9x9 Sudoku: solve and count solutions.
//!
//! [`solve`] and [`count_solutions`] are the entry points everyone else uses; they run the
//! box-and-band SIMD solver in `boxband` on machines with AVX-512 (VL, BW, BITALG) or AVX2
//! (each has its build), and the bitboard solver in [`fast`] elsewhere. [`naive`] is the plain fewest-candidates bitmask
//! search kept as the benchmark baseline and test oracle.
//!
//! A grid whose cells hold a value above 9, or whose givens clash, has no solution.

#[cfg(target_arch = "x86_64")]
pub mod boxband;
pub mod fast;
pub mod naive;

/// A 9x9 grid in row-major order, `0` for an empty cell and `1..=9` for a digit.
pub type Grid = [u8; 81];

/// Solves `puzzle`, returning one completion, or `None` when it has none.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    #[cfg(target_arch = "x86_64")]
    if let Some(solution) = boxband::solve(puzzle) {
        return solution;
    }
    fast::solve(puzzle)
}

/// Counts the completions of `puzzle`, stopping at `limit` (so `limit = 2` tells unique from not).
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(count) = boxband::count_solutions(puzzle, limit) {
        return count;
    }
    fast::count_solutions(puzzle, limit)
}

/// The 3x3 box (0..9, row-major) holding cell `row`, `col`.
pub(crate) const fn box_of(row: usize, col: usize) -> usize {
    (row / 3) * 3 + col / 3
}

/// Whether `sol` completes `puzzle`: every given kept, every row, column and box 1 to 9.
/// A plain test oracle, written apart from the solvers it checks.
#[cfg(test)]
pub(crate) fn is_valid_solution(puzzle: &Grid, sol: &Grid) -> bool {
    let kept = puzzle.iter().zip(sol).all(|(&p, &s)| p == 0 || p == s);
    let units_ok = (0..9).all(|u| {
        let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << sol[u * 9 + k];
            col |= 1 << sol[k * 9 + u];
            bx |= 1 << sol[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        row == 0x3fe && col == 0x3fe && bx == 0x3fe
    });
    kept && units_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses 81 characters, `.` or `0` for an empty cell.
    pub(crate) fn parse(line: &str) -> Grid {
        let mut grid = [0u8; 81];
        for (cell, b) in grid.iter_mut().zip(line.bytes()) {
            *cell = if b.is_ascii_digit() { b - b'0' } else { 0 };
        }
        grid
    }

    const POJ1: &str =
        ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.";
    const POJ2: &str =
        "......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.";

    #[test]
    fn solves_poj_samples_uniquely() {
        for text in [POJ1, POJ2] {
            let puzzle = parse(text);
            let sol = solve(&puzzle).expect("sample is solvable");
            assert!(is_valid_solution(&puzzle, &sol));
            assert_eq!(count_solutions(&puzzle, 2), 1);
            assert_eq!(naive::count_solutions(&puzzle, 2), 1);
        }
    }

    /// Unique puzzles from the repository's `datasets/`: 1905_11+, top1465 and 17-clue.
    const HARD: [&str; 9] = [
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        "98.7..6..75.....8...6......4...3.5....54.9.6.....2...4.1.........98...7...79.1.5.",
        "98.7..6..75..6..8...6......6....4.32..8.7.9.....3.....21.....9...7.9.5.....1....4",
        "98.7.....65....7....7.6....4....3.8...89..5.........43.2...1.6...96..8......2...1",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
        "....7...1..6.....5......4...9....5..6.81.5..........8731..9....76..2....2..31...9",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        "..............1.23..4.56......2........73......8...6...2.3...7.6.....5..9........",
    ];

    #[test]
    fn hard_puzzles_have_one_solution_in_both_solvers() {
        for text in HARD {
            let puzzle = parse(text);
            let sol = solve(&puzzle).expect("dataset puzzles are solvable");
            assert!(is_valid_solution(&puzzle, &sol), "{text}");
            assert_eq!(naive::solve(&puzzle), Some(sol), "{text}");
            assert_eq!(count_solutions(&puzzle, 2), 1, "{text}");
            assert_eq!(naive::count_solutions(&puzzle, 2), 1, "{text}");
        }
    }

    #[test]
    fn removing_a_given_of_a_minimal_puzzle_gives_several_solutions() {
        // A 17-clue puzzle is minimal: without any one of its givens it is no longer unique.
        let puzzle = parse(HARD[7]);
        for i in (0..81).filter(|&i| puzzle[i] != 0) {
            let mut fewer = puzzle;
            fewer[i] = 0;
            assert_eq!(count_solutions(&fewer, 2), 2, "given {i}");
            assert_eq!(count_solutions(&fewer, 1), 1);
            let sol = solve(&fewer).expect("still solvable");
            assert!(is_valid_solution(&fewer, &sol));
        }
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let empty = [0u8; 81];
        assert_eq!(count_solutions(&empty, 5), 5);
        assert!(is_valid_solution(&empty, &solve(&empty).expect("solvable")));
    }

    #[test]
    fn clashing_and_out_of_range_givens_have_none() {
        let mut clash = parse(POJ1);
        clash[0] = 2; // a 2 already sits in row 0
        assert_eq!(solve(&clash), None);
        assert_eq!(count_solutions(&clash, 2), 0);
        let mut bad = parse(POJ1);
        bad[0] = 10;
        assert_eq!(count_solutions(&bad, 2), 0);
    }

    #[test]
    fn unsolvable_without_clash_has_none() {
        // Row 0 lacks only 9 in its first cell, but column 0 already has a 9.
        let mut grid = [0u8; 81];
        for (c, cell) in grid.iter_mut().enumerate().take(9).skip(1) {
            *cell = c as u8;
        }
        grid[9 * 4] = 9;
        assert_eq!(solve(&grid), None);
        assert_eq!(count_solutions(&grid, 2), 0);
    }
}
