//! An executor that times another: the benchmarks compare the judge's (or the grader's)
//! wall time with the time spent inside the sandboxed compiles and runs.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::problem::FileIo;
use crate::sandbox::{Limits, RunReport};

use super::executor::{Compilation, Executor, ExecutorError};

/// Wraps an executor and adds up the wall time of its compiles and runs.
pub struct Timed<E> {
    /// The executor doing the work.
    pub inner: E,
    /// Wall time spent in `compile`, in nanoseconds.
    pub compile_ns: AtomicU64,
    /// Wall time spent in `run`, in nanoseconds.
    pub run_ns: AtomicU64,
    /// Number of runs.
    pub runs: AtomicU64,
}

impl<E> Timed<E> {
    /// A timer around `inner`, all counts zero.
    pub fn new(inner: E) -> Timed<E> {
        Timed {
            inner,
            compile_ns: AtomicU64::new(0),
            run_ns: AtomicU64::new(0),
            runs: AtomicU64::new(0),
        }
    }
}

fn add_elapsed(counter: &AtomicU64, since: Instant) {
    let ns = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX);
    counter.fetch_add(ns, Ordering::Relaxed);
}

impl<E: Executor> Executor for Timed<E> {
    type Program = E::Program;

    fn compile(
        &self,
        language: &str,
        source: &[u8],
    ) -> Result<Compilation<E::Program>, ExecutorError> {
        let t = Instant::now();
        let r = self.inner.compile(language, source);
        add_elapsed(&self.compile_ns, t);
        r
    }

    fn run(
        &self,
        program: &E::Program,
        stdin: &Path,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let t = Instant::now();
        let r = self.inner.run(program, stdin, limits);
        add_elapsed(&self.run_ns, t);
        self.runs.fetch_add(1, Ordering::Relaxed);
        r
    }

    fn run_test(
        &self,
        program: &E::Program,
        input: &Path,
        files: &FileIo,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let t = Instant::now();
        let r = self.inner.run_test(program, input, files, limits);
        add_elapsed(&self.run_ns, t);
        self.runs.fetch_add(1, Ordering::Relaxed);
        r
    }

    fn run_validator(
        &self,
        program: &E::Program,
        call: &super::ValidatorCall,
    ) -> Result<RunReport, ExecutorError> {
        let t = Instant::now();
        let r = self.inner.run_validator(program, call);
        add_elapsed(&self.run_ns, t);
        r
    }

    fn run_interactive(
        &self,
        program: &E::Program,
        validator: &E::Program,
        call: &super::InteractiveCall,
    ) -> Result<super::InteractiveReport, ExecutorError> {
        let t = Instant::now();
        let r = self.inner.run_interactive(program, validator, call);
        add_elapsed(&self.run_ns, t);
        self.runs.fetch_add(1, Ordering::Relaxed);
        r
    }
}
