//! The core's operations with AVX-512 VL, BW and BITALG: a lane popcount in one
//! instruction, compares into mask registers, 16-bit permutes across the whole vector
//! (`vpermw`, `vpermt2w`) indexed by the layout's tables as they are.

use std::arch::x86_64::*;

use super::counter::Counter;
use super::layout::{
    ARRANGEMENT_TRIAD, BAND_FROM_BOX, BOX_FROM_TRIADS, OTHER_LINES, ROW_TRIAD_MASK,
    TRIAD_FROM_BAND, UNUSED_TRIADS,
};
use super::simd::{entry_points, Simd};
use super::state::State;

/// The instruction set of this build, as `is_x86_feature_detected!` names it.
pub(super) const FEATURES: [&str; 7] = [
    "avx2",
    "avx512f",
    "avx512vl",
    "avx512bw",
    "avx512bitalg",
    "popcnt",
    "bmi1",
];

/// The AVX-512 build.
pub(super) struct Avx512;

impl Simd for Avx512 {
    #[inline(always)]
    unsafe fn popcnt16(x: __m256i) -> __m256i {
        _mm256_popcnt_epi16(x)
    }

    #[inline(always)]
    unsafe fn any_below(counts: __m256i, min: __m256i) -> bool {
        _mm256_cmplt_epu16_mask(counts, min) != 0
    }

    #[inline(always)]
    unsafe fn keep_equal(counts: __m256i, target: __m256i, x: __m256i) -> __m256i {
        _mm256_maskz_mov_epi16(_mm256_cmpeq_epi16_mask(counts, target), x)
    }

    #[inline(always)]
    unsafe fn keep_equal_any(counts: __m256i, target: __m256i, x: __m256i) -> (__m256i, bool) {
        let equal = _mm256_cmpeq_epi16_mask(counts, target);
        (_mm256_maskz_mov_epi16(equal, x), equal != 0)
    }

    #[inline(always)]
    unsafe fn narrower(next: __m256i, old: __m256i) -> bool {
        _mm256_cmpneq_epi16_mask(next, old) != 0
    }

    #[inline(always)]
    unsafe fn narrower_band(next: __m128i, old: __m128i) -> bool {
        _mm_cmpneq_epi16_mask(next, old) != 0
    }

    #[inline(always)]
    unsafe fn turn_rows<const STEP: u32>(x: __m256i) -> __m256i {
        if STEP == 1 {
            _mm256_ror_epi64::<16>(x)
        } else {
            _mm256_ror_epi64::<32>(x)
        }
    }

    #[inline(always)]
    unsafe fn all_where_set(x: __m256i) -> __m256i {
        _mm256_maskz_set1_epi16(_mm256_test_epi16_mask(x, x), 0x1ff)
    }

    #[inline(always)]
    unsafe fn blend_row_triads(cols: __m256i, rows: __m256i) -> __m256i {
        _mm256_mask_blend_epi16(ROW_TRIAD_MASK, cols, rows)
    }

    #[inline(always)]
    unsafe fn triads(band: __m128i) -> __m256i {
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

    #[inline(always)]
    unsafe fn other_lines(certain: __m256i) -> __m256i {
        _mm256_or_si256(
            _mm256_permutexvar_epi16(OTHER_LINES[0], certain),
            _mm256_permutexvar_epi16(OTHER_LINES[1], certain),
        )
    }

    #[inline(always)]
    unsafe fn arrangements_using(triads: __m256i) -> __m128i {
        let [p0, p1, p2] = ARRANGEMENT_TRIAD;
        _mm256_castsi256_si128(_mm256_or_si256(
            _mm256_permutexvar_epi16(p0, triads),
            _mm256_or_si256(
                _mm256_permutexvar_epi16(p1, triads),
                _mm256_permutexvar_epi16(p2, triads),
            ),
        ))
    }

    #[inline(always)]
    unsafe fn box_from_triads(lines: __m256i, vertical: usize, p: usize) -> __m256i {
        let [first, second] = &BOX_FROM_TRIADS[vertical][p];
        _mm256_or_si256(
            _mm256_permutexvar_epi16(*first, lines),
            _mm256_permutexvar_epi16(*second, lines),
        )
    }

    #[inline(always)]
    unsafe fn band_from_box(b: usize, may_be_in: __m256i, x: __m256i) -> __m256i {
        let [in_line, absent1, absent2] = BAND_FROM_BOX[b];
        _mm256_and_si256(
            _mm256_permutex2var_epi16(may_be_in, in_line, x),
            _mm256_and_si256(
                _mm256_permutex2var_epi16(may_be_in, absent1, x),
                _mm256_permutex2var_epi16(may_be_in, absent2, x),
            ),
        )
    }

    entry_points!("avx2,avx512f,avx512vl,avx512bw,avx512bitalg,popcnt,bmi1");
}
