//! The single-threaded helper (`sudojudge __sandbox-init`) and the box's init.
//!
//! Process tree of one run:
//! - the helper: reads a [`BoxSpec`] on stdin, opens the files and the cgroup, enters new
//!   namespaces, forks the init, supervises it (CPU from the cgroup, wall clock), prints a
//!   [`HelperReport`] on stdout;
//! - the init, PID 1 of the box's PID namespace: builds the root, forks the program, reaps
//!   everything, reports the program's status, and on exit takes every process of the box
//!   with it (the kernel kills a PID namespace whose init dies);
//! - the program: joins the cgroup, sets rlimits, drops to the slot's uid and every
//!   capability, installs seccomp and execs.
//!
//! Forking is only safe in a single-threaded process, which is why this runs in its own
//! freshly exec'd process and never inside the judge.

use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::unistd::{ForkResult, Pid};

use super::cgroup::open_procs;
use super::namespaces;
use super::rootfs::{self, RootSpec};
use super::seccomp;
use super::spec::{BoxSpec, HelperReport, InitOutcome, Kill};

/// How often the supervisor reads the cgroup's CPU counter while the program runs.
const CPU_POLL: Duration = Duration::from_millis(10);

/// Entry point of `sudojudge __sandbox-init`: one spec in, one report out. Returns the
/// process exit code (0 whenever a report, even an error report, was printed).
pub fn helper_main() -> i32 {
    let mut input = String::new();
    let result: Result<HelperReport, String> = match std::io::stdin().read_to_string(&mut input) {
        Err(e) => Err(format!("reading the box spec: {e}")),
        Ok(_) => match serde_json::from_str::<BoxSpec>(&input) {
            Ok(spec) => run_box(&spec),
            Err(e) => Err(format!("invalid box spec: {e}")),
        },
    };
    match serde_json::to_string(&result) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            if out
                .write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                return 1;
            }
            0
        }
        Err(_) => 1,
    }
}

fn open_output(path: &Path) -> Result<File, String> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| format!("creating {}: {e}", path.display()))
}

fn run_box(spec: &BoxSpec) -> Result<HelperReport, String> {
    let procs = match &spec.cgroup {
        Some(cg) => open_procs(&cg.procs_files()).map_err(|e| e.to_string())?,
        None => Vec::new(),
    };
    let stdin = File::open(&spec.stdin)
        .map_err(|e| format!("opening stdin {}: {e}", spec.stdin.display()))?;
    let stdout = open_output(&spec.stdout)?;
    let stderr = open_output(&spec.stderr)?;
    let filter = spec.isolate.then(seccomp::program);
    let (res_r, res_w) = nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe2: {e}"))?;
    if spec.isolate {
        namespaces::unshare_pid().map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    // SAFETY: this helper process is single-threaded (it runs nothing but this function).
    match unsafe { nix::unistd::fork() }.map_err(|e| format!("fork: {e}"))? {
        ForkResult::Child => {
            drop(res_r);
            let io = ProgramIo {
                procs: &procs,
                stdin: &stdin,
                stdout: &stdout,
                stderr: &stderr,
            };
            let outcome = init_main(spec, &io, filter.as_ref());
            let mut w = File::from(res_w);
            let _ = serde_json::to_writer(&mut w, &outcome);
            drop(w);
            if !spec.isolate {
                // Degraded: take the program's process group (and this init) down.
                // SAFETY: kill(2) on our own process group.
                unsafe { libc::kill(0, libc::SIGKILL) };
            }
            // SAFETY: leave the forked child without running the parent's destructors.
            unsafe { libc::_exit(0) }
        }
        ForkResult::Parent { child } => {
            drop(res_w);
            drop((stdin, stdout, stderr, procs));
            supervise(spec, child, res_r, start)
        }
    }
}

/// The open files the program gets.
struct ProgramIo<'a> {
    procs: &'a [File],
    stdin: &'a File,
    stdout: &'a File,
    stderr: &'a File,
}

fn kill_box(spec: &BoxSpec, init: Pid) {
    let target = if spec.isolate {
        init.as_raw()
    } else {
        -init.as_raw()
    };
    // SAFETY: kill(2) on the box's init (or, degraded, its process group).
    unsafe { libc::kill(target, libc::SIGKILL) };
}

