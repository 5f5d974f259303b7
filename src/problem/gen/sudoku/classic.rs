//! The `classic` profile (`sudoku`, after POJ 3074 / AcWing 166): files of the original's kind
//! and size, up to 1,000 puzzles each, every puzzle with one solution, the classic hard ones
//! included (top1465, the forum's hardest, a few 17-clue puzzles). Sized so the textbook
//! solution (bitmask fewest-candidates search, no propagation, C++) needs at most half of
//! the original's 1 s on every file; `docs/problems.md` has the figures.

use std::path::Path;

use super::{case, first_cases, mixed, Datasets, Mix, Sizes};
use super::{GenError, GeneratedCase};
use crate::problem::rng::SplitMix64;

/// Seeds are `SEED + n` for case `n`.
const SEED: u64 = 0xc1a5_0000;

/// Cases 01 to 08: a few 17-clue puzzles (the textbook search's slowest kind), 200 of each
/// hard list.
const SIZES: Sizes = Sizes {
    easy: 100,
    minimal: 200,
    seventeen: 30,
    top1465: 200,
    hardest: 200,
};

/// Cases 09 and 10: mostly generated puzzles, a share of the hard lists, a few 17-clue ones.
const MIXED: Mix = Mix {
    seventeen: 10,
    top1465: 60,
    hardest: 80,
    minimal: 350,
    carved: 500,
};

/// Every case of the profile.
pub fn generate(datasets: &Path) -> Result<Vec<GeneratedCase>, GenError> {
    let data = Datasets::load(datasets)?;
    let mut cases = first_cases(&data, SEED, &SIZES)?;
    for n in [9, 10] {
        let puzzles = mixed(&mut SplitMix64::new(SEED + n), &data, &MIXED);
        cases.push(case(&format!("{n:02}-mixed"), &puzzles)?);
    }
    Ok(cases)
}
