//! The readable table printed by `sudojudge judge` and `sudojudge submit --wait`.

use std::fmt::Write;

use super::report::JudgeReport;

/// Renders a report as a table: one row per test, then the summary and any compiler log.
pub fn render(report: &JudgeReport) -> String {
    let mut out = String::new();
    let name_width = report
        .tests
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    if !report.tests.is_empty() {
        let _ = writeln!(
            out,
            "{:<name_width$}  {:<7}  {:>8}  {:>8}  {:>10}  message",
            "test", "verdict", "time ms", "wall ms", "mem KiB"
        );
        for t in &report.tests {
            let _ = writeln!(
                out,
                "{:<name_width$}  {:<7}  {:>8}  {:>8}  {:>10}  {}",
                t.name,
                t.verdict.as_str(),
                t.time_ms,
                t.wall_ms,
                t.memory_kib,
                one_line(t.message.as_deref().unwrap_or(""))
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{} {} [{}]: {}  score {}  time {} ms  memory {} KiB{}",
        report.problem,
        report.language,
        report.tests.len(),
        report.verdict,
        report.score,
        report.time_ms,
        report.memory_kib,
        if report.degraded {
            "  (DEGRADED: not isolated)"
        } else {
            ""
        }
    );
    if let Some(msg) = &report.message {
        let _ = writeln!(out, "cause: {msg}");
    }
    if !report.compile.log.trim().is_empty() {
        let _ = writeln!(out, "compiler output:\n{}", report.compile.log.trim_end());
    }
    out
}

/// Keeps table rows on one line: newlines become spaces, long messages are cut.
fn one_line(s: &str) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() > 100 {
        let cut: String = flat.chars().take(97).collect();
        format!("{cut}...")
    } else {
        flat
    }
}
