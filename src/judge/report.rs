//! The judge's result for one submission: the `judge --json` object of the design notes.

use serde::{Deserialize, Serialize};

use super::grading::GroupResult;
use super::points::Points;
use super::verdict::{aggregate, Verdict};

/// Longest compiler log kept in a report; compilers can print megabytes of template errors.
pub const MAX_COMPILE_LOG_BYTES: usize = 16 * 1024;

/// The compile step's outcome as reported to users.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CompileInfo {
    /// Whether the compile produced a program.
    pub ok: bool,
    /// The compiler's output (errors or warnings), truncated to [`MAX_COMPILE_LOG_BYTES`].
    pub log: String,
    /// Set when the program came from the compile cache: no compiler ran, `log` is the one
    /// of the compile that made it. Shown by `judge --json` and custom runs; not stored.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

/// One test's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TestResult {
    /// The test's name (`sample/1`, `secret/03`...).
    pub name: String,
    /// The test's verdict.
    pub verdict: Verdict,
    /// CPU time of the run.
    pub time_ms: u64,
    /// Wall-clock time of the run.
    pub wall_ms: u64,
    /// Peak memory of the run.
    pub memory_kib: u64,
    /// Exit code when the program exited.
    pub exit_code: Option<i32>,
    /// Signal number when the program was killed by a signal.
    pub signal: Option<i32>,
    /// The checker's message for `WA`, the cause for `RE`/`SE`/limits; `None` for `AC`.
    pub message: Option<String>,
    /// For `RE`: the last lines of what the program wrote to stderr (a traceback, a panic),
    /// bounded ([`super::stderr_tail`]). On a secret test it may carry the input: shown to
    /// the teacher and the jury, to a contestant only on a sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
    /// What a Kattis output validator wrote to `teammessage.txt`, bounded
    /// ([`super::validate::team_message`]): meant for the contestant, so shown on every test,
    /// secret ones included, kept apart from the jury's `message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_message: Option<String>,
    /// A scoring problem's test: the `score.txt` its output validator wrote (on `AC`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub score: Option<Points>,
}

/// A whole submission's result (the JSON printed by `sudojudge judge --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeReport {
    /// Problem id.
    pub problem: String,
    /// Language id.
    pub language: String,
    /// First non-AC test verdict in test order; `CE` or `SE` when no test could run.
    pub verdict: Verdict,
    /// Share of tests passed, 0 to 100; a scoring problem's score in whole points
    /// ([`Points::whole`]), signed: a package's range may go below 0.
    pub score: i64,
    /// A scoring problem's score as the package computes it (`None`: pass-fail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Points>,
    /// A scoring problem's groups, depth first (empty: pass-fail).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupResult>,
    /// Maximum CPU time over the tests.
    pub time_ms: u64,
    /// Maximum peak memory over the tests.
    pub memory_kib: u64,
    /// The compile step.
    pub compile: CompileInfo,
    /// Every test in judging order (empty on `CE` or a compile-time `SE`).
    pub tests: Vec<TestResult>,
    /// Why the submission got `SE` when the cause is not a single test's (`None` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Set when some run was not fully isolated (degraded mode allowed by config).
    #[serde(default)]
    pub degraded: bool,
    /// Set when the judge itself failed (the sandbox could not set a box up, the helper
    /// died, a descriptor limit, a task panicked): the verdict is then not the submission's,
    /// and the worker judges it again (a bounded number of times). Not part of the JSON.
    #[serde(skip)]
    pub judge_failure: Option<String>,
    /// The hash of the problem data the tests ran against ([`crate::problem::DataHash`]),
    /// stored with the result so nodes judging with other data show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_hash: Option<String>,
}

impl JudgeReport {
    /// A report from the tests that ran after a successful compile.
    pub fn from_tests(
        problem: &str,
        language: &str,
        compile: CompileInfo,
        tests: Vec<TestResult>,
        degraded: bool,
    ) -> JudgeReport {
        let agg = aggregate(tests.iter().map(|t| (t.verdict, t.time_ms, t.memory_kib)));
        let message = tests
            .is_empty()
            .then(|| "the problem has no tests".to_string());
        JudgeReport {
            problem: problem.to_string(),
            language: language.to_string(),
            verdict: agg.verdict,
            score: agg.score,
            points: None,
            groups: Vec::new(),
            time_ms: agg.time_ms,
            memory_kib: agg.memory_kib,
            compile,
            tests,
            message,
            degraded,
            judge_failure: None,
            data_hash: None,
        }
    }

    /// A report for a submission that never reached its tests (`CE`, or `SE` with a cause).
    pub fn without_tests(
        problem: &str,
        language: &str,
        verdict: Verdict,
        compile: CompileInfo,
        message: Option<String>,
    ) -> JudgeReport {
        JudgeReport {
            problem: problem.to_string(),
            language: language.to_string(),
            verdict,
            score: 0,
            points: None,
            groups: Vec::new(),
            time_ms: 0,
            memory_kib: 0,
            compile,
            tests: Vec::new(),
            message,
            degraded: false,
            judge_failure: None,
            data_hash: None,
        }
    }

    /// This report, marked as the judge's failure with `cause` (see
    /// [`JudgeReport::judge_failure`]).
    pub fn failed_judge(mut self, cause: String) -> JudgeReport {
        self.judge_failure = Some(cause);
        self
    }
}

/// Cuts a compiler log to [`MAX_COMPILE_LOG_BYTES`] on a character boundary, saying so.
pub fn truncate_log(log: &str) -> String {
    if log.len() <= MAX_COMPILE_LOG_BYTES {
        return log.to_string();
    }
    let mut end = MAX_COMPILE_LOG_BYTES;
    while !log.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n[... compiler output truncated: {} of {} bytes shown]",
        &log[..end],
        end,
        log.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_logs_are_cut_on_a_char_boundary() {
        let log = "é".repeat(MAX_COMPILE_LOG_BYTES);
        let cut = truncate_log(&log);
        assert!(cut.len() < MAX_COMPILE_LOG_BYTES + 100);
        assert!(cut.contains("truncated"));
        assert_eq!(truncate_log("short"), "short");
    }

    #[test]
    fn json_has_the_design_fields() {
        let report = JudgeReport::from_tests(
            "sudoku",
            "c",
            CompileInfo {
                ok: true,
                log: String::new(),
                cached: false,
            },
            vec![TestResult {
                name: "sample/1".into(),
                verdict: Verdict::RE,
                time_ms: 3,
                wall_ms: 4,
                memory_kib: 1000,
                exit_code: Some(3),
                signal: None,
                message: Some("exit code 3".into()),
                stderr_tail: None,
                team_message: None,
                score: None,
            }],
            false,
        );
        let json = serde_json::to_value(&report).unwrap();
        for key in [
            "problem",
            "language",
            "verdict",
            "score",
            "time_ms",
            "memory_kib",
            "compile",
            "tests",
        ] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
        let test = &json["tests"][0];
        for key in [
            "name",
            "verdict",
            "time_ms",
            "wall_ms",
            "memory_kib",
            "exit_code",
            "signal",
            "message",
        ] {
            assert!(test.get(key).is_some(), "missing tests[].{key}");
        }
        assert_eq!(json["verdict"], "RE");
        assert_eq!(json["compile"]["ok"], true);
    }
}
