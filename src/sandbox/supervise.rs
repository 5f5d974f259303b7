//! One run, on the helper's side: open the run's files, reset the cgroup, clone the box's
//! init ([`super::init`]), supervise it (CPU from the cgroup, wall clock), reap it and turn
//! what it and the cgroup report into a [`HelperReport`].

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::unistd::Pid;

use super::cgroup::v1::{Baseline, V1Files};
use super::cgroup::{open_procs, Cgroup};
use super::init::init_main;
use super::seccomp;
use super::spec::{BoxSpec, FromJudge, HelperReport, InitOutcome, Kill, ProgramIo, Protocol};
use super::watch::{helper_cpu, self_cpu_ns, watch, Watched};

fn open_output(path: &Path) -> Result<File, String> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| format!("creating {}: {e}", path.display()))
}

/// Opens `name` (read-only, not following links) in the box's own file system.
fn open_in(fs: BorrowedFd<'_>, name: &str) -> Result<File, String> {
    let c = std::ffi::CString::new(name).map_err(|_| format!("NUL byte in {name:?}"))?;
    // SAFETY: openat(2) relative to the box's root with a NUL-terminated name.
    let fd = unsafe {
        libc::openat(
            fs.as_raw_fd(),
            c.as_ptr(),
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(format!(
            "opening /box/{name}: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: the kernel just returned this fd to us.
    Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// Clones the box's init: fork semantics, plus fresh PID, mount, IPC and UTS namespaces
/// when isolating. Returns 0 in the child.
pub(super) fn clone_init(isolate: bool) -> Result<i32, String> {
    let mut flags = libc::SIGCHLD as libc::c_long;
    if isolate {
        flags |= (libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS)
            as libc::c_long;
    }
    // SAFETY: clone(2) without CLONE_VM and with a null stack behaves like fork(2); this
    // helper is single-threaded.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, 0, 0, 0, 0) };
    if pid < 0 {
        return Err(format!("clone: {}", std::io::Error::last_os_error()));
    }
    Ok(pid as i32)
}

/// The program's stdin, stdout and stderr for one run: pipes or files taken from the judge,
/// the input's copy in the box's own file system, else host files.
pub(super) fn program_files(
    spec: &BoxSpec,
    taken: &FromJudge,
) -> Result<(File, File, File), String> {
    let box_fs = taken.box_fs.as_ref().map(|f| f.as_fd());
    let stdin = match (&taken.pipes, &spec.stdin_in_box, box_fs) {
        (Some((input, _)), _, _) => input.try_clone().map_err(|e| format!("dup stdin: {e}"))?,
        (None, Some(name), Some(fs)) => open_in(fs, name)?,
        _ => File::open(&spec.stdin)
            .map_err(|e| format!("opening stdin {}: {e}", spec.stdin.display()))?,
    };
    let (stdout, stderr) = match &taken.outputs {
        Some((out, err)) => (
            out.try_clone().map_err(|e| format!("dup stdout: {e}"))?,
            err.try_clone().map_err(|e| format!("dup stderr: {e}"))?,
        ),
        None => (open_output(&spec.stdout)?, open_output(&spec.stderr)?),
    };
    let stdout = match &taken.pipes {
        Some((_, output)) => output.try_clone().map_err(|e| format!("dup stdout: {e}"))?,
        None => stdout,
    };
    Ok((stdin, stdout, stderr))
}

/// Resets a run's cgroup before it starts: on a reused v1 cgroup, counters and limits
/// (returns what the helper and a waiting init already hold, subtracted from the figures).
/// `reclaimed`: what earlier runs left charged was reclaimed already (a waiting box's own
/// cgroup, by its init), else it is reclaimed here when there is any.
pub(super) fn prepare_cgroup(
    spec: &BoxSpec,
    files: Option<&V1Files>,
    resident_processes: u32,
    reclaimed: bool,
) -> Result<Option<Baseline>, String> {
    match (&spec.cgroup, files) {
        (Some(Cgroup::V1(_)), Some(files)) if spec.shared_cgroup => {
            let limits = super::cgroup::CgroupLimits {
                memory_bytes: spec.rlimits.stack,
                max_processes: (spec.rlimits.processes as u32).saturating_add(resident_processes),
            };
            let baseline = match reclaimed {
                true => files.prepare_run_reclaimed(limits),
                false => files.prepare_run(limits),
            };
            Ok(Some(baseline.map_err(|e| e.to_string())?))
        }
        (Some(_), _) if spec.shared_cgroup => Err("a shared cgroup needs cgroup v1".into()),
        _ => Ok(None),
    }
}

/// Runs one box and reports; `Err` is the judge's fault (set-up), never the program's.
pub(super) fn run_box(
    spec: &BoxSpec,
    proto: &Protocol,
    files: Option<&V1Files>,
    taken: &FromJudge,
) -> Result<HelperReport, String> {
    let box_fs = taken.box_fs.as_ref().map(|f| f.as_fd());
    let shared = spec.shared_cgroup;
    let procs = match &spec.cgroup {
        Some(cg) if !shared => open_procs(&cg.procs_files()).map_err(|e| e.to_string())?,
        _ => Vec::new(),
    };
    let cgroup_dir = match &spec.cgroup {
        Some(cg) if !shared => cg.open_dir().map_err(|e| e.to_string())?,
        _ => None,
    };
    // The helper and the box's init live in the cgroup too.
    let baseline = prepare_cgroup(spec, files, 2, false)?;
    let (stdin, stdout, stderr) = program_files(spec, taken)?;
    let filter = spec.isolate.then(seccomp::program);
    let (res_r, res_w) = nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe2: {e}"))?;
    let self_cpu_before = self_cpu_ns();
    let start = Instant::now();
    let child = clone_init(spec.isolate)?;
    if child == 0 {
        drop(res_r);
        // SAFETY: the box must not hold the helper's protocol pipes.
        unsafe {
            libc::close(proto.input.get_ref().as_raw_fd());
            libc::close(proto.output.as_raw_fd());
        }
        let io = ProgramIo {
            procs: &procs,
            cgroup_dir: cgroup_dir.as_ref(),
            stdin: &stdin,
            stdout: &stdout,
            stderr: &stderr,
        };
        let mut outcome = init_main(spec, &io, filter.as_ref(), box_fs);
        outcome.init_cpu_ns = self_cpu_ns();
        let mut w = File::from(res_w);
        if let Ok(bytes) = serde_json::to_vec(&outcome) {
            let _ = w.write_all(&bytes);
        }
        drop(w);
        if !spec.isolate {
            // Degraded: take the program's process group (and this init) down.
            // SAFETY: kill(2) on our own process group.
            unsafe { libc::kill(0, libc::SIGKILL) };
        }
        // SAFETY: leave the cloned child without running the parent's destructors.
        unsafe { libc::_exit(0) }
    }
    drop(res_w);
    drop((stdin, stdout, stderr, procs, cgroup_dir));
    let report = supervise(
        spec,
        files,
        Pid::from_raw(child),
        res_r,
        start,
        self_cpu_before,
    )?;
    Ok(less_baseline(report, baseline))
}

/// `report` without what the reused cgroup held before the run.
pub(super) fn less_baseline(mut report: HelperReport, baseline: Option<Baseline>) -> HelperReport {
    if let Some(base) = baseline {
        report.memory_peak_bytes = report.memory_peak_bytes.saturating_sub(base.memory_bytes);
        report.oom_kills = report.oom_kills.saturating_sub(base.oom_kills);
    }
    report
}

pub(super) fn pidfd_open(pid: Pid) -> Option<OwnedFd> {
    // SAFETY: pidfd_open(2) on our own child; the fd is owned below.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid.as_raw(), 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the kernel just returned this fd to us.
    Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Reaps the init, retrying on EINTR; returns its wait status.
pub(super) fn reap(init: Pid) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: reaping our own child.
        let r = unsafe { libc::waitpid(init.as_raw(), &mut status, 0) };
        if r >= 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return status;
        }
    }
}

/// Degraded runs only: kills what is left of the box's process group and reaps it (this
/// helper is the subreaper of the orphans), so no program process outlives its report.
/// Bounded: a process that left the group is out of reach without a PID namespace.
fn reap_process_group(init: Pid) {
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        // SAFETY: kill(2) on the box's own process group (the init was its leader).
        unsafe { libc::kill(-init.as_raw(), libc::SIGKILL) };
        // SAFETY: reaping our own (adopted) children; the status is not needed.
        let reaped = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
        if reaped < 0 {
            return;
        }
        if reaped == 0 {
            if Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn supervise(
    spec: &BoxSpec,
    files: Option<&V1Files>,
    init: Pid,
    res_r: OwnedFd,
    start: Instant,
    self_cpu_before: u64,
) -> Result<HelperReport, String> {
    let pidfd = pidfd_open(init);
    let helper_inside = spec.shared_cgroup;
    let killed = watch(
        spec,
        files,
        Watched {
            init,
            pidfd: pidfd.as_ref(),
            report: res_r.as_fd(),
            start,
            self_cpu_before,
            helper_inside,
        },
    )?;
    // Teardown is complete only when the init itself is gone (with it, its mount and PID
    // namespaces): reap it before reporting, whatever ended the wait.
    let init_status = reap(init);
    if !spec.isolate {
        reap_process_group(init);
    }
    let elapsed = start.elapsed();
    let mut text = String::new();
    let _ = File::from(res_r).read_to_string(&mut text);
    let outcome: Option<InitOutcome> = serde_json::from_str(&text).ok();
    let ended = Ended {
        killed,
        outcome,
        elapsed,
        helper_cpu: helper_cpu(helper_inside, self_cpu_before),
        init_status,
    };
    report(spec, files, ended, &[std::process::id() as i32])
}

/// How a watched run ended.
pub(super) struct Ended {
    /// The limit the supervisor killed the box on.
    pub(super) killed: Option<Kill>,
    /// What the init reported, if it did.
    pub(super) outcome: Option<InitOutcome>,
    /// Since the program's start, as the helper saw it.
    pub(super) elapsed: Duration,
    /// The helper's own CPU in the run's cgroup (left out of the figure).
    pub(super) helper_cpu: u64,
    /// The init's wait status, when it was reaped (for the message when it did not report).
    pub(super) init_status: i32,
}

/// Checks the cgroup holds nothing but `spare` (killing anything else) and turns what the
/// cgroup and the init report into the run's figures.
pub(super) fn report(
    spec: &BoxSpec,
    files: Option<&V1Files>,
    ended: Ended,
    spare: &[i32],
) -> Result<HelperReport, String> {
    let Ended {
        killed,
        outcome,
        elapsed,
        helper_cpu,
        init_status,
    } = ended;
    let cpu_limit_ns = spec.cpu_limit_ms.saturating_mul(1_000_000);
    let mut report = HelperReport {
        killed,
        ..HelperReport::default()
    };
    if let Some(cg) = &spec.cgroup {
        match (cg, spec.shared_cgroup) {
            (Cgroup::V1(v1), true) => v1.kill_all_but(spare),
            _ => cg.kill_all(),
        }
        .map_err(|e| e.to_string())?;
        let stats = match files {
            Some(f) => f.stats(),
            None => cg.stats(),
        }
        .map_err(|e| e.to_string())?;
        report.cpu_ns = stats.cpu_ns.saturating_sub(helper_cpu);
        report.memory_peak_bytes = stats.memory_peak_bytes;
        report.oom_kills = stats.oom_kills;
        report.from_cgroup = true;
    }
    match outcome {
        Some(o) => {
            if let Some(err) = o.error {
                return Err(err);
            }
            if libc::WIFEXITED(o.wait_status) {
                report.exit_code = Some(libc::WEXITSTATUS(o.wait_status));
            } else if libc::WIFSIGNALED(o.wait_status) {
                report.signal = Some(libc::WTERMSIG(o.wait_status));
            }
            report.wall_us = o.wall_us;
            if spec.shared_cgroup {
                report.cpu_ns = report.cpu_ns.saturating_sub(o.init_cpu_ns);
            }
            if killed == Some(Kill::Cpu) {
                // Killed on a figure above the limit that also held the init's set-up.
                report.cpu_ns = report.cpu_ns.max(cpu_limit_ns);
            }
            if !report.from_cgroup {
                report.cpu_ns = o.rusage_cpu_ns;
                report.memory_peak_bytes = o.rusage_maxrss_kib.saturating_mul(1024);
            }
        }
        // Killed by the supervisor, or the init itself was an OOM victim.
        None if killed.is_some() || report.oom_kills > 0 => {
            report.signal = Some(libc::SIGKILL);
            if killed == Some(Kill::Cpu) {
                report.cpu_ns = report.cpu_ns.max(cpu_limit_ns);
            }
            report.wall_us = elapsed.as_micros() as u64;
        }
        None => {
            return Err(format!(
                "the box's init ended without a report (wait status {init_status:#x})"
            ))
        }
    }
    Ok(report)
}
