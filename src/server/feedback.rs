//! What a reader of the API may see of a submission's results.
//!
//! A checker message quotes the answer and the program's output (`expected 2876, found 0`), an
//! exit code or a signal is whatever the program chose, and a system error names host paths.
//! Shown on secret tests, they let a program carry secret inputs out and a lookup table collect
//! the answers. So a contestant sees, on a secret test, only its verdict, time and memory and a
//! fixed phrase per verdict, and the test by its number in its group, never by its file name
//! (`secret/4`, not `secret/04-answer-1`: a file name can carry the answer); on a sample
//! (public anyway) the full message and name, except a system error's. The same holds for a
//! run-time error's stderr tail: a program can print its secret input there. An output
//! validator's team message (`teammessage.txt`) is the package's word to the contestant and
//! is shown on every test, kept apart from the jury's message; not on a system error. The database keeps everything; the host and admins read it whole. Which view a
//! caller gets is decided by [`crate::accounts::access::feedback`] (admins: full; contestants:
//! redacted; the open single-user mode: `[server] feedback`).

pub use crate::config::Feedback;
use crate::judge::{RunResult, TestResult, Verdict};
use crate::store::Submission;

/// Tests whose name starts with this are the package's public samples.
const SAMPLE_PREFIX: &str = "sample/";

/// `submission` as `view` may see it.
pub fn redact(view: Feedback, mut submission: Submission) -> Submission {
    if view == Feedback::Full {
        return submission;
    }
    let mut numbers: Vec<(String, usize)> = Vec::new();
    for test in &mut submission.tests {
        redact_test(test);
        if !is_sample(&test.name) {
            test.name = numbered(&test.name, &mut numbers);
        }
    }
    if submission.message.is_some() {
        submission.message = Some(match submission.verdict {
            Some(Verdict::SE) | None => SYSTEM_ERROR.to_string(),
            Some(v) => phrase(v).unwrap_or(SYSTEM_ERROR).to_string(),
        });
    }
    submission
}

/// A custom run as `view` may see it: its output is the submitter's own, but a system error's
/// cause names host paths, so a contestant reads the fixed phrase (the daemon logs the cause;
/// runs are not stored).
pub fn redact_run(view: Feedback, mut run: RunResult) -> RunResult {
    if view == Feedback::Contestant && run.message.is_some() {
        run.message = Some(SYSTEM_ERROR.to_string());
    }
    run
}

/// What a contestant reads for a system error instead of its cause.
const SYSTEM_ERROR: &str =
    "system error: the judge failed here, not the program; the host has the details";

/// A secret test's name as a contestant reads it: its group and its number in the group
/// (`secret/04-answer-1` is `secret/4` when it is the group's fourth), never its file name,
/// which may say what it tests or even its answer (binary-sudoku's `04-answer-1`). The group
/// (the folder, an IOI subtask's name) stays. `seen` counts the tests of each group so far,
/// in judging order.
fn numbered(name: &str, seen: &mut Vec<(String, usize)>) -> String {
    let group = name.rsplit_once('/').map_or("", |(group, _)| group);
    let n = match seen.iter_mut().find(|(g, _)| g == group) {
        Some((_, n)) => {
            *n += 1;
            *n
        }
        None => {
            seen.push((group.to_string(), 1));
            1
        }
    };
    if group.is_empty() {
        n.to_string()
    } else {
        format!("{group}/{n}")
    }
}

/// Whether a test is one of the package's public samples (its input and answer may be shown).
pub fn is_sample(test_name: &str) -> bool {
    test_name.starts_with(SAMPLE_PREFIX)
}

fn redact_test(test: &mut TestResult) {
    let sample = is_sample(&test.name);
    if !sample {
        // What the program wrote on a secret test can be the test's input.
        test.stderr_tail = None;
    }
    if test.verdict == Verdict::SE {
        test.team_message = None;
    }
    if sample && test.verdict != Verdict::SE {
        return;
    }
    test.message = match test.verdict {
        Verdict::SE => Some(SYSTEM_ERROR.to_string()),
        v => phrase(v).map(str::to_string),
    };
    if !sample {
        test.exit_code = None;
        test.signal = None;
    }
}

