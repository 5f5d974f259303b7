//! The propagation: boxes and bands whose contents changed are processed until nothing
//! changes, from a worklist or depth first. Depth first, a chain of nested calls narrows the
//! state at each step, so its depth is bounded by the state's bits (under 1,600).

use super::simd::Simd;
use super::state::{State, BAND_BIT};

impl State {
    /// Processes dirty bands, then dirty boxes, until none is left; `false` on a
    /// contradiction. Only possibilities that no completion uses are removed. With `DEEP`,
    /// a box or band narrowed on the way is processed at once, depth first, so that a
    /// contradiction ends the work sooner (the search's choice); without, it is queued
    /// (cheaper for the first propagation from the givens, where everything is dirty).
    #[inline(always)]
    pub(super) unsafe fn propagate<S: Simd, const DEEP: bool>(&mut self) -> bool {
        loop {
            let bands = self.dirty >> BAND_BIT;
            if bands != 0 {
                let k = bands.trailing_zeros() as usize;
                self.dirty &= !(1 << (BAND_BIT as usize + k));
                if !S::process_band::<DEEP>(self, k, 0) {
                    return false;
                }
                continue;
            }
            if self.dirty == 0 {
                return true;
            }
            let b = self.dirty.trailing_zeros() as usize;
            self.dirty &= !(1 << b);
            if !S::process_box::<DEEP>(self, b, false) {
                return false;
            }
        }
    }
}
