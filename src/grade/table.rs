//! The grade as people read it: one line per student sorted by student, the summary, and
//! the similar pairs. What a student chose (names, paths, messages quoting file names) is
//! shown through [`printable`]: a name cannot move the cursor, clear the screen or start a
//! line of its own.

use std::fmt::Write;

use super::csvfile::ranges;
use super::row::Row;
use super::similarity::{distribution, Comparison, Distribution, Flag};
use super::summary::Summary;
use super::text::printable;

fn width(header: &str, cells: impl Iterator<Item = String>) -> usize {
    cells
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0)
        .max(header.len())
}

/// The message column: a scoring problem's groups first (`[group1 20/20 ...]`).
fn with_groups(r: &Row) -> String {
    let groups = r.groups_text();
    let message = r.message_with_stderr();
    match (groups.is_empty(), message.is_empty()) {
        (true, _) => message,
        (false, true) => format!("[{groups}]"),
        (false, false) => format!("[{groups}] {message}"),
    }
}

/// The table of rows and the summary.
pub fn render_rows(rows: &[Row], summary: &Summary) -> String {
    let mut out = String::new();
    let ws = width(
        "student",
        rows.iter().map(|r| printable(&r.student).into_owned()),
    );
    let wf = width("file", rows.iter().map(|r| printable(&r.file).into_owned()));
    let _ = writeln!(
        out,
        "{:<ws$}  {:<wf$}  {:<8}  {:<7}  {:>5}  {:>7}  {:>7}  {:>9}  first failure / message",
        "student", "file", "language", "verdict", "score", "passed", "time ms", "mem KiB"
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
            printable(&r.student),
            printable(&r.file),
            if r.language.is_empty() {
                "-".into()
            } else {
                printable(&r.language)
            },
            r.verdict_name(),
            r.score,
            tests,
            r.time_ms,
            r.memory_kib,
            printable(&with_groups(r))
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

/// The class's distribution in one line: pairs, median, MAD, the bound, the histogram.
pub fn render_distribution(d: &Distribution) -> String {
    let bound = match d.bound {
        Some(b) => format!(
            "{b:.1}% (median + 3 MAD = {:.1}%, at least {:.0}%)",
            d.median + distribution::MADS * d.mad,
            distribution::MIN_BOUND
        ),
        None => format!("none (under {} pairs)", distribution::MIN_PAIRS),
    };
    let bars: Vec<String> = d
        .histogram
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{}-{}%: {n}", i * 10, i * 10 + 10))
        .collect();
    format!(
        "{} pairs compared: median {:.1}%, MAD {:.1}, stands out above {bound}\n  {}\n",
        d.pairs,
        d.median,
        d.mad,
        bars.join("  ")
    )
}

/// The similarity section: the class's distribution, then the pairs at the threshold or
/// standing out of the class, most similar first.
pub fn render_pairs(comparison: &Comparison, threshold: f64, compared: usize) -> String {
    let mut out = String::new();
    let pairs = &comparison.pairs;
    let _ = writeln!(
        out,
        "\nsimilarity ({compared} sources compared; pairs at {threshold:.0}% or more of shared fingerprints, or standing out of the class):"
    );
    out.push_str(&render_distribution(&comparison.distribution));
    if pairs.is_empty() {
        let _ = writeln!(out, "no pair above the threshold or standing out");
        return out;
    }
    for p in pairs {
        let _ = writeln!(
            out,
            "{:>5.1}%  {} ({}) ~ {} ({})  [{}]  lines {} ~ {}{}",
            p.similarity,
            printable(&p.student_a),
            printable(&p.file_a),
            printable(&p.student_b),
            printable(&p.file_b),
            printable(&p.language),
            ranges(&p.lines_a),
            ranges(&p.lines_b),
            match p.flag {
                Flag::Threshold => "",
                Flag::Class => "  (stands out of the class)",
            }
        );
    }
    out
}
