//! The init of a waiting box ([`super::waiting`]): PID 1 of a box made ahead of its runs,
//! which serves one run after another and makes itself fresh between them.
//!
//! Once: the root (the slot's template with `/tmp` and `/proc`, `pivot_root`), the hostname.
//! Per run: the run's file system attached at `/box`, the program started and reaped, and
//! with it everything else the box holds ([`super::init::run_program`]). Between runs, after
//! the outcome is sent: `/box` and `/tmp` detached, a fresh `/tmp`, a fresh IPC namespace
//! (no SysV object or message queue of the last run; IPC ids start over) and the PID counter
//! set back (the next program is PID 2 again, as in a new box), so nothing of one run
//! reaches the next. On cgroup v1 the init lives in a cgroup of its own box (it moves
//! itself there first) and reclaims what the run left charged to it (`memory.force_empty`)
//! before it says it is ready: the next run in this box starts from a fresh cgroup state,
//! and the reclaim is off the run's path while the slot's other box serves runs.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::boxfs;
use super::exec::default_signal_dispositions;
use super::init::run_program;
use super::namespaces;
use super::rootfs::{self, TmpFs};
use super::seccomp;
use super::spec::{BoxSpec, InitOutcome, ProgramIo};
use super::watch::self_cpu_ns;

/// One run for a waiting box: the spec, and the helper's descriptors the init takes copies
/// of (`pidfd_getfd`).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct WaitingRun {
    pub(super) spec: BoxSpec,
    pub(super) box_fs: i32,
    pub(super) stdin: i32,
    pub(super) stdout: i32,
    pub(super) stderr: i32,
    /// `cgroup.procs` files the program joins (cgroup v2's per-run cgroup).
    pub(super) procs: Vec<i32>,
    /// That cgroup's folder, to start the program in it (`clone3.rs`).
    pub(super) cgroup_dir: Option<i32>,
}

/// What a waiting box's init tells the helper, one JSON line each.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum FromInit {
    /// Fresh and waiting for a run.
    Ready,
    /// How the run went.
    Outcome(InitOutcome),
}

/// The init's ends of its link to the helper.
pub(super) struct InitLink {
    pub(super) from_helper: BufReader<File>,
    pub(super) to_helper: File,
    /// A pidfd of the helper, to take the run's descriptors from it.
    pub(super) helper: OwnedFd,
    /// The box's own cgroup (v1), to move into first: its `cgroup.procs` files (closed
    /// once joined) and its `memory.force_empty`.
    pub(super) cgroup: Option<BoxCgroupFiles>,
}

/// A waiting box's own v1 cgroup, as its init sees it: files opened by the helper.
pub(super) struct BoxCgroupFiles {
    /// `cgroup.procs` of every controller.
    pub(super) procs: Vec<File>,
    /// `memory.force_empty`, when the kernel has it.
    pub(super) force_empty: Option<File>,
}

/// Moves the calling process into the box's own cgroup (every controller).
fn join(procs: Vec<File>) -> std::io::Result<()> {
    for mut f in procs {
        f.write_all(b"0")?;
    }
    Ok(())
}

/// Reclaims what the box's cgroup holds beyond the init's own memory (no swap: the kernel
/// gives up on what it cannot reclaim, and the next run's limit is set on top of it).
fn reclaim(force_empty: Option<&File>) -> std::io::Result<()> {
    match force_empty {
        Some(mut f) => f.write_all(b"0"),
        None => Ok(()),
    }
}

fn send(to: &mut File, message: &FromInit) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    to.write_all(&line)
}

