//! The inputs `stress` tries for each built-in problem kind: a random one, whether one keeps
//! the statement's promises, and the inputs one step smaller (a given removed, a cell
//! reset), which the shrinker walks down.

use crate::problem::format::{binary, sudoku, target};
use crate::problem::gen::{carve, random_full_grid, target::first_clash};
use crate::problem::rng::SplitMix64;
use crate::problem::{CheckerKind, TARGET_MIN_GIVENS};
use crate::solvers::sudoku::count_solutions;

/// The rules the inputs of one problem follow.
#[derive(Debug, Clone, Copy)]
pub struct InputKind {
    /// The problem's kind.
    pub kind: CheckerKind,
    /// Target Sudoku's `noip` profile: no clashing givens (`target-sudoku`); `false` for
    /// `target-sudoku-clash`.
    pub no_clash: bool,
}

impl InputKind {
    /// A random input keeping the statement's promises.
    pub fn random(&self, rng: &mut SplitMix64) -> Vec<u8> {
        let full = random_full_grid(rng);
        match self.kind {
            CheckerKind::Sudoku => {
                // From easy (50 givens) down to minimal puzzles (`carve` to 0).
                let floor = [0, 25, 30, 35, 40, 50][rng.below(6)];
                sudoku::write_puzzles(&[carve(rng, &full, floor)])
            }
            CheckerKind::TargetSudoku => {
                let mut grid = full;
                // From 40 givens up: fewer leave so many completions that a search over
                // all of them (the textbook solution) passes the time limit.
                let keep = 40 + rng.below(81 - 40 + 1);
                let mut cells: Vec<usize> = (0..81).collect();
                rng.shuffle(&mut cells);
                for &cell in &cells[keep..] {
                    grid[cell] = 0;
                }
                target::write(&grid)
            }
            CheckerKind::BinarySudoku => {
                let ones = rng.below(82);
                let mut grid = [0u8; 81];
                let mut cells: Vec<usize> = (0..81).collect();
                rng.shuffle(&mut cells);
                for &cell in &cells[..ones] {
                    grid[cell] = 1;
                }
                binary::write(&grid)
            }
        }
    }

    /// Whether `input` keeps the statement's promises (a Sudoku puzzle has one solution,
    /// target Sudoku at least 24 givens and, `noip`, none clashing).
    pub fn is_valid(&self, input: &[u8]) -> bool {
        match self.kind {
            CheckerKind::Sudoku => sudoku::parse(input).is_ok_and(|puzzles| {
                !puzzles.is_empty() && puzzles.iter().all(|p| count_solutions(p, 2) == 1)
            }),
            CheckerKind::TargetSudoku => target::parse(input).is_ok_and(|grid| {
                grid.iter().filter(|&&d| d != 0).count() >= TARGET_MIN_GIVENS
                    && !(self.no_clash && first_clash(&grid).is_some())
            }),
            CheckerKind::BinarySudoku => binary::parse(input).is_ok(),
        }
    }

    /// The inputs one step smaller than `input`: each with one given (Sudoku, target
    /// Sudoku) or one 1 (binary Sudoku) reset to empty / 0, in cell order; a Sudoku input
    /// of several puzzles first gives each puzzle alone. They may break the promises:
    /// the shrinker checks [`InputKind::is_valid`].
    pub fn smaller(&self, input: &[u8]) -> Vec<Vec<u8>> {
        match self.kind {
            CheckerKind::Sudoku => {
                let Ok(puzzles) = sudoku::parse(input) else {
                    return Vec::new();
                };
                if puzzles.len() > 1 {
                    return puzzles
                        .iter()
                        .map(|p| sudoku::write_puzzles(&[*p]))
                        .collect();
                }
                let mut out = Vec::new();
                for puzzle in &puzzles {
                    for cell in (0..81).filter(|&c| puzzle[c] != 0) {
                        let mut p = *puzzle;
                        p[cell] = 0;
                        out.push(sudoku::write_puzzles(&[p]));
                    }
                }
                out
            }
            CheckerKind::TargetSudoku => match target::parse(input) {
                Ok(grid) => cleared(&grid, |d| d != 0)
                    .iter()
                    .map(target::write)
                    .collect(),
                Err(_) => Vec::new(),
            },
            CheckerKind::BinarySudoku => match binary::parse(input) {
                Ok(grid) => cleared(&grid, |d| d == 1)
                    .iter()
                    .map(binary::write)
                    .collect(),
                Err(_) => Vec::new(),
            },
        }
    }

    /// How big an input is, for the report: givens, or ones.
    pub fn size(&self, input: &[u8]) -> usize {
        let count = |grid: &[u8]| grid.iter().filter(|&&d| d != 0).count();
        match self.kind {
            CheckerKind::Sudoku => sudoku::parse(input)
                .map(|ps| ps.iter().map(|p| count(p)).sum())
                .unwrap_or(0),
            CheckerKind::TargetSudoku => target::parse(input).map(|g| count(&g)).unwrap_or(0),
            CheckerKind::BinarySudoku => binary::parse(input).map(|g| count(&g)).unwrap_or(0),
        }
    }

    /// What [`InputKind::size`] counts.
    pub fn unit(&self) -> &'static str {
        match self.kind {
            CheckerKind::BinarySudoku => "ones",
            _ => "givens",
        }
    }
}

/// `grid` with each cell that `pick` chooses reset to 0, one at a time.
fn cleared(grid: &[u8; 81], pick: impl Fn(u8) -> bool) -> Vec<[u8; 81]> {
    (0..81)
        .filter(|&c| pick(grid[c]))
        .map(|c| {
            let mut g = *grid;
            g[c] = 0;
            g
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_inputs_keep_the_promises_and_shrink_one_step_at_a_time() {
        let mut rng = SplitMix64::new(7);
        for kind in [
            CheckerKind::Sudoku,
            CheckerKind::TargetSudoku,
            CheckerKind::BinarySudoku,
        ] {
            let k = InputKind {
                kind,
                no_clash: true,
            };
            for _ in 0..5 {
                let input = k.random(&mut rng);
                assert!(
                    k.is_valid(&input),
                    "{kind:?}: {}",
                    String::from_utf8_lossy(&input)
                );
                let size = k.size(&input);
                for smaller in k.smaller(&input) {
                    assert_eq!(k.size(&smaller), size - 1, "{kind:?}");
                }
            }
        }
    }
}
