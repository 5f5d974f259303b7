//! The judge: compile once, run every test in order, check each output, aggregate a verdict.
//!
//! - [`verdict`]: the verdicts and their aggregation (first non-AC, score, maxima).
//! - [`report`]: the per-test and per-submission results (the `judge --json` object).
//! - [`executor`]: the small trait the judge needs from the sandbox.
//! - [`pipeline`]: the judging itself over an executor.
//! - [`file_io`]: the file step of a test run, for packages naming input and output files.
//! - [`pool`]: many sources judged in parallel, one judge (sandbox slot) per task.
//! - [`table`]: the human-readable table.
//! - [`validate`]: a package's output validator program, run in a box of its own.
//! - [`stderr_tail`]: the last lines of a run-time error's stderr, bounded.
//! - [`interactive`]: an interactive problem's test: the submission and its validator
//!   talking through pipes, and the verdict the Kattis format gives.
//! - [`grading`]: a scoring problem's groups evaluated over the tests' results.
//! - [`points`]: a package's score, a finite number.
//! - [`max_score`]: a problem's full score (100, or a scoring package's maximum).
//! - [`timed`]: an executor wrapper adding up compile and run wall times (benchmarks).

pub mod custom;
pub mod executor;
pub mod file_io;
pub mod grading;
pub mod interactive;
pub mod max_score;
mod one_test;
pub mod pipeline;
pub mod points;
pub mod pool;
pub mod report;
pub mod sandboxed;
pub mod stderr_tail;
pub mod table;
pub mod timed;
pub mod validate;
pub mod verdict;

pub use custom::{run_limits, CustomRun, RunResult, RunnerPool};
pub use executor::{
    CacheUse, Compilation, Executor, ExecutorError, InteractiveCall, InteractiveReport,
    ValidatorCall,
};
pub use grading::GroupResult;
pub use pipeline::{Compiled, Interrupted, Judge, JudgeMode, JudgeSettings};
pub use points::Points;
pub use pool::run_jobs;
pub use report::{CompileInfo, JudgeReport, TestResult};
pub use sandboxed::SandboxExecutor;
pub use timed::Timed;
pub use verdict::Verdict;

#[cfg(test)]
pub(crate) mod tests;
