//! Loading a package from disk: `problem.toml`, the statement and the test list.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{CheckerKind, Problem, ProblemError, TestCase};

/// The keys of `problem.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProblemToml {
    id: String,
    title: String,
    time_limit_ms: u64,
    memory_limit_mb: u64,
    output_limit_mb: u64,
    checker: CheckerKind,
}

fn read_text(path: &Path) -> Result<String, ProblemError> {
    std::fs::read_to_string(path).map_err(|source| ProblemError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn invalid(path: &Path, message: impl Into<String>) -> ProblemError {
    ProblemError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Loads and checks the package in `dir` (the folder named after the problem id).
pub fn load(dir: &Path) -> Result<Problem, ProblemError> {
    let toml_path = dir.join("problem.toml");
    let meta: ProblemToml = toml::from_str(&read_text(&toml_path)?)
        .map_err(|e| invalid(&toml_path, e.message().to_string()))?;
    let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if meta.id != folder {
        return Err(invalid(
            &toml_path,
            format!("id `{}` differs from the folder name `{folder}`", meta.id),
        ));
    }
    if !super::is_valid_id(&meta.id) {
        return Err(invalid(
            &toml_path,
            format!("id `{}` must be lowercase letters, digits and `-`", meta.id),
        ));
    }
    for (key, value) in [
        ("time_limit_ms", meta.time_limit_ms),
        ("memory_limit_mb", meta.memory_limit_mb),
        ("output_limit_mb", meta.output_limit_mb),
    ] {
        if value == 0 {
            return Err(invalid(&toml_path, format!("{key} must be positive")));
        }
    }
    let statement = read_text(&dir.join("statement.md"))?;
    let mut tests = list_tests(dir, "sample")?;
    tests.extend(list_tests(dir, "secret")?);
    if tests.is_empty() {
        return Err(invalid(
            &dir.join("data"),
            "no tests in data/sample or data/secret",
        ));
    }
    Ok(Problem {
        id: meta.id,
        title: meta.title,
        time_limit_ms: meta.time_limit_ms,
        memory_limit_mb: meta.memory_limit_mb,
        output_limit_mb: meta.output_limit_mb,
        checker: meta.checker,
        statement,
        tests,
        dir: dir.to_path_buf(),
    })
}

/// The tests of `data/<group>/`, sorted by name; a missing folder has none.
fn list_tests(dir: &Path, group: &str) -> Result<Vec<TestCase>, ProblemError> {
    let folder = dir.join("data").join(group);
    if !folder.exists() {
        return Ok(Vec::new());
    }
    let read_err = |source| ProblemError::Read {
        path: folder.clone(),
        source,
    };
    let mut inputs: Vec<(String, PathBuf)> = Vec::new();
    let mut answers: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(read_err)? {
        let path = entry.map_err(read_err)?.path();
        let (Some(stem), Some(ext)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        match ext {
            "in" => inputs.push((stem.to_string(), path.clone())),
            "ans" => answers.push(stem.to_string()),
            _ => {}
        }
    }
    if let Some(orphan) = answers
        .iter()
        .find(|a| !inputs.iter().any(|(stem, _)| stem == *a))
    {
        return Err(invalid(
            &folder.join(format!("{orphan}.ans")),
            "answer without an input file beside it",
        ));
    }
    inputs.sort();
    inputs
        .into_iter()
        .map(|(stem, input)| {
            let answer = input.with_extension("ans");
            if !answer.is_file() {
                return Err(invalid(&input, "input without a .ans file beside it"));
            }
            Ok(TestCase {
                name: format!("{group}/{stem}"),
                input,
                answer,
            })
        })
        .collect()
}

/// Loads every package under `problems_dir` (each sub-folder with a `problem.toml`), by id.
pub fn load_all(problems_dir: &Path) -> Result<Vec<Problem>, ProblemError> {
    let read_err = |source| ProblemError::Read {
        path: problems_dir.to_path_buf(),
        source,
    };
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(problems_dir).map_err(read_err)? {
        let path = entry.map_err(read_err)?.path();
        if path.join("problem.toml").is_file() {
            dirs.push(path);
        }
    }
    dirs.sort();
    dirs.iter().map(|d| load(d)).collect()
}

/// Loads the package of problem `id` from `problems_dir`, with a clear error for an unknown id.
pub fn find(problems_dir: &Path, id: &str) -> Result<Problem, ProblemError> {
    if !super::is_valid_id(id) {
        return Err(ProblemError::Unknown {
            id: id.to_string(),
            dir: problems_dir.to_path_buf(),
        });
    }
    let dir = problems_dir.join(id);
    if !dir.join("problem.toml").is_file() {
        if !problems_dir.is_dir() {
            return Err(ProblemError::Read {
                path: problems_dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such folder"),
            });
        }
        return Err(ProblemError::Unknown {
            id: id.to_string(),
            dir: problems_dir.to_path_buf(),
        });
    }
    load(&dir)
}
