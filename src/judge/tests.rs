//! Unit tests of the pipeline against a fake executor and a fake checker.

use std::path::Path;
use std::sync::Arc;

use crate::checkers::CheckOutcome;
use crate::problem::{OutputValidator, Problem, TestCase};
use crate::sandbox::{Limits, RunReport, RunStatus};

use super::*;

/// A fake "program" is its source text: a behaviour keyed on the test input (also used by the
/// tests of the modules that judge many sources).
pub(crate) struct Fake;

fn report(status: RunStatus, stdout: &[u8]) -> RunReport {
    RunReport {
        status,
        exit_code: (status == RunStatus::RuntimeError).then_some(3),
        signal: None,
        time_ms: stdout.len() as u64,
        wall_ms: 1,
        memory_kib: 100,
        stdout: stdout.to_vec(),
        stderr: Vec::new(),
        degraded: false,
    }
}

impl Executor for Fake {
    type Program = String;

    fn compile(
        &self,
        _language: &str,
        source: &[u8],
    ) -> Result<Compilation<String>, ExecutorError> {
        match source {
            b"syntax error" => Ok(Compilation::Failed {
                log: "main.c:1: error".into(),
                cache: CacheUse::Off,
            }),
            b"broken sandbox" => Err(ExecutorError("cgroup vanished".into())),
            other => Ok(Compilation::Ready {
                program: String::from_utf8_lossy(other).into_owned(),
                log: String::new(),
                cache: CacheUse::Off,
            }),
        }
    }

    fn run(
        &self,
        program: &String,
        stdin: &Path,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        assert_eq!(limits.cpu_time_ms, 1000);
        assert_eq!(limits.memory_bytes, 64 * 1024 * 1024);
        assert_eq!(limits.wall_time_ms, 3000);
        let input = std::fs::read(stdin).map_err(|e| ExecutorError(e.to_string()))?;
        Ok(match (program.as_str(), input.as_slice()) {
            ("echo", i) => report(RunStatus::Ok, i),
            ("slow on b", b"b") => report(RunStatus::TimeLimit, b""),
            ("slow on b", i) => report(RunStatus::Ok, i),
            ("crash", _) => report(RunStatus::RuntimeError, b""),
            ("sandbox dies on c", b"c") => return Err(ExecutorError("box vanished".into())),
            ("sandbox dies on c", i) => report(RunStatus::Ok, i),
            _ => report(RunStatus::Ok, b"nonsense"),
        })
    }
}

pub(crate) fn fake_check(
    _: &OutputValidator,
    _: &[String],
    _input: &[u8],
    output: &[u8],
    answer: &[u8],
) -> CheckOutcome {
    if answer == b"!" {
        CheckOutcome::JudgeError("answer file is malformed".into())
    } else if output.trim_ascii() == answer.trim_ascii() {
        CheckOutcome::Accepted
    } else {
        CheckOutcome::WrongAnswer("differs".into())
    }
}

pub(crate) fn problem(dir: &Path, tests: &[(&str, &str, &str)]) -> Problem {
    let tests = tests
        .iter()
        .map(|(name, input, answer)| {
            let stem = name.replace('/', "_");
            let (i, a) = (
                dir.join(format!("{stem}.in")),
                dir.join(format!("{stem}.ans")),
            );
            std::fs::write(&i, input).unwrap();
            std::fs::write(&a, answer).unwrap();
            TestCase {
                name: name.to_string(),
                input: i,
                answer: a,
                validator_args: Vec::new(),
            }
        })
        .collect();
    crate::problem::test_problem(dir, tests)
}

pub(crate) fn judge() -> Judge<Fake> {
    let settings = JudgeSettings {
        wall_factor: 3,
        max_processes: 8,
    };
    Judge::new(Arc::new(Fake), settings).with_checker(fake_check)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn run(problem: &Problem, source: &str) -> JudgeReport {
    runtime().block_on(judge().judge(problem, "python", source.as_bytes().to_vec()))
}

const ABC: &[(&str, &str, &str)] = &[
    ("sample/a", "a", "a"),
    ("secret/b", "b", "b"),
    ("secret/c", "c", "c"),
];

#[test]
fn correct_program_is_accepted_on_every_test() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&problem(dir.path(), ABC), "echo");
    assert_eq!(r.verdict, Verdict::AC);
    assert_eq!(r.score, 100);
    assert_eq!(r.tests.len(), 3);
    assert!(r
        .tests
        .iter()
        .all(|t| t.verdict == Verdict::AC && t.message.is_none()));
}

