//! The files a grade writes, each named after its assignment and problem, and the rule that
//! no run overwrites a file another run made: a CSV is replaced only when the cache beside it
//! says it is the same problem's (or the same assignment's) grades.

use std::path::{Path, PathBuf};

use super::cache::{cache_path, Cache};
use super::lms::Lms;

/// The files of one problem's grade.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemFiles {
    /// The grades CSV (one row per student).
    pub csv: PathBuf,
    /// Its re-run cache.
    pub cache: PathBuf,
    /// The similar pairs.
    pub similarity: PathBuf,
}

fn with_name(path: &Path, name: String) -> PathBuf {
    path.with_file_name(name)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(|| "grades".into(), |s| s.to_string_lossy().into_owned())
}

impl ProblemFiles {
    /// The files of a one-problem grade with `--csv csv`: `grades.csv`,
    /// `grades.csv.cache.json`, `grades.similarity.csv`.
    pub fn single(csv: &Path) -> ProblemFiles {
        ProblemFiles {
            csv: csv.to_path_buf(),
            cache: cache_path(csv),
            similarity: with_name(csv, format!("{}.similarity.csv", stem(csv))),
        }
    }

    /// The files of `problem` in an assignment whose gradebook is `gradebook`
    /// (`week3.csv`): `week3.sudoku.csv`, its cache, `week3.sudoku.similarity.csv`.
    pub fn of_assignment(gradebook: &Path, problem: &str) -> ProblemFiles {
        let csv = with_name(gradebook, format!("{}.{problem}.csv", stem(gradebook)));
        ProblemFiles {
            cache: cache_path(&csv),
            similarity: with_name(
                gradebook,
                format!("{}.{problem}.similarity.csv", stem(gradebook)),
            ),
            csv,
        }
    }

    /// Every file, so that discovery never takes one for a student's.
    pub fn all(&self) -> [PathBuf; 3] {
        [
            self.csv.clone(),
            self.cache.clone(),
            self.similarity.clone(),
        ]
    }
}

/// The LMS gradebook of a one-problem grade with `--csv csv --lms LMS`: `grades.moodle.csv`
/// or `grades.canvas.csv`, beside the grades (which keep their own layout and re-run cache).
pub fn lms_gradebook(csv: &Path, lms: Lms) -> PathBuf {
    let kind = match lms {
        Lms::Moodle => "moodle",
        Lms::Canvas => "canvas",
    };
    with_name(csv, format!("{}.{kind}.csv", stem(csv)))
}

/// The name an LMS gradebook's cache records for one problem's grade.
pub fn lms_owner(problem: &str, lms: Lms) -> String {
    format!("{problem} ({lms:?} gradebook)")
}

/// The name the gradebook's cache records for an assignment of `problems`.
pub fn assignment_owner(problems: &[&str]) -> String {
    format!("assignment: {}", problems.join(" "))
}

/// Why an output file is not written.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} exists and is not {owner}'s grades ({why}): choose another --csv, or remove it",
    path.display()
)]
pub struct NotOurs {
    /// The file.
    pub path: PathBuf,
    /// Whose grades this run writes (a problem id or [`assignment_owner`]).
    pub owner: String,
    /// What the file is instead.
    pub why: String,
}

/// Checks, before any judging, that `csv` may be (re)written by a run for `owner`: it does not
/// exist, or the cache beside it says it is `owner`'s.
pub fn ensure_ours(csv: &Path, owner: &str) -> Result<(), NotOurs> {
    if std::fs::symlink_metadata(csv).is_err() {
        return Ok(());
    }
    let why = match Cache::owner(&cache_path(csv)) {
        Some(found) if found == owner => return Ok(()),
        Some(found) => format!("its cache names {found}"),
        None => "no grade cache beside it: not made by `sudojudge grade`".into(),
    };
    Err(NotOurs {
        path: csv.to_path_buf(),
        owner: owner.to_string(),
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_assignment_and_the_problem() {
        let f = ProblemFiles::of_assignment(Path::new("out/week3.csv"), "sudoku");
        assert_eq!(f.csv, Path::new("out/week3.sudoku.csv"));
        assert_eq!(f.cache, Path::new("out/week3.sudoku.csv.cache.json"));
        assert_eq!(f.similarity, Path::new("out/week3.sudoku.similarity.csv"));
        let s = ProblemFiles::single(Path::new("grades.csv"));
        assert_eq!(s.similarity, Path::new("grades.similarity.csv"));
        assert_eq!(
            lms_gradebook(Path::new("out/grades.csv"), Lms::Canvas),
            Path::new("out/grades.canvas.csv")
        );
    }

    #[test]
    fn another_runs_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("grades.csv");
        ensure_ours(&csv, "p").unwrap();
        std::fs::write(&csv, "teacher's own sheet").unwrap();
        let err = ensure_ours(&csv, "p").unwrap_err().to_string();
        assert!(err.contains("not made by `sudojudge grade`"), "{err}");
        Cache::new("q", "pkg", Vec::new())
            .save(&cache_path(&csv))
            .unwrap();
        let err = ensure_ours(&csv, "p").unwrap_err().to_string();
        assert!(err.contains("its cache names q"), "{err}");
        ensure_ours(&csv, "q").unwrap();
    }
}
