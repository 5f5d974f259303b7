//! The `speed` profile (`sudoku-hard`): ten files up to 10,000 puzzles, dominated by the
//! 17-clue and forum-hardest lists, where a plain fewest-candidates search takes tens of
//! seconds and only propagation (singles) or exact cover keeps up. These are the bytes the
//! `sudoku` package shipped before it got the classic limits.

use std::path::Path;

use super::{case, first_cases, mixed, transformed, Datasets, Mix, Sizes};
use super::{GenError, GeneratedCase};
use crate::problem::rng::SplitMix64;

/// Seeds are `SEED + n` for case `n`.
const SEED: u64 = 0x5d0c_0000;

/// Cases 01 to 08: 300 of each public list.
const SIZES: Sizes = Sizes {
    easy: 50,
    minimal: 200,
    seventeen: 300,
    top1465: 300,
    hardest: 300,
};

/// The 10,000-puzzle file: 6,000 17-clue puzzles, 1,000 of each other source.
const LARGE: Mix = Mix {
    seventeen: 6000,
    top1465: 1000,
    hardest: 1000,
    minimal: 1000,
    carved: 1000,
};

/// Every case of the profile.
pub fn generate(datasets: &Path) -> Result<Vec<GeneratedCase>, GenError> {
    let data = Datasets::load(datasets)?;
    let mut cases = first_cases(&data, SEED, &SIZES)?;
    cases.push(case(
        "09-hardest-large",
        &transformed(&mut SplitMix64::new(SEED + 9), &data.hardest, 1500),
    )?);
    cases.push(case(
        "10-large-mixed",
        &mixed(&mut SplitMix64::new(SEED + 10), &data, &LARGE),
    )?);
    Ok(cases)
}
