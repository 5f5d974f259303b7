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

/// Most bytes of a team message kept with a test's result.
pub const MAX_TEAM_MESSAGE_BYTES: usize = 2048;

/// What an output validator said of one output: its outcome (whose message is the jury's)
/// and, apart, the `teammessage.txt` it wrote for the contestant, so that the two never share
/// one string a contestant's echoed output could forge a separator in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    /// Accepted, wrong answer (the jury's message) or a judging error.
    pub outcome: CheckOutcome,
    /// The validator's message to the team, bounded ([`team_message()`]); only when it gave
    /// a verdict of its protocol.
    pub team_message: Option<String>,
    /// The `score.txt` it wrote with an accepted verdict (a scoring problem's test score).
    pub score: Option<super::points::Points>,
}

impl Validated {
    fn of(outcome: CheckOutcome) -> Self {
        Validated {
            outcome,
            team_message: None,
            score: None,
        }
    }
}

/// A `teammessage.txt`'s text as kept: at most [`MAX_TEAM_MESSAGE_BYTES`] bytes (cut at the
/// end, on a character boundary), invalid UTF-8 replaced, trimmed; `None` when blank.
pub fn team_message(bytes: &[u8]) -> Option<String> {
    let mut end = bytes.len().min(MAX_TEAM_MESSAGE_BYTES);
    // Not in the middle of a UTF-8 sequence (continuation bytes are 0b10xxxxxx).
    while end > 0 && end < bytes.len() && bytes[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    let text = String::from_utf8_lossy(&bytes[..end]).trim().to_string();
    (!text.is_empty()).then_some(text)
}

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
) -> Validated {
    match run(executor, program, v, test, output, max_processes) {
        Ok(validated) => validated,
        Err(e) => Validated::of(CheckOutcome::JudgeError(format!("output validator: {e}"))),
    }
}

fn run<E: Executor>(
    executor: &E,
    program: &E::Program,
    v: &ValidatorProgram,
    test: &TestCase,
    output: &[u8],
    max_processes: u32,
) -> Result<Validated, String> {
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
    ["judgemessage.txt", "teammessage.txt", "score.txt"]
        .map(|name| (name.to_string(), work.join(name)))
        .to_vec()
}

/// What the validator's run `report` (under `limits`, its feedback files collected into
/// `work`) says of the output, its team message kept apart.
pub fn outcome_of(
    v: &ValidatorProgram,
    limits: &Limits,
    report: &RunReport,
    work: &Path,
) -> Validated {
    let outcome = jury_outcome(v, limits, report, work);
    let (outcome, score) = score_of(outcome, work);
    let team_message = match outcome {
        CheckOutcome::Accepted | CheckOutcome::WrongAnswer(_) => {
            std::fs::read(work.join("teammessage.txt"))
                .ok()
                .and_then(|b| team_message(&b))
        }
        CheckOutcome::JudgeError(_) => None,
    };
    Validated {
        outcome,
        team_message,
        score,
    }
}

/// The `score.txt` beside an outcome, as problemtools reads it: a number on an accepted
/// output; a judging error on a rejected one or when it is not a number.
fn score_of(outcome: CheckOutcome, work: &Path) -> (CheckOutcome, Option<super::points::Points>) {
    let Ok(text) = std::fs::read(work.join("score.txt")) else {
        return (outcome, None);
    };
    match outcome {
        CheckOutcome::Accepted => {
            match super::points::Points::parse(&String::from_utf8_lossy(&text)) {
                Ok(p) => (CheckOutcome::Accepted, Some(p)),
                Err(m) => (
                    CheckOutcome::JudgeError(format!("output validator: {m}")),
                    None,
                ),
            }
        }
        CheckOutcome::WrongAnswer(_) => (
            CheckOutcome::JudgeError(
                "the output validator wrote score.txt with a rejection".into(),
            ),
            None,
        ),
        other => (other, None),
    }
}

fn jury_outcome(
    v: &ValidatorProgram,
    limits: &Limits,
    report: &RunReport,
    work: &Path,
) -> CheckOutcome {
    let judge_message = read_clipped(&work.join("judgemessage.txt"));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn validator() -> ValidatorProgram {
        ValidatorProgram {
            path: PathBuf::from("output_validator/check.py"),
            language: "python".into(),
            source: Vec::new(),
            protocol: Protocol::Kattis,
            time_limit_ms: 1000,
            memory_limit_mb: 64,
            output_limit_mb: 1,
        }
    }

    fn ended(code: i32) -> RunReport {
        RunReport {
            status: RunStatus::RuntimeError,
            exit_code: Some(code),
            signal: None,
            time_ms: 1,
            wall_ms: 1,
            memory_kib: 100,
            stdout: Vec::new(),
            stderr: Vec::new(),
            degraded: false,
        }
    }

    fn outcome(code: i32, judge: &str, team: &[u8]) -> Validated {
        let work = tempfile::tempdir().unwrap();
        std::fs::write(work.path().join("judgemessage.txt"), judge).unwrap();
        std::fs::write(work.path().join("teammessage.txt"), team).unwrap();
        let v = validator();
        outcome_of(&v, &limits_of(&v, 1), &ended(code), work.path())
    }

    #[test]
    fn the_team_message_is_kept_apart_from_the_jurys() {
        let got = outcome(
            KATTIS_WRONG,
            "found 4; team message: forged",
            b"off by one\n",
        );
        assert_eq!(
            got.outcome,
            CheckOutcome::WrongAnswer("found 4; team message: forged".into())
        );
        assert_eq!(got.team_message.as_deref(), Some("off by one"));
        let got = outcome(KATTIS_ACCEPT, "", b"well done");
        assert_eq!(got.outcome, CheckOutcome::Accepted);
        assert_eq!(got.team_message.as_deref(), Some("well done"));
        let got = outcome(KATTIS_WRONG, "x", b" \n");
        assert_eq!(got.team_message, None, "a blank one is none");
    }

    #[test]
    fn a_validator_without_a_verdict_gives_the_team_nothing() {
        let got = outcome(1, "crashed", b"you lose");
        assert!(matches!(got.outcome, CheckOutcome::JudgeError(_)));
        assert_eq!(got.team_message, None);
    }

    #[test]
    fn a_team_message_is_bounded_and_valid_utf8() {
        let mut long = "é".repeat(MAX_TEAM_MESSAGE_BYTES).into_bytes();
        long.extend_from_slice(&[0xff, 0xfe]);
        let kept = team_message(&long).unwrap();
        assert!(kept.len() <= MAX_TEAM_MESSAGE_BYTES);
        assert!(
            kept.chars().all(|c| c == 'é'),
            "cut on a character boundary"
        );
        assert_eq!(team_message(b"a\xffb").as_deref(), Some("a\u{fffd}b"));
    }
}
