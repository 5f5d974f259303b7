//! An assignment: several problems graded in one run, each from its own class folder (or
//! LMS zip) with a weight, from a TOML file (`--assignment FILE`) or from `PROBLEM=DIR` pairs
//! on the command line (equal weights).

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Largest assignment file read.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Most problems in one assignment.
pub const MAX_PROBLEMS: usize = 64;

/// One problem of an assignment.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// The problem id (a package of the problems folder).
    pub problem: String,
    /// The class folder or LMS zip of this problem (relative to the assignment file).
    pub path: PathBuf,
    /// The problem's weight in the total (default 1).
    #[serde(default = "one")]
    pub weight: f64,
    /// Code handed out for this problem (its fingerprints never count as a match).
    #[serde(default)]
    pub base: Vec<PathBuf>,
    /// Earlier years' folders for this problem, compared with the class only.
    #[serde(default)]
    pub against: Vec<PathBuf>,
}

fn one() -> f64 {
    1.0
}

/// The problems of an assignment, in the order given.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assignment {
    /// The problems.
    #[serde(rename = "problem", default)]
    pub parts: Vec<Part>,
}

/// Why an assignment cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AssignmentError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: super::files::Refused,
    },
    /// The file is not a valid assignment.
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file (or `the command line`).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl Assignment {
    /// Reads an assignment file:
    ///
    /// ```toml
    /// [[problem]]
    /// problem = "binary-sudoku"
    /// path = "week3/binary.zip"
    /// weight = 2
    /// ```
    ///
    /// Relative paths are taken from the file's folder.
    pub fn load(path: &Path) -> Result<Assignment, AssignmentError> {
        let read = |source| AssignmentError::Read {
            path: path.to_path_buf(),
            source,
        };
        let bytes = super::files::read_path(path, MAX_FILE_BYTES, true).map_err(read)?;
        let text = String::from_utf8(bytes).map_err(|_| AssignmentError::Invalid {
            path: path.to_path_buf(),
            message: "not UTF-8 text".into(),
        })?;
        let mut assignment: Assignment =
            toml::from_str(&text).map_err(|e| AssignmentError::Invalid {
                path: path.to_path_buf(),
                message: e.message().to_string(),
            })?;
        let dir = path.parent().unwrap_or(Path::new(""));
        for part in &mut assignment.parts {
            for p in std::iter::once(&mut part.path)
                .chain(&mut part.base)
                .chain(&mut part.against)
            {
                if p.is_relative() {
                    *p = dir.join(&*p);
                }
            }
        }
        assignment.check(path)?;
        Ok(assignment)
    }

    /// The assignment of `PROBLEM=DIR` pairs, equal weights.
    pub fn from_pairs(pairs: &[String]) -> Result<Assignment, AssignmentError> {
        let parts = pairs
            .iter()
            .map(|pair| match pair.split_once('=') {
                Some((problem, path)) if !problem.is_empty() && !path.is_empty() => Ok(Part {
                    problem: problem.to_string(),
                    path: PathBuf::from(path),
                    weight: 1.0,
                    base: Vec::new(),
                    against: Vec::new(),
                }),
                _ => Err(AssignmentError::Invalid {
                    path: PathBuf::from("the command line"),
                    message: format!("`{pair}` is not PROBLEM=DIR"),
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let assignment = Assignment { parts };
        assignment.check(Path::new("the command line"))?;
        Ok(assignment)
    }

    fn check(&self, path: &Path) -> Result<(), AssignmentError> {
        let invalid = |message: String| AssignmentError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        if self.parts.is_empty() {
            return Err(invalid("no [[problem]]".into()));
        }
        if self.parts.len() > MAX_PROBLEMS {
            return Err(invalid(format!("more than {MAX_PROBLEMS} problems")));
        }
        for (i, part) in self.parts.iter().enumerate() {
            if !crate::problem::is_valid_id(&part.problem) {
                return Err(invalid(format!("`{}` is not a problem id", part.problem)));
            }
            if self.parts[..i].iter().any(|p| p.problem == part.problem) {
                return Err(invalid(format!("problem `{}` named twice", part.problem)));
            }
            if !(part.weight.is_finite() && part.weight >= 0.0) {
                return Err(invalid(format!(
                    "problem `{}`: the weight must be a number 0 or more",
                    part.problem
                )));
            }
        }
        if self.parts.iter().all(|p| p.weight == 0.0) {
            return Err(invalid("every weight is 0".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_with_weights_and_relative_paths() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("week3.toml");
        std::fs::write(
            &file,
            "[[problem]]\nproblem = \"sudoku\"\npath = \"a\"\nweight = 2\n\n\
             [[problem]]\nproblem = \"binary-sudoku\"\npath = \"/abs/b.zip\"\n",
        )
        .unwrap();
        let a = Assignment::load(&file).unwrap();
        assert_eq!(a.parts.len(), 2);
        assert_eq!(a.parts[0].path, dir.path().join("a"));
        assert_eq!(a.parts[0].weight, 2.0);
        assert_eq!(a.parts[1].path, PathBuf::from("/abs/b.zip"));
        assert_eq!(a.parts[1].weight, 1.0);
    }

    #[test]
    fn bad_assignments_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.toml");
        for (text, needle) in [
            ("", "no [[problem]]"),
            ("[[problem]]\nproblem = \"../x\"\npath = \"a\"\n", "not a problem id"),
            (
                "[[problem]]\nproblem = \"x\"\npath = \"a\"\nweight = -1\n",
                "weight",
            ),
            ("[[problem]]\nproblem = \"x\"\npath = \"a\"\nwieght = 1\n", "unknown field"),
            (
                "[[problem]]\nproblem = \"x\"\npath = \"a\"\n[[problem]]\nproblem = \"x\"\npath = \"b\"\n",
                "named twice",
            ),
        ] {
            std::fs::write(&file, text).unwrap();
            let err = Assignment::load(&file).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
        let err = Assignment::from_pairs(&["sudoku".into()]).unwrap_err();
        assert!(err.to_string().contains("is not PROBLEM=DIR"), "{err}");
        let ok = Assignment::from_pairs(&["a=x".into(), "b=y/z".into()]).unwrap();
        assert_eq!(ok.parts[1].path, PathBuf::from("y/z"));
    }
}
