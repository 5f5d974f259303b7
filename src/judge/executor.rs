//! What the judge needs from the sandbox, as a small trait.
//!
//! The judge's aggregation is unit-tested against a fake executor; the daemon and the CLI use
//! [`crate::judge::SandboxExecutor`], which compiles and runs in real sandbox boxes.

use std::path::Path;

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
}
