//! Custom invocation: compile a source and run it once on a given stdin, no problem attached
//! (`POST /api/runs`). Limits come from the `[run]` section of the config.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::sandbox::{Limits, RunReport};

use super::executor::{CacheUse, Compilation, Executor, ExecutorError};
use super::report::{truncate_log, CompileInfo};

/// The result of one custom run (the `run --json` object of the design notes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RunResult {
    /// ok, runtime_error, time_limit, memory_limit, output_limit, compile_error, system_error.
    pub status: String,
    /// Exit code when the program exited.
    pub exit_code: Option<i32>,
    /// Signal number when it was killed by one.
    pub signal: Option<i32>,
    /// CPU time.
    pub time_ms: u64,
    /// Wall-clock time.
    pub wall_ms: u64,
    /// Peak memory.
    pub memory_kib: u64,
    /// Standard output (lossy UTF-8), capped at the output limit.
    pub stdout: String,
    /// Standard error (lossy UTF-8), capped.
    pub stderr: String,
    /// The compile step.
    pub compile: CompileInfo,
    /// The cause of a `system_error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Set when the run was not isolated (rlimit-only mode allowed by the config).
    #[serde(default)]
    pub degraded: bool,
}

impl RunResult {
    /// The result of a program that compiled and ran, from the sandbox's report.
    pub fn from_report(report: &RunReport, compile: CompileInfo) -> RunResult {
        RunResult {
            status: report.status.name().to_string(),
            exit_code: report.exit_code,
            signal: report.signal,
            time_ms: report.time_ms,
            wall_ms: report.wall_ms,
            memory_kib: report.memory_kib,
            stdout: String::from_utf8_lossy(&report.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&report.stderr).into_owned(),
            compile,
            message: None,
            degraded: report.degraded,
        }
    }

    /// The result of a source that did not compile, with the compiler's log.
    pub fn compile_error(log: &str) -> RunResult {
        RunResult::not_run(
            "compile_error",
            CompileInfo {
                ok: false,
                log: truncate_log(log),
                cached: false,
            },
            None,
        )
    }

    fn not_run(status: &str, compile: CompileInfo, message: Option<String>) -> RunResult {
        RunResult {
            status: status.to_string(),
            exit_code: None,
            signal: None,
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            stdout: String::new(),
            stderr: String::new(),
            compile,
            message,
            degraded: false,
        }
    }
}

/// The limits of a custom run: the `[run]` section, with optional CPU time (ms) and memory
/// (MiB) overrides (`sudojudge run --time-limit/--memory-limit`); wall = `wall_factor` x CPU.
pub fn run_limits(
    config: &Config,
    time_limit_ms: Option<u64>,
    memory_limit_mb: Option<u64>,
) -> Limits {
    let cpu = time_limit_ms.unwrap_or(config.run.time_limit_ms);
    Limits {
        cpu_time_ms: cpu,
        wall_time_ms: cpu.saturating_mul(config.sandbox.wall_factor.max(1)),
        memory_bytes: memory_limit_mb
            .unwrap_or(config.run.memory_limit_mb)
            .saturating_mul(1024 * 1024),
        output_bytes: config.run.output_limit_kib.saturating_mul(1024),
        max_processes: config.sandbox.max_processes,
    }
}

/// Runs custom invocations on a fixed set of executors (sandbox slots), one run per slot.
pub struct RunnerPool<E: Executor> {
    slots: Mutex<Vec<Arc<E>>>,
    size: usize,
    limits: Limits,
}

impl<E: Executor> RunnerPool<E> {
    /// A pool over `slots` with the `[run]` limits of `config`.
    pub fn new(slots: Vec<Arc<E>>, config: &Config) -> RunnerPool<E> {
        let limits = run_limits(config, None, None);
        RunnerPool {
            size: slots.len(),
            slots: Mutex::new(slots),
            limits,
        }
    }

    /// How many runs can go at once (callers bound concurrency with a semaphore this size).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Compiles and runs once (blocking: call from `spawn_blocking`).
    pub fn run(&self, language: &str, source: &[u8], stdin: &[u8]) -> RunResult {
        let slot = match self.slots.lock() {
            Ok(mut slots) => slots.pop(),
            Err(_) => None,
        };
        let Some(executor) = slot else {
            return system_error("no free sandbox slot for the run".into());
        };
        let result = self.run_on(&executor, language, source, stdin);
        if let Ok(mut slots) = self.slots.lock() {
            slots.push(executor);
        }
        result
    }

    /// Runs `f` on a free slot of the pool (`None`: none is free), for other sandboxed work
    /// the custom-run slots share: an uploaded package's validators (blocking).
    pub fn with_slot<R>(&self, f: impl FnOnce(&E) -> R) -> Option<R> {
        let executor = self.slots.lock().ok()?.pop()?;
        let result = f(&executor);
        if let Ok(mut slots) = self.slots.lock() {
            slots.push(executor);
        }
        Some(result)
    }

    fn run_on(&self, executor: &E, language: &str, source: &[u8], stdin: &[u8]) -> RunResult {
        let program = match executor.compile(language, source) {
            Err(ExecutorError(cause)) => return system_error(format!("compile: {cause}")),
            Ok(Compilation::Failed { log, .. }) => return RunResult::compile_error(&log),
            Ok(Compilation::Ready {
                program,
                log,
                cache,
            }) => (program, truncate_log(&log), cache),
        };
        let (program, log, cache) = program;
        let compile = CompileInfo {
            ok: true,
            log,
            cached: cache == CacheUse::Hit,
        };
        let mut file = match tempfile::NamedTempFile::new() {
            Ok(f) => f,
            Err(e) => return system_error(format!("cannot create the stdin file: {e}")),
        };
        if let Err(e) = file.write_all(stdin).and_then(|()| file.flush()) {
            return system_error(format!("cannot write the stdin file: {e}"));
        }
        match executor.run(&program, file.path(), self.limits) {
            Err(ExecutorError(cause)) => {
                RunResult::not_run("system_error", compile, Some(format!("sandbox: {cause}")))
            }
            Ok(report) => RunResult::from_report(&report, compile),
        }
    }
}

fn system_error(cause: String) -> RunResult {
    RunResult::not_run(
        "system_error",
        CompileInfo {
            ok: false,
            log: String::new(),
            cached: false,
        },
        Some(cause),
    )
}

/// A custom-run pool with its executor type erased, for the HTTP server's state.
pub trait CustomRun: Send + Sync + 'static {
    /// Compiles and runs once (blocking).
    fn run(&self, language: &str, source: &[u8], stdin: &[u8]) -> RunResult;
    /// How many runs can go at once.
    fn size(&self) -> usize;
}

impl<E: Executor> CustomRun for RunnerPool<E> {
    fn run(&self, language: &str, source: &[u8], stdin: &[u8]) -> RunResult {
        RunnerPool::run(self, language, source, stdin)
    }

    fn size(&self) -> usize {
        RunnerPool::size(self)
    }
}
