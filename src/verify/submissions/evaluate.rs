//! The rule: one judge report against its folder's promise, and the package-level diagnosis
//! (a test every accepted solution fails points at its answer file, not at the solutions).

use serde::Serialize;

use crate::judge::{JudgeReport, Points, TestResult, Verdict};
use crate::problem::Problem;

use super::discover::ReferenceSolution;
use super::expectation::{Expectation, Margins};

/// One reference solution's result, judged against its folder.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// Problem id.
    pub problem: String,
    /// `<folder>/<file>`.
    pub name: String,
    /// Path of the source, as named in failure messages.
    pub path: String,
    /// Language id.
    pub language: String,
    /// What the folder promises.
    pub expected: Expectation,
    /// The verdict the folder requires.
    pub expected_verdict: Verdict,
    /// The verdict the judge gave.
    pub got: Verdict,
    /// A scoring problem's score of the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Points>,
    /// The first test that was not accepted, if any.
    pub failed_test: Option<String>,
    /// The judge's message on that test (checker message, signal, limit).
    pub failed_message: Option<String>,
    /// What the output validator wrote for the team on that test (`teammessage.txt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_team_message: Option<String>,
    /// Slowest CPU time over the tests that ran.
    pub time_ms: u64,
    /// The problem's time limit.
    pub time_limit_ms: u64,
    /// The limit the solution was judged with (stretched for time-limit solutions).
    pub judged_limit_ms: u64,
    /// Largest peak memory over the tests that ran.
    pub memory_kib: u64,
    /// Tests that ran (judging stops at the first failure unless the solution must pass).
    pub tests_run: usize,
    /// Tests the problem has.
    pub tests_total: usize,
    /// Whether the solution kept its folder's promise.
    pub ok: bool,
    /// Why not, one sentence each, naming the file.
    pub failures: Vec<String>,
    /// The judge's full report (per test), kept for the diagnosis; not in the JSON.
    #[serde(skip)]
    pub report: JudgeReport,
}

fn first_failure(report: &JudgeReport) -> Option<&TestResult> {
    report.tests.iter().find(|t| t.verdict != Verdict::AC)
}

fn one_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut short: String = line.chars().take(200).collect();
    if short.len() < line.len() {
        short.push_str("...");
    }
    short
}

/// Where a failed test's files are, for the message (`input X, answer Y`).
fn test_files(problem: &Problem, test: &str) -> String {
    problem
        .tests
        .iter()
        .find(|t| t.name == test)
        .map(|t| format!("input {}, answer {}", t.input.display(), t.answer.display()))
        .unwrap_or_default()
}

/// Judges `report` (of `solution` on `problem`, run with `judged_limit_ms`) against the
/// solution's folder and the margins.
pub fn evaluate(
    solution: &ReferenceSolution,
    problem: &Problem,
    margins: &Margins,
    judged_limit_ms: u64,
    report: JudgeReport,
) -> Outcome {
    let path = solution.path.display().to_string();
    let expected = solution.expected;
    let got = report.verdict;
    let failed = first_failure(&report);
    let failed_test = failed.map(|t| t.name.clone());
    let failed_message = failed.and_then(|t| t.message.clone());
    let failed_team_message = failed.and_then(|t| t.team_message.clone());
    let team = failed_team_message
        .as_deref()
        .map(|m| format!("team message: {}", one_line(m)));
    let said: Vec<String> = failed_message
        .as_deref()
        .map(one_line)
        .into_iter()
        .chain(team)
        .collect();
    let on_test = match (&failed_test, said.is_empty()) {
        (Some(t), false) => format!(" on {t} ({})", said.join("; ")),
        (Some(t), true) => format!(" on {t}"),
        _ => String::new(),
    };
    let mut failures = Vec::new();
    match got {
        Verdict::SE => failures.push(format!(
            "{path}: system error{on_test}{}: the judge failed, not the solution",
            report
                .message
                .as_deref()
                .map(|m| format!(" ({})", one_line(m)))
                .unwrap_or_default()
        )),
        Verdict::CE if expected == Expectation::Rejected => {}
        Verdict::CE => failures.push(format!(
            "{path}: compile error: {}",
            one_line(&report.compile.log)
        )),
        _ if expected.allows(got) => {}
        // The Kattis format has no memory verdict: over the memory limit is a run-time error.
        Verdict::MLE if expected == Expectation::RunTimeError && problem.kattis.is_some() => {}
        Verdict::AC => failures.push(match expected {
            Expectation::TimeLimitExceeded => format!(
                "{path}: passes every test with the limit stretched to {judged_limit_ms} ms \
                 (slowest {} ms): a time-limit solution must still time out at {}% of the limit",
                report.time_ms, margins.tle_stretch_percent
            ),
            _ => format!(
                "{path}: expected {}, but it passes every test: the data does not catch this \
                 mistake",
                expected.label()
            ),
        }),
        _ => {
            let files = failed_test
                .as_deref()
                .map(|t| test_files(problem, t))
                .filter(|f| !f.is_empty())
                .map(|f| format!("; {f}"))
                .unwrap_or_default();
            failures.push(format!(
                "{path}: expected {}, got {got}{on_test}{files}",
                expected.label()
            ));
        }
    }
    if !matches!(got, Verdict::SE | Verdict::CE) {
        failures.extend(super::scores::score_failures(
            &path, expected, problem, &report,
        ));
    }
    let max_ms = margins.accepted_max_ms(problem.time_limit_ms);
    if expected == Expectation::Accepted && got == Verdict::AC && report.time_ms > max_ms {
        let slowest = report
            .tests
            .iter()
            .max_by_key(|t| t.time_ms)
            .map(|t| format!(" on {}", t.name))
            .unwrap_or_default();
        failures.push(format!(
            "{path}: {} ms{slowest} is over {}% of the {} ms limit (at most {max_ms} ms)",
            report.time_ms, margins.accepted_max_percent, problem.time_limit_ms
        ));
    }
    Outcome {
        problem: solution.problem.clone(),
        name: solution.name.clone(),
        path,
        language: solution.language.clone(),
        expected,
        expected_verdict: expected.verdict(),
        got,
        score: report.points,
        failed_test,
        failed_message,
        failed_team_message,
        time_ms: report.time_ms,
        time_limit_ms: problem.time_limit_ms,
        judged_limit_ms,
        memory_kib: report.memory_kib,
        tests_run: report.tests.len(),
        tests_total: problem.tests.len(),
        ok: failures.is_empty(),
        failures,
        report,
    }
}

/// Package-level findings: a test on which every accepted solution (at least two) gets a
/// wrong answer points at that test's answer file.
pub fn diagnose(problem: &Problem, outcomes: &[Outcome]) -> Vec<String> {
    let accepted: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.problem == problem.id && o.expected == Expectation::Accepted)
        .collect();
    if accepted.len() < 2 {
        return Vec::new();
    }
    problem
        .tests
        .iter()
        .filter(|test| {
            accepted.iter().all(|o| {
                o.report
                    .tests
                    .iter()
                    .any(|t| t.name == test.name && t.verdict == Verdict::WA)
            })
        })
        .map(|test| {
            format!(
                "{}: every accepted solution gets WA on {}: is the answer file right?",
                test.answer.display(),
                test.name
            )
        })
        .collect()
}
