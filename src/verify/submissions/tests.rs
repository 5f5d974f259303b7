//! Unit tests: folders, margins, discovery on a temporary package, and the whole judging and
//! evaluation on a fake executor whose "programs" are keywords.

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::checkers::CheckOutcome;
use crate::config::Config;
use crate::judge::{CacheUse, Compilation, Executor, ExecutorError, Judge, JudgeSettings, Verdict};
use crate::problem::{OutputValidator, Problem, TestCase};
use crate::sandbox::{Limits, RunReport, RunStatus};

use super::*;

/// Programs are their source text: `echo`, `wrong`, `crash`, `slow N` (N ms of CPU per test,
/// a time-limit kill past the limit), `wrong on b` (right except on the input `b`).
struct Fake;

fn report(status: RunStatus, time_ms: u64, stdout: &[u8]) -> RunReport {
    RunReport {
        status,
        exit_code: (status == RunStatus::RuntimeError).then_some(1),
        signal: None,
        time_ms,
        wall_ms: time_ms,
        memory_kib: 1000,
        stdout: stdout.to_vec(),
        stderr: Vec::new(),
        degraded: false,
    }
}

impl Executor for Fake {
    type Program = String;

    fn compile(&self, _: &str, source: &[u8]) -> Result<Compilation<String>, ExecutorError> {
        let text = String::from_utf8_lossy(source).trim().to_string();
        if text == "syntax error" {
            return Ok(Compilation::Failed {
                log: "main.c:1:1: error: expected ';'".into(),
                cache: CacheUse::Off,
            });
        }
        Ok(Compilation::Ready {
            program: text,
            log: String::new(),
            cache: CacheUse::Off,
        })
    }

    fn run(
        &self,
        program: &String,
        stdin: &Path,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let input = std::fs::read(stdin).map_err(|e| ExecutorError(e.to_string()))?;
        if let Some(ms) = program.strip_prefix("slow ") {
            let ms: u64 = ms.parse().map_err(|_| ExecutorError("bad fake".into()))?;
            return Ok(if ms > limits.cpu_time_ms {
                report(RunStatus::TimeLimit, limits.cpu_time_ms, b"")
            } else {
                report(RunStatus::Ok, ms, &input)
            });
        }
        Ok(match program.as_str() {
            "echo" => report(RunStatus::Ok, 10, &input),
            "crash" => report(RunStatus::RuntimeError, 5, b""),
            "wrong on b" if input.as_slice() == b"b" => report(RunStatus::Ok, 10, b"x"),
            "wrong on b" => report(RunStatus::Ok, 10, &input),
            _ => report(RunStatus::Ok, 10, b"nonsense"),
        })
    }
}

fn fake_check(
    _: &OutputValidator,
    _: &[String],
    _: &[u8],
    output: &[u8],
    answer: &[u8],
) -> CheckOutcome {
    if output.trim_ascii() == answer.trim_ascii() {
        CheckOutcome::Accepted
    } else {
        CheckOutcome::WrongAnswer("differs".into())
    }
}

fn judge() -> Judge<Fake> {
    let settings = JudgeSettings {
        wall_factor: 3,
        max_processes: 8,
    };
    Judge::new(Arc::new(Fake), settings).with_checker(fake_check)
}

/// A package in `dir` with tests a, b, c (answer = input) and the given solutions
/// (`folder/file`, source).
fn package(dir: &Path, solutions: &[(&str, &str)]) -> Problem {
    let data = dir.join("data/secret");
    std::fs::create_dir_all(&data).unwrap();
    let tests = ["a", "b", "c"]
        .iter()
        .map(|name| {
            let (input, answer) = (
                data.join(format!("{name}.in")),
                data.join(format!("{name}.ans")),
            );
            std::fs::write(&input, name).unwrap();
            std::fs::write(&answer, name).unwrap();
            TestCase {
                name: format!("secret/{name}"),
                input,
                answer,
                validator_args: Vec::new(),
            }
        })
        .collect();
    for (file, source) in solutions {
        let path = dir.join("submissions").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, source).unwrap();
    }
    crate::problem::test_problem(dir, tests)
}

fn verify(problem: Problem, judges: usize) -> Summary {
    let config = Config::embedded().unwrap();
    let problem = Arc::new(problem);
    let jobs = discover(&problem, &config)
        .unwrap()
        .into_iter()
        .map(|solution| Job {
            problem: Arc::clone(&problem),
            solution,
        })
        .collect();
    let seen = Arc::new(Mutex::new(0usize));
    let counter = Arc::clone(&seen);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let outcomes = runtime.block_on(judge_all(
        (0..judges).map(|_| judge()).collect(),
        jobs,
        Margins::default(),
        Arc::new(move |_: &Outcome| *counter.lock().unwrap() += 1),
    ));
    assert_eq!(
        *seen.lock().unwrap(),
        outcomes.len(),
        "progress saw every solution"
    );
    let package = diagnose(&problem, &outcomes);
    Summary::new(Margins::default(), outcomes, package)
}

