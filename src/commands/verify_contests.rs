//! The contests half of `sudojudge verify`: every contest file parses, names problems that
//! exist, has times that make sense, and lists only languages the configuration offers.

use std::path::Path;

use anyhow::Context;
use serde::Serialize;
use sudojudge::contest;
use sudojudge::languages::LanguageTable;

/// One contest file's result.
#[derive(Debug, Serialize)]
pub struct ContestReport {
    /// The file.
    pub file: String,
    /// The contest's id, when the file is sound.
    pub id: Option<String>,
    /// Its format, when the file is sound.
    pub format: Option<&'static str>,
    /// Whether the file is sound.
    pub ok: bool,
    /// What is wrong, naming the file and key.
    pub error: Option<String>,
}

/// Checks every contest file of `dir` against the problem ids `problems` and the language
/// table `languages` (a listed id must be an id or an alias of it).
pub fn check(
    dir: &Path,
    problems: &[String],
    languages: &LanguageTable,
) -> anyhow::Result<Vec<ContestReport>> {
    let (contests, errors) = contest::load_all(dir, problems).context("verifying contests")?;
    let mut reports: Vec<ContestReport> = contests
        .iter()
        .map(|c| {
            let unknown = c
                .languages
                .iter()
                .flatten()
                .find(|id| languages.get(id).is_none());
            let error = unknown.map(|id| {
                format!(
                    "{}: languages: {id:?} is no language of the configuration (known: {})",
                    c.path.display(),
                    languages.known_ids().join(", ")
                )
            });
            ContestReport {
                file: c.path.display().to_string(),
                id: Some(c.id.to_string()),
                format: Some(c.format.as_str()),
                ok: error.is_none(),
                error,
            }
        })
        .collect();
    reports.extend(errors.iter().map(|e| ContestReport {
        file: match e {
            contest::ContestError::Read { file, .. }
            | contest::ContestError::Syntax { file, .. }
            | contest::ContestError::Invalid { file, .. } => file.display().to_string(),
        },
        id: None,
        format: None,
        ok: false,
        error: Some(e.to_string()),
    }));
    reports.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(reports)
}

/// Prints one line per contest file.
pub fn print(reports: &[ContestReport]) {
    for r in reports {
        match (&r.error, &r.id, r.format) {
            (Some(error), _, _) => println!("contest {error}"),
            (None, Some(id), Some(format)) => println!("contest {id} ({format}): ok"),
            _ => println!("contest {}: ok", r.file),
        }
    }
}
