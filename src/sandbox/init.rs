//! The box's init: PID 1 of the box's PID namespace, cloned by the helper
//! ([`super::helper`]). It enters the box's root, starts the program ([`super::exec`]),
//! reaps it and everything it left, and tells the helper how the program ended.

use std::fs::File;
use std::io::Read;
use std::os::fd::BorrowedFd;
use std::time::Instant;

use nix::fcntl::OFlag;

use super::exec::{default_signal_dispositions, prepare_exec, spawn_program};
use super::namespaces;
use super::rootfs;
use super::spec::{BoxSpec, InitOutcome, ProgramIo};

/// The init's whole life; the helper writes the outcome back.
pub(super) fn init_main(
    spec: &BoxSpec,
    io: &ProgramIo,
    filter: Option<&seccompiler::BpfProgram>,
    box_fs: Option<BorrowedFd<'_>>,
) -> InitOutcome {
    let fail = |error: String| InitOutcome {
        error: Some(error),
        ..InitOutcome::default()
    };
    // The box's processes (this init and everything it forks) are the OOM killer's first
    // choice, never the helper: a box whose memory is mostly tmpfs pages must not take the
    // helper down with it. Raising the score needs no capability.
    if let Err(e) = std::fs::write("/proc/self/oom_score_adj", "1000") {
        return fail(format!("writing /proc/self/oom_score_adj: {e}"));
    }
    default_signal_dispositions();
    if spec.isolate {
        let box_src = match box_fs {
            Some(fd) => rootfs::BoxSource::FileSystem(fd),
            None => rootfs::BoxSource::Folder(&spec.box_dir),
        };
        let tmp = rootfs::TmpFs {
            size_mb: spec.tmp_size_mb,
            inodes: spec.inodes,
        };
        if let Err(e) = rootfs::enter(&spec.root_dir, box_src, tmp, spec.devices) {
            return fail(e.to_string());
        }
        if let Err(e) = namespaces::set_hostname() {
            return fail(e.to_string());
        }
    } else {
        // SAFETY: setpgid(0, 0) makes this init the leader of a group the program inherits.
        unsafe { libc::setpgid(0, 0) };
        if let Err(e) = nix::unistd::chdir(&spec.box_dir) {
            return fail(format!("chdir {}: {e}", spec.box_dir.display()));
        }
    }
    run_program(spec, io, filter)
}

/// Starts the program, waits for it, then (isolated) kills and reaps whatever else the box
/// holds: on return the init is the box's only process.
pub(super) fn run_program(
    spec: &BoxSpec,
    io: &ProgramIo,
    filter: Option<&seccompiler::BpfProgram>,
) -> InitOutcome {
    let fail = |error: String| InitOutcome {
        error: Some(error),
        ..InitOutcome::default()
    };
    let (err_r, err_w) = match nix::unistd::pipe2(OFlag::O_CLOEXEC) {
        Ok(p) => p,
        Err(e) => return fail(format!("pipe2: {e}")),
    };
    let argv = match prepare_exec(spec) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let t0 = Instant::now();
    let program = match spawn_program(spec, io, filter, &argv, &err_w) {
        Ok(pid) => pid,
        Err(e) => return fail(e),
    };
    drop(err_w);
    let mut outcome = InitOutcome::default();
    loop {
        let mut status = 0;
        // SAFETY: rusage is plain data filled by the kernel.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 on any child of this init, valid out-pointers.
        let pid = unsafe { libc::wait4(-1, &mut status, 0, &mut ru) };
        if pid == program.as_raw() {
            outcome.wait_status = status;
            outcome.wall_us = t0.elapsed().as_micros() as u64;
            let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
            outcome.rusage_cpu_ns = tv(ru.ru_utime) + tv(ru.ru_stime);
            outcome.rusage_maxrss_kib = ru.ru_maxrss.max(0) as u64;
            break;
        }
        if pid < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return fail("the program vanished before it was reaped".into());
        }
    }
    if spec.isolate {
        // PID 1 of the box: kill(-1) reaches every other process of the namespace.
        // SAFETY: kill(2); inside the box's PID namespace -1 means "every box process".
        unsafe { libc::kill(-1, libc::SIGKILL) };
        // SAFETY: reap everything left; ends with ECHILD.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), 0) } > 0 {}
    }
    let mut msg = String::new();
    let _ = File::from(err_r).read_to_string(&mut msg);
    if !msg.is_empty() {
        return fail(msg);
    }
    outcome
}
