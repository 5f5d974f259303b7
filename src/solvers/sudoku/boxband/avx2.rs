//! The core's operations with AVX2 alone (Haswell, Zen 1 to 3): a lane popcount from a
//! nibble table, compares into vectors, and every move of lanes as in-lane byte shuffles
//! (`vpshufb`) after at most one move across the two 128-bit halves. The shuffle controls
//! are derived at compile time from the layout's `vpermw` index tables, so both builds move
//! the same lanes.

use std::arch::x86_64::*;

use super::counter::Counter;
use super::layout::{
    lanes, ARRANGEMENT_TRIAD, BAND_FROM_BOX, BOX_FROM_TRIADS, OTHER_LINES, TRIAD_FROM_BAND,
    UNUSED_TRIADS,
};
use super::simd::{entry_points, Simd};
use super::state::State;

/// The instruction set of this build, as `is_x86_feature_detected!` names it.
pub(super) const FEATURES: [&str; 4] = ["avx2", "bmi1", "bmi2", "popcnt"];

/// The AVX2 build.
pub(super) struct Avx2;

/// No source lane: the shuffle writes zero.
const ZERO: i8 = -1;

/// A `vpshufb` control putting, in each lane `j` of each half, the half's lane `words[j]`
/// (0..8), or zero for [`ZERO`].
const fn shuffle(words: [i8; 16]) -> __m256i {
    let mut bytes = [0u8; 32];
    let mut j = 0;
    while j < 16 {
        let w = words[j];
        if w < 0 {
            bytes[2 * j] = 0x80;
            bytes[2 * j + 1] = 0x80;
        } else {
            bytes[2 * j] = 2 * w as u8;
            bytes[2 * j + 1] = 2 * w as u8 + 1;
        }
        j += 1;
    }
    // SAFETY: 32 plain bytes either way.
    unsafe { std::mem::transmute::<[u8; 32], __m256i>(bytes) }
}

/// The low half of a control, for a 128-bit shuffle.
const fn low(control: __m256i) -> __m128i {
    // SAFETY: plain bytes; the first 16 are the low half.
    let [lo, _] = unsafe { std::mem::transmute::<__m256i, [__m128i; 2]>(control) };
    lo
}

/// `ror` by one lane within each 64-bit row of the box matrix.
const TURN_ONE: __m256i = shuffle([1, 2, 3, 0, 5, 6, 7, 4, 1, 2, 3, 0, 5, 6, 7, 4]);

/// The bits set in each nibble, for `vpshufb`.
const NIBBLE_COUNTS: __m256i = {
    let mut bytes = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        bytes[i] = (i % 16).count_ones() as u8;
        i += 1;
    }
    // SAFETY: 32 plain bytes.
    unsafe { std::mem::transmute::<[u8; 32], __m256i>(bytes) }
};

/// `TRIAD_FROM_BAND` for a band copied into both halves.
const TRIAD_CONTROLS: [__m256i; 2] = {
    let mut out = [TURN_ONE; 2];
    let mut t = 0;
    while t < 2 {
        let idx = lanes(TRIAD_FROM_BAND[t]);
        let mut words = [ZERO; 16];
        let mut j = 0;
        while j < 16 {
            if idx[j] < 8 {
                words[j] = idx[j] as i8;
            }
            j += 1;
        }
        out[t] = shuffle(words);
        t += 1;
    }
    out
};

/// `OTHER_LINES`, whose moves stay within a half (box `p`'s triads are lanes `4p..4p + 3`).
const OTHER_CONTROLS: [__m256i; 2] = {
    let mut out = [TURN_ONE; 2];
    let mut t = 0;
    while t < 2 {
        let idx = lanes(OTHER_LINES[t]);
        let mut words = [ZERO; 16];
        let mut j = 0;
        while j < 16 {
            // The default (lane 3, empty) across halves becomes zero: the same.
            if idx[j] as usize / 8 == j / 8 {
                words[j] = (idx[j] % 8) as i8;
            }
            j += 1;
        }
        out[t] = shuffle(words);
        t += 1;
    }
    out
};

