//! [`Sandbox`]: one worker slot's entry point. Prepares the box on the host, hands it to
//! the helper process, reads the outcome back and tears everything down.
//!
//! `setup.rs`: making a slot's sandbox on the host and undoing it when it is dropped.

use std::os::fd::{AsRawFd, BorrowedFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::ahead::Ahead;
use super::boxdir::{self, RunDir};
use super::boxfs::BoxFs;
use super::cgroup::{Cgroup, CgroupError, CgroupLimits, CgroupManager};
use super::error::SandboxError;
use super::helper_link::HelperLink;
use super::probe::Capabilities;
use super::rlimits::RlimitPlan;
use super::rootfs::Devices;
use super::slots::SlotLease;
use super::spec::BoxSpec;
use super::status::{classify, Facts};
use super::{RunReport, RunRequest};
use crate::config::SandboxConfig;

mod setup;

/// Per-run settings beyond [`super::Limits`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Largest file the program may write (RLIMIT_FSIZE); default: the output limit + 1.
    /// Compiles need more (the binary they write).
    pub file_size_bytes: Option<u64>,
    /// What `/dev` offers; compiles get `null` alone.
    pub devices: Devices,
}

/// One worker slot's sandbox: its uid/gid, its cgroups, its long-lived helper process.
///
/// `Send + Sync`; [`Sandbox::run`] blocks, so call it from `spawn_blocking`. Runs of one
/// sandbox are serialized (one worker per slot). Dropping it stops the helper and removes
/// the slot's cgroup.
#[derive(Debug)]
pub struct Sandbox {
    config: SandboxConfig,
    slot: u32,
    uid: u32,
    gid: u32,
    /// The slot's helper process, started on first use.
    helper: HelperLink,
    cgroups: Option<CgroupManager>,
    /// cgroup v1: the slot's reused cgroup the helper lives in (no per-run migration).
    slot_cgroup: Option<Cgroup>,
    /// cgroup v1: one cgroup per waiting box of the slot ([`super::WAITING_BOXES`]), made
    /// and removed with the slot's.
    box_cgroups: Vec<Cgroup>,
    capabilities: Capabilities,
    name: String,
    /// Empty folder on which the helper builds the slot's root template (in its own mount
    /// namespace; the host only ever sees the empty folder).
    template: PathBuf,
    seq: AtomicU64,
    /// The next run's file system made while the judge reads the last report (isolated
    /// runs only; `None` if its thread could not start).
    ahead: Option<Ahead>,
    /// The slot is this sandbox's alone, host-wide, while it lives (dropped last).
    _lease: SlotLease,
}

/// How long [`Sandbox::new`] waits for another process to free the slot asked for.
pub const SLOT_WAIT: Duration = Duration::from_secs(120);

/// Size of a box's own file system when `box_tmpfs_mb = 0` (its pages are charged to the
/// run's memory limit as they are written, so this only caps one run's files).
const DEFAULT_BOX_MB: u64 = 1024;

/// Name of the copy of the input in a box with a file system of its own (`/box/.input`).
const STDIN_NAME: &str = ".input";

/// Environment every program starts with (the request adds to it).
const BASE_ENV: &[(&str, &str)] = &[
    ("PATH", "/usr/local/bin:/usr/bin:/bin"),
    ("HOME", "/box"),
    ("TMPDIR", "/tmp"),
    ("LANG", "C.UTF-8"),
];

impl Sandbox {
    /// The sandbox of slot `slot`, once no other process holds it (waits up to
    /// [`SLOT_WAIT`]); see [`Sandbox::any`] for the usual case.
    pub fn new(config: &SandboxConfig, slot: u32) -> Result<Sandbox, SandboxError> {
        Self::with_lease(config, SlotLease::wait_for(config, slot, SLOT_WAIT)?)
    }

    /// The sandbox of the lowest slot free on this host.
    pub fn any(config: &SandboxConfig) -> Result<Sandbox, SandboxError> {
        Self::with_lease(config, SlotLease::first_free(config)?)
    }

    /// A second sandbox on the lowest other slot free on this host, with the same
    /// settings and helper binary: the box a program talks to (an interactive problem's
    /// validator) runs there, as another uid in cgroups of its own.
    pub fn partner(&self) -> Result<Sandbox, SandboxError> {
        let mut other = Sandbox::any(&self.config)?;
        other.helper.set_path(self.helper.path().to_path_buf());
        Ok(other)
    }

    /// Uses `path` as the helper binary (the `sudojudge` executable). Tests and other
    /// binaries embedding the library need this; the default is the running executable.
    pub fn set_helper(&mut self, path: impl Into<PathBuf>) {
        self.helper.set_path(path.into());
    }

