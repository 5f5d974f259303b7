//! The plain fewest-candidates bitmask search: one `u16` of used digits per row, column and
//! box; at each step fill the empty cell with the fewest candidates, try each in turn.
//!
//! Kept simple on purpose: it is the baseline the fast solver is benchmarked against and the
//! oracle the property tests compare it with.

use super::{box_of, Grid};

/// All nine digits as a bitmask (bit `d - 1` stands for digit `d`).
const ALL: u16 = 0x1ff;

/// Used-digit masks of a partly filled grid.
#[derive(Clone)]
struct Board {
    cells: Grid,
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Board {
    /// Reads the givens; `None` when a cell holds a value above 9 or two givens clash.
    fn new(puzzle: &Grid) -> Option<Board> {
        let mut board = Board {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for (i, &v) in puzzle.iter().enumerate() {
            match v {
                0 => {}
                1..=9 => {
                    let (r, c) = (i / 9, i % 9);
                    let bit = 1u16 << (v - 1);
                    if (board.rows[r] | board.cols[c] | board.boxes[box_of(r, c)]) & bit != 0 {
                        return None;
                    }
                    board.place(i, v);
                }
                _ => return None,
            }
        }
        Some(board)
    }

    fn candidates(&self, i: usize) -> u16 {
        let (r, c) = (i / 9, i % 9);
        !(self.rows[r] | self.cols[c] | self.boxes[box_of(r, c)]) & ALL
    }

    fn place(&mut self, i: usize, v: u8) {
        let (r, c) = (i / 9, i % 9);
        let bit = 1u16 << (v - 1);
        self.cells[i] = v;
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[box_of(r, c)] |= bit;
    }

    fn unplace(&mut self, i: usize) {
        let (r, c) = (i / 9, i % 9);
        let bit = !(1u16 << (self.cells[i] - 1));
        self.cells[i] = 0;
        self.rows[r] &= bit;
        self.cols[c] &= bit;
        self.boxes[box_of(r, c)] &= bit;
    }

    /// Depth-first search; calls `found` on each solution and stops when it returns `false`.
    /// Returns `false` once stopped.
    fn search(&mut self, found: &mut dyn FnMut(&Grid) -> bool) -> bool {
        let mut best = None;
        let mut best_count = 10;
        for i in 0..81 {
            if self.cells[i] == 0 {
                let n = self.candidates(i).count_ones();
                if n < best_count {
                    best_count = n;
                    best = Some(i);
                    if n <= 1 {
                        break;
                    }
                }
            }
        }
        let Some(i) = best else {
            return found(&self.cells);
        };
        let mut cands = self.candidates(i);
        while cands != 0 {
            let v = cands.trailing_zeros() as u8 + 1;
            cands &= cands - 1;
            self.place(i, v);
            let go_on = self.search(found);
            self.unplace(i);
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// Solves `puzzle` with the plain search; `None` when it has no solution.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    let mut board = Board::new(puzzle)?;
    let mut solution = None;
    board.search(&mut |g| {
        solution = Some(*g);
        false
    });
    solution
}

/// Counts solutions of `puzzle` with the plain search, stopping at `limit`.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    let Some(mut board) = Board::new(puzzle) else {
        return 0;
    };
    let mut count = 0;
    board.search(&mut |_| {
        count += 1;
        count < limit
    });
    count
}
