//! Where everything sits in the vectors, and the index tables that move values between
//! boxes and bands. Everything here is a constant built at compile time.
//!
//! A box is sixteen `u16` lanes read as a 4x4 matrix, lane `4 * row + col`: the 3x3 top
//! left are the box's cells (a 9-bit set of candidate digits each); lane `4 * r + 3` holds
//! the digits that may be *absent* from the box's row `r` (a negative row triad), lane
//! `12 + c` those that may be absent from its column `c`; lane 15 is always empty. For each
//! digit, each of the first three matrix rows and columns holds it exactly once.
//!
//! A band (three boxes side by side, or stacked) is eight `u16` lanes: lane `k < 6` is the
//! set of digits whose three occurrences in the band may follow arrangement
//! `ARRANGEMENTS[k]`; lanes 6 and 7 are always empty.

use std::arch::x86_64::{__m128i, __m256i};

/// Every digit, as a 9-bit set.
pub(super) const ALL: u16 = 0x1ff;

/// The six ways a digit's three occurrences can sit in a band: `ARRANGEMENTS[k][p]` is the
/// line (row of the box for a horizontal band, column for a vertical one) that holds the
/// digit in the band's `p`-th box.
pub(super) const ARRANGEMENTS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The box lane of matrix row `r`, column `c`.
pub(super) const fn lane(r: usize, c: usize) -> usize {
    r * 4 + c
}

/// Sixteen lanes as a vector (lane 0 lowest).
const fn wide(lanes: [u16; 16]) -> __m256i {
    // SAFETY: both are 32 plain bytes; every bit pattern is a valid `__m256i`.
    unsafe { std::mem::transmute::<[u16; 16], __m256i>(lanes) }
}

/// A vector's sixteen lanes (lane 0 first), for tables derived from other tables.
pub(super) const fn lanes(v: __m256i) -> [u16; 16] {
    // SAFETY: both are 32 plain bytes.
    unsafe { std::mem::transmute::<__m256i, [u16; 16]>(v) }
}

/// `value` in the lanes of `mask` (bit `i` for lane `i`), 0 elsewhere.
const fn fill(mask: u16, value: u16) -> __m256i {
    let mut lanes = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        if mask >> i & 1 != 0 {
            lanes[i] = value;
        }
        i += 1;
    }
    wide(lanes)
}

/// The nine cell lanes of a box, as a lane mask.
pub(super) const CELL_MASK: u16 = 0x0777;
/// The negative row-triad lanes (matrix column 3).
pub(super) const ROW_TRIAD_MASK: u16 = 0x0888;
/// The negative column-triad lanes (matrix row 3).
pub(super) const COL_TRIAD_MASK: u16 = 0x7000;

/// Every digit in the cell lanes.
pub(super) const CELLS: __m256i = fill(CELL_MASK, ALL);
/// Every digit in the row-triad lanes.
pub(super) const ROW_TRIADS: __m256i = fill(ROW_TRIAD_MASK, ALL);
/// Every digit in the column-triad lanes.
pub(super) const COL_TRIADS: __m256i = fill(COL_TRIAD_MASK, ALL);
/// A box before any clue: every lane but the last holds every digit.
pub(super) const OPEN_BOX: __m256i = fill(0x7fff, ALL);
/// The fewest digits a lane may hold: one for a cell, six for a triad (a line of a box holds
/// three digits, so six are absent from it).
pub(super) const MINIMUM: __m256i = {
    let mut lanes = [0u16; 16];
    let mut i = 0;
    while i < 15 {
        lanes[i] = if CELL_MASK >> i & 1 != 0 { 1 } else { 6 };
        i += 1;
    }
    wide(lanes)
};
/// The first three matrix rows (where each digit occurs exactly once per row).
pub(super) const ROWS_EXACT: __m256i = fill(0x0fff, ALL);
/// The first three matrix columns (where each digit occurs exactly once per column).
pub(super) const COLS_EXACT: __m256i = fill(0x7777, ALL);
/// Every digit in every lane.
pub(super) const EVERY: __m256i = fill(0xffff, ALL);

/// A band before any clue: every digit may take every arrangement.
pub(super) const OPEN_BAND: __m128i = {
    let lanes = [ALL, ALL, ALL, ALL, ALL, ALL, 0, 0];
    // SAFETY: 16 plain bytes; every bit pattern is a valid `__m128i`.
    unsafe { std::mem::transmute::<[u16; 8], __m128i>(lanes) }
};

/// Line `e` of box `p` of a band, as a lane of the band's triad matrix (a 16-lane vector
/// holding, at `4 * p + e`, the digits that may occupy that line).
const fn triad(p: usize, e: usize) -> usize {
    4 * p + e
}

/// The triad-matrix lanes in use, as a lane mask.
pub(super) const TRIAD_MASK: u16 = 0x0777;
/// Three in the triad-matrix lanes in use (a box line holds three digits), zero in the
/// others (full, so never equal to it nor below it).
pub(super) const THREE_IN_TRIADS: __m256i = fill(TRIAD_MASK, 3);
/// Every digit in the triad-matrix lanes not in use (so they never look short of digits).
pub(super) const UNUSED_TRIADS: __m256i = fill(!TRIAD_MASK, ALL);

