//! Linux isolation for untrusted code: every compile and every run gets a fresh box.
//!
//! One file per kernel concern (namespaces, mounts, cgroup v1 / v2, rlimits, seccomp, the
//! in-box init). The sandbox knows nothing of problems or languages: it runs an argv in a box
//! under [`Limits`] and reports a [`RunReport`].
//!
//! The judge process may be multi-threaded (tokio), so it never forks itself: [`Sandbox::run`]
//! execs the single-threaded helper (`sudojudge __sandbox-init`, see [`helper`]) which does
//! every namespace, mount, cgroup and credential change and reports back as JSON.
//!
//! Module map:
//! - [`Sandbox`] (`runner.rs`): one worker slot: box folder, cgroup, the helper process
//!   (`runner/setup.rs`: the slot made on the host, and undone when dropped);
//!   `helper_link.rs`: starting that process and the line exchange with it; `ahead.rs`: the
//!   next run's file system made while the current run goes on;
//!   [`SandboxError`] (`error.rs`): the judge's own faults while running a box.
//! - [`helper`]: the per-slot helper; [`init`]: the box's PID 1; [`exec`]: the program's
//!   exec (`clone3.rs`: started directly in its cgroup on v2); [`supervise`]: one run on the helper's side (`watch.rs`: waiting for it within
//!   its limits); [`spec`]: what the judge and the helper exchange; `waiting.rs` and
//!   `waiting_init.rs`: the slot's boxes made ahead of their runs ([`WAITING_BOXES`] of
//!   them, used in turn) and reused, each made fresh between its runs.
//! - [`namespaces`], [`rootfs`], [`rlimits`], [`seccomp`]: one kernel concern each.
//! - [`cgroup`]: v1 and v2 drivers, testable against fake cgroupfs trees.
//! - [`boxdir`]: host-side box folders, link-safe copying in and out; [`boxfs`]: each box's
//!   own inode-bounded tmpfs.
//! - [`status`]: how observations become a [`RunStatus`]; [`mod@probe`]: what the host offers.
//! - [`pair`]: two programs in two boxes connected by pipes (interactive problems).
//! - [`slots`]: host-wide slot leases, so processes never share a slot's uid and cgroups;
//!   `stale.rs`: sweeping what a judge process that died left behind.

pub mod boxdir;
pub mod boxfs;
pub mod cgroup;
mod clone3;
pub mod exec;
pub mod helper;
pub mod init;
pub mod namespaces;
pub mod pair;
pub mod probe;
pub mod rlimits;
pub mod rootfs;
pub mod seccomp;
pub mod slots;
pub mod spec;
pub mod status;
pub mod supervise;
mod waiting;
mod waiting_init;
mod watch;

mod ahead;
mod error;
mod helper_link;
mod runner;
mod stale;

pub use error::SandboxError;
pub use helper::helper_main;
pub use probe::{probe, Capabilities};
pub use runner::{RunOptions, Sandbox, SLOT_WAIT};
pub use waiting::WAITING_BOXES;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Resource limits for one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// CPU time summed over every thread and process of the run.
    pub cpu_time_ms: u64,
    /// Wall-clock time from start to the last process's exit.
    pub wall_time_ms: u64,
    /// Memory (RSS + page cache charged to the run), swap off.
    pub memory_bytes: u64,
    /// Bytes of stdout kept; more ends the run as `output_limit`. Stderr is capped likewise.
    pub output_bytes: u64,
    /// Processes and threads alive at once.
    pub max_processes: u32,
}

/// How a run ended, as far as the sandbox can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Exited with code 0 within every limit.
    Ok,
    /// Non-zero exit or killed by a signal that is not a limit.
    RuntimeError,
    /// CPU or wall time limit.
    TimeLimit,
    /// Memory limit (including OOM kills).
    MemoryLimit,
    /// Output limit.
    OutputLimit,
}

impl RunStatus {
    /// The status's name in the `run --json` object (`ok`, `runtime_error`, ...).
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::RuntimeError => "runtime_error",
            RunStatus::TimeLimit => "time_limit",
            RunStatus::MemoryLimit => "memory_limit",
            RunStatus::OutputLimit => "output_limit",
        }
    }
}

/// What to run in a fresh box.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The program and its arguments, resolved inside the box (`/box` is the working directory).
    pub argv: Vec<String>,
    /// Host files copied into the box directory before the run: (name in box, host path).
    pub files: Vec<(String, PathBuf)>,
    /// Host file fed to stdin; `/dev/null` when `None`.
    pub stdin: Option<PathBuf>,
    /// Extra environment variables on top of the clean default environment.
    pub env: Vec<(String, String)>,
    /// Limits for this run.
    pub limits: Limits,
    /// Files copied out of the box after the run: (name in box, host destination).
    pub collect: Vec<(String, PathBuf)>,
}

/// What happened in one run.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// How the run ended.
    pub status: RunStatus,
    /// Exit code when the process exited normally.
    pub exit_code: Option<i32>,
    /// Signal number when the process was killed by a signal.
    pub signal: Option<i32>,
    /// CPU time of every thread and process of the run.
    pub time_ms: u64,
    /// Wall-clock time.
    pub wall_ms: u64,
    /// Peak memory.
    pub memory_kib: u64,
    /// Captured stdout, at most `output_bytes`.
    #[serde(skip)]
    pub stdout: Vec<u8>,
    /// Captured stderr, capped.
    #[serde(skip)]
    pub stderr: Vec<u8>,
    /// Set when the run was not fully isolated (rlimit-only mode allowed by config).
    pub degraded: bool,
}
