//! A package zip to a package in the problems folder: written to a staging folder
//! (`<problems>/.upload-XXXX`, removed whatever happens) by the safe extraction, loaded and
//! checked there (the load-time data check `verify` runs, and the caller's program checks:
//! input validators, output validators on the answers), then renamed into
//! `<problems>/<id>` in one step. A package that fails leaves nothing behind.

use std::path::{Path, PathBuf};

use crate::archive::{self, ArchiveError};
use crate::problem::kattis::TimeLimitSource;
use crate::problem::{self, Problem, ProblemError};
use crate::verify::data::{verify_data, DataFault};

/// Why a package was refused; every message names the file (and key) at fault, relative to
/// the package.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// The zip itself is refused (a path leaving the folder, a link, a bomb, too many
    /// entries, not a zip).
    #[error("the zip is refused: {0}")]
    Archive(String),
    /// No `problem.toml` or `problem.yaml` where a package's root is looked for.
    #[error("no problem.toml or problem.yaml at the zip's root or in its one top folder")]
    NoPackage,
    /// The problem id is missing or malformed.
    #[error("{0}")]
    Id(String),
    /// The id is served already (an id is never replaced while the judge runs).
    #[error(
        "problem `{0}` exists already; a served problem is not replaced (upload it under a new id)"
    )]
    Taken(String),
    /// The package does not load: the file and what is wrong.
    #[error("{0}")]
    Load(String),
    /// The package loads but its data fails the checks.
    #[error("problem `{id}` is refused: its data fails verification: {}", faults.join("; "))]
    Verify {
        /// The problem id.
        id: String,
        /// Each fault, `test: message`.
        faults: Vec<String>,
    },
    /// The staging folder or the move into place failed.
    #[error("cannot write the package: {0}")]
    Io(String),
}

/// A package loaded and checked in its staging folder, not served yet.
#[derive(Debug)]
pub struct Staged {
    tmp: tempfile::TempDir,
    problem: Problem,
}

impl Staged {
    /// The package as loaded from the staging folder.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Runs the program checks (`programs` gives every fault of the package's validators on
    /// its data; the caller owns the sandbox); a fault refuses the package.
    pub fn check_programs(
        &self,
        programs: impl FnOnce(&Problem) -> Vec<DataFault>,
    ) -> Result<(), PackageError> {
        let needs = matches!(self.problem.validator, problem::OutputValidator::Program(_))
            || self
                .problem
                .kattis
                .as_ref()
                .is_some_and(|k| !k.input_validators.is_empty());
        if !needs {
            return Ok(());
        }
        refuse_faults(&self.problem.id, &programs(&self.problem), self.tmp.path())
    }

    /// Moves the package to `<problems_dir>/<id>` (one rename: never half there) and loads
    /// it from there; the staging folder is removed. Refused when that folder exists.
    pub fn place(self, problems_dir: &Path) -> Result<Problem, PackageError> {
        let id = self.problem.id.clone();
        let target = problems_dir.join(&id);
        if target.exists() {
            return Err(PackageError::Taken(id));
        }
        std::fs::rename(&self.problem.dir, &target).map_err(|e| PackageError::Io(e.to_string()))?;
        let placed = problem::load(&target).and_then(|p| {
            if p.data_hash == self.problem.data_hash {
                Ok(p)
            } else {
                Err(ProblemError::Invalid {
                    path: target.clone(),
                    message: "changed while it was moved into place".into(),
                })
            }
        });
        placed.map_err(|e| {
            let _ = std::fs::remove_dir_all(&target);
            PackageError::Load(e.to_string())
        })
    }
}

/// The program-independent checks of a loaded package: a Kattis time limit known, and
/// `verify`'s data checks (canonical inputs, answers equal to the reference solver's or
/// accepted by the default validator).
pub fn check_data(p: &Problem) -> Result<(), PackageError> {
    let unset = p
        .kattis
        .as_ref()
        .is_some_and(|k| k.time_limit_source == TimeLimitSource::Unset);
    if unset {
        return Err(PackageError::Load(format!(
            "{}/problem.yaml: no limits.time_limit and no .timelimit file: the time limit is unknown",
            p.id
        )));
    }
    let report = verify_data(p);
    refuse_faults(&p.id, &report.faults, p.dir.parent().unwrap_or(&p.dir))
}

fn refuse_faults(id: &str, faults: &[DataFault], staging: &Path) -> Result<(), PackageError> {
    if faults.is_empty() {
        return Ok(());
    }
    Err(PackageError::Verify {
        id: id.to_string(),
        faults: faults
            .iter()
            .map(|f| {
                let test = f.test.as_deref().unwrap_or("package");
                format!("{test}: {}", relative(&f.message, staging))
            })
            .collect(),
    })
}

/// `message` with the staging folder's path taken out, so it names files as the zip does.
fn relative(message: &str, staging: &Path) -> String {
    message.replace(&format!("{}/", staging.display()), "")
}

/// Where in the extracted tree the package is: its root, or its one top folder (whose name
/// is the default id).
fn package_root(contents: &Path) -> Result<(PathBuf, Option<String>), PackageError> {
    if problem::package::is_package(contents) {
        return Ok((contents.to_path_buf(), None));
    }
    let read = std::fs::read_dir(contents).map_err(|e| PackageError::Io(e.to_string()))?;
    let entries: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
    match entries.as_slice() {
        [only] if only.is_dir() && problem::package::is_package(only) => Ok((
            only.clone(),
            only.file_name()
                .and_then(|n| n.to_str())
                .map(str::to_string),
        )),
        _ => Err(PackageError::NoPackage),
    }
}

/// Extracts `zip` (the bytes of an upload, within `limits`) into a staging folder inside
/// `problems_dir`, loads the package as problem `id` (else the name of the zip's one top
/// folder) and runs the data checks. Nothing is left in `problems_dir` unless the
/// [`Staged`] package is placed.
pub fn stage(
    problems_dir: &Path,
    zip: &[u8],
    id: Option<&str>,
    limits: &archive::Limits,
) -> Result<Staged, PackageError> {
    let io = |e: std::io::Error| PackageError::Io(e.to_string());
    let tmp = tempfile::Builder::new()
        .prefix(".upload-")
        .tempdir_in(problems_dir)
        .map_err(io)?;
    let zip_path = tmp.path().join("package.zip");
    std::fs::write(&zip_path, zip).map_err(io)?;
    let contents = tmp.path().join("contents");
    archive::extract(&zip_path, &contents, limits).map_err(|e| match e {
        ArchiveError::NotZip { reason, .. } => {
            PackageError::Archive(format!("not a readable zip: {reason}"))
        }
        other => PackageError::Archive(other.to_string()),
    })?;
    let _ = std::fs::remove_file(&zip_path);
    let (root, folder) = package_root(&contents)?;
    let id = match id.or(folder.as_deref()) {
        Some(id) => id.to_string(),
        None => {
            return Err(PackageError::Id(
                "the package's files are at the zip's root: name the problem (`?id=NAME`)".into(),
            ))
        }
    };
    if !problem::is_valid_id(&id) {
        return Err(PackageError::Id(format!(
            "problem id `{id}` must be lowercase letters, digits and `-`"
        )));
    }
    let dir = tmp.path().join(&id);
    std::fs::rename(&root, &dir).map_err(io)?;
    let problem = problem::load(&dir)
        .map_err(|e| PackageError::Load(relative(&e.to_string(), tmp.path())))?;
    check_data(&problem)?;
    Ok(Staged { tmp, problem })
}

#[cfg(test)]
mod tests;
