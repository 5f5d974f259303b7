//! A package's output validator program, run on one submission output in a sandbox box of
//! its own with its own limits: the Kattis protocol (`validator input answer feedback_dir
//! [args]`, the output on stdin, 42 accepted, 43 wrong answer) or testlib's (`checker input
//! output answer`, 0 accepted, 1 and 2 wrong answer). Any other ending (a crash, a limit,
//! another exit code, a compile failure) is a judging error: never the contestant's fault.

use std::path::{Path, PathBuf};

use crate::checkers::CheckOutcome;
use crate::problem::validator::{Protocol, ValidatorProgram};
use crate::problem::TestCase;
use crate::sandbox::{Limits, RunReport, RunStatus};

use super::executor::{Compilation, Executor, ValidatorCall};

/// The Kattis protocol's exit code for an accepted output.
pub const KATTIS_ACCEPT: i32 = 42;
/// The Kattis protocol's exit code for a wrong answer.
pub const KATTIS_WRONG: i32 = 43;

/// Most bytes of a feedback file or of stderr quoted in a message.
const MAX_MESSAGE_BYTES: usize = 2000;

/// The sandbox limits of one validator call.
pub fn limits_of(v: &ValidatorProgram, max_processes: u32) -> Limits {
    Limits {
        cpu_time_ms: v.time_limit_ms,
        wall_time_ms: v.time_limit_ms.saturating_mul(2).saturating_add(1000),
        memory_bytes: v.memory_limit_mb.saturating_mul(1 << 20),
        output_bytes: v.output_limit_mb.saturating_mul(1 << 20),
        max_processes,
    }
}

/// Compiles the validator (through the executor's compile cache, so once per package and
/// machine); the error is the judging error every test then gets.
pub fn compile<E: Executor>(executor: &E, v: &ValidatorProgram) -> Result<E::Program, String> {
    match executor.compile(&v.language, &v.source) {
        Ok(Compilation::Ready { program, .. }) => Ok(program),
        Ok(Compilation::Failed { log, .. }) => Err(format!(
            "the output validator {} does not compile: {}",
            v.path.display(),
            clip(log.as_bytes())
        )),
        Err(e) => Err(format!(
            "the output validator {} could not be compiled: {e}",
            v.path.display()
        )),
    }
}

fn clip(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_MESSAGE_BYTES)]);
    text.trim().to_string()
}

fn read_clipped(path: &Path) -> String {
    std::fs::read(path).map(|b| clip(&b)).unwrap_or_default()
}

/// Runs the compiled validator `program` on `output` for `test`.
pub fn validate<E: Executor>(
    executor: &E,
    program: &E::Program,
    v: &ValidatorProgram,
    test: &TestCase,
    output: &[u8],
    max_processes: u32,
) -> CheckOutcome {
    match run(executor, program, v, test, output, max_processes) {
        Ok(outcome) => outcome,
        Err(e) => CheckOutcome::JudgeError(format!("output validator: {e}")),
    }
}

fn run<E: Executor>(
    executor: &E,
    program: &E::Program,
    v: &ValidatorProgram,
    test: &TestCase,
    output: &[u8],
    max_processes: u32,
) -> Result<CheckOutcome, String> {
    let work = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
    let output_file = work.path().join("output");
    std::fs::write(&output_file, output).map_err(|e| format!("writing the output: {e}"))?;
    let (args, files, stdin) = match v.protocol {
        Protocol::Kattis | Protocol::Interactive => {
            let (args, files) = kattis_arguments(test);
            (args, files, output_file.clone())
        }
        Protocol::Testlib => {
            let args = ["input.txt", "output.txt", "answer.txt"]
                .map(String::from)
                .to_vec();
            let files = vec![
                ("input.txt".to_string(), test.input.clone()),
                ("output.txt".to_string(), output_file.clone()),
                ("answer.txt".to_string(), test.answer.clone()),
            ];
            (args, files, work.path().join("empty"))
        }
    };
    if v.protocol == Protocol::Testlib {
        std::fs::write(&stdin, b"").map_err(|e| format!("writing stdin: {e}"))?;
    }
    let limits = limits_of(v, max_processes);
    let call = ValidatorCall {
        args,
        files,
        stdin,
        limits,
        collect: feedback_files(work.path()),
    };
    let report = executor
        .run_validator(program, &call)
        .map_err(|e| e.to_string())?;
    Ok(outcome_of(v, &limits, &report, work.path()))
}

