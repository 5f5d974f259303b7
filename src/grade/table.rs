//! The grade as people read it: one line per student sorted by student, the summary, and
//! the similar pairs.

use std::fmt::Write;

use super::csvfile::ranges;
use super::row::Row;
use super::similarity::Pair;
use super::summary::Summary;

fn width<'a>(header: &str, cells: impl Iterator<Item = &'a str>) -> usize {
    cells
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0)
        .max(header.len())
}

/// The table of rows and the summary.
pub fn render_rows(rows: &[Row], summary: &Summary) -> String {
    let mut out = String::new();
    let ws = width("student", rows.iter().map(|r| r.student.as_str()));
    let wf = width("file", rows.iter().map(|r| r.file.as_str()));
    let _ = writeln!(
        out,
        "{:<ws$}  {:<wf$}  {:<8}  {:<7}  {:>5}  {:>7}  {:>7}  {:>9}  first failure / message",
        "student", "file", "language", "verdict", "score", "tests", "time ms", "mem KiB"
    );
    for r in rows {
        let tests = if r.total > 0 {
            format!("{}/{}", r.passed, r.total)
        } else {
            "-".into()
        };
        let cached = if r.cached { "  (unchanged)" } else { "" };
        let line = format!(
            "{:<ws$}  {:<wf$}  {:<8}  {:<7}  {:>5}  {:>7}  {:>7}  {:>9}  {}{cached}",
            r.student,
            r.file,
            if r.language.is_empty() {
                "-"
            } else {
                &r.language
            },
            r.verdict_name(),
            r.score,
            tests,
            r.time_ms,
            r.memory_kib,
            r.message
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push('\n');
    let counts: Vec<String> = summary
        .verdicts
        .iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect();
    let _ = writeln!(out, "{} students: {}", summary.students, counts.join(", "));
    match (summary.mean_score, summary.median_score) {
        (Some(mean), Some(median)) => {
            let _ = writeln!(
                out,
                "score over the judged students: mean {mean:.1}, median {median:.1}"
            );
        }
        _ => {
            let _ = writeln!(out, "no student was judged");
        }
    }
    out
}

/// The similarity section: the pairs above the threshold, most similar first.
pub fn render_pairs(pairs: &[Pair], threshold: f64, compared: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nsimilarity ({compared} sources compared; pairs at {threshold:.0}% or more of shared fingerprints):"
    );
    if pairs.is_empty() {
        let _ = writeln!(out, "no pair above the threshold");
        return out;
    }
    for p in pairs {
        let _ = writeln!(
            out,
            "{:>5.1}%  {} ({}) ~ {} ({})  [{}]  lines {} ~ {}",
            p.similarity,
            p.student_a,
            p.file_a,
            p.student_b,
            p.file_b,
            p.language,
            ranges(&p.lines_a),
            ranges(&p.lines_b)
        );
    }
    out
}
