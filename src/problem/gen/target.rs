//! `target-sudoku` secret data: at least 24 givens (the NOIP constraint), from a unique
//! completion up to tens of thousands of completions, grids with no completion although no
//! two givens clash, and full grids (the `noip` profile, NOIP's kind); the `clashing`
//! profile (`target-sudoku-clash`) adds grids whose givens clash.

use super::sudoku::{carve, random_full_grid};
use super::{GenError, GeneratedCase};
use crate::problem::answer::integer_line;
use crate::problem::format::target as fmt;
use crate::problem::rng::SplitMix64;
use crate::solvers::sudoku::count_solutions;
use crate::solvers::target::max_score;

/// The NOIP lower bound on givens.
const MIN_GIVENS: usize = 24;
/// Counting stops here: more completions than this would be beyond the original data.
const MAX_COMPLETIONS: usize = 60_000;
/// Attempts before a generator gives up (far more than any seed here needs).
const ATTEMPTS: usize = 2_000;

fn givens(grid: &[u8; 81]) -> usize {
    grid.iter().filter(|&&d| d != 0).count()
}

/// Clears cells of a random full grid in random order while the completions stay at most
/// `max`, down to `MIN_GIVENS` givens: few givens and many completions, as in the NOIP data.
fn many_completions(rng: &mut SplitMix64, max: usize) -> ([u8; 81], usize) {
    let mut grid = random_full_grid(rng);
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    let mut count = 1;
    for cell in cells {
        if givens(&grid) == MIN_GIVENS {
            break;
        }
        let digit = grid[cell];
        grid[cell] = 0;
        let c = count_solutions(&grid, max + 1);
        if c > max {
            grid[cell] = digit;
        } else {
            count = c;
        }
    }
    (grid, count)
}

/// A grid whose completion count lies in `lo..=hi` (and at least `MIN_GIVENS` givens).
fn with_completions(rng: &mut SplitMix64, lo: usize, hi: usize) -> Result<[u8; 81], GenError> {
    for _ in 0..ATTEMPTS {
        let (grid, count) = many_completions(rng, hi);
        if count >= lo {
            return Ok(grid);
        }
    }
    Err(GenError::GaveUp(format!(
        "no grid with {lo}..={hi} completions"
    )))
}

