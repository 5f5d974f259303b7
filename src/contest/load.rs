//! Every contest of a folder, checked against the problems that exist.

use std::path::{Path, PathBuf};

use super::file::{Contest, ContestError};

/// Why the contest folder could not be listed.
#[derive(Debug, thiserror::Error)]
#[error("cannot list contests in {dir}: {source}")]
pub struct LoadError {
    /// The folder.
    pub dir: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// Reads every `*.toml` of `dir` in name order; a missing folder holds no contests.
/// Returns the contests that are sound and the errors of the others, each naming its file
/// and key; a contest naming a problem not in `problems` is an error (`problems[i].problem`).
pub fn load_all(
    dir: &Path,
    problems: &[String],
) -> Result<(Vec<Contest>, Vec<ContestError>), LoadError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(source) => {
            return Err(LoadError {
                dir: dir.to_path_buf(),
                source,
            })
        }
    };
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|source| LoadError {
                dir: dir.to_path_buf(),
                source,
            })?
            .path();
        if path.extension().is_some_and(|e| e == "toml") {
            paths.push(path);
        }
    }
    paths.sort();
    let (mut contests, mut errors) = (Vec::new(), Vec::new());
    for path in paths {
        match Contest::read(&path).and_then(|c| check_problems(c, problems)) {
            Ok(contest) => contests.push(contest),
            Err(e) => errors.push(e),
        }
    }
    Ok((contests, errors))
}

/// `contest` if every problem it names is one of `problems`.
pub fn check_problems(contest: Contest, problems: &[String]) -> Result<Contest, ContestError> {
    if let Some((i, p)) = contest
        .problems
        .iter()
        .enumerate()
        .find(|(_, p)| !problems.contains(&p.problem))
    {
        return Err(ContestError::Invalid {
            file: contest.path.clone(),
            key: format!("problems[{i}].problem"),
            message: format!(
                "unknown problem {:?} (known: {})",
                p.problem,
                problems.join(", ")
            ),
        });
    }
    Ok(contest)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN: &str = "title = \"t\"\nformat = \"ioi\"\n[timing]\nkind = \"open\"\n[[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n";

    #[test]
    fn a_folder_yields_its_sound_contests_and_the_errors_of_the_others() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("good.toml"), OPEN).unwrap();
        std::fs::write(
            dir.path().join("ghost.toml"),
            OPEN.replace("\"sudoku\"", "\"chess\""),
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a contest").unwrap();
        let known = vec!["sudoku".to_string()];
        let (contests, errors) = load_all(dir.path(), &known).unwrap();
        assert_eq!(contests.len(), 1);
        assert_eq!(contests[0].id.as_str(), "good");
        assert_eq!(errors.len(), 1);
        let message = errors[0].to_string();
        assert!(
            message.contains("ghost.toml: key `problems[0].problem`: unknown problem \"chess\""),
            "{message}"
        );
        let (none, no_errors) = load_all(&dir.path().join("missing"), &known).unwrap();
        assert!(none.is_empty() && no_errors.is_empty());
    }
}
