//! The fast solver's board geometry and whole-board bit operations: an 81-bit board per
//! digit (bit `9 * row + col`), the unit and peer masks, which units a set of cells touches,
//! a popcount for the baseline x86-64 target, and the pointing/claiming eliminations of all
//! 54 box-line intersections at once. No search state lives here.

/// Bit `i` set for every cell `i` of each of the 27 units (9 rows, 9 columns, 9 boxes; box
/// `3 * stack + band`, the order [`units_of`] finds them in), padded to 32 entries so that
/// an index taken from a `u32` unit mask needs no bounds check.
pub(super) const UNITS: [u128; 32] = units();
/// Bit `j` set for every cell `j != i` that shares a unit with cell `i`.
pub(super) const PEERS: [u128; 81] = peers();
/// Every cell of the board.
pub(super) const ALL_CELLS: u128 = (1 << 81) - 1;
/// For each cell, bit `u` set for each of the three units `u` (as indexed in [`UNITS`]) it is in.
pub(super) const CELL_UNITS: [u32; 81] = cell_units();

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
pub(super) fn units_of(t: u128) -> u32 {
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
pub(super) fn count_ones(x: u128) -> u32 {
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
#[inline(always)]
fn spread_row(flags: u128) -> u128 {
    flags | flags << 1 | flags << 2
}

/// A column segment's three cells from the flag on its first cell.
#[inline(always)]
fn spread_col(flags: u128) -> u128 {
    flags | flags << 9 | flags << 18
}

/// Flags set where exactly one of `a`, `b`, `c` has them.
#[inline(always)]
fn only_one(a: u128, b: u128, c: u128) -> [u128; 3] {
    [a & !b & !c, b & !a & !c, c & !a & !b]
}

/// Which row segments and which column segments may hold a digit with board `x`, each
/// flagged on its first cell.
#[inline(always)]
pub(super) fn segments(x: u128) -> (u128, u128) {
    (
        (x | x >> 1 | x >> 2) & ROW_SEG_FLAGS,
        (x | x >> 9 | x >> 18) & COL_SEG_FLAGS,
    )
}

/// The cells a digit with board `x` leaves by pointing and claiming (box-line intersections),
/// computed for all 54 intersections with whole-board bit operations.
#[inline(always)]
pub(super) fn locked_eliminations(x: u128) -> u128 {
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