/// The fixed phrase a contestant reads for a verdict on a secret test (`None` for `AC`).
pub fn phrase(verdict: Verdict) -> Option<&'static str> {
    Some(match verdict {
        Verdict::AC => return None,
        Verdict::WA => "wrong answer",
        Verdict::TLE => "time limit exceeded",
        Verdict::MLE => "memory limit exceeded",
        Verdict::OLE => "output limit exceeded",
        Verdict::RE => "runtime error",
        Verdict::CE => "compile error",
        Verdict::SE => SYSTEM_ERROR,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Status;

    fn test(name: &str, verdict: Verdict, message: &str) -> TestResult {
        TestResult {
            name: name.into(),
            verdict,
            time_ms: 5,
            wall_ms: 6,
            memory_kib: 700,
            exit_code: Some(42),
            signal: None,
            message: Some(message.into()),
            stderr_tail: Some(format!("{name}: Traceback ... ValueError")),
            team_message: Some(format!("{name}: try a smaller grid")),
            score: None,
        }
    }

    fn submission(tests: Vec<TestResult>, message: Option<&str>) -> Submission {
        Submission {
            id: 1,
            problem: "target-sudoku".into(),
            language: "c".into(),
            status: Status::Done,
            verdict: Some(Verdict::WA),
            score: Some(0),
            time_ms: Some(5),
            memory_kib: Some(700),
            compile: None,
            message: message.map(str::to_string),
            degraded: false,
            created_at: String::new(),
            finished_at: None,
            tests,
            groups: Vec::new(),
            source: None,
            owner: None,
            user: None,
            contest: None,
            label: None,
            results_hidden: false,
            submitted_data_hash: None,
            judged_data_hash: None,
        }
    }

    #[test]
    fn secret_tests_keep_only_verdict_time_and_memory() {
        let s = submission(
            vec![
                test("sample/1", Verdict::WA, "expected 17, found 0"),
                test("secret/01", Verdict::WA, "expected 2876, found 0"),
                test("secret/02", Verdict::RE, "exit code 42"),
                test(
                    "sample/2",
                    Verdict::SE,
                    "cannot read /srv/problems/x/data/sample/2.ans",
                ),
            ],
            None,
        );
        let r = redact(Feedback::Contestant, s.clone());
        assert_eq!(r.tests[0], s.tests[0], "samples keep everything");
        assert_eq!(r.tests[1].name, "secret/1");
        assert_eq!(r.tests[2].name, "secret/2");
        assert_eq!(r.tests[3].name, "sample/2");
        assert_eq!(r.tests[1].message.as_deref(), Some("wrong answer"));
        assert_eq!(r.tests[1].exit_code, None);
        assert_eq!(
            (r.tests[1].time_ms, r.tests[1].memory_kib),
            (5, 700),
            "time and memory stay"
        );
        assert_eq!(r.tests[2].message.as_deref(), Some("runtime error"));
        assert_eq!(r.tests[2].exit_code, None);
        assert_eq!(
            r.tests[1].stderr_tail, None,
            "stderr can carry a secret input"
        );
        assert_eq!(r.tests[2].stderr_tail, None);
        assert!(r.tests[0].stderr_tail.is_some(), "a sample's is shown");
        assert!(!r.tests[3].message.as_deref().unwrap().contains("/srv"));
        assert_eq!(
            r.tests[1].team_message.as_deref(),
            Some("secret/01: try a smaller grid"),
            "the team message is meant for the contestant, secret tests included"
        );
        assert_eq!(r.tests[3].team_message, None, "not on a system error");
        assert_eq!(redact(Feedback::Full, s.clone()).tests, s.tests);
    }

    #[test]
    fn contestants_read_secret_tests_by_number_and_the_jury_by_file_name() {
        let s = submission(
            vec![
                test("sample/1", Verdict::AC, ""),
                test("secret/04-answer-1", Verdict::AC, ""),
                test("secret/22-answer-9", Verdict::WA, "expected 9, found 1"),
                test("secret/subtask2/01-big", Verdict::AC, ""),
                test("secret/subtask2/02-answer-3", Verdict::AC, ""),
            ],
            None,
        );
        let names =
            |s: &Submission| -> Vec<String> { s.tests.iter().map(|t| t.name.clone()).collect() };
        assert_eq!(
            names(&redact(Feedback::Contestant, s.clone())),
            [
                "sample/1",
                "secret/1",
                "secret/2",
                "secret/subtask2/1",
                "secret/subtask2/2"
            ]
        );
        assert_eq!(names(&redact(Feedback::Full, s.clone())), names(&s));
    }

    #[test]
    fn a_run_keeps_its_output_but_not_a_system_error_s_cause() {
        let mut run = crate::judge::RunResult::compile_error("main.c:1: error");
        run.status = "system_error".into();
        run.message = Some("sandbox: cannot mount /srv/boxes/7".into());
        let shown = redact_run(Feedback::Contestant, run.clone());
        assert_eq!(shown.message.as_deref(), Some(SYSTEM_ERROR));
        assert_eq!(shown.compile, run.compile);
        assert_eq!(redact_run(Feedback::Full, run.clone()), run);
    }

    #[test]
    fn a_submission_level_cause_becomes_a_phrase() {
        let mut s = submission(vec![], Some("compile failed in the sandbox: /tmp/x: EIO"));
        s.verdict = Some(Verdict::SE);
        let r = redact(Feedback::Contestant, s);
        assert_eq!(r.message.as_deref(), Some(SYSTEM_ERROR));
    }
}