#[test]
fn every_test_runs_after_a_failure_and_the_first_failure_wins() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&problem(dir.path(), ABC), "slow on b");
    let verdicts: Vec<_> = r.tests.iter().map(|t| t.verdict).collect();
    assert_eq!(verdicts, [Verdict::AC, Verdict::TLE, Verdict::AC]);
    assert_eq!(r.verdict, Verdict::TLE);
    assert_eq!(r.score, 66);
}

#[test]
fn stop_at_first_failure_skips_the_tests_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(dir.path(), ABC);
    let rt = runtime();
    let lazy = judge().with_mode(JudgeMode::StopAtFirstFailure);
    let r = rt.block_on(lazy.judge(&p, "python", b"slow on b".to_vec()));
    let verdicts: Vec<_> = r.tests.iter().map(|t| t.verdict).collect();
    assert_eq!(verdicts, [Verdict::AC, Verdict::TLE], "test c never ran");
    assert_eq!(r.verdict, Verdict::TLE);
    assert_eq!(r.score, 33, "the skipped test counts as not passed");
    let r = rt.block_on(lazy.judge(&p, "python", b"echo".to_vec()));
    assert_eq!((r.verdict, r.score, r.tests.len()), (Verdict::AC, 100, 3));
}

#[test]
fn wrong_output_is_wa_with_the_checker_message() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&problem(dir.path(), ABC), "garbage");
    assert_eq!(r.verdict, Verdict::WA);
    assert_eq!(r.score, 0);
    assert_eq!(r.tests[0].message.as_deref(), Some("differs"));
    assert_eq!(r.time_ms, 8, "time is the maximum over tests");
}

#[test]
fn runtime_error_records_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&problem(dir.path(), ABC), "crash");
    assert_eq!(r.verdict, Verdict::RE);
    assert_eq!(r.tests[0].exit_code, Some(3));
    assert_eq!(r.tests[0].message.as_deref(), Some("exit code 3"));
}

#[test]
fn compile_error_carries_the_log_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&problem(dir.path(), ABC), "syntax error");
    assert_eq!(r.verdict, Verdict::CE);
    assert!(!r.compile.ok);
    assert_eq!(r.compile.log, "main.c:1: error");
    assert!(r.tests.is_empty());
}

#[test]
fn system_errors_name_their_cause() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&problem(dir.path(), ABC), "broken sandbox");
    assert_eq!(r.verdict, Verdict::SE);
    assert!(r
        .message
        .as_deref()
        .unwrap_or("")
        .contains("cgroup vanished"));

    let r = run(&problem(dir.path(), ABC), "sandbox dies on c");
    assert_eq!(r.verdict, Verdict::SE);
    assert!(r.tests[2]
        .message
        .as_deref()
        .unwrap_or("")
        .contains("box vanished"));
    assert_eq!(r.score, 66);

    let bad = problem(dir.path(), &[("sample/x", "x", "!")]);
    let r = run(&bad, "echo");
    assert_eq!(r.verdict, Verdict::SE);
    assert!(r.tests[0]
        .message
        .as_deref()
        .unwrap_or("")
        .contains("malformed"));

    let mut missing = problem(dir.path(), &[("sample/y", "y", "y")]);
    missing.tests[0].answer = dir.path().join("nope.ans");
    let r = run(&missing, "echo");
    assert_eq!(r.verdict, Verdict::SE);
    assert!(r.tests[0]
        .message
        .as_deref()
        .unwrap_or("")
        .contains("nope.ans"));
}