/// Whether digit `d` at `cell` clashes with a given in its row, column or box.
fn clashes(grid: &[u8; 81], cell: usize, d: u8) -> bool {
    let (r, c) = (cell / 9, cell % 9);
    (0..9).any(|k| {
        let peers = [
            r * 9 + k,
            k * 9 + c,
            (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3,
        ];
        peers.iter().any(|&p| p != cell && grid[p] == d)
    })
}

/// A grid with `given_count` givens, no two clashing, and no completion: one given of a
/// unique puzzle is changed to another digit that clashes with nothing.
fn dead_end(rng: &mut SplitMix64, given_count: usize) -> Result<[u8; 81], GenError> {
    for _ in 0..ATTEMPTS {
        let full = random_full_grid(rng);
        let mut grid = carve(rng, &full, given_count);
        if givens(&grid) != given_count {
            continue;
        }
        let filled: Vec<usize> = (0..81).filter(|&i| grid[i] != 0).collect();
        let cell = filled[rng.below(filled.len())];
        let d = 1 + rng.below(9) as u8;
        if d == grid[cell] || clashes(&grid, cell, d) {
            continue;
        }
        grid[cell] = d;
        if count_solutions(&grid, 1) == 0 {
            return Ok(grid);
        }
    }
    Err(GenError::GaveUp(
        "no clash-free grid without completion".to_string(),
    ))
}

/// A unique puzzle with one extra given that clashes with another given in `unit`'s way.
fn clashing(rng: &mut SplitMix64, unit: Unit) -> Result<[u8; 81], GenError> {
    for _ in 0..ATTEMPTS {
        let full = random_full_grid(rng);
        let mut grid = carve(rng, &full, 30);
        let empty: Vec<usize> = (0..81).filter(|&i| grid[i] == 0).collect();
        let cell = empty[rng.below(empty.len())];
        let (r, c) = (cell / 9, cell % 9);
        // The digit of a given elsewhere in the chosen unit only.
        let peers: Vec<usize> = match unit {
            Unit::Row => (0..9).map(|k| r * 9 + k).collect(),
            Unit::Box => (0..9)
                .map(|k| (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3)
                .filter(|&p| p / 9 != r && p % 9 != c)
                .collect(),
        };
        let Some(&peer) = peers.iter().find(|&&p| p != cell && grid[p] != 0) else {
            continue;
        };
        grid[cell] = grid[peer];
        return Ok(grid);
    }
    Err(GenError::GaveUp("no clashing grid".to_string()))
}

#[derive(Clone, Copy)]
enum Unit {
    Row,
    Box,
}

fn case(name: &str, grid: &[u8; 81]) -> GeneratedCase {
    GeneratedCase {
        name: name.to_string(),
        input: fmt::write(grid),
        answer: integer_line(max_score(grid).map_or(-1, i64::from)),
    }
}

/// NOIP's kind of data (the `noip` profile, the default): valid givens, solvable or not, as
/// the original's data; no grid whose givens clash.
pub(super) fn noip() -> Result<Vec<GeneratedCase>, GenError> {
    let mut cases = base()?;
    let full = random_full_grid(&mut seeded(51));
    cases.push(case("17-full-grid", &full));
    let mut one = random_full_grid(&mut seeded(52));
    one[40] = 0;
    cases.push(case("18-one-empty-centre", &one));
    Ok(cases)
}

/// The `clashing` profile (this project's extension, `target-sudoku-clash`): NOIP's kind of
/// data and grids whose givens clash (answer -1), the same bytes target-sudoku shipped before
/// it kept to the original's data.
pub(super) fn clashing_givens() -> Result<Vec<GeneratedCase>, GenError> {
    let mut cases = base()?;
    cases.push(case(
        "17-clash-in-row",
        &clashing(&mut seeded(41), Unit::Row)?,
    ));
    cases.push(case(
        "18-clash-in-box",
        &clashing(&mut seeded(42), Unit::Box)?,
    ));
    let full = random_full_grid(&mut seeded(51));
    cases.push(case("19-full-grid", &full));
    let mut one = random_full_grid(&mut seeded(52));
    one[40] = 0;
    cases.push(case("20-one-empty-centre", &one));
    let mut rng = seeded(53);
    let mut broken = random_full_grid(&mut rng);
    let (a, b) = (rng.below(9), 9 + rng.below(9));
    broken.swap(a, b);
    cases.push(case("21-full-grid-clashing", &broken));
    Ok(cases)
}

fn seeded(seed: u64) -> SplitMix64 {
    SplitMix64::new(0x7a26_0000 + seed)
}

/// The cases both profiles share: many, some, one and no completions (no clash).
fn base() -> Result<Vec<GeneratedCase>, GenError> {
    let mut cases = Vec::new();
    let mut push = |name: &str, grid: [u8; 81]| cases.push(case(name, &grid));

    for (i, seed) in (1..=6).enumerate() {
        let grid = with_completions(&mut seeded(seed), 10_000, MAX_COMPLETIONS)?;
        push(&format!("{:02}-many-completions", i + 1), grid);
    }
    for (i, (seed, lo, hi)) in [
        (11, 1_000, 9_999),
        (12, 1_000, 9_999),
        (13, 100, 999),
        (14, 2, 99),
    ]
    .into_iter()
    .enumerate()
    {
        let grid = with_completions(&mut seeded(seed), lo, hi)?;
        push(&format!("{:02}-some-completions", i + 7), grid);
    }
    for (i, (seed, min)) in [(21, 24), (22, 28), (23, 35)].into_iter().enumerate() {
        let mut rng = seeded(seed);
        let full = random_full_grid(&mut rng);
        push(
            &format!("{:02}-unique", i + 11),
            carve(&mut rng, &full, min),
        );
    }
    for (i, (seed, n)) in [(31, 24), (32, 27), (33, 30)].into_iter().enumerate() {
        push(
            &format!("{:02}-no-completion", i + 14),
            dead_end(&mut seeded(seed), n)?,
        );
    }
    Ok(cases)
}

/// The first two givens of `grid` that clash (cells, row-major), if any: NOIP's data has
/// none, and `verify` holds a `noip` package to that.
pub fn first_clash(grid: &[u8; 81]) -> Option<(usize, usize)> {
    (0..81).filter(|&i| grid[i] != 0).find_map(|cell| {
        let (r, c) = (cell / 9, cell % 9);
        (0..9)
            .flat_map(|k| {
                [
                    r * 9 + k,
                    k * 9 + c,
                    (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3,
                ]
            })
            .find(|&p| p > cell && grid[p] == grid[cell])
            .map(|p| (cell, p))
    })
}
