//! Problem packages on disk (`problems/<id>/`, close to the ICPC/Kattis package format).
//!
//! A package holds `problem.toml` (limits and checker kind), `statement.md`, test data under
//! `data/sample/` and `data/secret/` (`NAME.in` with `NAME.ans`), and reference solutions under
//! `submissions/<expected verdict>/`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Which checker verifies a problem's output; one per problem kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckerKind {
    /// Grid validity for every puzzle of a batch (`sudoku`).
    Sudoku,
    /// One integer: the maximum weighted score or -1 (`target-sudoku`).
    TargetSudoku,
    /// One integer: the minimum flip count (`binary-sudoku`).
    BinarySudoku,
}

/// One test: an input file and the reference answer beside it.
#[derive(Debug, Clone, Serialize)]
pub struct TestCase {
    /// `sample/NAME` or `secret/NAME`: unique within the problem, sorts samples first.
    pub name: String,
    /// Path of the `.in` file.
    pub input: PathBuf,
    /// Path of the `.ans` file.
    pub answer: PathBuf,
}

/// A loaded, validated problem package.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// The problem id, the package's folder name (`sudoku`, `target-sudoku`, `binary-sudoku`).
    pub id: String,
    /// Human title.
    pub title: String,
    /// CPU time limit per test.
    pub time_limit_ms: u64,
    /// Memory limit per test.
    pub memory_limit_mb: u64,
    /// Output limit per test.
    pub output_limit_mb: u64,
    /// Which checker judges the output.
    pub checker: CheckerKind,
    /// The statement in Markdown.
    pub statement: String,
    /// Every test in judging order: samples first, then secret, each by name.
    pub tests: Vec<TestCase>,
    /// The package folder.
    pub dir: PathBuf,
}