    /// Where box folders live: a private (0700) folder of the judge, on a tmpfs unless
    /// `box_tmpfs_mb = 0`. Compiled programs are kept here too, so they can be hard-linked
    /// into boxes.
    pub fn box_root(&self) -> &std::path::Path {
        &self.config.box_root
    }

    /// Whether the next run's file system is made while the judge reads the last report
    /// (on by default; off, every run makes its own on its path, as before: for benches).
    pub fn set_make_ahead(&mut self, on: bool) {
        match (on, self.ahead.is_some()) {
            (false, _) => self.ahead = None,
            (true, false) => self.ahead = Ahead::new().ok(),
            (true, true) => {}
        }
    }

    /// The slot's uid (and gid) boxed programs run as.
    pub fn uid(&self) -> u32 {
        self.uid
    }

    /// The worker slot.
    pub fn slot(&self) -> u32 {
        self.slot
    }

    /// Whether runs are rlimit-only (every report then has `degraded = true`).
    pub fn degraded(&self) -> bool {
        !self.capabilities.isolated
    }

    /// What the host offered when this sandbox was made.
    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    /// Runs `request` in a fresh box and waits for it. `Err` only for the judge's faults.
    pub fn run(&self, request: &RunRequest) -> Result<RunReport, SandboxError> {
        self.run_with(request, RunOptions::default())
    }

    /// [`Sandbox::run`] with per-run options.
    pub fn run_with(
        &self,
        request: &RunRequest,
        options: RunOptions,
    ) -> Result<RunReport, SandboxError> {
        self.run_inner(request, options, None)
    }

    /// [`Sandbox::run`] with the program's stdin and stdout on the descriptors `pipes`
    /// (pipes to a program in another box, see [`super::pair`]) instead of files:
    /// `request.stdin` is not used and the report's stdout is empty. The descriptors must
    /// stay open until this returns (the helper takes copies of them).
    pub fn run_piped(
        &self,
        request: &RunRequest,
        pipes: (BorrowedFd<'_>, BorrowedFd<'_>),
    ) -> Result<RunReport, SandboxError> {
        self.run_inner(request, RunOptions::default(), Some(pipes))
    }

    fn run_inner(
        &self,
        request: &RunRequest,
        options: RunOptions,
        pipes: Option<(BorrowedFd<'_>, BorrowedFd<'_>)>,
    ) -> Result<RunReport, SandboxError> {
        if request.argv.is_empty() {
            return Err(SandboxError::Request("empty argv".into()));
        }
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let name = format!("{}-{}", self.name, seq);
        let ahead = match (&self.ahead, self.degraded()) {
            (Some(ahead), false) => Some(ahead),
            _ => None,
        };
        let made_ahead = ahead.and_then(|a| a.take(&request.files));
        // Compiles (their own `/dev`) are one of a kind: nothing is made ahead after them.
        let repeats = options.devices == Devices::Standard;
        if let (Some(ahead), None, true) = (ahead, &made_ahead, repeats) {
            // None was made for this run (a new program): the next run's box, made with
            // the same files while this one runs, so a run started right after this one
            // does not wait for it.
            ahead.order(
                &self.config.box_root,
                || self.next_name(),
                self.box_fs(),
                &request.files,
                true,
            );
        }
        let run_dir = match made_ahead {
            Some(dir) => dir,
            None => {
                let dir = if self.degraded() {
                    RunDir::create(&self.config.box_root, &name, self.uid, self.gid)?
                } else {
                    RunDir::create_with_fs(&self.config.box_root, &name, &self.box_fs())?
                };
                for (in_box, host) in &request.files {
                    dir.copy_in(in_box, host)?;
                }
                dir
            }
        };
        // A box with a file system of its own reads its input from a copy in it, so nothing
        // in the box (`/proc/self/fd/0`) names the host path of the judge's test data.
        let outputs = run_dir.output_files()?;
        let stdin_in_box = match (&request.stdin, run_dir.mount_fd()) {
            (Some(host), Some(_)) if pipes.is_none() => {
                run_dir.copy_in(STDIN_NAME, host)?;
                Some(STDIN_NAME.to_string())
            }
            _ => None,
        };
        let per_run = match (&self.slot_cgroup, &self.cgroups) {
            (None, Some(m)) => Some(CgroupGuard(m.create(
                &name,
                CgroupLimits {
                    memory_bytes: request.limits.memory_bytes,
                    max_processes: request.limits.max_processes,
                },
            )?)),
            _ => None,
        };
        let cgroup = match (&self.slot_cgroup, &per_run) {
            (Some(shared), _) => Some(shared.clone()),
            (None, Some(g)) => Some(g.0.clone()),
            (None, None) => None,
        };
        let limits = &request.limits;
        let file_size = options
            .file_size_bytes
            .unwrap_or(limits.output_bytes.saturating_add(1))
            .max(limits.output_bytes.saturating_add(1));
        let degraded = self.degraded();
        let mut env: Vec<(String, String)> = BASE_ENV
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if degraded {
            for (k, v) in env.iter_mut() {
                if k == "HOME" {
                    *v = run_dir.box_path().display().to_string();
                }
            }
        }
        for (k, v) in &request.env {
            env.retain(|(ek, _)| ek != k);
            env.push((k.clone(), v.clone()));
        }
        let spec = BoxSpec {
            argv: request.argv.clone(),
            env,
            box_dir: run_dir.box_path(),
            box_fs_fd: run_dir.mount_fd(),
            root_dir: self.template.clone(),
            stdin: match pipes {
                Some(_) => PathBuf::from("/dev/null"),
                None => request
                    .stdin
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("/dev/null")),
            },
            pipe_fds: pipes.map(|(i, o)| (i.as_raw_fd(), o.as_raw_fd())),
            stdin_in_box,
            output_fds: outputs
                .as_ref()
                .map(|(o, e)| (o.as_raw_fd(), e.as_raw_fd())),
            stdout: run_dir.stdout_path(),
            stderr: run_dir.stderr_path(),
            mounts: self.config.mounts.clone(),
            tmp_size_mb: self.config.tmp_size_mb,
            inodes: self.config.box_inodes,
            devices: options.devices,
            uid: self.uid,
            gid: self.gid,
            cpu_limit_ms: limits.cpu_time_ms,
            wall_limit_ms: limits.wall_time_ms,
            rlimits: RlimitPlan::new(limits, file_size, degraded),
            cgroup,
            shared_cgroup: self.slot_cgroup.is_some(),
            box_cgroups: self.box_cgroups.clone(),
            isolate: !degraded,
        };
        let started = Instant::now();
        let report = self.helper.call(&spec)?;
        let helper_wall = started.elapsed();