/// The Kattis protocol's arguments (`testdata.in testdata.ans ./` and the test's own) and
/// the files they name.
pub fn kattis_arguments(test: &TestCase) -> (Vec<String>, Vec<(String, PathBuf)>) {
    let mut args: Vec<String> = ["testdata.in", "testdata.ans", "./"]
        .map(String::from)
        .to_vec();
    args.extend(test.validator_args.iter().cloned());
    let files = vec![
        ("testdata.in".to_string(), test.input.clone()),
        ("testdata.ans".to_string(), test.answer.clone()),
    ];
    (args, files)
}

/// The feedback files collected from the validator's box into the host folder `work`.
pub fn feedback_files(work: &Path) -> Vec<(String, PathBuf)> {
    ["judgemessage.txt", "teammessage.txt"]
        .map(|name| (name.to_string(), work.join(name)))
        .to_vec()
}

/// What the validator's run `report` (under `limits`, its feedback files collected into
/// `work`) says of the output.
pub fn outcome_of(
    v: &ValidatorProgram,
    limits: &Limits,
    report: &RunReport,
    work: &Path,
) -> CheckOutcome {
    let judge_message = read_clipped(&work.join("judgemessage.txt"));
    let team_message = read_clipped(&work.join("teammessage.txt"));
    let stderr = clip(&report.stderr);
    let name = v.path.display();
    let limit_fault = match report.status {
        RunStatus::TimeLimit => Some(format!(
            "{name} passed its time limit ({} ms CPU, {} ms wall)",
            limits.cpu_time_ms, limits.wall_time_ms
        )),
        RunStatus::MemoryLimit => Some(format!(
            "{name} passed its memory limit ({} MiB)",
            v.memory_limit_mb
        )),
        RunStatus::OutputLimit => Some(format!(
            "{name} passed its output limit ({} MiB)",
            v.output_limit_mb
        )),
        RunStatus::Ok | RunStatus::RuntimeError => None,
    };
    if let Some(fault) = limit_fault {
        return CheckOutcome::JudgeError(fault);
    }
    let code = report.exit_code;
    let message = |base: &str| {
        let mut parts = Vec::new();
        if !judge_message.is_empty() {
            parts.push(judge_message.clone());
        }
        if !team_message.is_empty() {
            parts.push(format!("team message: {team_message}"));
        }
        if !stderr.is_empty() && v.protocol == Protocol::Testlib {
            parts.push(stderr.clone());
        }
        if parts.is_empty() {
            base.to_string()
        } else {
            parts.join("; ")
        }
    };
    match (v.protocol, code) {
        (Protocol::Kattis | Protocol::Interactive, Some(KATTIS_ACCEPT))
        | (Protocol::Testlib, Some(0)) => CheckOutcome::Accepted,
        (Protocol::Kattis | Protocol::Interactive, Some(KATTIS_WRONG)) => {
            CheckOutcome::WrongAnswer(message("the output validator rejected the output"))
        }
        (Protocol::Testlib, Some(1)) => CheckOutcome::WrongAnswer(message("wrong answer")),
        (Protocol::Testlib, Some(2)) => CheckOutcome::WrongAnswer(message("presentation error")),
        _ => {
            let how = match (code, report.signal) {
                (_, Some(sig)) => format!("was killed by signal {sig}"),
                (Some(c), None) => format!("exited with {c}"),
                (None, None) => "ended without an exit code".to_string(),
            };
            let mut text = format!("{name} {how}, which is no verdict of its protocol");
            let detail = if v.protocol != Protocol::Testlib && stderr.is_empty() {
                judge_message.clone()
            } else if judge_message.is_empty() {
                stderr.clone()
            } else {
                format!("{judge_message}; {stderr}")
            };
            if !detail.is_empty() {
                text.push_str(&format!(": {detail}"));
            }
            CheckOutcome::JudgeError(text)
        }
    }
}
