//! A band's own reasoning, then what it tells its three boxes.
//!
//! Each digit needs an arrangement left in every band. From the arrangements come the
//! triads: the digits that may still occupy line `e` of the band's box `p`. A triad needs
//! three digits (a box line holds three); a triad down to three holds all three for
//! certain, so every arrangement putting one of them in another line of that box goes.
//! Then each box gets, for a cell, the digits its line's triad allows, and for a negative
//! triad, those of the box's other two lines.

use std::arch::x86_64::*;

use super::layout::{
    ARRANGEMENT_TRIAD, BOX_FROM_TRIADS, OTHER_LINES, TRIAD_FROM_BAND, TRIAD_MASK, UNUSED_TRIADS,
};
use super::state::State;

/// Whether every digit still has an arrangement in `band`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,popcnt,bmi1")]
#[inline]
fn every_digit_placed(band: __m128i) -> bool {
    let lanes = (_mm_cvtsi128_si64(band) | _mm_extract_epi64::<1>(band)) as u64;
    let lanes = lanes | lanes >> 32;
    (lanes | lanes >> 16) & 0x1ff == 0x1ff
}

/// The band's triad matrix (lane `4 * p + e`), the unused lanes full.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,popcnt,bmi1")]
#[inline]
fn triads(band: __m128i) -> __m256i {
    let wide = _mm256_zextsi128_si256(band);
    let [first, second] = TRIAD_FROM_BAND;
    _mm256_or_si256(
        _mm256_or_si256(
            _mm256_permutexvar_epi16(first, wide),
            _mm256_permutexvar_epi16(second, wide),
        ),
        UNUSED_TRIADS,
    )
}

impl State {
    /// Runs band `k`'s reasoning and narrows its three boxes, the one at position `from`
    /// (which narrowed the band) last; `false` on a contradiction.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,popcnt,bmi1")]
    #[inline]
    pub(super) fn process_band<const DEEP: bool>(&mut self, k: usize, from: usize) -> bool {
        let mut band = self.bands[k];
        if !every_digit_placed(band) {
            return false;
        }
        let mut lines = triads(band);
        let counts = _mm256_popcnt_epi16(lines);
        let three = _mm256_set1_epi16(3);
        if _mm256_cmplt_epu16_mask(counts, three) != 0 {
            return false;
        }
        let full = _mm256_cmpeq_epi16_mask(counts, three) & TRIAD_MASK;
        if full != 0 {
            let certain = _mm256_maskz_mov_epi16(full, lines);
            let elsewhere = _mm256_or_si256(
                _mm256_permutexvar_epi16(OTHER_LINES[0], certain),
                _mm256_permutexvar_epi16(OTHER_LINES[1], certain),
            );
            let [p0, p1, p2] = ARRANGEMENT_TRIAD;
            let gone = _mm256_or_si256(
                _mm256_permutexvar_epi16(p0, elsewhere),
                _mm256_or_si256(
                    _mm256_permutexvar_epi16(p1, elsewhere),
                    _mm256_permutexvar_epi16(p2, elsewhere),
                ),
            );
            let next = _mm_andnot_si128(_mm256_castsi256_si128(gone), band);
            if _mm_cmpneq_epi16_mask(next, band) != 0 {
                band = next;
                self.bands[k] = band;
                if !every_digit_placed(band) {
                    return false;
                }
                lines = triads(band);
            }
        }
        let vertical = usize::from(k >= 3);
        for step in 1..=3 {
            let p = (from + step) % 3;
            let [first, second] = &BOX_FROM_TRIADS[vertical][p];
            let b = if vertical == 0 {
                k * 3 + p
            } else {
                p * 3 + k - 3
            };
            let allow = _mm256_or_si256(
                _mm256_permutexvar_epi16(*first, lines),
                _mm256_permutexvar_epi16(*second, lines),
            );
            if !self.restrict_box::<DEEP>(b, allow, vertical == 1) {
                return false;
            }
        }
        true
    }
}
