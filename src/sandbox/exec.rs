//! The program's process, between the init's clone and the exec: cgroup (v2), rlimits,
//! standard descriptors, credentials, seccomp, exec.

use std::ffi::CString;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::Path;

use nix::unistd::Pid;

use super::clone3::{self, Spawned};
use super::seccomp;
use super::spec::{BoxSpec, ProgramIo};

/// argv and envp as C strings, and the resolved program path (first element).
pub(super) struct ExecArgs {
    path: CString,
    argv: Vec<CString>,
    env: Vec<CString>,
}

/// Stack of the program's process between clone and exec (only `exec_program` runs on it).
const SPAWN_STACK: usize = 256 << 10;

/// Everything the program's process reads between clone and exec.
struct SpawnArgs<'a> {
    spec: &'a BoxSpec,
    io: &'a ProgramIo<'a>,
    filter: Option<&'a seccompiler::BpfProgram>,
    args: &'a ExecArgs,
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    err_fd: RawFd,
    /// Whether the child joins its cgroup itself (it was not started there).
    join: bool,
}

extern "C" fn spawn_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `SpawnArgs` that `spawn_program` keeps alive while it is
    // suspended (CLONE_VFORK) until this process execs or exits.
    let a = unsafe { &*(arg as *const SpawnArgs) };
    let msg = exec_program(a, a.join);
    // SAFETY: write(2) of a live buffer to the error pipe, then leave without unwinding or
    // destructors (this process shares the init's memory).
    unsafe {
        libc::write(a.err_fd, msg.as_ptr().cast(), msg.len());
        libc::_exit(127)
    }
}

/// Starts the program's process like `vfork`: `CLONE_VM | CLONE_VFORK` on a stack of its
/// own, so the init's page tables are neither copied nor torn down again at exec (the init
/// is single-threaded and suspended until the child execs or exits). The child has its own
/// descriptor table, credentials, rlimits and seccomp filter, like a forked one. With a
/// per-run cgroup's folder (v2) it is started in that cgroup (`clone3.rs`) when the
/// kernel can, else it joins the cgroup itself before exec.
pub(super) fn spawn_program(
    spec: &BoxSpec,
    io: &ProgramIo,
    filter: Option<&seccompiler::BpfProgram>,
    args: &ExecArgs,
    err_w: &OwnedFd,
) -> Result<Pid, String> {
    let argv: Vec<*const libc::c_char> = args
        .argv
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let envp: Vec<*const libc::c_char> = args
        .env
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let mut spawn = SpawnArgs {
        spec,
        io,
        filter,
        args,
        argv: &argv,
        envp: &envp,
        err_fd: err_w.as_raw_fd(),
        join: false,
    };
    let mut stack = vec![0u8; SPAWN_STACK];
    let low = stack.as_mut_ptr() as usize;
    // The stack grows down from its 16-byte aligned top.
    let top = (low + SPAWN_STACK) & !15;
    if let Some(dir) = io.cgroup_dir {
        // SAFETY: as for the clone below; the child runs `spawn_child` on `stack`.
        let spawned = unsafe {
            clone3::spawn_into_cgroup(
                spawn_child,
                &spawn as *const SpawnArgs as *mut libc::c_void,
                low,
                top,
                dir.as_raw_fd(),
            )
        };
        if let Spawned::Started(pid) = spawned {
            drop(stack);
            return Ok(Pid::from_raw(pid));
        }
    }
    spawn.join = true;
    // SAFETY: the child runs `spawn_child` on `stack` (alive until it execs or exits, since
    // CLONE_VFORK suspends this process until then) and never returns into this frame.
    let pid = unsafe {
        libc::clone(
            spawn_child,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            &spawn as *const SpawnArgs as *mut libc::c_void,
        )
    };
    if pid < 0 {
        return Err(format!("clone: {}", std::io::Error::last_os_error()));
    }
    drop(stack);
    Ok(Pid::from_raw(pid))
}

pub(super) fn prepare_exec(spec: &BoxSpec) -> Result<ExecArgs, String> {
    let first = spec.argv.first().ok_or("empty argv")?;
    let cstr = |s: &str| CString::new(s).map_err(|_| format!("NUL byte in {s:?}"));
    let path = if first.contains('/') {
        first.clone()
    } else {
        let path_var = spec
            .env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_str())
            .unwrap_or("/usr/bin:/bin");
        path_var
            .split(':')
            .map(|d| format!("{d}/{first}"))
            .find(|p| Path::new(p).is_file())
            .unwrap_or_else(|| first.clone())
    };
    Ok(ExecArgs {
        path: cstr(&path)?,
        argv: spec
            .argv
            .iter()
            .map(|a| cstr(a))
            .collect::<Result<_, _>>()?,
        env: spec
            .env
            .iter()
            .map(|(k, v)| cstr(&format!("{k}={v}")))
            .collect::<Result<_, _>>()?,
    })
}

