//! The SIMD operations the core needs, as a trait with one implementation per instruction
//! set (`avx512.rs`, `avx2.rs`). The core (`state.rs`, `boxes.rs`, `bands.rs`, `search.rs`)
//! is written once, generic over [`Simd`], with `#[inline(always)]` bodies; each
//! implementation's entry points carry its `#[target_feature]`, so the core is compiled
//! into each instruction set's context whole. The recursion (box to band to box, node to
//! node) passes through those entry points, so whatever the compiler keeps out of line
//! still has its instruction set.
//!
//! Lanes are `u16`; box and triad-matrix lanes hold at most nine bits (a set of digits).

use std::arch::x86_64::{__m128i, __m256i};

use super::counter::Counter;
use super::state::State;

/// One instruction set's way of doing each operation the core needs.
///
/// Every method is `unsafe`: it may only run on a machine with that instruction set (the
/// dispatch in `mod.rs` checks it once).
pub(super) trait Simd {
    /// Each lane's number of set bits (lanes hold at most nine bits).
    unsafe fn popcnt16(x: __m256i) -> __m256i;
    /// Whether a lane of `counts` is below the same lane of `min` (both small).
    unsafe fn any_below(counts: __m256i, min: __m256i) -> bool;
    /// `x` in the lanes where `counts` equals `target`, zero elsewhere.
    unsafe fn keep_equal(counts: __m256i, target: __m256i, x: __m256i) -> __m256i;
    /// [`Simd::keep_equal`] and whether any lane was kept (as one check, for the branch).
    unsafe fn keep_equal_any(counts: __m256i, target: __m256i, x: __m256i) -> (__m256i, bool);
    /// Whether `next` (a subset of `old`, bit for bit) lost anything.
    unsafe fn narrower(next: __m256i, old: __m256i) -> bool;
    /// The same for a band.
    unsafe fn narrower_band(next: __m128i, old: __m128i) -> bool;
    /// The box's matrix rows turned by `STEP` lanes (1 or 2): lane `4r + c` gets lane
    /// `4r + (c + STEP) % 4`.
    unsafe fn turn_rows<const STEP: u32>(x: __m256i) -> __m256i;
    /// Every digit in the lanes where `x` is not empty, nothing elsewhere.
    unsafe fn all_where_set(x: __m256i) -> __m256i;
    /// `rows` in the negative row-triad lanes, `cols` elsewhere.
    unsafe fn blend_row_triads(cols: __m256i, rows: __m256i) -> __m256i;
    /// A band's triad matrix (lane `4p + e`: the digits that may occupy line `e` of its
    /// box `p`), the unused lanes full.
    unsafe fn triads(band: __m128i) -> __m256i;
    /// For each triad `(p, e)`, the union of the other two lines' lanes of box `p`.
    unsafe fn other_lines(certain: __m256i) -> __m256i;
    /// For each arrangement, the union over the three boxes of the triad lane it uses.
    unsafe fn arrangements_using(triads: __m256i) -> __m128i;
    /// What band `vertical`'s box `p` may hold, from the band's triad matrix `lines`.
    unsafe fn box_from_triads(lines: __m256i, vertical: usize, p: usize) -> __m256i;
    /// The arrangements box `b` allows, from its "may be in line" lanes and the box itself:
    /// its horizontal band's in lanes 0..6, its vertical band's in lanes 8..14.
    unsafe fn band_from_box(b: usize, may_be_in: __m256i, x: __m256i) -> __m256i;

    /// `State::process_box` compiled for this instruction set.
    unsafe fn process_box<const DEEP: bool>(
        state: &mut State,
        b: usize,
        from_vertical: bool,
    ) -> bool;
    /// `State::process_band` compiled for this instruction set.
    unsafe fn process_band<const DEEP: bool>(state: &mut State, k: usize, from: usize) -> bool;
    /// `State::propagate` compiled for this instruction set.
    unsafe fn propagate<const DEEP: bool>(state: &mut State) -> bool;
    /// `Counter::node` compiled for this instruction set.
    unsafe fn search(counter: &mut Counter, state: &mut State);
}

/// The entry points of [`Simd`] for an implementation compiled with `$features`.
macro_rules! entry_points {
    ($features:literal) => {
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn process_box<const DEEP: bool>(
            state: &mut State,
            b: usize,
            from_vertical: bool,
        ) -> bool {
            state.process_box::<Self, DEEP>(b, from_vertical)
        }

        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn process_band<const DEEP: bool>(state: &mut State, k: usize, from: usize) -> bool {
            state.process_band::<Self, DEEP>(k, from)
        }

        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn propagate<const DEEP: bool>(state: &mut State) -> bool {
            state.propagate::<Self, DEEP>()
        }

        #[target_feature(enable = $features)]
        unsafe fn search(counter: &mut Counter, state: &mut State) {
            counter.node::<Self>(state)
        }
    };
}
pub(super) use entry_points;