        let ((stdout, stdout_len), (stderr, stderr_len)) = match &outputs {
            Some((out, err)) => (
                boxdir::read_capped_file(out, limits.output_bytes)?,
                boxdir::read_capped_file(err, limits.output_bytes)?,
            ),
            None => (
                boxdir::read_capped(&run_dir.stdout_path(), limits.output_bytes)?,
                boxdir::read_capped(&run_dir.stderr_path(), limits.output_bytes)?,
            ),
        };
        for (in_box, dest) in &request.collect {
            run_dir.collect(in_box, dest, file_size)?;
        }
        let status = classify(&Facts {
            report: &report,
            limits,
            stdout_len,
            stderr_len,
        });
        if let Some(g) = per_run {
            g.finish()?;
        }
        run_dir.remove()?;
        if let Some(ahead) = ahead {
            // Off the run's path: this box freed by the thread, and the next runs' made
            // (after this report: nothing runs beside a run whose box waits ready).
            drop(outputs);
            ahead.dispose(run_dir);
            if repeats {
                ahead.order(
                    &self.config.box_root,
                    || self.next_name(),
                    self.box_fs(),
                    &request.files,
                    false,
                );
            }
        }
        let wall_ms = if report.wall_us > 0 {
            report.wall_us.div_ceil(1000)
        } else {
            helper_wall.as_millis() as u64
        };
        Ok(RunReport {
            status,
            exit_code: report.exit_code,
            signal: report.signal,
            time_ms: report.cpu_ns / 1_000_000,
            wall_ms,
            memory_kib: report.memory_peak_bytes / 1024,
            stdout,
            stderr,
            degraded,
        })
    }

    /// A box name no other run of this sandbox had.
    fn next_name(&self) -> String {
        format!("{}-{}", self.name, self.seq.fetch_add(1, Ordering::Relaxed))
    }

    /// Bounds of each box's own file system.
    fn box_fs(&self) -> BoxFs {
        BoxFs {
            size_mb: match self.config.box_tmpfs_mb {
                0 => DEFAULT_BOX_MB,
                mb => mb,
            },
            inodes: self.config.box_inodes,
            uid: self.uid,
            gid: self.gid,
        }
    }
}

/// Removes the run's cgroup even when the run fails half-way.
struct CgroupGuard(Cgroup);

impl CgroupGuard {
    fn finish(self) -> Result<(), CgroupError> {
        let result = self.0.remove();
        std::mem::forget(self);
        result
    }
}

impl Drop for CgroupGuard {
    fn drop(&mut self) {
        let _ = self.0.remove();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Sandbox>();
    }
}