/// The two arrangements that put a digit in triad `(p, e)`, as two index vectors over a band
/// (widened to 16 lanes, the upper 8 empty): OR-ing the two picks gives the triad matrix.
pub(super) const TRIAD_FROM_BAND: [__m256i; 2] = {
    let mut idx = [[8u16; 16]; 2];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let mut found = 0;
            let mut k = 0;
            while k < 6 {
                if ARRANGEMENTS[k][p] == e {
                    idx[found][triad(p, e)] = k as u16;
                    found += 1;
                }
                k += 1;
            }
            e += 1;
        }
        p += 1;
    }
    [wide(idx[0]), wide(idx[1])]
};

/// For each triad `(p, e)`, the other two lines of box `p` (index vectors over the triad
/// matrix); unused lanes pick lane 3, which is empty wherever this is used.
pub(super) const OTHER_LINES: [__m256i; 2] = {
    let mut idx = [[3u16; 16]; 2];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            idx[0][triad(p, e)] = triad(p, (e + 1) % 3) as u16;
            idx[1][triad(p, e)] = triad(p, (e + 2) % 3) as u16;
            e += 1;
        }
        p += 1;
    }
    [wide(idx[0]), wide(idx[1])]
};

/// `ARRANGEMENT_TRIAD[p]` maps arrangement `k` (lane `k`) to the triad it uses in box `p`.
pub(super) const ARRANGEMENT_TRIAD: [__m256i; 3] = {
    let mut idx = [[3u16; 16]; 3];
    let mut p = 0;
    while p < 3 {
        let mut k = 0;
        while k < 6 {
            idx[p][k] = triad(p, ARRANGEMENTS[k][p]) as u16;
            k += 1;
        }
        p += 1;
    }
    [wide(idx[0]), wide(idx[1]), wide(idx[2])]
};

/// `BOX_FROM_TRIADS[vertical][p]`: two index vectors over the triad matrix whose picks,
/// OR-ed, give what band's box `p` may hold: a cell of line `e` the digits of triad
/// `(p, e)`, the negative triad of line `e` the digits of the other two lines, and every
/// digit in the lanes the band says nothing about (lane 15 of the triad matrix is full).
pub(super) const BOX_FROM_TRIADS: [[[__m256i; 2]; 3]; 2] = {
    let mut out = [[[EVERY; 2]; 3]; 2];
    let mut vertical = 0;
    while vertical < 2 {
        let mut p = 0;
        while p < 3 {
            let mut idx = [[15u16; 16]; 2];
            let mut e = 0;
            while e < 3 {
                let mut k = 0;
                while k < 3 {
                    let cell = if vertical == 0 {
                        lane(e, k)
                    } else {
                        lane(k, e)
                    };
                    idx[0][cell] = triad(p, e) as u16;
                    idx[1][cell] = triad(p, e) as u16;
                    k += 1;
                }
                let negative = if vertical == 0 {
                    lane(e, 3)
                } else {
                    lane(3, e)
                };
                idx[0][negative] = triad(p, (e + 1) % 3) as u16;
                idx[1][negative] = triad(p, (e + 2) % 3) as u16;
                e += 1;
            }
            out[vertical][p] = [wide(idx[0]), wide(idx[1])];
            p += 1;
        }
        vertical += 1;
    }
    out
};

/// `BAND_FROM_BOX[b]`: three index vectors over two sources (the box's "may be in line"
/// sets in its triad lanes, then the box itself) whose picks, AND-ed, give the arrangements
/// box `b` still allows: lanes 0..6 for its horizontal band, lanes 8..14 for its vertical
/// one. An arrangement putting a digit in line `e` needs the digit possible in line `e` and
/// possibly absent from the other two lines.
pub(super) const BAND_FROM_BOX: [[__m256i; 3]; 9] = {
    let mut out = [[EVERY; 3]; 9];
    let mut b = 0;
    while b < 9 {
        // The box is the (b % 3)-th of its horizontal band and the (b / 3)-th of its
        // vertical one. Unused lanes pick lane 15, empty in both sources (the bands' unused
        // lanes are empty anyway).
        let mut idx = [[15u16; 16]; 3];
        let mut k = 0;
        while k < 6 {
            let e = ARRANGEMENTS[k][b % 3];
            idx[0][k] = lane(e, 3) as u16;
            idx[1][k] = 16 + lane((e + 1) % 3, 3) as u16;
            idx[2][k] = 16 + lane((e + 2) % 3, 3) as u16;
            let e = ARRANGEMENTS[k][b / 3];
            idx[0][8 + k] = lane(3, e) as u16;
            idx[1][8 + k] = 16 + lane(3, (e + 1) % 3) as u16;
            idx[2][8 + k] = 16 + lane(3, (e + 2) % 3) as u16;
            k += 1;
        }
        out[b] = [wide(idx[0]), wide(idx[1]), wide(idx[2])];
        b += 1;
    }
    out
};
