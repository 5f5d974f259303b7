//! A Kattis package's statement as the Markdown this judge serves: a Markdown statement as
//! written, a LaTeX one (not typeset here) replaced by a note naming it and a link to the
//! PDF it ships; the sample data follows both, as the format's renderers add it.

use std::path::{Path, PathBuf};

use super::super::{ProblemError, TestCase};
use super::read_err;

/// Largest statement file read (a statement is a few KiB; this bounds a hostile one).
const MAX_STATEMENT_BYTES: u64 = 1 << 20;

/// Largest sample shown in full in the statement.
const MAX_SAMPLE_BYTES: usize = 64 << 10;

/// The statement found in a package.
pub struct Statement {
    /// The Markdown served.
    pub markdown: String,
    /// The PDF shipped beside a LaTeX statement, if any.
    pub pdf: Option<PathBuf>,
}

/// The statement folders, current name first.
const FOLDERS: [&str; 2] = ["statement", "problem_statement"];

/// `problem.en.EXT`, else `problem.EXT`, else the first `problem.*.EXT` by name.
fn find(folder: &Path, ext: &str) -> Option<PathBuf> {
    let en = folder.join(format!("problem.en.{ext}"));
    if en.is_file() {
        return Some(en);
    }
    let plain = folder.join(format!("problem.{ext}"));
    if plain.is_file() {
        return Some(plain);
    }
    let mut others: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.starts_with("problem.") && n.ends_with(&format!(".{ext}"))
        })
        .collect();
    others.sort();
    others.into_iter().next()
}

fn read_bounded(path: &Path) -> Result<String, ProblemError> {
    let meta = std::fs::metadata(path).map_err(|e| read_err(path, e))?;
    if meta.len() > MAX_STATEMENT_BYTES {
        return Err(super::invalid(
            path,
            format!("larger than {MAX_STATEMENT_BYTES} bytes"),
        ));
    }
    std::fs::read_to_string(path).map_err(|e| read_err(path, e))
}

/// The statement of the package in `dir` titled `title`, with its `samples` (an
/// interactive problem: its sample interactions instead, `data/sample/*.interaction`).
pub fn read(
    dir: &Path,
    id: &str,
    title: &str,
    samples: &[&TestCase],
    interactive: bool,
) -> Result<Statement, ProblemError> {
    let folders: Vec<PathBuf> = FOLDERS
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.is_dir())
        .collect();
    let (mut markdown, pdf) = if let Some(md) = folders.iter().find_map(|f| find(f, "md")) {
        (read_bounded(&md)?, None)
    } else if let Some(tex) = folders.iter().find_map(|f| find(f, "tex")) {
        let pdf = tex.with_extension("pdf");
        let pdf = pdf.is_file().then_some(pdf);
        let rel = tex.strip_prefix(dir).unwrap_or(&tex).display().to_string();
        let mut text = format!(
            "# {title}\n\nThis problem's statement is written in LaTeX (`{rel}`), which this \
             judge does not typeset.\n"
        );
        if pdf.is_some() {
            text.push_str(&format!(
                "\n[The statement as a PDF](/problems/{id}/statement.pdf)\n"
            ));
        }
        (text, pdf)
    } else {
        return Err(super::invalid(
            &dir.join("statement"),
            "no problem statement (statement/problem.en.md or .tex; legacy: problem_statement/)",
        ));
    };
    if interactive {
        push_interactions(&mut markdown, &dir.join("data/sample"))?;
    } else if !samples.is_empty() {
        markdown.push_str("\n\n## Samples\n");
        for test in samples {
            for (what, path) in [("input", &test.input), ("output", &test.answer)] {
                let bytes = std::fs::read(path).map_err(|e| read_err(path, e))?;
                let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_SAMPLE_BYTES)]);
                let short = test.name.trim_start_matches("sample/");
                markdown.push_str(&format!(
                    "\nSample {what} {short}\n\n```\n{}\n```\n",
                    text.trim_end()
                ));
            }
        }
    }
    Ok(Statement { markdown, pdf })
}

/// Appends the sample interactions in `folder` (`>` lines written by the submission, `<`
/// lines read by it, as problemtools renders them).
fn push_interactions(markdown: &mut String, folder: &Path) -> Result<(), ProblemError> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(folder) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "interaction"))
            .collect(),
        Err(_) => return Ok(()),
    };
    if files.is_empty() {
        return Ok(());
    }
    files.sort();
    markdown.push_str(
        "\n\n## Sample interactions\n\nLines after `>` are written by your program, lines \
         after `<` are what it reads.\n",
    );
    for (n, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).map_err(|e| read_err(path, e))?;
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_SAMPLE_BYTES)]);
        markdown.push_str(&format!(
            "\nSample interaction {}\n\n```\n{}\n```\n",
            n + 1,
            text.trim_end()
        ));
    }
    Ok(())
}