fn outcome<'a>(summary: &'a Summary, name: &str) -> &'a Outcome {
    summary
        .submissions
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no outcome for {name}"))
}

#[test]
fn folders_map_to_verdicts_and_back() {
    for e in Expectation::ALL {
        assert_eq!(Expectation::from_folder(e.folder()), Some(e));
    }
    assert_eq!(Expectation::TimeLimitExceeded.verdict(), Verdict::TLE);
    assert_eq!(Expectation::from_folder("accepted "), None);
    assert!(!Expectation::Accepted.stops_at_first_failure());
    assert!(Expectation::WrongAnswer.stops_at_first_failure());
}

#[test]
fn margins_are_half_the_limit_and_one_and_a_half_times_it() {
    let m = Margins::default();
    assert_eq!(m.accepted_max_ms(1000), 500);
    assert_eq!(
        m.judged_limit_ms(Expectation::TimeLimitExceeded, 1000),
        1500
    );
    assert_eq!(m.judged_limit_ms(Expectation::TimeLimitExceeded, 333), 500);
    assert_eq!(m.judged_limit_ms(Expectation::Accepted, 1000), 1000);
    assert_eq!(m.judged_limit_ms(Expectation::RunTimeError, 1000), 1000);
}

#[test]
fn discovery_lists_solutions_by_folder_with_languages() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(
        dir.path(),
        &[
            ("wrong_answer/greedy.cpp", "wrong"),
            ("accepted/z.py", "echo"),
            ("accepted/a.rs", "echo"),
            ("accepted/poj.cpp98.cpp", "echo"),
            ("accepted/b.v2.py", "echo"),
            ("run_time_error/.hidden", "x"),
        ],
    );
    let found = discover(&problem, &Config::embedded().unwrap()).unwrap();
    let names: Vec<(&str, &str)> = found
        .iter()
        .map(|s| (s.name.as_str(), s.language.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("accepted/a.rs", "rust"),
            ("accepted/b.v2.py", "python"),
            ("accepted/poj.cpp98.cpp", "cpp98"),
            ("accepted/z.py", "python"),
            ("wrong_answer/greedy.cpp", "cpp17")
        ]
    );
}

#[test]
fn discovery_rejects_unknown_folders_and_extensions_naming_the_path() {
    let config = Config::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[("acepted/a.c", "echo")]);
    let err = discover(&problem, &config).unwrap_err().to_string();
    assert!(
        err.contains("acepted") && err.contains("unknown folder"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[("accepted/a.kt", "echo")]);
    let err = discover(&problem, &config).unwrap_err().to_string();
    assert!(err.contains("a.kt") && err.contains("no language"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[]);
    assert!(discover(&problem, &config).unwrap().is_empty());
}

#[test]
fn a_symlinked_solution_takes_its_links_folder_and_a_dangling_one_is_an_error() {
    let config = Config::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[("accepted/fast.c", "echo")]);
    let tle = problem.dir.join("submissions/time_limit_exceeded");
    std::fs::create_dir_all(&tle).unwrap();
    std::os::unix::fs::symlink("../accepted/fast.c", tle.join("fast.c")).unwrap();
    let found = discover(&problem, &config).unwrap();
    let names: Vec<(&str, Expectation)> = found
        .iter()
        .map(|s| (s.name.as_str(), s.expected))
        .collect();
    assert_eq!(
        names,
        [
            ("accepted/fast.c", Expectation::Accepted),
            ("time_limit_exceeded/fast.c", Expectation::TimeLimitExceeded)
        ]
    );

    std::fs::remove_file(problem.dir.join("submissions/accepted/fast.c")).unwrap();
    let err = discover(&problem, &config).unwrap_err().to_string();
    assert!(
        err.contains("time_limit_exceeded/fast.c") && err.contains("symlink to no file"),
        "{err}"
    );
}

