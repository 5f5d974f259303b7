//! `stress` on a Kattis package: inputs from the package's own generator (`gen <seed>`, in
//! the sandbox under [`generator_limits`]), each checked by the package's input validators
//! (a rejected one is a generator bug), answered by its reference solution and the solution
//! judged by its output validator (the default one or its own) against that answer, as the
//! judge does. The first disagreement is shrunk by [`super::text`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::checkers::CheckOutcome;
use crate::judge::validate;
use crate::judge::verdict::status_verdict;
use crate::judge::{Compilation, Executor, ValidatorCall, Verdict};
use crate::problem::kattis::program;
use crate::problem::validator::ValidatorProgram;
use crate::problem::{OutputValidator, Problem, TestCase};
use crate::sandbox::{Limits, RunReport, RunStatus};
use crate::validators::checktestdata;
use crate::verify::programs::{input_validator, is_checktestdata, read_bounded};

use super::text::{self, Budget, Probe};
use super::{Found, Judged, StressError, StressReport, StressSettings, MAX_SHRINK_RUNS};

/// CPU time of one generator run.
pub const GENERATOR_TIME_MS: u64 = 10_000;
/// Memory of one generator run.
pub const GENERATOR_MEMORY_MB: u64 = 1024;
/// Largest input a generator may print (more ends it as a generator fault).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The sandbox limits of one generator run.
pub fn generator_limits(max_processes: u32) -> Limits {
    Limits {
        cpu_time_ms: GENERATOR_TIME_MS,
        wall_time_ms: GENERATOR_TIME_MS * 2,
        memory_bytes: GENERATOR_MEMORY_MB << 20,
        output_bytes: MAX_INPUT_BYTES,
        max_processes,
    }
}

fn package(message: String) -> StressError {
    StressError::Package(message)
}

/// The package's generator: `generators/gen.<ext>` (testlib's and Polygon's name), else the
/// one program in `generators/` (a file in C, C++ or Python, or a folder holding one).
pub fn find_generator(dir: &Path) -> Result<PathBuf, StressError> {
    let folder = dir.join("generators");
    let yaml = folder.join("generators.yaml");
    let hint = if yaml.is_file() {
        " (generators/generators.yaml, BAPCtools' format, is not read by stress: add \
         generators/gen.py or gen.cpp printing one input for the seed it is given, or pass \
         --generator FILE)"
    } else {
        " (stress runs generators/gen.c, gen.cpp or gen.py as `gen SEED`, printing one test \
         input; or pass --generator FILE)"
    };
    let mut programs = Vec::new();
    if folder.is_dir() {
        let entries = std::fs::read_dir(&folder)
            .map_err(|e| package(format!("cannot read {}: {e}", folder.display())))?;
        for entry in entries {
            let path = entry
                .map_err(|e| package(format!("cannot read {}: {e}", folder.display())))?
                .path();
            if path.is_dir() || program::language_of(&path).is_some() {
                programs.push(path);
            }
        }
    }
    programs.sort();
    let named_gen = programs
        .iter()
        .find(|p| p.is_file() && p.file_stem().and_then(|s| s.to_str()) == Some("gen"));
    match (named_gen, programs.as_slice()) {
        (Some(gen), _) => Ok(gen.clone()),
        (None, [one]) => Ok(one.clone()),
        (None, []) => Err(package(format!("{} has no generator{hint}", dir.display()))),
        (None, _) => Err(package(format!(
            "{}: {} programs and none called gen{hint}",
            folder.display(),
            programs.len()
        ))),
    }
}

/// The programs a package run uses besides the solution, compiled.
pub struct Programs<P> {
    /// The generator.
    pub generator: P,
    /// Where it came from (named in messages and the report).
    pub generator_path: PathBuf,
    /// The reference solution, whose output is the answer.
    pub reference: P,
    /// Where it came from.
    pub reference_path: PathBuf,
}

enum InputCheck<P> {
    Program(ValidatorProgram, P),
    Script(PathBuf, checktestdata::Script),
}

