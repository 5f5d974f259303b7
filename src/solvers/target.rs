//! Target Sudoku (NOIP 2009): the maximum weighted score over all completions.
//!
//! Branch and bound over the completions, on the bitboard state of the fast Sudoku solver:
//! naked and hidden singles first (they only drop candidates no completion uses, so every
//! completion survives), then a branch on a cell with the fewest candidates, largest digit
//! first. A branch is abandoned when even the most optimistic completion cannot beat the
//! best score found so far.
//!
//! The optimistic bound never underestimates, so the search stays exact: placed cells count
//! their digit, open cells their largest remaining candidate, each times its weight.

use super::sudoku::fast::State;

/// Cell weights: 6 on the outer ring, then 7, 8, 9, and 10 at the centre.
pub fn weight(row: usize, col: usize) -> u32 {
    let ring = row.min(col).min(8 - row).min(8 - col) as u32;
    6 + ring
}

/// `INNER[k]`: the cells at least `k + 1` rings in from the edge (weight above `6 + k`).
const INNER: [u128; 4] = inner_rings();

const fn inner_rings() -> [u128; 4] {
    let mut rings = [0u128; 4];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let mut ring = r;
        if c < ring {
            ring = c;
        }
        if 8 - r < ring {
            ring = 8 - r;
        }
        if 8 - c < ring {
            ring = 8 - c;
        }
        let mut k = 0;
        while k < ring {
            rings[k] |= 1 << i;
            k += 1;
        }
        i += 1;
    }
    rings
}

/// The cells of each unit (rows, columns, boxes), heaviest first.
const UNIT_CELLS: [[u8; 9]; 27] = unit_cells();

const fn unit_cells() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            let (r, c) = match u / 9 {
                0 => (u, k),
                1 => (k, u - 9),
                _ => ((u - 18) / 3 * 3 + k / 3, (u - 18) % 3 * 3 + k % 3),
            };
            units[u][k] = (r * 9 + c) as u8;
            k += 1;
        }
        // Insertion sort by weight, heaviest first.
        let mut i = 1;
        while i < 9 {
            let mut j = i;
            while j > 0 && const_weight(units[u][j - 1]) < const_weight(units[u][j]) {
                let t = units[u][j];
                units[u][j] = units[u][j - 1];
                units[u][j - 1] = t;
                j -= 1;
            }
            i += 1;
        }
        u += 1;
    }
    units
}

const fn const_weight(cell: u8) -> u32 {
    let (r, c) = ((cell / 9) as u32, (cell % 9) as u32);
    let mut ring = r;
    if c < ring {
        ring = c;
    }
    if 8 - r < ring {
        ring = 8 - r;
    }
    if 8 - c < ring {
        ring = 8 - c;
    }
    6 + ring
}

/// The total weight of the cells in `cells`.
fn weight_sum(cells: u128) -> u32 {
    6 * cells.count_ones() + INNER.iter().map(|&r| (cells & r).count_ones()).sum::<u32>()
}

/// The maximum of sum(weight x digit) over every completion of `grid` (`0` = empty), or
/// `None` when there is no completion (including when the givens clash, or a cell holds a
/// value above 9).
pub fn max_score(grid: &[u8; 81]) -> Option<u32> {
    let mut best = None;
    search(State::new(grid)?, &mut best);
    best
}

/// Explores every completion of `state` that could beat `best`, raising `best` on the way.
fn search(mut state: State, best: &mut Option<u32>) {
    if !state.propagate() {
        return;
    }
    // Placed digits count as they are; each open cell as its largest candidate.
    let mut bound = 0;
    let mut open = state.unsolved;
    for d in (0..9).rev() {
        let placed = state.cand[d] & !state.unsolved;
        let top = state.cand[d] & open;
        open &= !top;
        bound += (d as u32 + 1) * weight_sum(placed | top);
    }
    if best.is_some_and(|b| bound <= b || unit_bound(&state) <= b) {
        return;
    }
    if state.unsolved == 0 {
        // Every cell placed: the bound is the score itself.
        *best = Some(bound);
        return;
    }
    let cell = state.branch_cell();
    for d in (0..9).rev() {
        if state.cand[d] >> cell & 1 != 0 {
            let mut next = state;
            next.place(cell, d);
            search(next, best);
        }
    }
}