fn close_from(first: u32, last: u32) {
    if first <= last {
        // SAFETY: close_range(2) on a range of this process's own descriptors.
        unsafe { libc::close_range(first, last, 0) };
    }
}

/// Every signal back to its default disposition: exec keeps ignored signals ignored, and
/// the helper (a Rust program) ignores `SIGPIPE`. A program must start as it would from a
/// shell. The box's init calls it once for itself (65 system calls, about 30 us here): the
/// programs it starts copy its dispositions, so a waiting box's runs do not pay it again.
pub(super) fn default_signal_dispositions() {
    // The kernel's `struct sigaction` on x86-64 (handler, flags, restorer, mask), all zero:
    // SIG_DFL. Raw system calls, because libc refuses the signals it reserves (32, 33).
    let dfl = [0u64; 4];
    // SAFETY: rt_sigaction(2) on this process with a valid buffer of the kernel's size;
    // SIGKILL and SIGSTOP just fail, which is fine.
    unsafe {
        for sig in 1..=64 {
            libc::syscall(libc::SYS_rt_sigaction, sig, dfl.as_ptr(), 0usize, 8usize);
        }
    }
}

/// An empty signal mask (exec keeps the mask as it is).
fn empty_signal_mask() {
    let none = 0u64;
    // SAFETY: rt_sigprocmask(2) on this process with a valid buffer of the kernel's size.
    unsafe {
        libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK,
            &none as *const u64,
            0usize,
            8usize,
        );
    }
}

/// In the program's process: everything between fork and exec. Returns only on failure,
/// with the message.
fn exec_program(a: &SpawnArgs, join: bool) -> String {
    let SpawnArgs {
        spec,
        io,
        filter,
        args,
        argv,
        envp,
        err_fd,
        ..
    } = *a;
    if join {
        for mut f in io.procs {
            if let Err(e) = f.write_all(b"0") {
                return format!("joining the cgroup: {e}");
            }
        }
    }
    if let Err(e) = spec.rlimits.apply() {
        return e.to_string();
    }
    for (from, to) in [(io.stdin, 0), (io.stdout, 1), (io.stderr, 2)] {
        // SAFETY: dup2(2) of an open file onto a standard descriptor.
        if unsafe { libc::dup2(from.as_raw_fd(), to) } < 0 {
            return format!("dup2 to fd {to}: {}", std::io::Error::last_os_error());
        }
    }
    let err_fd = err_fd as u32;
    close_from(3, err_fd.saturating_sub(1));
    close_from(err_fd + 1, u32::MAX);
    // Dispositions: the init's, all default ([`default_signal_dispositions`]); this
    // process has its own copy of them (no CLONE_SIGHAND).
    empty_signal_mask();
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        if let Err(e) = drop_privileges(spec.uid, spec.gid) {
            return e;
        }
    }
    match filter {
        Some(f) => {
            if let Err(e) = seccomp::install(f) {
                return e.to_string();
            }
        }
        None => {
            // SAFETY: prctl(PR_SET_NO_NEW_PRIVS) has no memory arguments.
            unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
        }
    }
    // SAFETY: NUL-terminated arrays of pointers into CStrings that outlive the call.
    unsafe { libc::execve(args.path.as_ptr(), argv.as_ptr(), envp.as_ptr()) };
    format!(
        "exec {}: {}",
        args.path.to_string_lossy(),
        std::io::Error::last_os_error()
    )
}
/// `CAP_SYS_ADMIN` (linux/capability.h; the libc crate does not export it).
const CAP_SYS_ADMIN: libc::c_int = 21;

/// No supplementary groups, the slot's gid and uid; refuses unless the capability bounding
/// set is already empty (the helper empties it once, see [`drop_bounding_set`]).
/// Raw system calls: this runs in a `CLONE_VM` child of the init.
fn drop_privileges(uid: u32, gid: u32) -> Result<(), String> {
    let err = |what: &str| format!("{what}: {}", std::io::Error::last_os_error());
    // SAFETY: plain system calls on this process's credentials.
    unsafe {
        // Capabilities 0 (CAP_CHOWN) and 21 (CAP_SYS_ADMIN) must both be gone.
        if libc::prctl(libc::PR_CAPBSET_READ, 0, 0, 0, 0) != 0
            || libc::prctl(libc::PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0
        {
            return Err("the capability bounding set is not empty".into());
        }
        if libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) != 0 {
            return Err(err("setgroups"));
        }
        if libc::syscall(libc::SYS_setresgid, gid, gid, gid) != 0 {
            return Err(err("setresgid"));
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        if libc::syscall(libc::SYS_setresuid, uid, uid, uid) != 0 {
            return Err(err("setresuid"));
        }
    }
    Ok(())
}
