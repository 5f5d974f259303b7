//! A band's own reasoning, then what it tells its three boxes.
//!
//! Each digit needs an arrangement left in every band. From the arrangements come the
//! triads: the digits that may still occupy line `e` of the band's box `p`. A triad needs
//! three digits (a box line holds three); a triad down to three holds all three for
//! certain, so every arrangement putting one of them in another line of that box goes.
//! Then each box gets, for a cell, the digits its line's triad allows, and for a negative
//! triad, those of the box's other two lines.

use std::arch::x86_64::*;

use super::layout::THREE_IN_TRIADS;
use super::simd::Simd;
use super::state::State;

/// Whether every digit still has an arrangement in `band`.
#[inline(always)]
unsafe fn every_digit_placed(band: __m128i) -> bool {
    let lanes = (_mm_cvtsi128_si64(band) | _mm_extract_epi64::<1>(band)) as u64;
    let lanes = lanes | lanes >> 32;
    (lanes | lanes >> 16) & 0x1ff == 0x1ff
}

impl State {
    /// Runs band `k`'s reasoning and narrows its three boxes, the one at position `from`
    /// (which narrowed the band) last; `false` on a contradiction.
    #[inline(always)]
    pub(super) unsafe fn process_band<S: Simd, const DEEP: bool>(
        &mut self,
        k: usize,
        from: usize,
    ) -> bool {
        let mut band = self.bands[k];
        if !every_digit_placed(band) {
            return false;
        }
        let mut lines = S::triads(band);
        let counts = S::popcnt16(lines);
        if S::any_below(counts, THREE_IN_TRIADS) {
            return false;
        }
        let (certain, any) = S::keep_equal_any(counts, THREE_IN_TRIADS, lines);
        if any {
            let gone = S::arrangements_using(S::other_lines(certain));
            let next = _mm_andnot_si128(gone, band);
            if S::narrower_band(next, band) {
                band = next;
                self.bands[k] = band;
                if !every_digit_placed(band) {
                    return false;
                }
                lines = S::triads(band);
            }
        }
        let vertical = usize::from(k >= 3);
        for step in 1..=3 {
            let p = (from + step) % 3;
            let b = if vertical == 0 {
                k * 3 + p
            } else {
                p * 3 + k - 3
            };
            let allow = S::box_from_triads(lines, vertical, p);
            if !self.restrict_box::<S, DEEP>(b, allow, vertical == 1) {
                return false;
            }
        }
        true
    }
}
