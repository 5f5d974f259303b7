//! The fast solver: one 81-bit board per digit (where that digit may still go), naked and
//! hidden singles applied to a fixed point with whole-board bit operations, then a branch on
//! a cell with the fewest candidates. Hidden singles only look again at the units where a
//! digit's board changed. (Locked candidates were tried and measured slower: the extra
//! pruning did not pay for its cost per node.)
//!
//! A state is ten `u128`s, so branching copies it instead of undoing moves.

use super::Grid;

/// Bit `i` set for every cell `i` of each of the 27 units (9 rows, 9 columns, 9 boxes).
const UNITS: [u128; 27] = units();
/// Bit `j` set for every cell `j != i` that shares a unit with cell `i`.
const PEERS: [u128; 81] = peers();
const ALL_CELLS: u128 = (1 << 81) - 1;
/// For each cell, bit `u` set for each of the three units `u` (as indexed in [`UNITS`]) it is in.
const CELL_UNITS: [u32; 81] = cell_units();

const fn cell_units() -> [u32; 81] {
    let mut masks = [0u32; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        masks[i] = (1 << r) | (1 << (9 + c)) | (1 << (18 + (r / 3) * 3 + c / 3));
        i += 1;
    }
    masks
}

const fn units() -> [u128; 27] {
    let mut units = [0u128; 27];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        units[r] |= 1 << i;
        units[9 + c] |= 1 << i;
        units[18 + (r / 3) * 3 + c / 3] |= 1 << i;
        i += 1;
    }
    units
}

const fn peers() -> [u128; 81] {
    let units = units();
    let mut peers = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        peers[i] = (units[r] | units[9 + c] | units[18 + (r / 3) * 3 + c / 3]) & !(1 << i);
        i += 1;
    }
    peers
}

/// A partly solved grid (also the search state of [`crate::solvers::target`]).
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// `cand[d]`: the cells where digit `d + 1` is placed or may still be placed.
    pub(crate) cand: [u128; 9],
    /// Cells with no digit placed yet.
    pub(crate) unsolved: u128,
    /// `cand` as it was when hidden singles last looked at that digit: only the units where
    /// it changed since then need a new look.
    hidden_seen: [u128; 9],
}

impl State {
    /// The state for `puzzle`'s givens; `None` when a value is above 9 or givens clash.
    pub(crate) fn new(puzzle: &Grid) -> Option<State> {
        let mut state = State {
            cand: [ALL_CELLS; 9],
            unsolved: ALL_CELLS,
            hidden_seen: [ALL_CELLS; 9],
        };
        for (cell, &v) in puzzle.iter().enumerate() {
            match v {
                0 => {}
                1..=9 => {
                    if !state.place(cell, usize::from(v - 1)) {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        Some(state)
    }

    /// Puts digit `d + 1` in `cell`; `false` when it may not go there.
    #[inline(always)]
    pub(crate) fn place(&mut self, cell: usize, d: usize) -> bool {
        let bit = 1u128 << cell;
        if self.cand[d] & bit == 0 {
            return false;
        }
        // The digit leaves the cell's peers; every other digit leaves the cell.
        let (keep_digit, keep_others) = (!PEERS[cell], !bit);
        for (e, c) in self.cand.iter_mut().enumerate() {
            *c &= if e == d { keep_digit } else { keep_others };
        }
        self.unsolved &= !bit;
        true
    }

    /// Applies naked and hidden singles until neither applies; `false` on a contradiction
    /// (a cell with no candidate, or a digit with no place in some unit).
    pub(crate) fn propagate(&mut self) -> bool {
        loop {
            let (mut ones, mut twos) = (0u128, 0u128);
            for &c in &self.cand {
                let c = c & self.unsolved;
                twos |= ones & c;
                ones |= c;
            }
            if self.unsolved & !ones != 0 {
                return false;
            }
            let mut singles = ones & !twos;
            if singles != 0 {
                while singles != 0 {
                    let cell = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let bit = 1u128 << cell;
                    let Some(d) = self.cand.iter().position(|&c| c & bit != 0) else {
                        return false;
                    };
                    self.place(cell, d);
                }
                continue;
            }
            match self.hidden_singles() {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    /// Places every digit that has a single place left in some unit. `None` on a
    /// contradiction, otherwise whether anything was placed.
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut placed_any = false;
        for d in 0..9 {
            let now = self.cand[d];
            let mut changed = self.hidden_seen[d] & !now;
            if changed == 0 {
                continue;
            }
            self.hidden_seen[d] = now;
            let mut units = 0u32;
            while changed != 0 {
                units |= CELL_UNITS[changed.trailing_zeros() as usize];
                changed &= changed - 1;
            }
            while units != 0 {
                let unit = UNITS[units.trailing_zeros() as usize];
                units &= units - 1;
                let m = self.cand[d] & unit;
                if m & !self.unsolved != 0 {
                    continue;
                }
                if m == 0 {
                    return None;
                }
                if m & (m - 1) == 0 {
                    self.place(m.trailing_zeros() as usize, d);
                    placed_any = true;
                }
            }
        }
        Some(placed_any)
    }

    /// An unsolved cell with the fewest candidates (a two-candidate cell when there is one).
    pub(crate) fn branch_cell(&self) -> usize {
        let (mut ones, mut twos, mut threes) = (0u128, 0u128, 0u128);
        for &c in &self.cand {
            let c = c & self.unsolved;
            threes |= twos & c;
            twos |= ones & c;
            ones |= c;
        }
        let pairs = twos & !threes;
        if pairs != 0 {
            return pairs.trailing_zeros() as usize;
        }
        let mut best = (u32::MAX, 0);
        let mut rest = self.unsolved;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = self.cand.iter().filter(|&&c| c >> cell & 1 != 0).count() as u32;
            if n < best.0 {
                best = (n, cell);
            }
        }
        best.1
    }

    fn grid(&self) -> Grid {
        let mut grid = [0u8; 81];
        for (d, &c) in self.cand.iter().enumerate() {
            let mut rest = c & !self.unsolved;
            while rest != 0 {
                grid[rest.trailing_zeros() as usize] = d as u8 + 1;
                rest &= rest - 1;
            }
        }
        grid
    }
}

/// Search bookkeeping: solutions counted so far, the first one, and when to stop.
struct Counter {
    limit: usize,
    count: usize,
    first: Option<Grid>,
}

impl Counter {
    fn search(&mut self, mut state: State) {
        if !state.propagate() {
            return;
        }
        if state.unsolved == 0 {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(state.grid());
            }
            return;
        }
        let cell = state.branch_cell();
        for d in 0..9 {
            if state.cand[d] >> cell & 1 == 0 {
                continue;
            }
            let mut next = state;
            next.place(cell, d);
            self.search(next);
            if self.count >= self.limit {
                return;
            }
        }
    }
}

fn run(puzzle: &Grid, limit: usize) -> Counter {
    let mut counter = Counter {
        limit,
        count: 0,
        first: None,
    };
    if limit > 0 {
        if let Some(state) = State::new(puzzle) {
            counter.search(state);
        }
    }
    counter
}

/// Solves `puzzle` with the fast solver; `None` when it has no solution.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    run(puzzle, 1).first
}

/// Counts solutions of `puzzle` with the fast solver, stopping at `limit`.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    run(puzzle, limit).count
}