/// `ARRANGEMENT_TRIAD[p]` for 128-bit shuffles of the half holding box `p`'s triads.
const ARRANGEMENT_CONTROLS: [__m128i; 3] = {
    let mut out = [low(TURN_ONE); 3];
    let mut p = 0;
    while p < 3 {
        let idx = lanes(ARRANGEMENT_TRIAD[p]);
        let mut words = [ZERO; 16];
        let mut j = 0;
        while j < 8 {
            // The default (lane 3) is empty wherever this is used: zero is the same.
            if idx[j] as usize / 8 == p / 2 {
                words[j] = (idx[j] % 8) as i8;
            }
            j += 1;
        }
        out[p] = low(shuffle(words));
        p += 1;
    }
    out
};

/// `BOX_FROM_TRIADS` for the triad matrix's half holding box `p` copied into both halves;
/// the default (lane 15, full) becomes lane 7 of that half, full as well.
const BOX_CONTROLS: [[[__m256i; 2]; 3]; 2] = {
    let mut out = [[[TURN_ONE; 2]; 3]; 2];
    let mut v = 0;
    while v < 2 {
        let mut p = 0;
        while p < 3 {
            let mut t = 0;
            while t < 2 {
                let idx = lanes(BOX_FROM_TRIADS[v][p][t]);
                let mut words = [ZERO; 16];
                let mut j = 0;
                while j < 16 {
                    let i = idx[j] as usize;
                    words[j] = if i / 8 == p / 2 {
                        (i % 8) as i8
                    } else if i == 15 {
                        7
                    } else {
                        panic!("a box lane taken from another box's triads")
                    };
                    j += 1;
                }
                out[v][p][t] = shuffle(words);
                t += 1;
            }
            p += 1;
        }
        v += 1;
    }
    out
};

/// The 32-bit pieces gathered for [`Simd::band_from_box`]: the row-triad lanes 3, 7 and 11
/// to lanes 1, 3 and 5 of the low half, the column-triad lanes 12, 13 and 14 (and the empty
/// lane 15) to lanes 0 to 3 of the high half.
const GATHER_TRIADS: __m256i = {
    let pieces: [i32; 8] = [1, 3, 5, 1, 6, 7, 6, 7];
    // SAFETY: 32 plain bytes.
    unsafe { std::mem::transmute::<[i32; 8], __m256i>(pieces) }
};

/// `BAND_FROM_BOX` over the two sources gathered by [`GATHER_TRIADS`].
const BAND_CONTROLS: [[__m256i; 3]; 9] = {
    let mut out = [[TURN_ONE; 3]; 9];
    let mut b = 0;
    while b < 9 {
        let mut t = 0;
        while t < 3 {
            let idx = lanes(BAND_FROM_BOX[b][t]);
            let mut words = [ZERO; 16];
            let mut j = 0;
            while j < 16 {
                let source = idx[j] as usize;
                if (t == 0) != (source < 16) && source % 16 != 15 {
                    panic!("a band lane taken from the other source");
                }
                words[j] = match (j < 8, source % 16) {
                    (_, 15) => ZERO,
                    (true, 3) => 1,
                    (true, 7) => 3,
                    (true, 11) => 5,
                    (false, 12) => 0,
                    (false, 13) => 1,
                    (false, 14) => 2,
                    _ => panic!("a band lane taken from the wrong triads"),
                };
                j += 1;
            }
            out[b][t] = shuffle(words);
            t += 1;
        }
        b += 1;
    }
    out
};

impl Simd for Avx2 {
    #[inline(always)]
    unsafe fn popcnt16(x: __m256i) -> __m256i {
        // Nine bits at most: the low nibble, the next one, and bit 8.
        let low = _mm256_shuffle_epi8(NIBBLE_COUNTS, _mm256_and_si256(x, _mm256_set1_epi16(15)));
        let high = _mm256_shuffle_epi8(NIBBLE_COUNTS, _mm256_srli_epi16::<4>(x));
        _mm256_add_epi16(_mm256_add_epi16(low, high), _mm256_srli_epi16::<8>(x))
    }

    #[inline(always)]
    unsafe fn any_below(counts: __m256i, min: __m256i) -> bool {
        let below = _mm256_cmpgt_epi16(min, counts);
        _mm256_testz_si256(below, below) == 0
    }

