//! The data checks that run the package's own programs in the sandbox: its output
//! validator must accept every answer file (an interactive problem's must compile), and every input validator (exit 42) must accept
//! every input, as problemtools' `verifyproblem` checks them. `verify` runs them, and so
//! does `serve` when a Kattis package's data hash is new to this machine.

use std::path::{Path, PathBuf};

use crate::checkers::CheckOutcome;
use crate::judge::validate::{self, KATTIS_ACCEPT, KATTIS_WRONG};
use crate::judge::{Executor, ValidatorCall};
use crate::problem::kattis::program;
use crate::problem::validator::{Protocol, ValidatorProgram};
use crate::problem::{OutputValidator, Problem};
use crate::sandbox::RunStatus;

use super::data::DataFault;

fn fault(test: Option<&str>, message: String) -> DataFault {
    DataFault {
        test: test.map(str::to_string),
        message,
    }
}

/// The validator limits of `problem` applied to an input validator at `path`.
fn input_validator(problem: &Problem, path: &Path) -> Result<ValidatorProgram, String> {
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

fn is_checktestdata(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ctd")
}

/// The input validators this judge does not run: checktestdata scripts (`.ctd`; Debian 12
/// packages no checktestdata), for `verify` to warn about.
pub fn not_run(problem: &Problem) -> Vec<PathBuf> {
    problem
        .kattis
        .iter()
        .flat_map(|k| &k.input_validators)
        .filter(|p| is_checktestdata(p))
        .cloned()
        .collect()
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
        match validate::validate(executor, &compiled, v, test, &answer, max_processes) {
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
        return Vec::new(); // not run: see `not_run`
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