/// Everything one package run needs: the compiled programs and a folder for the files.
pub struct PackageRun<'a, E: Executor> {
    executor: &'a E,
    problem: &'a Problem,
    candidate: &'a E::Program,
    programs: Programs<E::Program>,
    input_checks: Vec<InputCheck<E::Program>>,
    output_validator: Option<(ValidatorProgram, E::Program)>,
    /// The output validator's arguments: those of the first secret test.
    validator_args: Vec<String>,
    limits: Limits,
    max_processes: u32,
    work: tempfile::TempDir,
}

fn compiled<E: Executor>(executor: &E, v: &ValidatorProgram) -> Result<E::Program, StressError> {
    match executor.compile(&v.language, &v.source) {
        Ok(Compilation::Ready { program, .. }) => Ok(program),
        Ok(Compilation::Failed { log, .. }) => Err(package(format!(
            "{} does not compile: {}",
            v.path.display(),
            log.trim()
        ))),
        Err(e) => Err(StressError::Judge(format!(
            "compiling {}: {e}",
            v.path.display()
        ))),
    }
}

fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]);
    let text = text.trim_end();
    if bytes.len() > 300 {
        format!("{text}...")
    } else {
        text.to_string()
    }
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(64 << 10)]).into_owned()
}

impl<'a, E: Executor> PackageRun<'a, E> {
    /// Compiles the package's validators beside the given programs; refuses what stress
    /// cannot run (an interactive package, no input validator).
    pub fn new(
        executor: &'a E,
        problem: &'a Problem,
        candidate: &'a E::Program,
        programs: Programs<E::Program>,
        limits: Limits,
        max_processes: u32,
    ) -> Result<Self, StressError> {
        let kattis = problem
            .kattis
            .as_ref()
            .ok_or_else(|| StressError::NoGenerator(problem.id.clone()))?;
        if problem.validator.interactive().is_some() {
            return Err(package(format!(
                "{} is an interactive problem: stress runs batch packages only (the \
                 validator talks to the solution; no reference output is an answer to it)",
                problem.id
            )));
        }
        if kattis.input_validators.is_empty() {
            return Err(package(format!(
                "{} has no input validator: stress keeps a shrunk input only when the \
                 package's input validators accept it",
                problem.id
            )));
        }
        let mut input_checks = Vec::new();
        for path in &kattis.input_validators {
            if is_checktestdata(path) {
                let text = read_bounded(path, checktestdata::MAX_SCRIPT as u64)
                    .map_err(|e| package(format!("{}: {e}", path.display())))?;
                let script = checktestdata::Script::parse(&text)
                    .map_err(|e| package(format!("{}: {e}", path.display())))?;
                input_checks.push(InputCheck::Script(path.clone(), script));
            } else {
                let v = input_validator(problem, path).map_err(package)?;
                let program = compiled(executor, &v)?;
                input_checks.push(InputCheck::Program(v, program));
            }
        }
        let output_validator = match &problem.validator {
            OutputValidator::Program(v) => Some((v.clone(), compiled(executor, v)?)),
            _ => None,
        };
        let validator_args = problem
            .tests
            .iter()
            .find(|t| t.name.starts_with("secret/"))
            .map(|t| t.validator_args.clone())
            .unwrap_or_default();
        let work = tempfile::tempdir()
            .map_err(|e| StressError::Judge(format!("a temporary folder: {e}")))?;
        Ok(PackageRun {
            executor,
            problem,
            candidate,
            programs,
            input_checks,
            output_validator,
            validator_args,
            limits,
            max_processes,
            work,
        })
    }

    fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, StressError> {
        let path = self.work.path().join(name);
        std::fs::write(&path, bytes)
            .map_err(|e| StressError::Judge(format!("writing {}: {e}", path.display())))?;
        Ok(path)
    }

    fn generator_name(&self) -> String {
        self.programs.generator_path.display().to_string()
    }

