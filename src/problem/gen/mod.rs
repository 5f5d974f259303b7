//! Deterministic generators of `data/secret/` (`sudojudge gen`).
//!
//! Every case comes from a fixed seed through our own [`SplitMix64`](super::rng::SplitMix64),
//! and every choice that depends on a solver depends only on its exact answer (a count, a
//! maximum), never on how it was found; so the same seed gives the same bytes on any machine
//! and with any correct solver.

mod binary;
mod sudoku;
pub mod target;

pub use sudoku::{carve, random_full_grid};

use std::path::{Path, PathBuf};

use super::format::FormatError;
use super::{CheckerKind, Problem};

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// A dataset file could not be read.
    #[error("cannot read dataset {}", path.display())]
    Dataset {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A dataset line is not an 81-character puzzle.
    #[error("dataset {}: {fault}", path.display())]
    DatasetFormat {
        /// The file.
        path: PathBuf,
        /// The fault (a leaf, so it is part of the message).
        fault: FormatError,
    },
    /// A generator could not find a case with the wanted property within its attempts.
    #[error("generator gave up: {0}")]
    GaveUp(String),
    /// `[gen] profile` names no profile of the package's checker kind.
    #[error("unknown generator profile `{profile}` (this checker kind has: {known})")]
    UnknownProfile {
        /// The profile asked for.
        profile: String,
        /// The kind's profiles, comma-separated.
        known: String,
    },
    /// `data/secret/` holds tests that this generator would not write (made or edited by
    /// hand); replacing them takes `--force`.
    #[error(
        "{} holds {} test file(s) gen did not make ({}): not replaced (--force replaces them)",
        dir.display(),
        files.len(),
        files.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
    )]
    HandMade {
        /// The folder.
        dir: PathBuf,
        /// The `.in`/`.ans` files that differ from, or are not among, the generated ones.
        files: Vec<String>,
    },
    /// Writing `data/secret/` failed.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// One generated test: its name (without extension), input and answer bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedCase {
    /// File stem, such as `03-minimal`; sorts in the intended order.
    pub name: String,
    /// The `.in` bytes.
    pub input: Vec<u8>,
    /// The `.ans` bytes.
    pub answer: Vec<u8>,
}

/// The generator profiles of each checker kind, the default first: `[gen] profile` in
/// `problem.toml` picks one, so a new package of an existing kind needs no code.
pub fn profiles(kind: CheckerKind) -> &'static [&'static str] {
    match kind {
        CheckerKind::Sudoku => &["classic", "speed"],
        CheckerKind::TargetSudoku => &["noip", "clashing"],
        CheckerKind::BinarySudoku => &["default"],
    }
}

/// Generates every secret case of a problem kind with one of its [`profiles`] (`None`: the
/// default); `datasets` holds the public puzzle lists (needed by `sudoku` only).
pub fn generate(
    kind: CheckerKind,
    profile: Option<&str>,
    datasets: &Path,
) -> Result<Vec<GeneratedCase>, GenError> {
    match (kind, profile) {
        (CheckerKind::Sudoku, None | Some("classic")) => sudoku::classic(datasets),
        (CheckerKind::Sudoku, Some("speed")) => sudoku::speed(datasets),
        (CheckerKind::TargetSudoku, None | Some("noip")) => target::noip(),
        (CheckerKind::TargetSudoku, Some("clashing")) => target::clashing_givens(),
        (CheckerKind::BinarySudoku, None | Some("default")) => binary::generate(),
        (_, Some(unknown)) => Err(GenError::UnknownProfile {
            profile: unknown.to_string(),
            known: profiles(kind).join(", "),
        }),
    }
}

/// The `.in`/`.ans` files of `dir` that `cases` would not write byte for byte: tests made or
/// edited by hand (a regeneration of gen's own output finds none, since the seeds are fixed).
pub fn hand_made(dir: &Path, cases: &[GeneratedCase]) -> Result<Vec<String>, GenError> {
    let read_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GenError::Write { path, source }
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(read_err(dir)(e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(read_err(dir))?.path();
        let (Some(stem), Some(ext)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|e| e.to_str()),
        ) else {
            continue;
        };
        if !matches!(ext, "in" | "ans") {
            continue;
        }
        let wanted = cases.iter().find(|c| c.name == stem).map(|c| match ext {
            "in" => c.input.as_slice(),
            _ => c.answer.as_slice(),
        });
        // A file of the same name is read only up to the generated size plus one byte.
        let same = match wanted {
            Some(bytes) => {
                use std::io::Read;
                let mut current = Vec::new();
                std::fs::File::open(&path)
                    .and_then(|f| f.take(bytes.len() as u64 + 1).read_to_end(&mut current))
                    .map_err(read_err(&path))?;
                current == bytes
            }
            None => false,
        };
        if !same {
            found.push(
                path.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            );
        }
    }
    found.sort();
    Ok(found)
}

/// Replaces `data/secret/` of `problem` with `cases`: old `.in`/`.ans` files are removed first
/// so a renamed case leaves nothing stale behind. Other files are left alone. Without `force`,
/// a folder holding tests gen would not write (see [`hand_made`]) is left untouched and
/// refused.
pub fn write_secret(
    problem: &Problem,
    cases: &[GeneratedCase],
    force: bool,
) -> Result<PathBuf, GenError> {
    let dir = problem.dir.join("data").join("secret");
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GenError::Write { path, source }
    };
    if !force {
        let files = hand_made(&dir, cases)?;
        if !files.is_empty() {
            return Err(GenError::HandMade { dir, files });
        }
    }
    std::fs::create_dir_all(&dir).map_err(write_err(&dir))?;
    for entry in std::fs::read_dir(&dir).map_err(write_err(&dir))? {
        let path = entry.map_err(write_err(&dir))?.path();
        let ext = path.extension().and_then(|e| e.to_str());
        if matches!(ext, Some("in" | "ans")) {
            std::fs::remove_file(&path).map_err(write_err(&path))?;
        }
    }
    for case in cases {
        let input = dir.join(format!("{}.in", case.name));
        std::fs::write(&input, &case.input).map_err(write_err(&input))?;
        let answer = dir.join(format!("{}.ans", case.name));
        std::fs::write(&answer, &case.answer).map_err(write_err(&answer))?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_profile_is_an_error_naming_the_kinds_profiles() {
        let nowhere = Path::new("/nonexistent");
        let err = generate(CheckerKind::Sudoku, Some("huge"), nowhere).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown generator profile `huge` (this checker kind has: classic, speed)"
        );
        let err = generate(CheckerKind::BinarySudoku, Some("speed"), nowhere).unwrap_err();
        assert!(matches!(err, GenError::UnknownProfile { .. }), "{err}");
        // The default profile is the first one listed.
        assert_eq!(profiles(CheckerKind::BinarySudoku), ["default"]);
        assert_eq!(profiles(CheckerKind::TargetSudoku), ["noip", "clashing"]);
        assert_eq!(profiles(CheckerKind::Sudoku)[0], "classic");
    }
}