/// The waiting init's whole life: returns its exit code (0 when the helper closed the link).
pub(super) fn waiting_init_main(root: &Path, tmp: TmpFs, mut link: InitLink) -> i32 {
    let (procs, force_empty) = match link.cgroup.take() {
        Some(BoxCgroupFiles { procs, force_empty }) => (procs, force_empty),
        None => (Vec::new(), None),
    };
    // First, so everything the box charges from now on is its own cgroup's.
    if join(procs).is_err() {
        return 1;
    }
    // As in a box made per run: the box's processes are the OOM killer's first choice.
    if std::fs::write("/proc/self/oom_score_adj", "1000").is_err() {
        return 1;
    }
    // SAFETY: prctl(2) without memory arguments: never outlive the helper.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    // Once for every run: its programs start with these.
    default_signal_dispositions();
    if rootfs::enter_waiting(root, tmp).is_err() || namespaces::set_hostname().is_err() {
        return 1;
    }
    let filter = seccomp::program();
    // What the box's last init left charged (it was killed) is not the first run's.
    if reclaim(force_empty.as_ref()).is_err() {
        return 1;
    }
    let mut line = String::new();
    loop {
        if send(&mut link.to_helper, &FromInit::Ready).is_err() {
            return 1;
        }
        line.clear();
        match link.from_helper.read_line(&mut line) {
            Ok(0) | Err(_) => return 0,
            Ok(_) => {}
        }
        let cpu_before = self_cpu_ns();
        let mut outcome = match serde_json::from_str::<WaitingRun>(&line) {
            Ok(run) => run_one(&run, link.helper.as_fd(), &filter),
            Err(e) => failed(format!("invalid run for a waiting box: {e}")),
        };
        outcome.init_cpu_ns = self_cpu_ns().saturating_sub(cpu_before);
        if send(&mut link.to_helper, &FromInit::Outcome(outcome)).is_err() {
            return 1;
        }
        if rootfs::clear_run(tmp).is_err()
            || fresh_namespaces().is_err()
            || reclaim(force_empty.as_ref()).is_err()
        {
            return 1;
        }
    }
}

fn failed(error: String) -> InitOutcome {
    InitOutcome {
        error: Some(error),
        ..InitOutcome::default()
    }
}

/// One run: the helper's descriptors taken, `/box` attached, the program run and reaped.
/// The descriptors are closed on return.
fn run_one(
    run: &WaitingRun,
    helper: BorrowedFd<'_>,
    filter: &seccompiler::BpfProgram,
) -> InitOutcome {
    let take = |fd: i32| {
        boxfs::fetch_from_parent(helper, fd)
            .map(File::from)
            .map_err(|e| e.to_string())
    };
    let taken = (|| -> Result<_, String> {
        let procs = run
            .procs
            .iter()
            .map(|&fd| take(fd))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((
            take(run.box_fs)?,
            take(run.stdin)?,
            take(run.stdout)?,
            take(run.stderr)?,
            procs,
            run.cgroup_dir.map(take).transpose()?,
        ))
    })();
    let (box_fs, stdin, stdout, stderr, procs, cgroup_dir) = match taken {
        Ok(t) => t,
        Err(e) => return failed(e),
    };
    let boxed = Path::new("/box");
    if let Err(e) = boxfs::attach(box_fs.as_fd(), boxed) {
        return failed(e.to_string());
    }
    if let Err(e) = nix::unistd::chdir(boxed) {
        return failed(format!("chdir /box: {e}"));
    }
    let io = ProgramIo {
        procs: &procs,
        cgroup_dir: cgroup_dir.as_ref(),
        stdin: &stdin,
        stdout: &stdout,
        stderr: &stderr,
    };
    run_program(&run.spec, &io, Some(filter))
}

/// A fresh IPC namespace for the next run (the last one's is freed with its objects) and
/// the PID counter set back, so the next program is PID 2 as in a new box and learns
/// nothing from the PIDs of earlier runs.
fn fresh_namespaces() -> Result<(), String> {
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWIPC)
        .map_err(|e| format!("unshare(CLONE_NEWIPC): {e}"))?;
    std::fs::write("/proc/sys/kernel/ns_last_pid", "1")
        .map_err(|e| format!("writing ns_last_pid: {e}"))
}
