//! Secret data of the `sudoku` checker kind: generated puzzles (nearly full, easy, minimal)
//! and public puzzles from the repository's `datasets/`, each copy relabelled and permuted
//! into a new puzzle. Two profiles (`[gen] profile` in `problem.toml`) size them:
//! `classic` (the default: POJ 3074's kind and size) and `speed` (10,000 puzzles, the
//! hardest lists).

use std::path::Path;

mod classic;
mod speed;

pub(super) use classic::generate as classic;
pub(super) use speed::generate as speed;

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
pub fn random_full_grid(rng: &mut SplitMix64) -> Grid {
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
pub fn carve(rng: &mut SplitMix64, full: &Grid, min_givens: usize) -> Grid {
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

/// `count` random puzzles carved down to `lo`, `lo + 1`, ... `lo + span - 1` givens in turn
/// (easy to middling: they keep one solution with many givens to spare).
fn carved(rng: &mut SplitMix64, count: usize, lo: usize, span: usize) -> Vec<Grid> {
    (0..count)
        .map(|i| {
            let full = random_full_grid(rng);
            carve(rng, &full, lo + i % span)
        })
        .collect()
}

/// How many puzzles of each source a mixed file holds.
struct Mix {
    seventeen: usize,
    top1465: usize,
    hardest: usize,
    minimal: usize,
    /// Carved down to 25..=54 givens.
    carved: usize,
}

/// A shuffled file of puzzles from every source, in the proportions of `mix`.
fn mixed(rng: &mut SplitMix64, data: &Datasets, mix: &Mix) -> Vec<Grid> {
    let mut puzzles = transformed(rng, &data.seventeen, mix.seventeen);
    puzzles.extend(transformed(rng, &data.top1465, mix.top1465));
    puzzles.extend(transformed(rng, &data.hardest, mix.hardest));
    puzzles.extend(minimal_puzzles(rng, mix.minimal));
    puzzles.extend(carved(rng, mix.carved, 25, 30));
    rng.shuffle(&mut puzzles);
    puzzles
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

/// Sizes of the first eight cases, which every profile has.
struct Sizes {
    easy: usize,
    minimal: usize,
    seventeen: usize,
    top1465: usize,
    hardest: usize,
}

/// Cases `01` to `08`, from seeds `seed_base + 1` to `seed_base + 8`: nearly full grids, easy
/// and minimal generated puzzles, the three public lists, the single hardest puzzle, and one
/// top1465 puzzle in 100 disguises.
fn first_cases(
    data: &Datasets,
    seed_base: u64,
    sizes: &Sizes,
) -> Result<Vec<GeneratedCase>, GenError> {
    let seeded = |seed: u64| SplitMix64::new(seed_base + seed);
    let mut rng = seeded(8);
    let copies: Vec<Grid> = (0..100)
        .map(|_| Symmetry::random(&mut rng).apply(&data.top1465[0]))
        .collect();
    Ok(vec![
        case("01-nearly-full", &nearly_full(&mut seeded(1)))?,
        case("02-easy", &carved(&mut seeded(2), sizes.easy, 30, 20))?,
        case(
            "03-minimal",
            &minimal_puzzles(&mut seeded(3), sizes.minimal),
        )?,
        case(
            "04-seventeen-clues",
            &transformed(&mut seeded(4), &data.seventeen, sizes.seventeen),
        )?,
        case(
            "05-top1465",
            &transformed(&mut seeded(5), &data.top1465, sizes.top1465),
        )?,
        case(
            "06-hardest",
            &transformed(&mut seeded(6), &data.hardest, sizes.hardest),
        )?,
        // The hardest list is sorted by rating, so its first puzzle is among the very hardest.
        case(
            "07-single-hardest",
            &[Symmetry::random(&mut seeded(7)).apply(&data.hardest[0])],
        )?,
        case("08-one-puzzle-many-disguises", &copies)?,
    ])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn is_valid_full(grid: &Grid) -> bool {
        crate::solvers::sudoku::is_valid_solution(&[0; 81], grid)
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

    /// Puzzles per input file of a profile's cases.
    fn sizes(cases: &[GeneratedCase]) -> Vec<usize> {
        cases
            .iter()
            .map(|c| {
                c.input
                    .split(|&b| b == b'\n')
                    .filter(|l| l.len() == 81)
                    .count()
            })
            .collect()
    }

    #[test]
    fn the_classic_profile_keeps_the_originals_size_and_speed_the_heavy_data() {
        let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
        let classic = sizes(&classic(&datasets).unwrap());
        assert!(
            classic.iter().all(|&n| (1..=1000).contains(&n)),
            "{classic:?}"
        );
        assert_eq!(classic.iter().max(), Some(&1000));
        let speed = sizes(&speed(&datasets).unwrap());
        assert_eq!(speed.iter().max(), Some(&10_000), "{speed:?}");
    }
}
