//! The data checks that run the package's own programs in the sandbox: its output
//! validator must accept every answer file (an interactive problem's must compile), and every
//! input validator (exit 42) must accept every input (a checktestdata `.ctd` script runs in
//! the judge itself), as problemtools' `verifyproblem` checks them. `verify` runs them, and so
//! does `serve` when a Kattis package's data hash is new to this machine.

use std::path::Path;

use crate::checkers::CheckOutcome;
use crate::judge::validate::{self, KATTIS_ACCEPT, KATTIS_WRONG};
use crate::judge::{Executor, ValidatorCall};
use crate::problem::kattis::program;
use crate::problem::validator::{Protocol, ValidatorProgram};
use crate::problem::{OutputValidator, Problem};
use crate::sandbox::RunStatus;
use crate::validators::checktestdata;

use super::data::DataFault;

fn fault(test: Option<&str>, message: String) -> DataFault {
    DataFault {
        test: test.map(str::to_string),
        message,
    }
}

/// The validator limits of `problem` applied to an input validator at `path` (`stress`
/// runs the same program on its generated inputs).
pub fn input_validator(problem: &Problem, path: &Path) -> Result<ValidatorProgram, String> {
    let (language, source) = program::source_of(path).map_err(|e| e.to_string())?;
    let (time, memory, output) = match &problem.validator {
        OutputValidator::Program(v) => (v.time_limit_ms, v.memory_limit_mb, v.output_limit_mb),
        _ => (
            crate::problem::kattis::DEFAULT_VALIDATION_TIME_S * 1000,
            crate::problem::kattis::DEFAULT_VALIDATION_MEMORY_MB,
            crate::problem::kattis::DEFAULT_VALIDATION_OUTPUT_MB,
        ),
    };
    Ok(ValidatorProgram {
        path: path.to_path_buf(),
        language: language.to_string(),
        source,
        protocol: Protocol::Kattis,
        time_limit_ms: time,
        memory_limit_mb: memory,
        output_limit_mb: output,
    })
}

/// Whether an input validator is a checktestdata script (run in the judge's own process).
pub fn is_checktestdata(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ctd")
}

/// Runs the checktestdata script at `path` over every input of `problem`, in the judge's
/// own process (the interpreter is bounded: [`checktestdata::Bounds`]).
fn run_checktestdata(problem: &Problem, path: &Path) -> Vec<DataFault> {
    let name = path.display();
    let text = match read_bounded(path, checktestdata::MAX_SCRIPT as u64) {
        Ok(t) => t,
        Err(e) => return vec![fault(None, format!("{name}: {e}"))],
    };
    let script = match checktestdata::Script::parse(&text) {
        Ok(s) => s,
        Err(e) => return vec![fault(None, format!("{name}: {e}"))],
    };
    let mut faults = Vec::new();
    for test in &problem.tests {
        let input = match read_bounded(&test.input, MAX_CTD_INPUT) {
            Ok(i) => i,
            Err(e) => {
                faults.push(fault(
                    Some(&test.name),
                    format!("{}: {e}", test.input.display()),
                ));
                continue;
            }
        };
        match script.check(&input, checktestdata::Bounds::default()) {
            Ok(()) => {}
            Err(e @ checktestdata::CtdError::Rejected { .. }) => faults.push(fault(
                Some(&test.name),
                format!("{name} rejects the input {}: {e}", test.input.display()),
            )),
            Err(e) => {
                faults.push(fault(Some(&test.name), format!("{name}: {e}")));
                break;
            }
        }
    }
    faults
}

/// Largest input a checktestdata script reads (it is held in memory).
const MAX_CTD_INPUT: u64 = 256 << 20;

/// The file at `path`, at most `max` bytes (else an error saying so).
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut out = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("cannot read: {e}"))?;
    if out.len() as u64 > max {
        return Err(format!("larger than {} MiB", max >> 20));
    }
    Ok(out)
}

