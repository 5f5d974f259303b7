//! A box's own reasoning, run to a fixed point, then what it tells its two bands.
//!
//! Per box: a cell needs a digit and a negative triad six (a box line holds exactly three
//! digits); a lane down to its minimum has those digits for certain; a digit left in a
//! single lane of a matrix row or column (each digit occurs once in each of the first
//! three) is certain there. A certain digit in a cell leaves the rest of the box and the
//! triads of the cell's row and column; a certain digit in a negative triad (absent from
//! that line) leaves the line's cells.

use std::arch::x86_64::*;

use super::layout::{CELLS, COLS_EXACT, COL_TRIADS, MINIMUM, ROWS_EXACT, ROW_TRIADS};
use super::simd::Simd;
use super::state::{State, BAND_BIT};

/// Each lane ORed with the other three of its matrix row.
#[inline(always)]
unsafe fn across_rows<S: Simd>(x: __m256i) -> __m256i {
    let two = _mm256_or_si256(x, turn::<S, true, 1>(x));
    _mm256_or_si256(two, turn::<S, true, 2>(two))
}

/// Each lane ORed with the other three of its matrix column.
#[inline(always)]
unsafe fn across_cols<S: Simd>(x: __m256i) -> __m256i {
    let two = _mm256_or_si256(x, turn::<S, false, 1>(x));
    _mm256_or_si256(two, turn::<S, false, 2>(two))
}

/// Matrix rows (`ROWS`) or columns turned by `STEP` lanes.
#[inline(always)]
unsafe fn turn<S: Simd, const ROWS: bool, const STEP: u32>(x: __m256i) -> __m256i {
    match (ROWS, STEP) {
        (true, 1) => S::turn_rows::<1>(x),
        (true, _) => S::turn_rows::<2>(x),
        (false, 1) => _mm256_permute4x64_epi64::<0x39>(x),
        (false, _) => _mm256_permute4x64_epi64::<0x4e>(x),
    }
}

/// For each lane, the digits found anywhere in its matrix row (`ROWS`) or column, and those
/// found in at least two of that line's lanes.
#[inline(always)]
unsafe fn line_counts<S: Simd, const ROWS: bool>(x: __m256i) -> (__m256i, __m256i) {
    let pair = turn::<S, ROWS, 1>(x);
    let any2 = _mm256_or_si256(x, pair);
    let many2 = _mm256_and_si256(x, pair);
    let (any_far, many_far) = (turn::<S, ROWS, 2>(any2), turn::<S, ROWS, 2>(many2));
    let any = _mm256_or_si256(any2, any_far);
    let many = _mm256_or_si256(
        _mm256_or_si256(many2, many_far),
        _mm256_and_si256(any2, any_far),
    );
    (any, many)
}

impl State {
    /// Narrows box `b` to `allow`; when that removed anything, processes it at once
    /// (`DEEP`) or queues it. `false` on a contradiction.
    #[inline(always)]
    pub(super) unsafe fn restrict_box<S: Simd, const DEEP: bool>(
        &mut self,
        b: usize,
        allow: __m256i,
        from_vertical: bool,
    ) -> bool {
        let old = self.boxes[b];
        let x = _mm256_and_si256(old, allow);
        if !S::narrower(x, old) {
            return true;
        }
        self.boxes[b] = x;
        if DEEP {
            return self.process_box::<S, DEEP>(b, from_vertical);
        }
        self.dirty |= 1 << b;
        true
    }

