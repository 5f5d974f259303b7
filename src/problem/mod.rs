//! Problem packages on disk (`problems/<id>/`, close to the ICPC/Kattis package format).
//!
//! A package holds `problem.toml` (limits and checker kind), `statement.md`, test data under
//! `data/sample/` and `data/secret/` (`NAME.in` with `NAME.ans`), and reference solutions under
//! `submissions/<expected verdict>/`.
//!
//! - [`package`]: loading a package ([`load`], [`load_all`], [`find`]).
//! - [`mod@format`]: the three input formats, parsed strictly and written canonically.
//! - [`answer`]: the reference answer of an input, from the solvers.
//! - [`gen`]: the deterministic generators of `data/secret/`.
//! - [`kattis`]: Kattis / ICPC packages (`problem.yaml`) read as they are.
//! - [`validator`]: [`OutputValidator`], what judges a problem's output.
//! - [`hash`]: [`DataHash`], the content hash of what in a package can change a verdict.
//! - [`file_io`]: [`FileIo`], the input and output files a package names (NOIP's, USACO's).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub mod answer;
pub mod file_io;
pub mod format;
pub mod gen;
pub mod hash;
pub mod kattis;
pub mod package;
pub mod rng;
pub mod validator;

pub use file_io::FileIo;
pub use hash::DataHash;
pub use package::{find, ids, load, load_all};
pub use validator::OutputValidator;

/// Most puzzles in one `sudoku` input, as the statement promises.
pub const SUDOKU_MAX_PUZZLES: usize = 10_000;
/// Fewest givens in a `target-sudoku` input, as the statement (and NOIP) promises.
pub const TARGET_MIN_GIVENS: usize = 24;

/// Why a package could not be loaded; every message names the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum ProblemError {
    /// A file or folder could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is present but wrong (bad TOML, a missing key, an unpaired test file...).
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file at fault.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The problems folder itself is missing.
    #[error("no problems folder at {} (pass --problems DIR or --config FILE, or run where config.toml is)", dir.display())]
    NoProblemsFolder {
        /// Where it was looked for.
        dir: PathBuf,
    },
    /// No package with that id.
    #[error("unknown problem `{id}` (no {dir}/{id}/problem.toml); known: {known}", dir = dir.display(),
        known = if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    Unknown {
        /// The id asked for.
        id: String,
        /// Where packages were looked for.
        dir: PathBuf,
        /// The ids that are there, so the message can offer them.
        known: Vec<String>,
    },
}

/// Whether `id` is a well-formed problem id (`[a-z0-9-]+`), so it is safe as a folder name.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Which checker verifies a problem's output; one per problem kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CheckerKind {
    /// Grid validity for every puzzle of a batch (`sudoku`, `sudoku-hard`).
    Sudoku,
    /// One integer: the maximum weighted score or -1 (`target-sudoku`).
    TargetSudoku,
    /// One integer: the minimum flip count (`binary-sudoku`).
    BinarySudoku,
}

impl CheckerKind {
    /// Every kind, in the order the design notes list them.
    pub const ALL: [CheckerKind; 3] = [
        CheckerKind::Sudoku,
        CheckerKind::TargetSudoku,
        CheckerKind::BinarySudoku,
    ];

    /// The kind as `problem.toml` spells it (a rename of the variant must not change it: the
    /// data hash and the API use it).
    pub fn name(self) -> &'static str {
        match self {
            CheckerKind::Sudoku => "sudoku",
            CheckerKind::TargetSudoku => "target-sudoku",
            CheckerKind::BinarySudoku => "binary-sudoku",
        }
    }

    /// The kind of that name, so a command that needs only the kind (the reference solver)
    /// runs without a problems folder.
    pub fn from_name(name: &str) -> Option<CheckerKind> {
        CheckerKind::ALL.into_iter().find(|k| k.name() == name)
    }
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
    /// Arguments for the output validator on this test (a Kattis package's
    /// `validator_flags` and its groups' `output_validator_flags`/`_args`); empty for the
    /// built-in checkers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub validator_args: Vec<String>,
}

/// A loaded, validated problem package.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// The problem id, the package's folder name (`sudoku`, `sudoku-hard`, `target-sudoku`...).
    pub id: String,
    /// Human title.
    pub title: String,
    /// CPU time limit per test.
    pub time_limit_ms: u64,
    /// Memory limit per test.
    pub memory_limit_mb: u64,
    /// Output limit per test.
    pub output_limit_mb: u64,
    /// What judges the output (a built-in Sudoku checker, or the package's own).
    pub validator: OutputValidator,
    /// The generator profile of `data/secret/` (`[gen] profile`; `None`: the kind's default),
    /// so packages of one checker kind can ship data of different sizes without code.
    pub gen_profile: Option<String>,
    /// The statement in Markdown.
    pub statement: String,
    /// Every test in judging order: samples first, then secret, each by name.
    pub tests: Vec<TestCase>,
    /// The package folder.
    pub dir: PathBuf,
    /// The files the program reads its test from and writes its answer to, besides stdin
    /// and stdout (`input_file`, `output_file`; none: stdin and stdout only).
    pub file_io: FileIo,
    /// Content hash of the limits, checker kind and test data as loaded ([`DataHash`]):
    /// nodes sharing one database compare it, and each submission records it.
    pub data_hash: DataHash,
    /// What a Kattis package (`problem.yaml`) adds: its format version, timing, statement
    /// PDF, input validators; `None` for a `problem.toml` package.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kattis: Option<kattis::KattisInfo>,
}

impl Problem {
    /// A scoring problem's groups and score rules (`None`: pass-fail, scored by the share of
    /// tests passed).
    pub fn scoring(&self) -> Option<&kattis::scoring::Scoring> {
        self.kattis.as_ref().and_then(|k| k.scoring.as_ref())
    }
}

/// A one-second, 64 MB binary-sudoku problem `p` over the given tests, for the unit tests of
/// the modules that judge problems (judge, worker, verify).
#[cfg(test)]
pub(crate) fn test_problem(dir: &std::path::Path, tests: Vec<TestCase>) -> Problem {
    Problem {
        id: "p".into(),
        title: "P".into(),
        time_limit_ms: 1000,
        memory_limit_mb: 64,
        output_limit_mb: 1,
        validator: OutputValidator::Builtin(CheckerKind::BinarySudoku),
        gen_profile: None,
        statement: String::new(),
        tests,
        dir: dir.to_path_buf(),
        file_io: FileIo::default(),
        data_hash: DataHash::default(),
        kattis: None,
    }
}
