//! `binary-sudoku` secret data: answers spread over 0..=9, all zeros, all ones, and several
//! nine-flip grids.

use super::{GenError, GeneratedCase};
use crate::problem::answer::integer_line;
use crate::problem::format::binary as fmt;
use crate::problem::rng::SplitMix64;
use crate::solvers::binary::min_flips;

const ATTEMPTS: usize = 10_000;

/// A random grid with even parity everywhere (answer 0): a sum of random rectangles whose
/// two rows share a band or whose two columns share a stack (each is even in every row,
/// column and box).
fn random_even(rng: &mut SplitMix64, rectangles: usize) -> [u8; 81] {
    let mut grid = [0u8; 81];
    for _ in 0..rectangles {
        let (r1, c1) = (rng.below(9), rng.below(9));
        let (r2, c2) = if rng.below(2) == 0 {
            (
                r1 / 3 * 3 + (r1 % 3 + 1 + rng.below(2)) % 3,
                (c1 + 1 + rng.below(8)) % 9,
            )
        } else {
            (
                (r1 + 1 + rng.below(8)) % 9,
                c1 / 3 * 3 + (c1 % 3 + 1 + rng.below(2)) % 3,
            )
        };
        for cell in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
            grid[cell] ^= 1;
        }
    }
    grid
}

/// An even grid with `k` random cells flipped, kept only if the answer is exactly `k`.
fn with_answer(rng: &mut SplitMix64, k: usize) -> Result<[u8; 81], GenError> {
    for _ in 0..ATTEMPTS {
        let mut grid = random_even(rng, 40);
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        for &cell in &cells[..k] {
            grid[cell] ^= 1;
        }
        if min_flips(&grid) as usize == k {
            return Ok(grid);
        }
    }
    Err(GenError::GaveUp(format!("no grid with answer {k}")))
}

fn case(name: &str, grid: &[u8; 81]) -> GeneratedCase {
    GeneratedCase {
        name: name.to_string(),
        input: fmt::write(grid),
        answer: integer_line(i64::from(min_flips(grid))),
    }
}

pub(super) fn generate() -> Result<Vec<GeneratedCase>, GenError> {
    let seeded = |seed: u64| SplitMix64::new(0xb1_0000 + seed);
    let mut cases = vec![
        case("01-all-zeros", &[0; 81]),
        case("02-all-ones", &[1; 81]),
        case("03-even-dense", &random_even(&mut seeded(3), 200)),
    ];
    let mut n = 4;
    for k in 1..=8 {
        for copy in 0..2 {
            let grid = with_answer(&mut seeded(100 + k as u64 * 10 + copy), k)?;
            cases.push(case(&format!("{n:02}-answer-{k}"), &grid));
            n += 1;
        }
    }
    // All ones plus any even grid is still nine flips away from even parity everywhere.
    for copy in 0..3 {
        let mut grid = random_even(&mut seeded(200 + copy), 40);
        grid.iter_mut().for_each(|b| *b ^= 1);
        cases.push(case(&format!("{n:02}-answer-9"), &grid));
        n += 1;
    }
    let mut single = [0u8; 81];
    single[40] = 1;
    cases.push(case(&format!("{n:02}-one-centre-one"), &single));
    Ok(cases)
}
