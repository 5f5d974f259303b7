//! One student's line of the grade: what the table, the CSV and the JSON show, built from a
//! judge report or from the reason the student could not be judged.

use serde::{Deserialize, Serialize};

use crate::judge::{JudgeReport, Verdict};

use super::discover::{Found, Student};

/// One student's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The student's name.
    pub student: String,
    /// The source file (or the student's folder when no single source was found).
    pub file: String,
    /// Language id; empty when the extension is unknown.
    pub language: String,
    /// The verdict; `None` (shown as `-`) when the student was not judged.
    pub verdict: Option<Verdict>,
    /// Share of tests passed, 0 to 100; a scoring problem's score in whole points, below 0
    /// when its package's range goes there.
    pub score: i64,
    /// Tests passed.
    pub passed: usize,
    /// Tests of the problem.
    pub total: usize,
    /// Largest CPU time over the tests.
    pub time_ms: u64,
    /// Largest peak memory over the tests.
    pub memory_kib: u64,
    /// The first failing test and its message, the compiler's first error, or why the student
    /// was not judged; empty for an accepted source.
    pub message: String,
    /// SHA-256 of the source (hex); empty when nothing was read. The re-run cache compares it.
    pub hash: String,
    /// Whether the verdict was taken from the previous run (the source did not change).
    #[serde(default)]
    pub cached: bool,
    /// The judge's whole report with the per-test results (`None` when not judged).
    pub report: Option<JudgeReport>,
}

/// Longest message kept in a row (a whole compiler log belongs in the JSON report).
const MAX_MESSAGE_CHARS: usize = 300;

/// Keeps a message on one line and short.
pub fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > MAX_MESSAGE_CHARS {
        let cut: String = flat.chars().take(MAX_MESSAGE_CHARS - 3).collect();
        format!("{cut}...")
    } else {
        flat
    }
}

/// The compiler's first line that says `error` (else its first line).
fn first_compile_error(log: &str) -> String {
    let lines = || log.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| lines().next())
        .unwrap_or("")
        .to_string()
}

/// The row's message for a judged source.
fn report_message(report: &JudgeReport) -> String {
    match report.verdict {
        Verdict::AC => String::new(),
        Verdict::CE => one_line(&format!(
            "compile error: {}",
            first_compile_error(&report.compile.log)
        )),
        _ => match report.tests.iter().find(|t| t.verdict != Verdict::AC) {
            Some(t) => one_line(&format!(
                "{}: {}",
                t.name,
                t.message.as_deref().unwrap_or(t.verdict.as_str())
            )),
            None => one_line(report.message.as_deref().unwrap_or("")),
        },
    }
}

impl Row {
    /// The row of a student who could not be judged, or was not (interrupted).
    pub fn not_judged(student: &Student, language: &str, reason: &str, hash: String) -> Row {
        Row {
            student: student.name.clone(),
            file: student.path.display().to_string(),
            language: language.to_string(),
            verdict: None,
            score: 0,
            passed: 0,
            total: 0,
            time_ms: 0,
            memory_kib: 0,
            message: one_line(reason),
            hash,
            cached: false,
            report: None,
        }
    }

    /// The row of a student whose discovery already says why they cannot be judged.
    pub fn unusable(student: &Student) -> Option<Row> {
        match &student.found {
            Found::Unusable { language, reason } => {
                Some(Row::not_judged(student, language, reason, String::new()))
            }
            Found::Source { .. } => None,
        }
    }

    /// The row of a judged source; `tests` is the problem's test count (a `CE` runs none).
    pub fn judged(student: &Student, hash: String, tests: usize, report: JudgeReport) -> Row {
        let passed = report
            .tests
            .iter()
            .filter(|t| t.verdict == Verdict::AC)
            .count();
        Row {
            student: student.name.clone(),
            file: student.path.display().to_string(),
            language: report.language.clone(),
            verdict: Some(report.verdict),
            score: report.score,
            passed,
            total: tests.max(report.tests.len()),
            time_ms: report.time_ms,
            memory_kib: report.memory_kib,
            message: report_message(&report),
            hash,
            cached: false,
            report: Some(report),
        }
    }

    /// The last lines of the first failing test's stderr (a run-time error's traceback, panic
    /// or sanitizer report), when the judge kept them.
    pub fn stderr_tail(&self) -> Option<&str> {
        self.first_failure()?.stderr_tail.as_deref()
    }

    /// What a package's output validator said to the student on the first failing test
    /// (its `teammessage.txt`), when it said something.
    pub fn team_message(&self) -> Option<&str> {
        self.first_failure()?.team_message.as_deref()
    }

    fn first_failure(&self) -> Option<&crate::judge::TestResult> {
        self.report
            .as_ref()?
            .tests
            .iter()
            .find(|t| t.verdict != Verdict::AC)
    }

    /// The message with the stderr tail's last line (the exception, the panic), as the table
    /// shows it: `sample/1: exit code 1: ValueError: ...`.
    pub fn message_with_stderr(&self) -> String {
        // Rust's `note: run with RUST_BACKTRACE=1` is not what went wrong.
        let last = self.stderr_tail().and_then(|t| {
            t.lines()
                .rev()
                .find(|l| !l.trim().is_empty() && !l.starts_with("note: "))
        });
        match last {
            Some(last) => one_line(&format!("{}: {}", self.message, last.trim())),
            None => self.message.clone(),
        }
    }

    /// A scoring problem's groups as `group1 20/20 group2 30/30 group3 0/50` (the groups in
    /// `secret`, else every group but `data/` and `sample`); empty for a pass-fail problem.
    pub fn groups_text(&self) -> String {
        let Some(report) = &self.report else {
            return String::new();
        };
        let inner: Vec<_> = report
            .groups
            .iter()
            .filter(|g| g.name.starts_with("secret/"))
            .collect();
        let shown: Vec<_> = if inner.is_empty() {
            report
                .groups
                .iter()
                .filter(|g| !g.name.is_empty() && g.name != "sample")
                .collect()
        } else {
            inner
        };
        shown
            .iter()
            .map(|g| {
                let name = g.name.strip_prefix("secret/").unwrap_or(&g.name);
                match g.max {
                    Some(max) => format!("{name} {}/{}", g.score.shown(), max.shown()),
                    None => format!("{name} {}", g.score.shown()),
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The verdict as shown: its name, or `-`.
    pub fn verdict_name(&self) -> &'static str {
        self.verdict.map_or("-", Verdict::as_str)
    }
}

/// A row with the given name, verdict and score and nothing else, for unit tests.
#[cfg(test)]
pub(crate) fn test_row(student: &str, verdict: Option<Verdict>, score: i64) -> Row {
    Row {
        student: student.into(),
        file: format!("class/{student}.c"),
        language: "c".into(),
        verdict,
        score,
        passed: 0,
        total: 0,
        time_ms: 0,
        memory_kib: 0,
        message: String::new(),
        hash: String::new(),
        cached: false,
        report: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_on_one_short_line() {
        assert_eq!(one_line("a\n  b\tc"), "a b c");
        assert!(one_line(&"x ".repeat(1000)).chars().count() <= MAX_MESSAGE_CHARS);
        assert_eq!(
            first_compile_error("In function main:\nmain.c:1:2: error: expected ';'\n"),
            "main.c:1:2: error: expected ';'"
        );
    }
}
