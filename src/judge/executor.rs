//! What the judge needs from the sandbox, as a small trait.
//!
//! The judge's aggregation is unit-tested against a fake executor; the daemon and the CLI use
//! [`crate::judge::SandboxExecutor`], which compiles and runs in real sandbox boxes.

use std::path::{Path, PathBuf};

pub use crate::languages::cache::CacheUse;
use crate::problem::FileIo;
use crate::sandbox::{Limits, RunReport};

/// The executor failed: the judge's (or the host's) fault, reported as `SE` with this cause.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ExecutorError(pub String);

/// The result of compiling a source once.
#[derive(Debug)]
pub enum Compilation<P> {
    /// The program is ready to run; `log` holds the compiler's warnings, if any.
    Ready {
        /// The runnable program.
        program: P,
        /// Compiler output (warnings).
        log: String,
        /// Whether the program came from the compile cache.
        cache: CacheUse,
    },
    /// The compiler refused the source (`CE`); `log` says why.
    Failed {
        /// Compiler output.
        log: String,
        /// Whether the compile cache was looked in first (compile errors are not kept).
        cache: CacheUse,
    },
}

/// One call of an output validator program ([`Executor::run_validator`]).
#[derive(Debug, Clone)]
pub struct ValidatorCall {
    /// Arguments after the program's own command.
    pub args: Vec<String>,
    /// Host files put into the box: (name in the box, host path).
    pub files: Vec<(String, PathBuf)>,
    /// Host file on its stdin.
    pub stdin: PathBuf,
    /// The validator's own limits.
    pub limits: Limits,
    /// Files copied out after the run (the feedback files): (name in the box, host path).
    pub collect: Vec<(String, PathBuf)>,
}

/// One run of an interactive problem ([`Executor::run_interactive`]): the submission and
/// its validator, each in a box of its own, connected by pipes.
#[derive(Debug, Clone)]
pub struct InteractiveCall {
    /// The submission's limits (before its language's extra memory).
    pub submission_limits: Limits,
    /// The validator's arguments after its own command.
    pub args: Vec<String>,
    /// Host files put into the validator's box: (name in the box, host path).
    pub files: Vec<(String, PathBuf)>,
    /// The validator's own limits.
    pub validator_limits: Limits,
    /// The validator's feedback files copied out after the run: (name in the box, host path).
    pub collect: Vec<(String, PathBuf)>,
}

/// What an interactive run reports.
#[derive(Debug, Clone)]
pub struct InteractiveReport {
    /// The submission's run (its stdout went to the validator).
    pub submission: RunReport,
    /// The validator's run.
    pub validator: RunReport,
    /// Whether the validator's box ended before the submission's.
    pub validator_first: bool,
}

/// Compiles a source and runs the result on one input, each in a fresh box.
///
/// Both calls block (they wait for a sandboxed process): call them from
/// `tokio::task::spawn_blocking`. `Err` is always the judge's fault; a misbehaving submission
/// is an `Ok` report with a non-`Ok` status.
pub trait Executor: Send + Sync + 'static {
    /// A compiled program (its artifacts), shared by every test of a submission.
    type Program: Send + Sync + 'static;

    /// Compiles `source` in `language` (an id from the language table).
    fn compile(
        &self,
        language: &str,
        source: &[u8],
    ) -> Result<Compilation<Self::Program>, ExecutorError>;

    /// Runs `program` with `stdin` as its standard input under `limits`, plus the memory its
    /// language adds (an interpreter's footprint).
    fn run(
        &self,
        program: &Self::Program,
        stdin: &Path,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError>;

    /// [`Executor::run`] for one test of a package that names files ([`FileIo`]): the test
    /// also as the input file, the answer from the output file when the program wrote one.
    /// Executors that cannot give files refuse such packages (the judge's fault, `SE`).
    fn run_test(
        &self,
        program: &Self::Program,
        input: &Path,
        files: &FileIo,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        if files.is_empty() {
            return self.run(program, input, limits);
        }
        Err(ExecutorError(
            "this executor cannot give a program input or output files".into(),
        ))
    }

    /// Runs an output validator `program` (compiled by [`Executor::compile`]) as `call`
    /// says, in a box of its own. Executors that run no validator programs (the unit
    /// tests' fakes) refuse, which judges every test of such a package `SE`.
    fn run_validator(
        &self,
        program: &Self::Program,
        call: &ValidatorCall,
    ) -> Result<RunReport, ExecutorError> {
        let _ = (program, call);
        Err(ExecutorError(
            "this executor runs no output validator programs".into(),
        ))
    }

    /// Runs the submission `program` and the validator `validator` (both compiled by
    /// [`Executor::compile`]) at once, each in a box of its own, the submission's stdout
    /// on the validator's stdin and the validator's stdout on the submission's stdin.
    /// Executors that cannot refuse, which judges every test of such a package `SE`.
    fn run_interactive(
        &self,
        program: &Self::Program,
        validator: &Self::Program,
        call: &InteractiveCall,
    ) -> Result<InteractiveReport, ExecutorError> {
        let _ = (program, validator, call);
        Err(ExecutorError(
            "this executor runs no interactive problems".into(),
        ))
    }
}
