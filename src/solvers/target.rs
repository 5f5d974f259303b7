//! Target Sudoku (NOIP 2009): the maximum weighted score over all completions.
//!
//! Branch and bound over the completions: fill the empty cell with the fewest candidates
//! (ties: the heavier cell), largest digit first, and abandon a branch when even the most
//! optimistic completion cannot beat the best score found so far. The optimistic bound gives
//! every empty cell its largest remaining candidate, so it never underestimates: the search
//! stays exact.

use super::sudoku::box_of;

const ALL: u16 = 0x1ff;

/// Cell weights: 6 on the outer ring, then 7, 8, 9, and 10 at the centre.
pub fn weight(row: usize, col: usize) -> u32 {
    let ring = row.min(col).min(8 - row).min(8 - col) as u32;
    6 + ring
}

/// The maximum of sum(weight x digit) over every completion of `grid` (`0` = empty), or
/// `None` when there is no completion (including when the givens clash, or a cell holds a
/// value above 9).
pub fn max_score(grid: &[u8; 81]) -> Option<u32> {
    let (mut search, given) = Search::new(grid)?;
    search.run(0, given);
    search.best
}

/// The search state: used-digit masks per unit and the cells still empty.
struct Search {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// Empty cells; those before the current depth are filled, the rest still open.
    empty: Vec<usize>,
    best: Option<u32>,
}

impl Search {
    /// Reads the givens and their score; `None` when they clash or a value is above 9.
    fn new(grid: &[u8; 81]) -> Option<(Search, u32)> {
        let mut search = Search {
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            empty: Vec::with_capacity(81),
            best: None,
        };
        let mut given = 0;
        for (i, &v) in grid.iter().enumerate() {
            let (r, c) = (i / 9, i % 9);
            match v {
                0 => search.empty.push(i),
                1..=9 => {
                    let bit = 1u16 << (v - 1);
                    if search.used(i) & bit != 0 {
                        return None;
                    }
                    search.toggle(i, bit);
                    given += weight(r, c) * u32::from(v);
                }
                _ => return None,
            }
        }
        Some((search, given))
    }

    fn used(&self, i: usize) -> u16 {
        let (r, c) = (i / 9, i % 9);
        self.rows[r] | self.cols[c] | self.boxes[box_of(r, c)]
    }

    fn toggle(&mut self, i: usize, bit: u16) {
        let (r, c) = (i / 9, i % 9);
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[box_of(r, c)] ^= bit;
    }

    /// Explores completions with `empty[..depth]` filled and `score` earned so far.
    fn run(&mut self, depth: usize, score: u32) {
        if depth == self.empty.len() {
            if self.best.is_none_or(|b| score > b) {
                self.best = Some(score);
            }
            return;
        }
        let mut bound = score;
        let mut pick = depth;
        let mut pick_key = (u32::MAX, 0);
        for k in depth..self.empty.len() {
            let i = self.empty[k];
            let cands = !self.used(i) & ALL;
            if cands == 0 {
                return;
            }
            let w = weight(i / 9, i % 9);
            bound += w * (16 - cands.leading_zeros());
            let key = (cands.count_ones(), w);
            if key.0 < pick_key.0 || (key.0 == pick_key.0 && key.1 > pick_key.1) {
                pick_key = key;
                pick = k;
            }
        }
        if self.best.is_some_and(|b| bound <= b) {
            return;
        }
        self.empty.swap(depth, pick);
        let i = self.empty[depth];
        let w = weight(i / 9, i % 9);
        let mut cands = !self.used(i) & ALL;
        while cands != 0 {
            let top = 15 - cands.leading_zeros();
            let bit = 1u16 << top;
            cands ^= bit;
            self.toggle(i, bit);
            self.run(depth + 1, score + w * (top + 1));
            self.toggle(i, bit);
        }
        self.empty.swap(depth, pick);
    }
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
