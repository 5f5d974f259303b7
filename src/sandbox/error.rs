//! [`SandboxError`]: what goes wrong on the judge's side while running a box.

use std::path::PathBuf;

use super::boxdir::BoxDirError;
use super::cgroup::CgroupError;
use super::slots::SlotError;

/// The judge's own faults while running a box (a submission's misbehaviour is never one).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The host cannot isolate runs and the config does not allow degraded mode.
    #[error("the sandbox cannot isolate runs on this host; missing: {}", .0.join("; "))]
    Unavailable(Vec<String>),
    /// A box folder or file could not be handled.
    #[error(transparent)]
    BoxDir(#[from] BoxDirError),
    /// A cgroup could not be created, read or removed.
    #[error(transparent)]
    Cgroup(#[from] CgroupError),
    /// The helper process could not be started or talked to.
    #[error("sandbox helper {path}: {source}")]
    Helper {
        /// The helper binary.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The helper answered with something that is not a report.
    #[error("sandbox helper gave no report (exit {status}): {output}")]
    HelperOutput {
        /// Its exit status.
        status: String,
        /// What it printed (stdout then stderr), truncated.
        output: String,
    },
    /// Setting up the box failed inside the helper.
    #[error("sandbox set-up failed: {0}")]
    Setup(String),
    /// The request itself is unusable (empty argv, NUL bytes, a path as a file name).
    #[error("invalid run request: {0}")]
    Request(String),
    /// No sandbox slot could be leased.
    #[error(transparent)]
    Slot(#[from] SlotError),
}