fn pidfd_open(pid: Pid) -> Option<OwnedFd> {
    // SAFETY: pidfd_open(2) on our own child; the fd is owned below.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid.as_raw(), 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the kernel just returned this fd to us.
    Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Waits up to `timeout` for the init to exit; true when it has.
fn wait_exit(pidfd: Option<&OwnedFd>, init: Pid, timeout: Duration) -> bool {
    match pidfd {
        Some(fd) => {
            let mut pfd = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
            // SAFETY: poll(2) on one valid pollfd.
            let n = unsafe { libc::poll(&mut pfd, 1, ms) };
            n > 0
        }
        None => {
            std::thread::sleep(timeout.min(Duration::from_millis(1)));
            let mut status = 0;
            // SAFETY: non-reaping peek at our own child.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let r = unsafe {
                libc::waitid(
                    libc::P_PID,
                    init.as_raw() as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            let _ = &mut status;
            // SAFETY: reading si_pid of a siginfo filled by waitid.
            r == 0 && unsafe { info.si_pid() } != 0
        }
    }
}

fn supervise(
    spec: &BoxSpec,
    init: Pid,
    res_r: OwnedFd,
    start: Instant,
) -> Result<HelperReport, String> {
    let pidfd = pidfd_open(init);
    let deadline = start + Duration::from_millis(spec.wall_limit_ms);
    let cpu_limit_ns = spec.cpu_limit_ms.saturating_mul(1_000_000);
    let mut killed = None;
    loop {
        let now = Instant::now();
        if now >= deadline {
            kill_box(spec, init);
            killed = Some(Kill::Wall);
            break;
        }
        if wait_exit(pidfd.as_ref(), init, (deadline - now).min(CPU_POLL)) {
            break;
        }
        if let Some(cg) = &spec.cgroup {
            if cg.cpu_ns().map_err(|e| e.to_string())? > cpu_limit_ns {
                kill_box(spec, init);
                killed = Some(Kill::Cpu);
                break;
            }
        }
    }
    let mut init_status = 0;
    loop {
        // SAFETY: reaping our own child.
        let r = unsafe { libc::waitpid(init.as_raw(), &mut init_status, 0) };
        if r >= 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    let elapsed = start.elapsed();
    let mut text = String::new();
    let _ = File::from(res_r).read_to_string(&mut text);
    let outcome: Option<InitOutcome> = serde_json::from_str(&text).ok();

    let mut report = HelperReport {
        killed,
        ..HelperReport::default()
    };
    if let Some(cg) = &spec.cgroup {
        cg.kill_all().map_err(|e| e.to_string())?;
        let stats = cg.stats().map_err(|e| e.to_string())?;
        report.cpu_ns = stats.cpu_ns;
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
            if !report.from_cgroup {
                report.cpu_ns = o.rusage_cpu_ns;
                report.memory_peak_bytes = o.rusage_maxrss_kib.saturating_mul(1024);
            }
        }
        None if killed.is_some() => {
            report.signal = Some(libc::SIGKILL);
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

fn init_main(
    spec: &BoxSpec,
    io: &ProgramIo,
    filter: Option<&seccompiler::BpfProgram>,
) -> InitOutcome {
    let fail = |error: String| InitOutcome {
        error: Some(error),
        ..InitOutcome::default()
    };
    if spec.isolate {
        let root = RootSpec {
            root_dir: &spec.root_dir,
            box_dir: &spec.box_dir,
            mounts: &spec.mounts,
            tmp_size_mb: spec.tmp_size_mb,
        };
        if let Err(e) = namespaces::unshare_box() {
            return fail(e.to_string());
        }
        if let Err(e) = rootfs::enter(&root) {
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
    let (err_r, err_w) = match nix::unistd::pipe2(OFlag::O_CLOEXEC) {
        Ok(p) => p,
        Err(e) => return fail(format!("pipe2: {e}")),
    };
    let argv = match prepare_exec(spec) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let t0 = Instant::now();
    // SAFETY: the init is single-threaded.
    let program = match unsafe { nix::unistd::fork() } {
        Err(e) => return fail(format!("fork: {e}")),
        Ok(ForkResult::Child) => {
            drop(err_r);
            let msg = exec_program(spec, io, filter, &argv, err_w.as_raw_fd());
            let mut w = File::from(err_w);
            let _ = w.write_all(msg.as_bytes());
            // SAFETY: leave the forked child without running destructors.
            unsafe { libc::_exit(127) }
        }
        Ok(ForkResult::Parent { child }) => child,
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

/// argv and envp as C strings, and the resolved program path (first element).
struct ExecArgs {
    path: CString,
    argv: Vec<CString>,
    env: Vec<CString>,
}

fn prepare_exec(spec: &BoxSpec) -> Result<ExecArgs, String> {
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

/// In the program's process: everything between fork and exec. Returns only on failure,
/// with the message.
fn exec_program(
    spec: &BoxSpec,
    io: &ProgramIo,
    filter: Option<&seccompiler::BpfProgram>,
    args: &ExecArgs,
    err_fd: RawFd,
) -> String {
    for mut f in io.procs {
        if let Err(e) = f.write_all(b"0") {
            return format!("joining the cgroup: {e}");
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
    // SAFETY: NUL-terminated arrays of pointers into CStrings that outlive the call.
    unsafe { libc::execve(args.path.as_ptr(), argv.as_ptr(), envp.as_ptr()) };
    format!(
        "exec {}: {}",
        args.path.to_string_lossy(),
        std::io::Error::last_os_error()
    )
}

/// No supplementary groups, the slot's gid and uid, an empty capability bounding set.
fn drop_privileges(uid: u32, gid: u32) -> Result<(), String> {
    let err = |what: &str| format!("{what}: {}", std::io::Error::last_os_error());
    // SAFETY: plain system calls on this process's credentials.
    unsafe {
        if libc::setgroups(0, std::ptr::null()) != 0 {
            return Err(err("setgroups"));
        }
        if libc::setresgid(gid, gid, gid) != 0 {
            return Err(err("setresgid"));
        }
        for cap in 0..64 {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        if libc::setresuid(uid, uid, uid) != 0 {
            return Err(err("setresuid"));
        }
    }
    Ok(())
}