    /// The input the generator prints for `seed`; its crash or limit is the package's fault.
    pub fn generate(&self, seed: u64) -> Result<Vec<u8>, StressError> {
        let stdin = self.write("empty", b"")?;
        let limits = generator_limits(self.max_processes);
        let call = ValidatorCall {
            args: vec![seed.to_string()],
            files: Vec::new(),
            stdin,
            limits,
            collect: Vec::new(),
        };
        let report = self
            .executor
            .run_validator(&self.programs.generator, &call)
            .map_err(|e| StressError::Judge(format!("the sandbox: {e}")))?;
        let how = match (report.status, report.exit_code, report.signal) {
            (RunStatus::Ok, _, _) => return Ok(report.stdout),
            (RunStatus::TimeLimit, _, _) => format!(
                "passed its time limit ({} ms CPU, {} ms wall)",
                limits.cpu_time_ms, limits.wall_time_ms
            ),
            (RunStatus::MemoryLimit, _, _) => {
                format!("passed its memory limit ({GENERATOR_MEMORY_MB} MiB)")
            }
            (RunStatus::OutputLimit, _, _) => {
                format!("printed more than {} MiB", MAX_INPUT_BYTES >> 20)
            }
            (RunStatus::RuntimeError, _, Some(sig)) => format!("was killed by signal {sig}"),
            (RunStatus::RuntimeError, Some(code), None) => format!("exited with {code}"),
            (RunStatus::RuntimeError, None, None) => "ended without an exit code".into(),
        };
        let stderr = excerpt(&report.stderr);
        Err(package(format!(
            "the generator {} {how} on `gen {seed}`{}",
            self.generator_name(),
            if stderr.is_empty() {
                String::new()
            } else {
                format!(": {stderr}")
            }
        )))
    }