/// A tighter bound than the one in [`search`], worth its cost only when that one fails to
/// prune. For each unit it takes the smaller of two upper bounds on the unit's open cells:
/// each cell's largest candidate times its weight, and the unit's missing digits (which its
/// open cells must hold exactly) paired largest with heaviest (the rearrangement
/// inequality). Rows, columns and boxes each partition the grid; the least of the three sums
/// wins.
fn unit_bound(state: &State) -> u32 {
    let mut digit = [0u32; 81];
    let mut top = [0u32; 81];
    let mut used = [0u16; 27];
    let mut placed_score = 0;
    for d in 0..9 {
        let value = d as u32 + 1;
        let mut cells = state.cand[d] & state.unsolved;
        while cells != 0 {
            top[cells.trailing_zeros() as usize] = value;
            cells &= cells - 1;
        }
        let mut cells = state.cand[d] & !state.unsolved;
        while cells != 0 {
            let i = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            digit[i] = value;
            let (r, c) = (i / 9, i % 9);
            used[r] |= 1 << d;
            used[9 + c] |= 1 << d;
            used[18 + r / 3 * 3 + c / 3] |= 1 << d;
            placed_score += value * const_weight(i as u8);
        }
    }
    let mut least = u32::MAX;
    for part in 0..3 {
        let mut total = 0;
        for u in part * 9..part * 9 + 9 {
            let mut missing = !used[u] & 0x1ff;
            let (mut by_cell, mut by_digits) = (0, 0);
            for &cell in &UNIT_CELLS[u] {
                let i = usize::from(cell);
                if digit[i] != 0 {
                    continue;
                }
                let w = const_weight(cell);
                let best_missing = 16 - missing.leading_zeros();
                missing &= !(1u16 << best_missing.saturating_sub(1));
                by_cell += w * top[i];
                by_digits += w * best_missing;
            }
            total += by_cell.min(by_digits);
        }
        least = least.min(total);
    }
    placed_score + least
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> [u8; 81] {
        let mut grid = [0u8; 81];
        let digits: Vec<u8> = text
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        grid.copy_from_slice(&digits);
        grid
    }

    #[test]
    fn noip_samples() {
        let first = parse(
            "7 0 0 9 0 0 0 0 1  1 0 0 0 0 5 9 0 0  0 0 0 2 0 0 0 8 0
             0 0 5 0 2 0 0 0 3  0 0 0 0 0 0 6 4 8  4 1 3 0 0 0 0 0 0
             0 0 7 0 0 2 0 9 0  2 0 1 0 6 0 8 0 4  0 8 0 5 0 4 0 1 2",
        );
        assert_eq!(max_score(&first), Some(2829));
        let second = parse(
            "0 0 0 7 0 2 4 5 3  9 0 0 0 0 8 0 0 0  7 4 0 0 0 5 0 1 0
             1 9 5 0 8 0 0 0 0  0 7 0 0 0 0 0 2 5  0 3 0 5 7 9 1 0 8
             0 0 0 6 0 1 0 0 0  0 6 0 9 0 0 0 0 1  0 0 0 0 0 0 0 0 6",
        );
        assert_eq!(max_score(&second), Some(2852));
    }

    /// A valid full grid: row r is the digits shifted by 3r + r/3.
    fn full_grid() -> [u8; 81] {
        let mut grid = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                grid[r * 9 + c] = ((r * 3 + r / 3 + c) % 9) as u8 + 1;
            }
        }
        grid
    }

    #[test]
    fn clashing_givens_have_no_completion() {
        let mut grid = full_grid();
        grid[0] = 0;
        grid[40] = 0;
        assert!(max_score(&grid).is_some());
        grid[0] = grid[1];
        assert_eq!(max_score(&grid), None);
        let mut bad = full_grid();
        bad[3] = 10;
        assert_eq!(max_score(&bad), None);
    }

    #[test]
    fn full_grid_scores_itself() {
        let grid = full_grid();
        let expected: u32 = (0..81)
            .map(|i| weight(i / 9, i % 9) * u32::from(grid[i]))
            .sum();
        assert_eq!(max_score(&grid), Some(expected));
    }
}
