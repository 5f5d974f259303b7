//! `sudoku` secret data: generated puzzles (nearly full, easy, minimal) and hard public
//! puzzles from `the repository's `datasets/``, each copy relabelled and permuted into a new puzzle.

use std::path::Path;

use super::{GenError, GeneratedCase};
use crate::problem::format::{sudoku as fmt, FormatError};
use crate::problem::rng::SplitMix64;
use crate::solvers::sudoku::{count_solutions, solve, Grid};

/// The public lists, one puzzle per line, `#` comment lines (see the datasets' README).
const SEVENTEEN: &str = "puzzles2_17_clue.txt";
const TOP1465: &str = "puzzles3_magictour_top1465.txt";
const HARDEST: &str = "puzzles5_forum_hardest_1905_11+.txt";

/// The public lists, loaded once.
struct Datasets {
    seventeen: Vec<Grid>,
    top1465: Vec<Grid>,
    hardest: Vec<Grid>,
}

impl Datasets {
    fn load(dir: &Path) -> Result<Datasets, GenError> {
        Ok(Datasets {
            seventeen: read_dataset(&dir.join(SEVENTEEN))?,
            top1465: read_dataset(&dir.join(TOP1465))?,
            hardest: read_dataset(&dir.join(HARDEST))?,
        })
    }
}

fn read_dataset(path: &Path) -> Result<Vec<Grid>, GenError> {
    let text = std::fs::read(path).map_err(|source| GenError::Dataset {
        path: path.to_path_buf(),
        source,
    })?;
    let mut puzzles = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        let grid = fmt::parse_grid(line).map_err(|message| GenError::DatasetFormat {
            path: path.to_path_buf(),
            fault: FormatError {
                line: i + 1,
                message,
            },
        })?;
        puzzles.push(grid);
    }
    Ok(puzzles)
}

/// A random Sudoku symmetry: relabel digits, permute bands, rows within bands, stacks,
/// columns within stacks, and maybe transpose. It maps puzzles with one solution to puzzles
/// with one solution.
struct Symmetry {
    digits: [u8; 10],
    rows: [usize; 9],
    cols: [usize; 9],
    transpose: bool,
}

impl Symmetry {
    fn random(rng: &mut SplitMix64) -> Symmetry {
        let mut labels: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut labels);
        let mut digits = [0u8; 10];
        digits[1..].copy_from_slice(&labels);
        Symmetry {
            digits,
            rows: line_permutation(rng),
            cols: line_permutation(rng),
            transpose: rng.below(2) == 1,
        }
    }

    fn apply(&self, grid: &Grid) -> Grid {
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = (self.rows[r], self.cols[c]);
                let src = if self.transpose {
                    sc * 9 + sr
                } else {
                    sr * 9 + sc
                };
                out[r * 9 + c] = self.digits[usize::from(grid[src])];
            }
        }
        out
    }
}

/// A permutation of 0..9 that keeps the three groups of three together (bands or stacks).
fn line_permutation(rng: &mut SplitMix64) -> [usize; 9] {
    let mut groups = [0, 1, 2];
    rng.shuffle(&mut groups);
    let mut out = [0; 9];
    for (g, &group) in groups.iter().enumerate() {
        let mut within = [0, 1, 2];
        rng.shuffle(&mut within);
        for (k, &w) in within.iter().enumerate() {
            out[g * 3 + k] = group * 3 + w;
        }
    }
    out
}

/// `count` distinct puzzles of `list`, each through a fresh random symmetry.
fn transformed(rng: &mut SplitMix64, list: &[Grid], count: usize) -> Vec<Grid> {
    let mut order: Vec<usize> = (0..list.len()).collect();
    rng.shuffle(&mut order);
    order
        .iter()
        .take(count)
        .map(|&i| Symmetry::random(rng).apply(&list[i]))
        .collect()
}

/// A uniformly shuffled backtracking fill: a random complete valid grid.
pub(super) fn random_full_grid(rng: &mut SplitMix64) -> Grid {
    fn fill(grid: &mut Grid, cell: usize, rng: &mut SplitMix64) -> bool {
        if cell == 81 {
            return true;
        }
        let (r, c) = (cell / 9, cell % 9);
        let mut used = 0u16;
        for k in 0..9 {
            used |= 1 << grid[r * 9 + k];
            used |= 1 << grid[k * 9 + c];
            used |= 1 << grid[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3];
        }
        let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for d in digits {
            if used & (1 << d) == 0 {
                grid[cell] = d;
                if fill(grid, cell + 1, rng) {
                    return true;
                }
            }
        }
        grid[cell] = 0;
        false
    }
    let mut grid = [0u8; 81];
    // Every partial row-major fill extends or backtracks; a full grid always exists.
    fill(&mut grid, 0, rng);
    grid
}

/// Clears cells of `full` in random order while the puzzle keeps exactly one solution,
/// stopping at `min_givens` givens (0: until no clue can go, a minimal puzzle).
pub(super) fn carve(rng: &mut SplitMix64, full: &Grid, min_givens: usize) -> Grid {
    let mut puzzle = *full;
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    let mut givens = 81;
    for cell in cells {
        if givens <= min_givens {
            break;
        }
        let digit = puzzle[cell];
        puzzle[cell] = 0;
        if count_solutions(&puzzle, 2) == 1 {
            givens -= 1;
        } else {
            puzzle[cell] = digit;
        }
    }
    puzzle
}