/// Every fault the package's programs find in its data; stops at a validator's first
/// judging error (a validator that loops costs one time limit, not one per test).
pub fn verify_programs<E: Executor>(
    executor: &E,
    problem: &Problem,
    max_processes: u32,
) -> Vec<DataFault> {
    let mut faults = Vec::new();
    if let Some(k) = &problem.kattis {
        for path in &k.input_validators {
            faults.extend(run_input_validator(executor, problem, path, max_processes));
        }
    }
    match &problem.validator {
        // An interactive validator reads a submission, not an answer file: it must compile.
        OutputValidator::Program(v) if v.protocol == Protocol::Interactive => {
            if let Err(e) = validate::compile(executor, v) {
                faults.push(fault(None, e));
            }
        }
        OutputValidator::Program(v) => {
            faults.extend(check_answers(executor, problem, v, max_processes))
        }
        _ => {}
    }
    faults
}

fn check_answers<E: Executor>(
    executor: &E,
    problem: &Problem,
    v: &ValidatorProgram,
    max_processes: u32,
) -> Vec<DataFault> {
    let compiled = match validate::compile(executor, v) {
        Ok(p) => p,
        Err(e) => return vec![fault(None, e)],
    };
    let mut faults = Vec::new();
    for test in &problem.tests {
        let answer = match std::fs::read(&test.answer) {
            Ok(a) => a,
            Err(e) => {
                faults.push(fault(
                    Some(&test.name),
                    format!("cannot read {}: {e}", test.answer.display()),
                ));
                continue;
            }
        };
        match validate::validate(executor, &compiled, v, test, &answer, max_processes).outcome {
            CheckOutcome::Accepted => {}
            CheckOutcome::WrongAnswer(m) => faults.push(fault(
                Some(&test.name),
                format!(
                    "the output validator rejects the answer file {}: {m}",
                    test.answer.display()
                ),
            )),
            CheckOutcome::JudgeError(m) => {
                faults.push(fault(Some(&test.name), m));
                break;
            }
        }
    }
    faults
}

fn run_input_validator<E: Executor>(
    executor: &E,
    problem: &Problem,
    path: &Path,
    max_processes: u32,
) -> Vec<DataFault> {
    let name = path.display();
    if is_checktestdata(path) {
        return run_checktestdata(problem, path);
    }
    let v = match input_validator(problem, path) {
        Ok(v) => v,
        Err(e) => return vec![fault(None, e)],
    };
    let compiled = match validate::compile(executor, &v) {
        Ok(p) => p,
        Err(e) => return vec![fault(None, e)],
    };
    let limits = validate::limits_of(&v, max_processes);
    let mut faults = Vec::new();
    for test in &problem.tests {
        let call = ValidatorCall {
            args: Vec::new(),
            files: Vec::new(),
            stdin: test.input.clone(),
            limits,
            collect: Vec::new(),
        };
        let report = match executor.run_validator(&compiled, &call) {
            Ok(r) => r,
            Err(e) => {
                faults.push(fault(Some(&test.name), format!("{name}: {e}")));
                break;
            }
        };
        let stderr = String::from_utf8_lossy(&report.stderr[..report.stderr.len().min(500)])
            .trim()
            .to_string();
        match (report.status, report.exit_code) {
            (RunStatus::RuntimeError, Some(KATTIS_ACCEPT)) => {}
            (RunStatus::RuntimeError, Some(KATTIS_WRONG)) | (RunStatus::RuntimeError, Some(1)) => {
                faults.push(fault(
                    Some(&test.name),
                    format!(
                        "{name} rejects the input {}: {stderr}",
                        test.input.display()
                    ),
                ))
            }
            (status, code) => {
                faults.push(fault(
                    Some(&test.name),
                    format!(
                        "{name} ended {} ({}) on {}, not 42: {stderr}",
                        status.name(),
                        code.map(|c| format!("exit {c}"))
                            .unwrap_or_else(|| "no exit code".into()),
                        test.input.display()
                    ),
                ));
                if status != RunStatus::RuntimeError {
                    break;
                }
            }
        }
    }
    faults
}
