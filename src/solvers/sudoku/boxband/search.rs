//! The search: branch on one digit's arrangement in one band, the band with the fewest
//! arrangements left and in it a digit with the fewest (two when there is one): first that
//! digit's lowest arrangement alone, then every other.

use std::arch::x86_64::*;

use super::counter::Counter;
use super::simd::Simd;
use super::state::{State, BAND_BIT};

/// Bit 0 of each of a band's six arrangement lanes.
const ARRANGEMENT_LANES: u128 = 0x0001_0001_0001_0001_0001_0001;

/// A band's lanes as one 128-bit integer (lane `k` at bits `16 * k`).
#[inline(always)]
unsafe fn as_bits(band: __m128i) -> u128 {
    let lo = _mm_cvtsi128_si64(band) as u64;
    let hi = _mm_extract_epi64::<1>(band) as u64;
    u128::from(hi) << 64 | u128::from(lo)
}

/// A band from its lanes as one 128-bit integer.
#[inline(always)]
unsafe fn from_bits(bits: u128) -> __m128i {
    _mm_set_epi64x((bits >> 64) as i64, bits as i64)
}

/// The band, digit (0..9) and arrangement to branch on; `None` when every band has one
/// arrangement per digit (the grid is solved).
#[inline(always)]
unsafe fn choose(state: &State) -> Option<(usize, u32, u32)> {
    let mut best = (u32::MAX, 0, 0u128);
    for (k, &band) in state.bands.iter().enumerate() {
        let bits = as_bits(band);
        let n = bits.count_ones();
        // Propagation left every digit at least one arrangement: nine means one each.
        if n > 9 && n < best.0 {
            best = (n, k, bits);
        }
    }
    if best.0 == u32::MAX {
        return None;
    }
    let bits = best.2;
    let (mut one, mut two, mut three, mut four) = (0u16, 0u16, 0u16, 0u16);
    for k in 0..6 {
        let lane = (bits >> (16 * k)) as u16;
        four |= three & lane;
        three |= two & lane;
        two |= one & lane;
        one |= lane;
    }
    let mut pick = two & !three;
    if pick == 0 {
        pick = three & !four;
    }
    if pick == 0 {
        pick = two;
    }
    let digit = pick.trailing_zeros();
    let arrangement = (bits >> digit & ARRANGEMENT_LANES).trailing_zeros() / 16;
    Some((best.1, digit, arrangement))
}

impl Counter {
    /// One search node on a propagated `state`; may leave `state` changed.
    #[inline(always)]
    pub(super) unsafe fn node<S: Simd>(&mut self, state: &mut State) {
        let Some((k, digit, arrangement)) = choose(state) else {
            self.count += 1;
            if self.want_grid && self.first.is_none() {
                self.first = Some(state.grid());
            }
            return;
        };
        self.guesses += 1;
        let bits = as_bits(state.bands[k]);
        let chosen = 1u128 << (16 * arrangement + digit);
        let others = (ARRANGEMENT_LANES << digit) & !chosen;

        let mut first = *state;
        first.bands[k] = from_bits(bits & !others);
        first.dirty = 1 << (BAND_BIT as usize + k);
        if S::propagate::<true>(&mut first) {
            S::search(self, &mut first);
            if self.count >= self.limit {
                return;
            }
        }
        // The last branch needs no copy: this state is not looked at again.
        state.bands[k] = from_bits(bits & !chosen);
        state.dirty = 1 << (BAND_BIT as usize + k);
        if S::propagate::<true>(state) {
            S::search(self, state);
        }
    }
}