    /// Runs box `b`'s own reasoning to a fixed point and narrows its bands to what it
    /// allows, first the band across the one it was narrowed from (`from_vertical`);
    /// `false` on a contradiction.
    #[inline(always)]
    pub(super) unsafe fn process_box<S: Simd, const DEEP: bool>(
        &mut self,
        b: usize,
        from_vertical: bool,
    ) -> bool {
        let mut x = self.boxes[b];
        loop {
            let counts = S::popcnt16(x);
            if S::any_below(counts, MINIMUM) {
                return false;
            }
            let mut certain = S::keep_equal(counts, MINIMUM, x);
            // A digit gone from a whole matrix row or column is not checked here: it leaves
            // the digit no arrangement in that band, which the band's check catches.
            let (_, row_many) = line_counts::<S, true>(x);
            let (_, col_many) = line_counts::<S, false>(x);
            let once_in_row = _mm256_and_si256(_mm256_andnot_si256(row_many, x), ROWS_EXACT);
            let once_in_col = _mm256_and_si256(_mm256_andnot_si256(col_many, x), COLS_EXACT);
            certain = _mm256_or_si256(certain, _mm256_or_si256(once_in_row, once_in_col));

            let in_cells = _mm256_and_si256(certain, CELLS);
            let row_spread = across_rows::<S>(in_cells);
            let whole_box = _mm256_and_si256(across_cols::<S>(row_spread), CELLS);
            let absent_rows = across_rows::<S>(_mm256_and_si256(certain, ROW_TRIADS));
            let cols_spread = across_cols::<S>(_mm256_or_si256(
                in_cells,
                _mm256_and_si256(certain, COL_TRIADS),
            ));
            let own_cell = S::all_where_set(in_cells);
            let gone = _mm256_andnot_si256(
                certain,
                _mm256_or_si256(
                    _mm256_or_si256(whole_box, row_spread),
                    _mm256_or_si256(_mm256_or_si256(absent_rows, cols_spread), own_cell),
                ),
            );
            let next = _mm256_andnot_si256(gone, x);
            if !S::narrower(next, x) {
                break;
            }
            x = next;
        }
        self.boxes[b] = x;
        self.tell_bands::<S, DEEP>(b, x, from_vertical)
    }

    /// Narrows box `b`'s two bands to the arrangements its contents `x` allow, first the band
    /// across the one that narrowed the box (`from_vertical`), as tdoku orders its messages.
    // The two branches differ in order, which matters: each call may narrow the state
    // further, depth first, before the other runs (clippy reads `&&` as commutative).
    #[allow(clippy::if_same_then_else)]
    #[inline(always)]
    unsafe fn tell_bands<S: Simd, const DEEP: bool>(
        &mut self,
        b: usize,
        x: __m256i,
        from_vertical: bool,
    ) -> bool {
        let cells = _mm256_and_si256(x, CELLS);
        // "May be in line e": the row's cells ORed (in the row-triad lanes) and the
        // column's (in the column-triad lanes).
        let may_be_in = S::blend_row_triads(across_cols::<S>(cells), across_rows::<S>(cells));
        let allowed = S::band_from_box(b, may_be_in, x);
        let (horizontal, vertical) = (
            _mm256_castsi256_si128(allowed),
            _mm256_extracti128_si256::<1>(allowed),
        );
        if from_vertical {
            self.narrow_band::<S, DEEP>(b / 3, horizontal, b % 3)
                && self.narrow_band::<S, DEEP>(3 + b % 3, vertical, b / 3)
        } else {
            self.narrow_band::<S, DEEP>(3 + b % 3, vertical, b / 3)
                && self.narrow_band::<S, DEEP>(b / 3, horizontal, b % 3)
        }
    }

    /// Narrows band `k` to `allow` (sent by its box at position `from`); when that removed
    /// anything, processes it at once (`DEEP`) or queues it. `false` on a contradiction.
    #[inline(always)]
    pub(super) unsafe fn narrow_band<S: Simd, const DEEP: bool>(
        &mut self,
        k: usize,
        allow: __m128i,
        from: usize,
    ) -> bool {
        let old = self.bands[k];
        let next = _mm_and_si128(old, allow);
        if !S::narrower_band(next, old) {
            return true;
        }
        self.bands[k] = next;
        if DEEP {
            return S::process_band::<DEEP>(self, k, from);
        }
        self.dirty |= 1 << (BAND_BIT as usize + k);
        true
    }
}
