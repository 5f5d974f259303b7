//! The search state (nine boxes, six bands), its set-up from the givens and the solved
//! grid it holds at the end.

use std::arch::x86_64::*;

use super::layout::{lane, ARRANGEMENTS, OPEN_BAND, OPEN_BOX};
use crate::solvers::sudoku::Grid;

/// Bits 0..9 of [`State::dirty`]: the boxes; bits 9..15: the bands.
pub(super) const BAND_BIT: u32 = 9;

/// Bit 0 of each of a band's eight lanes.
const EVERY_LANE: u128 = 0x0001_0001_0001_0001_0001_0001_0001_0001;

/// `ELSEWHERE[p][e]`: a band's lanes (all sixteen bits) whose arrangement puts the digit
/// outside line `e` of the band's box `p`, the ones a given in that line rules out.
const ELSEWHERE: [[u128; 3]; 3] = {
    let mut out = [[0u128; 3]; 3];
    let mut p = 0;
    while p < 3 {
        let mut k = 0;
        while k < 6 {
            let mut e = 0;
            while e < 3 {
                if ARRANGEMENTS[k][p] != e {
                    out[p][e] |= 0xffff << (16 * k);
                }
                e += 1;
            }
            k += 1;
        }
        p += 1;
    }
    out
};

/// Where a given in one cell goes: its box and lane, its two bands and the arrangements
/// (all sixteen bits of a lane) it rules out in each.
struct Given {
    b: u8,
    lane: u8,
    bands: [u8; 2],
    elsewhere: [u128; 2],
}

/// [`Given`] for each cell.
const GIVEN: [Given; 81] = {
    let mut out = [const {
        Given {
            b: 0,
            lane: 0,
            bands: [0; 2],
            elsewhere: [0; 2],
        }
    }; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        let b = row / 3 * 3 + col / 3;
        out[cell] = Given {
            b: b as u8,
            lane: lane(row % 3, col % 3) as u8,
            bands: [(row / 3) as u8, (3 + col / 3) as u8],
            elsewhere: [ELSEWHERE[b % 3][row % 3], ELSEWHERE[b / 3][col % 3]],
        };
        cell += 1;
    }
    out
};

/// The cells holding a given, as bits 0..81; `None` when a value is above 9.
fn givens(puzzle: &Grid) -> Option<u128> {
    // SSE2, which every x86-64 has: sixteen cells at a time, the last one alone.
    let (mut set, mut above) = (0u128, 0u32);
    // SAFETY: SSE2 is part of x86-64; each load reads bytes 16k..16k + 16 of the 81.
    unsafe {
        let nine = _mm_set1_epi8(9);
        let zero = _mm_setzero_si128();
        for k in 0..5 {
            let v = _mm_loadu_si128(puzzle.as_ptr().add(16 * k).cast());
            let empty = _mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) as u32;
            set |= u128::from(!empty & 0xffff) << (16 * k);
            let fine = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, nine), nine)) as u32;
            above |= !fine & 0xffff;
        }
    }
    if above != 0 || puzzle[80] > 9 {
        return None;
    }
    Some(set | u128::from(puzzle[80] != 0) << 80)
}

/// A partly solved grid: what each box and each band still allows.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(super) struct State {
    /// Box `b` (row-major over the grid's boxes), laid out as in `layout`.
    pub(super) boxes: [__m256i; 9],
    /// Bands 0..3 are the horizontal ones (box rows), 3..6 the vertical ones (box columns).
    pub(super) bands: [__m128i; 6],
    /// Boxes and bands narrowed since they were last processed (empty between searches).
    pub(super) dirty: u32,
}

impl State {
    /// The state for `puzzle`'s givens, not yet propagated; `None` when a value is above 9.
    /// Givens go into the bands first (each rules out the arrangements that put its digit
    /// elsewhere), so that the first propagation starts from everything the clues say.
    pub(super) fn new(puzzle: &Grid) -> Option<State> {
        let givens = givens(puzzle)?;
        let mut boxes = [[0u16; 16]; 9];
        // SAFETY: 16 plain bytes either way.
        let mut bands = [unsafe { std::mem::transmute::<__m128i, u128>(OPEN_BAND) }; 6];
        for b in &mut boxes {
            // SAFETY: 32 plain bytes either way.
            *b = unsafe { std::mem::transmute::<__m256i, [u16; 16]>(OPEN_BOX) };
        }
        let mut left = givens;
        while left != 0 {
            let cell = left.trailing_zeros() as usize;
            left &= left - 1;
            let bit = 1u16 << (puzzle[cell] - 1);
            let given = &GIVEN[cell];
            boxes[usize::from(given.b)][usize::from(given.lane)] &= bit;
            let spread = u128::from(bit) * EVERY_LANE;
            bands[usize::from(given.bands[0])] &= !(given.elsewhere[0] & spread);
            bands[usize::from(given.bands[1])] &= !(given.elsewhere[1] & spread);
        }
        Some(State {
            // SAFETY: plain bytes to vectors of the same size.
            boxes: boxes.map(|b| unsafe { std::mem::transmute::<[u16; 16], __m256i>(b) }),
            bands: bands.map(|b| unsafe { std::mem::transmute::<u128, __m128i>(b) }),
            dirty: u32::MAX >> (32 - BAND_BIT - 6),
        })
    }

    /// The grid of a solved state (every cell down to one digit).
    #[inline(always)]
    pub(super) unsafe fn grid(&self) -> Grid {
        let mut grid = [0u8; 81];
        for (b, &x) in self.boxes.iter().enumerate() {
            let rows = [
                _mm256_extract_epi64::<0>(x) as u64,
                _mm256_extract_epi64::<1>(x) as u64,
                _mm256_extract_epi64::<2>(x) as u64,
            ];
            for (r, &row) in rows.iter().enumerate() {
                for c in 0..3 {
                    let digit = (row >> (16 * c)) as u16;
                    grid[(b / 3 * 3 + r) * 9 + b % 3 * 3 + c] = digit.trailing_zeros() as u8 + 1;
                }
            }
        }
        grid
    }
}
