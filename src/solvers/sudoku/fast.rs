//! The fast solver: one 81-bit board per digit (where that digit may still go). Naked and
//! hidden singles run to a fixed point with whole-board bit operations: naked singles are
//! found by counting candidates with bitwise adders across the nine boards and placed a
//! board at a time; hidden singles only look again at the units where a digit's board
//! changed (found with a few shifts, not cell by cell), skip the units that already hold
//! the digit (a 27-bit mask per digit), and place what they find a digit at a time. When
//! singles stall, locked candidates (pointing and claiming, all 54 box-line intersections of
//! a digit at once, and only for digits whose segment occupancy changed); then a branch on a
//! two-candidate cell with the most open peers.
//!
//! A state is a few `u128`s, so branching copies it instead of undoing moves (the last
//! guess at a cell reuses it).

use super::Grid;

/// Bit `i` set for every cell `i` of each of the 27 units (9 rows, 9 columns, 9 boxes; box
/// `3 * stack + band`, the order [`units_of`] finds them in), padded to 32 entries so that
/// an index taken from a `u32` unit mask needs no bounds check.
const UNITS: [u128; 32] = units();
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
        masks[i] = (1 << r) | (1 << (9 + c)) | (1 << (18 + (c / 3) * 3 + r / 3));
        i += 1;
    }
    masks
}

const fn units() -> [u128; 32] {
    let mut units = [0u128; 32];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        units[r] |= 1 << i;
        units[9 + c] |= 1 << i;
        units[18 + (c / 3) * 3 + r / 3] |= 1 << i;
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
        peers[i] = (units[r] | units[9 + c] | units[18 + (c / 3) * 3 + r / 3]) & !(1 << i);
        i += 1;
    }
    peers
}

