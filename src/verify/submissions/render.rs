//! How `verify` reports the judged solutions: a table for people, a summary for machines.

use std::fmt::Write;

use serde::Serialize;

use super::discover::Skipped;
use super::evaluate::Outcome;
use super::expectation::Margins;

/// The submissions half of `verify --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// True when every solution kept its promise and no package-level problem was found.
    pub ok: bool,
    /// The margins that were enforced.
    pub margins: Margins,
    /// Every solution, in problem, folder and file order.
    pub submissions: Vec<Outcome>,
    /// Package-level findings (an answer file every accepted solution disagrees with).
    pub package_failures: Vec<String>,
    /// Submissions not judged (Kattis packages: unknown folders, languages this machine
    /// lacks), each with why; they do not fail the run.
    pub skipped: Vec<Skipped>,
}

impl Summary {
    /// A summary of `outcomes` plus package-level findings.
    pub fn new(
        margins: Margins,
        submissions: Vec<Outcome>,
        package_failures: Vec<String>,
    ) -> Summary {
        let ok = package_failures.is_empty() && submissions.iter().all(|o| o.ok);
        Summary {
            ok,
            margins,
            submissions,
            package_failures,
            skipped: Vec::new(),
        }
    }

    /// The same summary listing what was skipped.
    pub fn with_skipped(mut self, skipped: Vec<Skipped>) -> Summary {
        self.skipped = skipped;
        self
    }
}

fn time_cell(o: &Outcome) -> String {
    if o.judged_limit_ms != o.time_limit_ms {
        format!("{}/{} (x{})", o.time_ms, o.time_limit_ms, stretch(o))
    } else {
        format!("{}/{}", o.time_ms, o.time_limit_ms)
    }
}

fn stretch(o: &Outcome) -> String {
    let tenths = (o.judged_limit_ms * 10).div_ceil(o.time_limit_ms.max(1));
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// The table: one row per solution (expected, got, slowest time against the limit, largest
/// memory, tests run of the problem's: judging stops at the first failure), then every
/// failure in full.
pub fn render_table(summary: &Summary) -> String {
    let mut out = String::new();
    let rows: Vec<[String; 7]> = summary
        .submissions
        .iter()
        .map(|o| {
            [
                format!("{}/{}", o.problem, o.name),
                o.expected.label(),
                match o.score {
                    Some(p) => format!("{} {}", o.got, p.shown()),
                    None => o.got.to_string(),
                },
                time_cell(o),
                o.memory_kib.to_string(),
                format!("{}/{}", o.tests_run, o.tests_total),
                if o.ok { "ok".into() } else { "FAIL".into() },
            ]
        })
        .collect();
    let header = [
        "submission",
        "expected",
        "got",
        "time/limit ms",
        "memory KiB",
        "tests run",
        "result",
    ];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i == 0 {
                let _ = write!(s, "{cell:<w$}");
            } else if i <= 2 {
                let _ = write!(s, "  {cell:<w$}");
            } else {
                let _ = write!(s, "  {cell:>w$}");
            }
        }
        s.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(&header));
    for row in &rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        let _ = writeln!(out, "{}", line(&cells));
    }
    let failures: Vec<&String> = summary
        .submissions
        .iter()
        .flat_map(|o| &o.failures)
        .chain(&summary.package_failures)
        .collect();
    let failed = summary.submissions.iter().filter(|o| !o.ok).count();
    let _ = writeln!(
        out,
        "\n{} solutions: {} as expected, {} not",
        summary.submissions.len(),
        summary.submissions.len() - failed,
        failed
    );
    for s in &summary.skipped {
        let _ = writeln!(out, "skipped {}: {}", s.path.display(), s.reason);
    }
    for f in failures {
        let _ = writeln!(out, "FAIL {f}");
    }
    out
}