#[test]
fn stop_request_interrupts_between_tests() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(dir.path(), ABC);
    let rt = runtime();
    let j = judge();
    let out = rt.block_on(async {
        match j.compile(&p, "python", b"echo".to_vec()).await {
            Compiled::Ready { program, compile } => {
                j.run_tests(&p, "python", program, compile, || true).await
            }
            Compiled::Done(_) => panic!("fake compile must succeed"),
        }
    });
    assert_eq!(out, Err(Interrupted));
}

#[test]
fn a_kattis_packages_time_safety_margin_sets_the_wall_clock_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("margin");
    let write = |path: &str, text: &str| {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "problem.yaml",
        "name: Margin\nlimits:\n  time_safety_margin: 4\n",
    );
    write(".timelimit", "1\n");
    write("problem_statement/problem.en.md", "x\n");
    write("data/secret/1.in", "1\n");
    write("data/secret/1.ans", "1\n");
    let kattis = crate::problem::load(&dir).unwrap();
    let settings = JudgeSettings {
        wall_factor: 3,
        max_processes: 8,
    };
    let limits = settings.test_limits(&kattis);
    assert_eq!(limits.cpu_time_ms, 1000);
    assert_eq!(
        limits.wall_time_ms, 4000,
        "the package's margin, above wall_factor"
    );
    // The margin never lowers the host's own rule, and a native package keeps it.
    write("problem.yaml", "name: Margin\n");
    let default_margin = crate::problem::load(&dir).unwrap();
    assert_eq!(settings.test_limits(&default_margin).wall_time_ms, 3000);
    let native = problem(tmp.path(), &[("1", "1\n", "1\n")]);
    assert_eq!(
        settings.test_limits(&native).wall_time_ms,
        native.time_limit_ms * 3
    );
}

/// `ABC` as a scoring problem: one group of the three tests, `sum` of accepted tests,
/// `worst_error`, `on_reject: continue`; `any` makes it `accept_if_any_accepted`.
fn scoring_abc(dir: &Path, any: bool) -> Problem {
    use crate::problem::kattis::scoring::{Aggregation, Group, Item, Rules, Scoring, VerdictRule};
    use crate::problem::kattis::{KattisInfo, TimeLimitSource, Timing};
    let mut p = problem(dir, ABC);
    let rules = Rules {
        accept_score: 1.0,
        reject_score: 0.0,
        range: (0.0, 3.0),
        aggregation: Aggregation::Sum,
        verdicts: VerdictRule::WorstError,
        accept_if_any_accepted: any,
        ignore_sample: false,
        on_reject_break: false,
    };
    p.kattis = Some(KattisInfo {
        version: "2023-07-draft",
        timing: Timing::Multipliers {
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
            time_resolution: 1.0,
        },
        time_limit_source: TimeLimitSource::ProblemYaml,
        statement_pdf: None,
        input_validators: Vec::new(),
        scoring: Some(Scoring {
            root: Group {
                name: String::new(),
                rules,
                items: (0..3).map(Item::Test).collect(),
            },
            scored: String::new(),
        }),
    });
    p
}

#[test]
fn an_icpc_scoring_problem_stops_at_a_rejection_nothing_later_outweighs() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let lazy = judge().with_mode(JudgeMode::StopAtFirstFailure);
    let p = scoring_abc(dir.path(), false);
    let r = rt.block_on(lazy.judge(&p, "python", b"slow on b".to_vec()));
    let verdicts: Vec<_> = r.tests.iter().map(|t| t.verdict).collect();
    assert_eq!(verdicts, [Verdict::AC, Verdict::TLE], "test c never ran");
    assert_eq!(r.verdict, Verdict::TLE);
    // Every test still runs for the score outside icpc ...
    let r = rt.block_on(judge().judge(&p, "python", b"slow on b".to_vec()));
    assert_eq!((r.tests.len(), r.verdict), (3, Verdict::TLE));
    // ... and in icpc when a later acceptance may still make the verdict AC.
    let p = scoring_abc(dir.path(), true);
    let r = rt.block_on(lazy.judge(&p, "python", b"slow on b".to_vec()));
    assert_eq!((r.tests.len(), r.verdict), (3, Verdict::AC));
}