/// The cells on the rows set in `rows` and the columns set in `cols` (bit k: row or column k).
const fn cells(rows: u32, cols: u32) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < 81 {
        if rows >> (i / 9) & 1 == 1 && cols >> (i % 9) & 1 == 1 {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

const ALL9: u32 = 0x1ff;
/// Rows 0, 3, 6 (the first row of each band); likewise 1, 4, 7 and 2, 5, 8.
const BAND_ROW: [u32; 3] = [0b001_001_001, 0b010_010_010, 0b100_100_100];
/// Columns 0, 3, 6 (the first column of each stack); likewise 1, 4, 7 and 2, 5, 8.
const STACK_COL: [u32; 3] = BAND_ROW;
/// The first row of band 0, 1 and 2 (rows 0, 3, 6), each alone.
const BAND_FIRST_ROW: [u128; 3] = [cells(1, ALL9), cells(1 << 3, ALL9), cells(1 << 6, ALL9)];
/// The first column of stack 0, 1 and 2 (columns 0, 3, 6), each alone.
const STACK_FIRST_COL: [u128; 3] = [cells(ALL9, 1), cells(ALL9, 1 << 3), cells(ALL9, 1 << 6)];
/// Rows 0, 3, 6 (first in their band), then 1, 4, 7, then 2, 5, 8.
const ROWS_IN_BAND: [u128; 3] = [
    cells(BAND_ROW[0], ALL9),
    cells(BAND_ROW[1], ALL9),
    cells(BAND_ROW[2], ALL9),
];
/// Columns 0, 3, 6 (first in their stack), then 1, 4, 7, then 2, 5, 8.
const COLS_IN_STACK: [u128; 3] = [
    cells(ALL9, STACK_COL[0]),
    cells(ALL9, STACK_COL[1]),
    cells(ALL9, STACK_COL[2]),
];
/// The top-left cell of each box.
const FIRST_CELLS: u128 = cells(BAND_ROW[0], STACK_COL[0]);
/// Where a row segment's flag sits: its first cell (columns 0, 3, 6 of every row).
const ROW_SEG_FLAGS: u128 = cells(ALL9, STACK_COL[0]);
/// Where a column segment's flag sits: its first cell (rows 0, 3, 6 of every column).
const COL_SEG_FLAGS: u128 = cells(BAND_ROW[0], ALL9);

/// The first cell of every row (column 0).
const ROW_FIRST_CELLS: u128 = cells(ALL9, 1);

/// The units (bit `u` for [`UNITS`]`[u]`) holding at least one cell of `t`, found with a
/// few whole-board bit operations rather than cell by cell.
#[inline(always)]
fn units_of(t: u128) -> u32 {
    let seg = (t | t >> 1 | t >> 2) & ROW_SEG_FLAGS;
    // Rows: flags on each row's first cell (bit 9r), gathered to bit r by one multiply
    // (rows 0 to 7 fit a u64; the products never overlap, so no carries).
    let row_flags = (seg | seg >> 3 | seg >> 6) & ROW_FIRST_CELLS;
    let low = (row_flags as u64).wrapping_mul(ROW_GATHER) >> 56;
    let rows = (low as u32 & 0xff) | ((row_flags >> 72) as u32 & 1) << 8;
    let col = t | t >> 27 | t >> 54;
    let cols = (col | col >> 9 | col >> 18) as u32 & ALL9;
    // Boxes: flags on each box's first cell (bit 27 * band + 3 * stack), then band 1 and 2
    // moved next to band 0: bit 3 * stack + band.
    let boxes = (seg | seg >> 9 | seg >> 18) & FIRST_CELLS;
    let box_mask = (boxes | boxes >> 26 | boxes >> 52) as u32 & ALL9;
    rows | cols << 9 | box_mask << 18
}

/// The number of bits set in `x`, both halves summed before the last step (the baseline
/// x86-64 target has no popcount instruction, and `u128::count_ones` does two in full).
#[inline(always)]
fn count_ones(x: u128) -> u32 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let pairs = |v: u64| {
        let v = v - (v >> 1 & M1);
        (v & M2) + (v >> 2 & M2)
    };
    // Per nibble each half counts at most 4, so their sum still fits; per byte at most 16.
    let sum = pairs(x as u64) + pairs((x >> 64) as u64);
    let bytes = (sum & M4) + (sum >> 4 & M4);
    (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// Moves bit 9r to bit 56 + r for r in 0..8 (see [`units_of`]).
const ROW_GATHER: u64 = {
    let mut m = 0u64;
    let mut r = 0;
    while r < 8 {
        m |= 1 << (56 - 8 * r);
        r += 1;
    }
    m
};

/// A row segment's three cells from the flag on its first cell.
fn spread_row(flags: u128) -> u128 {
    flags | flags << 1 | flags << 2
}

/// A column segment's three cells from the flag on its first cell.
fn spread_col(flags: u128) -> u128 {
    flags | flags << 9 | flags << 18
}

/// Flags set where exactly one of `a`, `b`, `c` has them.
fn only_one(a: u128, b: u128, c: u128) -> [u128; 3] {
    [a & !b & !c, b & !a & !c, c & !a & !b]
}

/// Which row segments and which column segments may hold a digit with board `x`, each
/// flagged on its first cell.
#[inline(always)]
fn segments(x: u128) -> (u128, u128) {
    (
        (x | x >> 1 | x >> 2) & ROW_SEG_FLAGS,
        (x | x >> 9 | x >> 18) & COL_SEG_FLAGS,
    )
}

/// The cells a digit with board `x` leaves by pointing and claiming (box-line intersections),
/// computed for all 54 intersections with whole-board bit operations.
fn locked_eliminations(x: u128) -> u128 {
    let (rs, cs) = segments(x);
    // Pointing along rows: a box whose only row segment holding the digit is in band row k.
    let [p0, p1, p2] = only_one(
        rs & FIRST_CELLS,
        (rs >> 9) & FIRST_CELLS,
        (rs >> 18) & FIRST_CELLS,
    );
    let f = p0 | p1 << 9 | p2 << 18;
    let [f0, f1, f2] = STACK_FIRST_COL.map(|cols| f & cols);
    let mut out = spread_row(f0 << 3 | f0 << 6 | f1 >> 3 | f1 << 3 | f2 >> 3 | f2 >> 6);
    // Claiming along rows: a row whose only segment holding the digit is in stack k.
    let [q0, q1, q2] = only_one(
        rs & STACK_FIRST_COL[0],
        (rs >> 3) & STACK_FIRST_COL[0],
        (rs >> 6) & STACK_FIRST_COL[0],
    );
    let g = q0 | q1 << 3 | q2 << 6;
    let [g0, g1, g2] = ROWS_IN_BAND.map(|rows| g & rows);
    out |= spread_row(g0 << 9 | g0 << 18 | g1 >> 9 | g1 << 9 | g2 >> 9 | g2 >> 18);
    // Column segments, the same two rules transposed.
    let [p0, p1, p2] = only_one(
        cs & FIRST_CELLS,
        (cs >> 1) & FIRST_CELLS,
        (cs >> 2) & FIRST_CELLS,
    );
    let f = p0 | p1 << 1 | p2 << 2;
    let [f0, f1, f2] = BAND_FIRST_ROW.map(|rows| f & rows);
    out |= spread_col(f0 << 27 | f0 << 54 | f1 >> 27 | f1 << 27 | f2 >> 27 | f2 >> 54);
    let [q0, q1, q2] = only_one(
        cs & BAND_FIRST_ROW[0],
        (cs >> 27) & BAND_FIRST_ROW[0],
        (cs >> 54) & BAND_FIRST_ROW[0],
    );
    let g = q0 | q1 << 27 | q2 << 54;
    let [g0, g1, g2] = COLS_IN_STACK.map(|cols| g & cols);
    out |= spread_col(g0 << 1 | g0 << 2 | g1 >> 1 | g1 << 1 | g2 >> 1 | g2 >> 2);
    out & ALL_CELLS
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
    /// `cand` as locked candidates last left it for that digit.
    locked_seen: [u128; 9],
    /// `placed_units[d]`: the units (as in [`UNITS`]) where digit `d + 1` is placed.
    placed_units: [u32; 9],
}

impl State {
    /// The state for `puzzle`'s givens; `None` when a value is above 9 or givens clash.
    pub(crate) fn new(puzzle: &Grid) -> Option<State> {
        let mut state = State {
            cand: [ALL_CELLS; 9],
            unsolved: ALL_CELLS,
            hidden_seen: [ALL_CELLS; 9],
            locked_seen: [ALL_CELLS; 9],
            placed_units: [0; 9],
        };
        let mut givens = [0u128; 9];
        for (cell, &v) in puzzle.iter().enumerate() {
            match v {
                0 => {}
                1..=9 => givens[usize::from(v - 1)] |= 1 << cell,
                _ => return None,
            }
        }
        let all = givens.iter().fold(0, |all, &g| all | g);
        state.unsolved &= !all;
        for (d, &g) in givens.iter().enumerate() {
            state.cand[d] &= !(all & !g);
            // The same digit twice in a unit is a clash.
            if !state.place_all_own(d, g) {
                return None;
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
        // Every other digit leaves the cell; the digit leaves the cell's peers.
        let own = self.cand[d] & !PEERS[cell];
        for c in &mut self.cand {
            *c &= !bit;
        }
        self.cand[d] = own;
        self.placed_units[d] |= CELL_UNITS[cell];
        self.unsolved &= !bit;
        true
    }

    /// Puts digit `d + 1` in every cell of `cells` (open cells where it may go); `false`
    /// when two of them share a unit.
    #[inline(always)]
    fn place_all(&mut self, d: usize, cells: u128) -> bool {
        let own = self.cand[d];
        for c in &mut self.cand {
            *c &= !cells;
        }
        self.cand[d] = own;
        self.unsolved &= !cells;
        self.place_all_own(d, cells)
    }

    /// The part of [`State::place_all`] on digit `d + 1`'s own board: it leaves the peers
    /// of `cells`, and their units hold it.
    #[inline(always)]
    fn place_all_own(&mut self, d: usize, cells: u128) -> bool {
        let mut peers = 0u128;
        let mut rest = cells;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            peers |= PEERS[cell];
            self.placed_units[d] |= CELL_UNITS[cell];
            rest &= rest - 1;
        }
        self.cand[d] &= !peers;
        peers & cells == 0
    }

    /// Places every cell of `singles`, each a cell whose only candidate left is one digit
    /// (naked singles): the other digits already left those cells, so only each digit's
    /// peers need clearing, one board at a time. `false` when two of them share a digit and
    /// a unit.
    #[inline(always)]
    fn place_naked(&mut self, singles: u128) -> bool {
        for (c, placed) in self.cand.iter_mut().zip(&mut self.placed_units) {
            let mut mine = *c & singles;
            if mine == 0 {
                continue;
            }
            let mut peers = 0u128;
            while mine != 0 {
                let cell = mine.trailing_zeros() as usize;
                peers |= PEERS[cell];
                *placed |= CELL_UNITS[cell];
                mine &= mine - 1;
            }
            if peers & singles & *c != 0 {
                return false;
            }
            *c &= !peers;
        }
        self.unsolved &= !singles;
        true
    }

    /// Applies naked and hidden singles, then locked candidates, until nothing applies;
    /// `false` on a contradiction (a cell with no candidate, or a digit with no place in some
    /// unit). Only candidates that no completion uses are removed.
    pub(crate) fn propagate(&mut self) -> bool {
        loop {
            // Placed cells count one digit, so open cells need no mask until the end.
            let (mut ones, mut twos) = (0u128, 0u128);
            for &c in &self.cand {
                twos |= ones & c;
                ones |= c;
            }
            if self.unsolved & !ones != 0 {
                return false;
            }
            let singles = ones & !twos & self.unsolved;
            if singles != 0 {
                if !self.place_naked(singles) {
                    return false;
                }
                continue;
            }
            match self.hidden_singles() {
                None => return false,
                Some(true) => {}
                Some(false) => {
                    if !self.locked_candidates() {
                        return true;
                    }
                }
            }
        }
    }

    /// Pointing and claiming for every digit at once per board: a digit confined to one
    /// line within a box leaves the rest of that line, and a digit confined to one box
    /// within a line leaves the rest of that box. Returns whether anything was removed.
    fn locked_candidates(&mut self) -> bool {
        let mut removed = false;
        for (c, seen) in self.cand.iter_mut().zip(&mut self.locked_seen) {
            let x = *c;
            // The eliminations depend only on which segments can hold the digit; when those
            // are as last time, last time's eliminations are already gone from `x`.
            if x == *seen || segments(x) == segments(*seen) {
                continue;
            }
            let kept = x & !locked_eliminations(x);
            removed |= kept != x;
            *c = kept;
            *seen = kept;
        }
        removed
    }

    /// Places every digit that has a single place left in some unit. `None` on a
    /// contradiction, otherwise whether anything was placed.
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut placed_any = false;
        for d in 0..9 {
            let now = self.cand[d];
            let changed = self.hidden_seen[d] & !now;
            if changed == 0 {
                continue;
            }
            self.hidden_seen[d] = now;
            // One or two changed cells (common deep in a search) are cheaper looked up.
            let rest = changed & (changed - 1);
            let touched = if rest & rest.wrapping_sub(1) == 0 {
                CELL_UNITS[changed.trailing_zeros() as usize]
                    | CELL_UNITS.get(rest.trailing_zeros() as usize).unwrap_or(&0)
            } else {
                units_of(changed)
            };
            // Units that already hold the digit have nothing to find, so every candidate
            // of theirs is an open cell.
            let mut units = touched & !self.placed_units[d];
            let mut found = 0u128;
            while units != 0 {
                let m = now & UNITS[(units.trailing_zeros() & 31) as usize];
                units &= units - 1;
                if m & m.wrapping_sub(1) == 0 {
                    if m == 0 {
                        return None;
                    }
                    found |= m;
                }
            }
            if found != 0 {
                if !self.place_all(d, found) {
                    return None;
                }
                placed_any = true;
            }
        }
        Some(placed_any)
    }

    /// An unsolved cell with the fewest candidates (a two-candidate cell when there is one;
    /// among those, the one with the most open peers).
    pub(crate) fn branch_cell(&self) -> usize {
        let (mut ones, mut twos, mut threes) = (0u128, 0u128, 0u128);
        for &c in &self.cand {
            threes |= twos & c;
            twos |= ones & c;
            ones |= c;
        }
        let pairs = twos & !threes & self.unsolved;
        if pairs != 0 {
            // The two-candidate cell with the most open peers: its guess settles the most.
            let mut best = (0, 0);
            let mut rest = pairs;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let open_peers = count_ones(PEERS[cell] & self.unsolved);
                if open_peers > best.0 {
                    best = (open_peers, cell);
                }
            }
            return best.1;
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
    /// Whether the caller wants the first solution's grid (counting alone does not).
    want_grid: bool,
    count: usize,
    first: Option<Grid>,
}

impl Counter {
    fn search(&mut self, state: &mut State) {
        if !state.propagate() {
            return;
        }
        if state.unsolved == 0 {
            self.count += 1;
            if self.want_grid && self.first.is_none() {
                self.first = Some(state.grid());
            }
            return;
        }
        let cell = state.branch_cell();
        let mut digits = (0..9).fold(0u32, |digits, d| {
            digits | ((state.cand[d] >> cell) as u32 & 1) << d
        });
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // The last guess needs no copy: this state is not looked at again.
                state.place(cell, d);
                self.search(state);
                return;
            }
            let mut next = *state;
            next.place(cell, d);
            self.search(&mut next);
            if self.count >= self.limit {
                return;
            }
        }
    }
}

fn run(puzzle: &Grid, limit: usize, want_grid: bool) -> Counter {
    let mut counter = Counter {
        limit,
        want_grid,
        count: 0,
        first: None,
    };
    if limit > 0 {
        if let Some(mut state) = State::new(puzzle) {
            counter.search(&mut state);
        }
    }
    counter
}

/// Solves `puzzle` with the fast solver; `None` when it has no solution.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    run(puzzle, 1, true).first
}

/// Counts solutions of `puzzle` with the fast solver, stopping at `limit`.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    run(puzzle, limit, false).count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units_by_cell(mut t: u128) -> u32 {
        let mut units = 0;
        while t != 0 {
            units |= CELL_UNITS[t.trailing_zeros() as usize];
            t &= t - 1;
        }
        units
    }

    #[test]
    fn count_ones_matches_std() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = u128::from(x) << 64 | u128::from(x.rotate_left(17));
            for t in [v, v & v >> 3, v | v >> 5, u128::MAX, 0] {
                assert_eq!(count_ones(t), t.count_ones());
            }
        }
    }

    #[test]
    fn units_of_matches_cell_by_cell() {
        for (i, &units) in CELL_UNITS.iter().enumerate() {
            assert_eq!(units_of(1 << i), units, "cell {i}");
            for j in 0..81 {
                let t = 1u128 << i | 1u128 << j;
                assert_eq!(units_of(t), units_by_cell(t), "cells {i} {j}");
            }
        }
        let mut x = 0x1234_5678_9abc_def0_u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t = (u128::from(x) << 40 ^ u128::from(x.rotate_left(29))) & ALL_CELLS;
            let t = t & (t >> 3 | t << 5);
            assert_eq!(units_of(t), units_by_cell(t));
            assert_eq!(units_of(t | 1 << 80), units_by_cell(t | 1 << 80));
        }
    }
}