fn minimal_puzzles(rng: &mut SplitMix64, count: usize) -> Vec<Grid> {
    (0..count)
        .map(|_| {
            let full = random_full_grid(rng);
            carve(rng, &full, 0)
        })
        .collect()
}

/// Nearly full grids: edge cases for the search (nothing to do, one cell, a row, a box).
fn nearly_full(rng: &mut SplitMix64) -> Vec<Grid> {
    let mut out = Vec::new();
    let full = random_full_grid(rng);
    out.push(full);
    let mut one = random_full_grid(rng);
    one[rng.below(81)] = 0;
    out.push(one);
    let mut row = random_full_grid(rng);
    let r = rng.below(9);
    row[r * 9..r * 9 + 9].fill(0);
    out.push(row);
    let mut column = random_full_grid(rng);
    let c = rng.below(9);
    (0..9).for_each(|r| column[r * 9 + c] = 0);
    out.push(column);
    let mut boxed = random_full_grid(rng);
    let b = rng.below(9);
    (0..9).for_each(|k| boxed[(b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3] = 0);
    out.push(boxed);
    out
}

/// Builds one case, solving every puzzle for the answer.
fn case(name: &str, puzzles: &[Grid]) -> Result<GeneratedCase, GenError> {
    let mut answer = Vec::with_capacity(puzzles.len() * 82);
    for (i, p) in puzzles.iter().enumerate() {
        let solved = solve(p)
            .ok_or_else(|| GenError::GaveUp(format!("{name}: puzzle {} has no solution", i + 1)))?;
        fmt::append_solution(&mut answer, &solved);
    }
    Ok(GeneratedCase {
        name: name.to_string(),
        input: fmt::write_puzzles(puzzles),
        answer,
    })
}

pub(super) fn generate(datasets: &Path) -> Result<Vec<GeneratedCase>, GenError> {
    let data = Datasets::load(datasets)?;
    let seeded = |seed: u64| SplitMix64::new(0x5d0c_0000 + seed);
    let mut cases = Vec::new();

    cases.push(case("01-nearly-full", &nearly_full(&mut seeded(1)))?);

    let mut rng = seeded(2);
    let easy: Vec<Grid> = (0..50)
        .map(|i| {
            let full = random_full_grid(&mut rng);
            carve(&mut rng, &full, 30 + i % 20)
        })
        .collect();
    cases.push(case("02-easy", &easy)?);

    cases.push(case("03-minimal", &minimal_puzzles(&mut seeded(3), 200))?);
    cases.push(case(
        "04-seventeen-clues",
        &transformed(&mut seeded(4), &data.seventeen, 300),
    )?);
    cases.push(case(
        "05-top1465",
        &transformed(&mut seeded(5), &data.top1465, 300),
    )?);
    cases.push(case(
        "06-hardest",
        &transformed(&mut seeded(6), &data.hardest, 300),
    )?);
    // The hardest list is sorted by rating, so its first puzzle is among the very hardest.
    cases.push(case(
        "07-single-hardest",
        &[Symmetry::random(&mut seeded(7)).apply(&data.hardest[0])],
    )?);

    let mut rng = seeded(8);
    let base = data.top1465[0];
    let copies: Vec<Grid> = (0..100)
        .map(|_| Symmetry::random(&mut rng).apply(&base))
        .collect();
    cases.push(case("08-one-puzzle-many-disguises", &copies)?);

    cases.push(case(
        "09-hardest-large",
        &transformed(&mut seeded(9), &data.hardest, 1500),
    )?);

    let mut rng = seeded(10);
    let mut large = transformed(&mut rng, &data.seventeen, 6000);
    large.extend(transformed(&mut rng, &data.top1465, 1000));
    large.extend(transformed(&mut rng, &data.hardest, 1000));
    large.extend(minimal_puzzles(&mut rng, 1000));
    large.extend((0..1000).map(|i| {
        let full = random_full_grid(&mut rng);
        carve(&mut rng, &full, 25 + i % 30)
    }));
    rng.shuffle(&mut large);
    cases.push(case("10-large-mixed", &large)?);

    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_valid_full(grid: &Grid) -> bool {
        (0..9).all(|g| {
            let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
            for k in 0..9 {
                row |= 1 << grid[g * 9 + k];
                col |= 1 << grid[k * 9 + g];
                bx |= 1 << grid[(g / 3 * 3 + k / 3) * 9 + g % 3 * 3 + k % 3];
            }
            row == 0x3fe && col == 0x3fe && bx == 0x3fe
        })
    }

    #[test]
    fn random_full_grids_are_valid_and_seeded() {
        let a = random_full_grid(&mut SplitMix64::new(1));
        let b = random_full_grid(&mut SplitMix64::new(1));
        let c = random_full_grid(&mut SplitMix64::new(2));
        assert!(is_valid_full(&a) && is_valid_full(&c));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn symmetries_map_valid_grids_to_valid_grids() {
        let mut rng = SplitMix64::new(3);
        let full = random_full_grid(&mut rng);
        for _ in 0..50 {
            let image = Symmetry::random(&mut rng).apply(&full);
            assert!(is_valid_full(&image));
        }
    }
}
