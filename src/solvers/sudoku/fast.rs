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
//! guess at a cell reuses it). The board geometry and the bit operations on whole boards are
//! in `bits.rs`; this file holds the state, its propagation and the search.
//!
//! The search is compiled twice: for the baseline x86-64 target, and for machines with
//! `popcnt`, `bmi1`, `bmi2` and `lzcnt` (a one-instruction popcount, trailing-zero count
//! and bit clear, which the release profile's baseline target lacks), chosen at run time.
//! Both copies run the same code on the same states; only the instructions differ.

mod bits;
#[cfg(test)]
pub(crate) mod copies_tests;

use super::Grid;
use bits::{
    count_ones, locked_eliminations, segments, units_of, ALL_CELLS, CELL_UNITS, PEERS, UNITS,
};

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
        self.propagate_inline()
    }

    /// [`State::propagate`]'s body, inlined into each compiled copy of the search.
    #[inline(always)]
    fn propagate_inline(&mut self) -> bool {
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
    #[inline(always)]
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
    #[inline(always)]
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
        self.branch_cell_with::<false>()
    }

    /// [`State::branch_cell`]; `POPCNT`: count bits with the machine's instruction (only
    /// where the caller is compiled with it).
    #[inline(always)]
    fn branch_cell_with<const POPCNT: bool>(&self) -> usize {
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
                let open = PEERS[cell] & self.unsolved;
                let open_peers = if POPCNT {
                    open.count_ones()
                } else {
                    count_ones(open)
                };
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
    /// The search from `state`, in the copy compiled for this machine when it has the
    /// instructions (`native` says so).
    fn start(&mut self, state: &mut State, native: bool) {
        #[cfg(target_arch = "x86_64")]
        if native {
            // SAFETY: `native` is true only when the machine has every feature
            // `search_native` is compiled with (`native_features`).
            unsafe { self.search_native(state) };
            return;
        }
        let _ = native;
        self.search_portable(state);
    }

    /// The search compiled for the baseline target.
    #[inline(never)]
    fn search_portable(&mut self, state: &mut State) {
        self.search::<false>(state);
    }

    /// The search compiled with the instructions `native_features` checks for.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn search_native(&mut self, state: &mut State) {
        self.search::<true>(state);
    }

    /// One search node; `NATIVE` names the compiled copy it runs in, and that its
    /// recursion stays in.
    #[inline(always)]
    fn search<const NATIVE: bool>(&mut self, state: &mut State) {
        if !state.propagate_inline() {
            return;
        }
        if state.unsolved == 0 {
            self.count += 1;
            if self.want_grid && self.first.is_none() {
                self.first = Some(state.grid());
            }
            return;
        }
        let cell = state.branch_cell_with::<NATIVE>();
        let mut digits = (0..9).fold(0u32, |digits, d| {
            digits | ((state.cand[d] >> cell) as u32 & 1) << d
        });
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // The last guess needs no copy: this state is not looked at again.
                state.place(cell, d);
                self.recurse::<NATIVE>(state);
                return;
            }
            let mut next = *state;
            next.place(cell, d);
            self.recurse::<NATIVE>(&mut next);
            if self.count >= self.limit {
                return;
            }
        }
    }
}

impl Counter {
    /// A child node, in the same compiled copy as its parent.
    #[inline(always)]
    fn recurse<const NATIVE: bool>(&mut self, state: &mut State) {
        #[cfg(target_arch = "x86_64")]
        if NATIVE {
            // SAFETY: `NATIVE` is true only below `search_native`, which `start` enters
            // only on a machine with its features.
            unsafe { self.search_native(state) };
            return;
        }
        self.search_portable(state);
    }
}

/// Whether this machine has every instruction the native copy of the search uses.
fn native_features() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

fn run(puzzle: &Grid, limit: usize, want_grid: bool) -> Counter {
    run_on(puzzle, limit, want_grid, native_features())
}

/// [`run`] in the compiled copy `native` picks (the portable one when `false`).
fn run_on(puzzle: &Grid, limit: usize, want_grid: bool, native: bool) -> Counter {
    let mut counter = Counter {
        limit,
        want_grid,
        count: 0,
        first: None,
    };
    if limit > 0 {
        if let Some(mut state) = State::new(puzzle) {
            counter.start(&mut state, native);
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
