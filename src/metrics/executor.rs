//! [`Counted`]: an [`Executor`] that counts every sandbox run it makes, and the runs that
//! failed through the judge's fault, in a daemon's [`Metrics`]; and the compile cache's hits
//! (a compile that ran no box) and misses.

use std::path::Path;

use crate::judge::{CacheUse, Compilation, Executor, ExecutorError};
use crate::sandbox::{Limits, RunReport};

use super::{Metrics, RunKind};

/// An executor whose compiles and runs are counted: compiles as `compile` and runs as
/// `test` for a judging worker, both as `custom` for the custom-run pool.
pub struct Counted<E> {
    inner: E,
    metrics: Metrics,
    custom: bool,
}

impl<E> Counted<E> {
    /// Counts the work of a judging worker's executor.
    pub fn judging(inner: E, metrics: Metrics) -> Counted<E> {
        Counted {
            inner,
            metrics,
            custom: false,
        }
    }

    /// Counts the work of a custom-run executor.
    pub fn custom(inner: E, metrics: Metrics) -> Counted<E> {
        Counted {
            inner,
            metrics,
            custom: true,
        }
    }

    fn kind(&self, judging: RunKind) -> RunKind {
        if self.custom {
            RunKind::Custom
        } else {
            judging
        }
    }
}

impl<E: Executor> Executor for Counted<E> {
    type Program = E::Program;

    fn compile(
        &self,
        language: &str,
        source: &[u8],
    ) -> Result<Compilation<Self::Program>, ExecutorError> {
        let result = self.inner.compile(language, source);
        let cache = match &result {
            Ok(Compilation::Ready { cache, .. } | Compilation::Failed { cache, .. }) => *cache,
            Err(_) => CacheUse::Off,
        };
        if cache != CacheUse::Off {
            self.metrics.compile_cache(cache == CacheUse::Hit);
        }
        if cache != CacheUse::Hit {
            self.metrics
                .sandbox_run(self.kind(RunKind::Compile), result.is_err());
        }
        result
    }

    fn run(
        &self,
        program: &Self::Program,
        stdin: &Path,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let result = self.inner.run(program, stdin, limits);
        self.metrics
            .sandbox_run(self.kind(RunKind::Test), result.is_err());
        result
    }

    fn run_test(
        &self,
        program: &Self::Program,
        input: &Path,
        files: &crate::problem::FileIo,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let result = self.inner.run_test(program, input, files, limits);
        self.metrics
            .sandbox_run(self.kind(RunKind::Test), result.is_err());
        result
    }

    fn run_validator(
        &self,
        program: &Self::Program,
        call: &crate::judge::ValidatorCall,
    ) -> Result<RunReport, ExecutorError> {
        let result = self.inner.run_validator(program, call);
        self.metrics
            .sandbox_run(self.kind(RunKind::Test), result.is_err());
        result
    }

    fn run_interactive(
        &self,
        program: &Self::Program,
        validator: &Self::Program,
        call: &crate::judge::InteractiveCall,
    ) -> Result<crate::judge::InteractiveReport, ExecutorError> {
        let result = self.inner.run_interactive(program, validator, call);
        self.metrics
            .sandbox_run(self.kind(RunKind::Test), result.is_err());
        result
    }
}