#[test]
fn every_promise_kept_passes() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(
        dir.path(),
        &[
            ("accepted/echo.c", "echo"),
            ("accepted/fast_enough.py", "slow 500"),
            ("wrong_answer/nonsense.c", "wrong"),
            ("time_limit_exceeded/slow.c", "slow 2000"),
            ("run_time_error/crash.rs", "crash"),
        ],
    );
    let summary = verify(problem, 2);
    assert!(summary.ok, "{}", render_table(&summary));
    let tle = outcome(&summary, "time_limit_exceeded/slow.c");
    assert_eq!(
        (tle.got, tle.judged_limit_ms, tle.time_limit_ms),
        (Verdict::TLE, 1500, 1000)
    );
    assert_eq!(tle.tests_run, 1, "judging stops at the first failure");
    assert_eq!(outcome(&summary, "accepted/echo.c").tests_run, 3);
    let table = render_table(&summary);
    assert!(table.contains("p/time_limit_exceeded/slow.c"), "{table}");
    // `tests run` (1 of 3), never a bare `tests` that `grade` would read as passed.
    assert!(
        table.lines().next().unwrap().contains("  tests run  "),
        "{table}"
    );
    assert!(table.contains("   1/3  "), "{table}");
    assert!(
        table.contains("5 solutions: 5 as expected, 0 not"),
        "{table}"
    );
}

#[test]
fn a_wrong_solution_in_accepted_fails_naming_the_file_and_test() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[("accepted/sloppy.c", "wrong on b")]);
    let summary = verify(problem, 1);
    assert!(!summary.ok);
    let o = outcome(&summary, "accepted/sloppy.c");
    assert_eq!(o.got, Verdict::WA);
    assert_eq!(o.failed_test.as_deref(), Some("secret/b"));
    let msg = &o.failures[0];
    assert!(
        msg.contains("accepted/sloppy.c") && msg.contains("expected AC, got WA on secret/b"),
        "{msg}"
    );
    assert!(msg.contains("b.ans"), "{msg}");
    assert_eq!(o.tests_run, 3, "accepted solutions run every test");
}

#[test]
fn an_accepted_solution_over_half_the_limit_fails() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[("accepted/heavy.cpp", "slow 700")]);
    let summary = verify(problem, 1);
    let o = outcome(&summary, "accepted/heavy.cpp");
    assert_eq!(o.got, Verdict::AC);
    assert!(!o.ok);
    assert!(
        o.failures[0].contains("700 ms") && o.failures[0].contains("at most 500 ms"),
        "{:?}",
        o.failures
    );
}

#[test]
fn a_time_limit_solution_passing_at_one_and_a_half_times_the_limit_fails() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(
        dir.path(),
        &[
            ("time_limit_exceeded/barely.c", "slow 1200"),
            ("time_limit_exceeded/really.c", "slow 1600"),
        ],
    );
    let summary = verify(problem, 2);
    let barely = outcome(&summary, "time_limit_exceeded/barely.c");
    assert_eq!(barely.got, Verdict::AC);
    assert!(!barely.ok);
    assert!(
        barely.failures[0].contains("stretched to 1500 ms"),
        "{:?}",
        barely.failures
    );
    assert!(outcome(&summary, "time_limit_exceeded/really.c").ok);
}

#[test]
fn wrong_verdicts_and_uncaught_mistakes_fail() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(
        dir.path(),
        &[
            ("wrong_answer/actually_right.c", "echo"),
            ("run_time_error/no_crash.py", "wrong"),
            ("accepted/broken.c", "syntax error"),
        ],
    );
    let summary = verify(problem, 2);
    assert!(!summary.ok);
    let right = outcome(&summary, "wrong_answer/actually_right.c");
    assert!(
        right.failures[0].contains("passes every test"),
        "{:?}",
        right.failures
    );
    let no_crash = outcome(&summary, "run_time_error/no_crash.py");
    assert!(
        no_crash.failures[0].contains("expected RE, got WA on secret/a"),
        "{:?}",
        no_crash.failures
    );
    let broken = outcome(&summary, "accepted/broken.c");
    assert_eq!(broken.got, Verdict::CE);
    assert!(
        broken.failures[0].contains("compile error: main.c:1:1"),
        "{:?}",
        broken.failures
    );
}

#[test]
fn a_corrupted_answer_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(
        dir.path(),
        &[("accepted/one.c", "echo"), ("accepted/two.py", "echo")],
    );
    std::fs::write(dir.path().join("data/secret/c.ans"), "corrupted").unwrap();
    let summary = verify(problem, 2);
    assert!(!summary.ok);
    assert_eq!(
        summary.package_failures.len(),
        1,
        "{:?}",
        summary.package_failures
    );
    assert!(
        summary.package_failures[0].contains("c.ans"),
        "{:?}",
        summary.package_failures
    );
    assert!(summary.package_failures[0].contains("every accepted solution gets WA on secret/c"));
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(json["submissions"][0]["got"], "WA");
    assert_eq!(json["submissions"][0]["expected"], "accepted");
}

#[test]
fn no_judge_means_system_errors_not_lost_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let problem = package(dir.path(), &[("accepted/a.c", "echo")]);
    let summary = verify(problem, 0);
    assert_eq!(summary.submissions.len(), 1);
    assert_eq!(summary.submissions[0].got, Verdict::SE);
    assert!(!summary.ok);
}
