//! Finding a problem's reference solutions: `submissions/<expected>/<file>`, one source each.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::Config;
use crate::languages::LanguageTable;
use crate::problem::Problem;

use super::expectation::Expectation;

/// A reference solution found in a package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReferenceSolution {
    /// The problem it solves.
    pub problem: String,
    /// `<folder>/<file>`, e.g. `accepted/dlx.cpp`: short and unique within the problem.
    pub name: String,
    /// The full path, named in every failure message.
    pub path: PathBuf,
    /// The folder's promise.
    pub expected: Expectation,
    /// Language id from the language table: the one named before the extension
    /// (`gets.cpp98.cpp` is C++98), else the one the extension selects.
    pub language: String,
}

/// Why a package's `submissions/` folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// A folder, or the listing of one, could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A folder under `submissions/` is not one of the expected-verdict folders.
    #[error("{path}: unknown folder (expected one of accepted, wrong_answer, time_limit_exceeded, run_time_error, slow_accepted, rejected, partially_accepted)")]
    UnknownFolder {
        /// The folder.
        path: PathBuf,
    },
    /// A file whose extension is in no language of the language table.
    #[error("{path}: no language has this file's extension")]
    UnknownLanguage {
        /// The file.
        path: PathBuf,
    },
    /// A symlink whose target is missing or not a file (a solution shared with another
    /// package that was moved or renamed there).
    #[error("{path}: symlink to no file")]
    Dangling {
        /// The symlink.
        path: PathBuf,
    },
    /// A file directly under `submissions/`, outside every expected-verdict folder.
    #[error("{path}: not in an expected-verdict folder")]
    Stray {
        /// The file.
        path: PathBuf,
    },
}

/// The language id of a reference solution: a language id or alias written before the
/// extension names it (`poj_gets.cpp98.cpp`: a solution of an era that compiled C++98),
/// else the language whose extensions include `path`'s extension.
pub fn language_of(config: &Config, path: &Path) -> Option<String> {
    let table = LanguageTable::from_config(config);
    let guessed = table.guess(path)?;
    let named = Path::new(path.file_stem()?)
        .extension()
        .and_then(|e| e.to_str())
        .and_then(|id| table.get(id));
    Some(named.unwrap_or(guessed).id.clone())
}

/// The language Kattis judges a package's reference solution in: problemtools and Kattis run
/// Python 3 with PyPy ("Python 3 (w/PyPy3)"), so a `.py` file goes to `pypy3` when this
/// machine has it (a solution slow under CPython may be `accepted` there). A file that names
/// its language (`x.python.py`) keeps it.
fn as_kattis_runs(config: &Config, file: &Path, language: String) -> String {
    let named = file
        .file_stem()
        .is_some_and(|stem| Path::new(stem).extension().is_some());
    if language == "python" && !named && config.languages.contains_key(PYPY) {
        PYPY.to_string()
    } else {
        language
    }
}

/// The language id of PyPy in the shipped configuration.
const PYPY: &str = "pypy3";

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, DiscoverError> {
    let read = |source| DiscoverError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read)? {
        entries.push(entry.map_err(read)?.path());
    }
    entries.sort();
    Ok(entries)
}

/// Whether a `.py` file says it is Python 2 in its `#!` line, as problemtools tells the two
/// apart (`^#!.*python2`).
fn python2(path: &Path) -> bool {
    if path.extension().is_none_or(|e| e != "py") {
        return false;
    }
    let Ok(text) = std::fs::read(path) else {
        return false;
    };
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    first.starts_with(b"#!") && first.windows(7).any(|w| w == b"python2")
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

/// A submission `verify` did not judge, and why: in a Kattis package, a folder this judge
/// does not check, a file in no language of this machine (it lacks the toolchain, or the
/// judge has no such language), a program of several files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The problem.
    pub problem: String,
    /// The file or folder skipped.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}

/// Every reference solution of `problem`, by folder then file name. A package without a
/// `submissions/` folder has none; anything there that cannot be judged is an error.
pub fn discover(
    problem: &Problem,
    config: &Config,
) -> Result<Vec<ReferenceSolution>, DiscoverError> {
    discover_with_skips(problem, config).map(|(found, _)| found)
}

/// [`discover`], and what was skipped: a Kattis package's submissions that cannot be judged
/// here are reported as skipped (warned about), not failed; a `problem.toml` package's are
/// errors, as before.
pub fn discover_with_skips(
    problem: &Problem,
    config: &Config,
) -> Result<(Vec<ReferenceSolution>, Vec<Skipped>), DiscoverError> {
    let root = problem.dir.join("submissions");
    let mut skipped = Vec::new();
    if !root.is_dir() {
        return Ok((Vec::new(), skipped));
    }
    let lenient = problem.kattis.is_some();
    let mut skip = |path: &Path, reason: &str| {
        skipped.push(Skipped {
            problem: problem.id.clone(),
            path: path.to_path_buf(),
            reason: reason.to_string(),
        })
    };
    let mut found = Vec::new();
    for folder in sorted_entries(&root)? {
        if hidden(&folder) {
            continue;
        }
        if !folder.is_dir() {
            if lenient {
                skip(&folder, "not in an expected-verdict folder");
                continue;
            }
            return Err(DiscoverError::Stray { path: folder });
        }
        let Some(expected) = folder
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(Expectation::from_folder)
        else {
            if lenient {
                skip(&folder, "a folder this judge does not check");
                continue;
            }
            return Err(DiscoverError::UnknownFolder {
                path: folder.clone(),
            });
        };
        if expected == Expectation::PartiallyAccepted && problem.scoring().is_none() {
            if lenient {
                skip(
                    &folder,
                    "partially_accepted/ is for scoring problems; this one is pass-fail",
                );
                continue;
            }
            return Err(DiscoverError::UnknownFolder { path: folder });
        }
        for file in sorted_entries(&folder)? {
            if hidden(&file) {
                continue;
            }
            if !file.is_file() {
                // A symlink is followed (two packages may share a solution); one that leads
                // nowhere would silently drop a promise, so it is an error.
                if file.is_symlink() {
                    return Err(DiscoverError::Dangling { path: file });
                }
                if lenient && file.is_dir() {
                    skip(&file, "a program of several files is not supported");
                }
                continue;
            }
            if lenient && python2(&file) {
                skip(
                    &file,
                    "a Python 2 program (its #! line says so): this machine has none",
                );
                continue;
            }
            let Some(mut language) = language_of(config, &file) else {
                if lenient {
                    skip(
                        &file,
                        "no language of this machine has this extension (skipped)",
                    );
                    continue;
                }
                return Err(DiscoverError::UnknownLanguage { path: file.clone() });
            };
            if lenient {
                language = as_kattis_runs(config, &file, language);
            }
            let file_name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push(ReferenceSolution {
                problem: problem.id.clone(),
                name: format!("{}/{}", expected.folder(), file_name),
                path: file,
                expected,
                language,
            });
        }
    }
    found.sort_by(|a, b| (a.expected, &a.name).cmp(&(b.expected, &b.name)));
    Ok((found, skipped))
}