    #[inline(always)]
    unsafe fn keep_equal(counts: __m256i, target: __m256i, x: __m256i) -> __m256i {
        _mm256_and_si256(_mm256_cmpeq_epi16(counts, target), x)
    }

    #[inline(always)]
    unsafe fn keep_equal_any(counts: __m256i, target: __m256i, x: __m256i) -> (__m256i, bool) {
        let kept = Self::keep_equal(counts, target, x);
        (kept, _mm256_testz_si256(kept, kept) == 0)
    }

    #[inline(always)]
    unsafe fn narrower(next: __m256i, old: __m256i) -> bool {
        _mm256_testc_si256(next, old) == 0
    }

    #[inline(always)]
    unsafe fn narrower_band(next: __m128i, old: __m128i) -> bool {
        _mm_testc_si128(next, old) == 0
    }

    #[inline(always)]
    unsafe fn turn_rows<const STEP: u32>(x: __m256i) -> __m256i {
        if STEP == 1 {
            _mm256_shuffle_epi8(x, TURN_ONE)
        } else {
            _mm256_shuffle_epi32::<0b1011_0001>(x)
        }
    }

    #[inline(always)]
    unsafe fn all_where_set(x: __m256i) -> __m256i {
        let empty = _mm256_cmpeq_epi16(x, _mm256_setzero_si256());
        _mm256_andnot_si256(empty, _mm256_set1_epi16(0x1ff))
    }

    #[inline(always)]
    unsafe fn blend_row_triads(cols: __m256i, rows: __m256i) -> __m256i {
        // Lanes 3 and 7 of each half: 3, 7, 11 and 15 (empty in both wherever this is used).
        _mm256_blend_epi16::<0b1000_1000>(cols, rows)
    }

    #[inline(always)]
    unsafe fn triads(band: __m128i) -> __m256i {
        let both = _mm256_broadcastsi128_si256(band);
        let [first, second] = TRIAD_CONTROLS;
        _mm256_or_si256(
            _mm256_or_si256(
                _mm256_shuffle_epi8(both, first),
                _mm256_shuffle_epi8(both, second),
            ),
            UNUSED_TRIADS,
        )
    }

    #[inline(always)]
    unsafe fn other_lines(certain: __m256i) -> __m256i {
        _mm256_or_si256(
            _mm256_shuffle_epi8(certain, OTHER_CONTROLS[0]),
            _mm256_shuffle_epi8(certain, OTHER_CONTROLS[1]),
        )
    }

    #[inline(always)]
    unsafe fn arrangements_using(triads: __m256i) -> __m128i {
        let (lo, hi) = (
            _mm256_castsi256_si128(triads),
            _mm256_extracti128_si256::<1>(triads),
        );
        let [p0, p1, p2] = ARRANGEMENT_CONTROLS;
        _mm_or_si128(
            _mm_shuffle_epi8(lo, p0),
            _mm_or_si128(_mm_shuffle_epi8(lo, p1), _mm_shuffle_epi8(hi, p2)),
        )
    }

    #[inline(always)]
    unsafe fn box_from_triads(lines: __m256i, vertical: usize, p: usize) -> __m256i {
        let half = if p == 2 {
            _mm256_permute4x64_epi64::<0b1110_1110>(lines)
        } else {
            _mm256_permute4x64_epi64::<0b0100_0100>(lines)
        };
        let [first, second] = &BOX_CONTROLS[vertical][p];
        _mm256_or_si256(
            _mm256_shuffle_epi8(half, *first),
            _mm256_shuffle_epi8(half, *second),
        )
    }

    #[inline(always)]
    unsafe fn band_from_box(b: usize, may_be_in: __m256i, x: __m256i) -> __m256i {
        let may_be_in = _mm256_permutevar8x32_epi32(may_be_in, GATHER_TRIADS);
        let x = _mm256_permutevar8x32_epi32(x, GATHER_TRIADS);
        let [in_line, absent1, absent2] = &BAND_CONTROLS[b];
        _mm256_and_si256(
            _mm256_shuffle_epi8(may_be_in, *in_line),
            _mm256_and_si256(
                _mm256_shuffle_epi8(x, *absent1),
                _mm256_shuffle_epi8(x, *absent2),
            ),
        )
    }

    entry_points!("avx2,bmi1,bmi2,popcnt");
}
