//! What the judge hands to the single-threaded helper, and what the helper hands back (both
//! travel as JSON over the helper's stdin and stdout); and what the helper, the box's init and
//! the program share of one run: the protocol descriptors, the descriptors taken from the
//! judge, the program's open files.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::cgroup::Cgroup;
use super::rlimits::RlimitPlan;
use super::rootfs::Devices;

/// Everything the helper needs to run one program in one box.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BoxSpec {
    /// The program and its arguments, as seen inside the box.
    pub argv: Vec<String>,
    /// The complete environment of the program.
    pub env: Vec<(String, String)>,
    /// Host folder mounted at `/box` (the working folder) when `box_fs_fd` is `None`.
    pub box_dir: PathBuf,
    /// The judge's descriptor of the box's own file system (see `boxfs`): the helper takes
    /// a copy and the init attaches it at `/box` instead of `box_dir`.
    #[serde(default)]
    pub box_fs_fd: Option<i32>,
    /// Empty host folder on which the helper builds the slot's root template (once).
    pub root_dir: PathBuf,
    /// Host file on stdin.
    pub stdin: PathBuf,
    /// Instead of `stdin`: a file of the box's own file system (`box_fs_fd`), by name.
    #[serde(default)]
    pub stdin_in_box: Option<String>,
    /// Host file created for stdout (outside the box), unless `outputs_fds` is set.
    pub stdout: PathBuf,
    /// The judge's descriptors of the program's stdout and stderr, unnamed files in the
    /// box's own file system: the helper takes copies instead of creating `stdout`/`stderr`.
    #[serde(default)]
    pub output_fds: Option<(i32, i32)>,
    /// Host file created for stderr (outside the box).
    pub stderr: PathBuf,
    /// The judge's descriptors of the program's stdin and stdout when they are pipes to
    /// another box (an interactive run): the helper takes copies instead of `stdin` and
    /// the stdout file.
    #[serde(default)]
    pub pipe_fds: Option<(i32, i32)>,
    /// Read-only bind mounts.
    pub mounts: Vec<PathBuf>,
    /// Size of the box's `/tmp`.
    pub tmp_size_mb: u64,
    /// Inodes of the box's `/tmp` (and of `/box`, set by the judge).
    pub inodes: u64,
    /// What the box's `/dev` holds.
    pub devices: Devices,
    /// uid the program runs as.
    pub uid: u32,
    /// gid the program runs as.
    pub gid: u32,
    /// CPU limit the supervisor enforces from the cgroup counter.
    pub cpu_limit_ms: u64,
    /// Wall-clock limit.
    pub wall_limit_ms: u64,
    /// rlimits set just before exec.
    pub rlimits: RlimitPlan,
    /// The run's cgroup; `None` in degraded mode.
    pub cgroup: Option<Cgroup>,
    /// The cgroup is the slot's reused one and the helper already lives in it (cgroup v1:
    /// children inherit it, no migration); otherwise the program joins a per-run cgroup.
    pub shared_cgroup: bool,
    /// cgroup v1: one cgroup per waiting box of the slot (`<slot cgroup>.box<i>`, see
    /// `waiting`), made with the slot's: each waiting box's init and its runs live in
    /// their own, so a box is reclaimed between its runs while another serves the next one.
    #[serde(default)]
    pub box_cgroups: Vec<Cgroup>,
    /// Namespaces, new root, seccomp; `false` only in degraded mode.
    pub isolate: bool,
}

/// Why the supervisor stopped a run early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kill {
    /// The cgroup's CPU counter passed the limit.
    Cpu,
    /// The wall-clock limit passed.
    Wall,
}

/// What the helper observed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HelperReport {
    /// Exit code of the program, when it exited.
    pub exit_code: Option<i32>,
    /// Signal that ended the program.
    pub signal: Option<i32>,
    /// Set when the supervisor killed the run.
    pub killed: Option<Kill>,
    /// Wall-clock time of the program, in microseconds.
    pub wall_us: u64,
    /// CPU time (cgroup, else rusage), in nanoseconds.
    pub cpu_ns: u64,
    /// Peak memory (cgroup, else rusage maxrss), in bytes.
    pub memory_peak_bytes: u64,
    /// OOM kills the cgroup saw.
    pub oom_kills: u64,
    /// Whether the figures come from a cgroup (false: rusage fallback).
    pub from_cgroup: bool,
}

/// What the box's init (PID 1) tells the helper about the program.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InitOutcome {
    /// `wait4` status of the program.
    pub wait_status: i32,
    /// Wall-clock time of the program, in microseconds.
    pub wall_us: u64,
    /// rusage CPU of the program and its reaped children, in nanoseconds.
    pub rusage_cpu_ns: u64,
    /// rusage maxrss, in KiB.
    pub rusage_maxrss_kib: u64,
    /// CPU the init itself used (set-up, reaping), subtracted from a shared cgroup's figure.
    pub init_cpu_ns: u64,
    /// Set when the set-up in the box or the exec failed (the judge's fault).
    pub error: Option<String>,
}

/// The helper's protocol descriptors, moved away from 0 and 1 so the box never inherits them.
pub(super) struct Protocol {
    pub(super) input: std::io::BufReader<File>,
    pub(super) output: File,
}

/// What the helper took from the judge for one run (see [`super::boxfs`]).
#[derive(Default)]
pub(super) struct FromJudge {
    /// The box's own file system, to attach at `/box`.
    pub(super) box_fs: Option<OwnedFd>,
    /// The program's stdout and stderr (unnamed files in that file system).
    pub(super) outputs: Option<(File, File)>,
    /// The program's stdin and stdout, pipes to another box.
    pub(super) pipes: Option<(File, File)>,
}

/// The open files the program gets.
pub(super) struct ProgramIo<'a> {
    /// `cgroup.procs` files the program joins before exec, unless it starts in its cgroup.
    pub(super) procs: &'a [File],
    /// The per-run cgroup's folder (v2): the program starts there
    /// (`clone3.rs`) when the kernel can.
    pub(super) cgroup_dir: Option<&'a File>,
    pub(super) stdin: &'a File,
    pub(super) stdout: &'a File,
    pub(super) stderr: &'a File,
}