    /// Why the package's input validators reject `input`, if one does.
    pub fn rejection(&self, input: &[u8]) -> Result<Option<String>, StressError> {
        let path = self.write("validated.in", input)?;
        for check in &self.input_checks {
            match check {
                InputCheck::Script(name, script) => {
                    match script.check(input, checktestdata::Bounds::default()) {
                        Ok(()) => {}
                        Err(e) => return Ok(Some(format!("{} rejects it: {e}", name.display()))),
                    }
                }
                InputCheck::Program(v, program) => {
                    let call = ValidatorCall {
                        args: Vec::new(),
                        files: Vec::new(),
                        stdin: path.clone(),
                        limits: validate::limits_of(v, self.max_processes),
                        collect: Vec::new(),
                    };
                    let report = self
                        .executor
                        .run_validator(program, &call)
                        .map_err(|e| StressError::Judge(format!("the sandbox: {e}")))?;
                    if let Some(why) = input_verdict(v, &report)? {
                        return Ok(Some(why));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The solution judged on `input` against the reference solution's answer; `Ok(Err)`
    /// when the reference solution itself fails on it (why).
    pub fn judge(&self, input: &[u8]) -> Result<Result<Judged, String>, StressError> {
        let input_path = self.write("input.in", input)?;
        let sandbox = |e| StressError::Judge(format!("the sandbox: {e}"));
        let reference = self
            .executor
            .run_test(
                &self.programs.reference,
                &input_path,
                &self.problem.file_io,
                self.limits,
            )
            .map_err(sandbox)?;
        if let Some((verdict, message)) = status_verdict(&reference, &self.limits) {
            return Ok(Err(format!(
                "{verdict}{}",
                message.map(|m| format!(" ({m})")).unwrap_or_default()
            )));
        }
        let answer_path = self.write("answer.ans", &reference.stdout)?;
        let report = self
            .executor
            .run_test(
                self.candidate,
                &input_path,
                &self.problem.file_io,
                self.limits,
            )
            .map_err(sandbox)?;
        let (verdict, message) = match status_verdict(&report, &self.limits) {
            Some(fault) => fault,
            None => {
                let test = TestCase {
                    name: "generated".into(),
                    input: input_path,
                    answer: answer_path,
                    validator_args: self.validator_args.clone(),
                };
                match self.check(&test, input, &report, &reference.stdout) {
                    CheckOutcome::Accepted => (Verdict::AC, None),
                    CheckOutcome::WrongAnswer(m) => (Verdict::WA, Some(m)),
                    CheckOutcome::JudgeError(m) => {
                        return Err(StressError::Judge(format!("the output validator: {m}")))
                    }
                }
            }
        };
        Ok(Ok(Judged {
            input: text_of(input),
            expected: text_of(&reference.stdout),
            output: text_of(&report.stdout),
            verdict,
            message,
        }))
    }

    fn check(
        &self,
        test: &TestCase,
        input: &[u8],
        report: &RunReport,
        answer: &[u8],
    ) -> CheckOutcome {
        match &self.output_validator {
            Some((v, program)) => {
                validate::validate(
                    self.executor,
                    program,
                    v,
                    test,
                    &report.stdout,
                    self.max_processes,
                )
                .outcome
            }
            None => crate::validators::check(
                &self.problem.validator,
                &test.validator_args,
                input,
                &report.stdout,
                answer,
            ),
        }
    }
}

/// An input validator's run read as problemtools reads it: 42 accepts, 43 rejects; anything
/// else is the package's fault.
fn input_verdict(v: &ValidatorProgram, report: &RunReport) -> Result<Option<String>, StressError> {
    let stderr = excerpt(&report.stderr);
    let said = if stderr.is_empty() {
        String::new()
    } else {
        format!(": {stderr}")
    };
    match (report.status, report.exit_code) {
        (RunStatus::RuntimeError, Some(validate::KATTIS_ACCEPT)) => Ok(None),
        (RunStatus::RuntimeError, Some(validate::KATTIS_WRONG)) => {
            Ok(Some(format!("{} rejects it{said}", v.path.display())))
        }
        (status, code) => Err(package(format!(
            "the input validator {} ended {} ({}), not 42 or 43{said}",
            v.path.display(),
            status.name(),
            code.map(|c| format!("exit {c}"))
                .unwrap_or_else(|| "no exit code".into()),
        ))),
    }
}

/// Generated inputs until the first disagreement (or `settings.time`), then that input
/// shrunk, for at most `settings.time` more.
pub fn stress_package<E: Executor>(
    run: &PackageRun<'_, E>,
    settings: StressSettings,
) -> Result<StressReport, StressError> {
    let started = Instant::now();
    let mut tried = 0u64;
    let mut found = None;
    while started.elapsed() < settings.time {
        let seed = settings.seed.wrapping_add(tried);
        tried += 1;
        let input = run.generate(seed)?;
        if let Some(why) = run.rejection(&input)? {
            return Err(package(format!(
                "the input `gen {seed}` printed is invalid, a bug of the generator {}: {why}\n\
                 input: {}",
                run.generator_name(),
                excerpt(&input)
            )));
        }
        let judged = run.judge(&input)?.map_err(|why| {
            package(format!(
                "the reference solution {} fails on the input `gen {seed}` printed: {why}",
                run.programs.reference_path.display()
            ))
        })?;
        if judged.verdict != Verdict::AC {
            found = Some((seed, input, judged));
            break;
        }
    }
    let search_s = started.elapsed().as_secs_f64();
    let found = match found {
        None => None,
        Some((seed, input, first)) => {
            let budget = Budget {
                deadline: Instant::now() + settings.time,
                max_runs: MAX_SHRINK_RUNS,
            };
            let verdict = first.verdict;
            let shrunk = text::shrink(input.clone(), first.clone(), budget, |candidate| {
                if run.rejection(candidate)?.is_some() {
                    return Ok(Probe::Invalid);
                }
                Ok(match run.judge(candidate)? {
                    Ok(judged) if judged.verdict == verdict => Probe::Kept(judged),
                    _ => Probe::Lost,
                })
            })?;
            Some(Found {
                original: first,
                sizes: (text::token_count(&input), text::token_count(&shrunk.input)),
                shrunk: shrunk.judged,
                unit: "tokens",
                shrink_runs: shrunk.runs,
                minimal: shrunk.minimal,
                generator_seed: Some(seed),
            })
        }
    };
    Ok(StressReport {
        problem: run.problem.id.clone(),
        seed: settings.seed,
        tried: tried as usize,
        search_s,
        found,
        generator: Some(run.generator_name()),
        reference: Some(run.programs.reference_path.display().to_string()),
    })
}
