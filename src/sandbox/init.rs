//! The single-threaded helper (`sudojudge __sandbox-init`) and the box's init.
//!
//! Process tree of one run:
//! - the helper: a long-lived process per worker slot, reading one [`BoxSpec`] per line on
//!   stdin and answering one [`HelperReport`] per line on stdout. It lives in its own
//!   network namespace (empty, loopback down) and, on cgroup v1, inside the slot's cgroup,
//!   so every process it forks starts there with no costly migration. Per run it opens the
//!   files, resets the cgroup, clones the init into fresh PID, mount, IPC and UTS
//!   namespaces and supervises it (CPU from the cgroup, wall clock);
//! - the init, PID 1 of the box's PID namespace: builds the root, forks the program, reaps
//!   everything, reports the program's status, and on exit takes every process of the box
//!   with it (the kernel kills a PID namespace whose init dies);
//! - the program: (joins a per-run cgroup on v2), sets rlimits, drops to the slot's uid and
//!   every capability, installs seccomp and execs.
//!
//! Forking is only safe in a single-threaded process, which is why this runs in its own
//! exec'd process and never inside the judge.

use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::unistd::Pid;

use super::cgroup::v1::V1Files;
use super::cgroup::{open_procs, Cgroup};
use super::namespaces;
use super::rootfs;
use super::seccomp;
use super::spec::{BoxSpec, HelperReport, InitOutcome, Kill};

/// How often the supervisor reads the cgroup's CPU counter while the program runs.
const CPU_POLL: Duration = Duration::from_millis(10);

/// The helper's protocol descriptors, moved away from 0 and 1 so the box never inherits them.
struct Protocol {
    input: std::io::BufReader<File>,
    output: File,
}

fn take_protocol_fds() -> Result<Protocol, String> {
    let dup = |fd: RawFd| -> Result<File, String> {
        // SAFETY: F_DUPFD_CLOEXEC of a standard descriptor to a new one we own.
        let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
        if new < 0 {
            return Err(format!("dup fd {fd}: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: the kernel just returned this fd to us.
        Ok(File::from(unsafe { OwnedFd::from_raw_fd(new) }))
    };
    let input = dup(0)?;
    let output = dup(1)?;
    let null = File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .map_err(|e| format!("open /dev/null: {e}"))?;
    for fd in [0, 1] {
        // SAFETY: dup2 of /dev/null over a standard descriptor.
        unsafe { libc::dup2(null.as_raw_fd(), fd) };
    }
    Ok(Protocol {
        input: std::io::BufReader::new(input),
        output,
    })
}

/// Entry point of `sudojudge __sandbox-init`: one spec per line in, one report (a JSON
/// `Result<HelperReport, String>`) per line out, until end of input. Returns the exit code.
pub fn helper_main() -> i32 {
    // Degraded runs have no PID namespace: a program orphaned by its init must come back to
    // this helper (and be reaped here) rather than linger under the host's init.
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) has no memory arguments.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    let mut proto = match take_protocol_fds() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sandbox helper: {e}");
            return 1;
        }
    };
    let mut state = HelperState::default();
    let mut line = String::new();
    loop {
        line.clear();
        match proto.input.read_line(&mut line) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(_) => return 1,
        }
        let result: Result<HelperReport, String> = match serde_json::from_str::<BoxSpec>(&line) {
            Ok(spec) => state.run(&spec, &proto),
            Err(e) => Err(format!("invalid box spec: {e}")),
        };
        let Ok(mut text) = serde_json::to_string(&result) else {
            return 1;
        };
        text.push('\n');
        if proto
            .output
            .write_all(text.as_bytes())
            .and_then(|_| proto.output.flush())
            .is_err()
        {
            return 1;
        }
    }
}

/// What the long-lived helper has set up once: its network namespace, its cgroup.
#[derive(Default)]
struct HelperState {
    own_netns: bool,
    bounding_set_empty: bool,
    template: Option<std::path::PathBuf>,
    joined: Option<Cgroup>,
    /// The joined cgroup's control files, open (v1 shared cgroup only).
    slot_files: Option<V1Files>,
}

impl HelperState {
    fn run(&mut self, spec: &BoxSpec, proto: &Protocol) -> Result<HelperReport, String> {
        if spec.isolate && !self.own_netns {
            namespaces::unshare_net().map_err(|e| e.to_string())?;
            self.own_netns = true;
        }
        // SAFETY: geteuid has no preconditions.
        if !self.bounding_set_empty && unsafe { libc::geteuid() } == 0 {
            drop_bounding_set()?;
            self.bounding_set_empty = true;
        }
        if spec.isolate && self.template.as_ref() != Some(&spec.root_dir) {
            if self.template.is_some() {
                return Err("the slot's root template cannot move".into());
            }
            rootfs::build_template(&spec.root_dir, &spec.mounts).map_err(|e| e.to_string())?;
            self.template = Some(spec.root_dir.clone());
        }
        if spec.shared_cgroup {
            let cg = spec
                .cgroup
                .as_ref()
                .ok_or("shared cgroup without a cgroup")?;
            let joined = self
                .joined
                .as_ref()
                .is_some_and(|j| j.procs_files() == cg.procs_files());
            if !joined {
                for mut f in open_procs(&cg.procs_files()).map_err(|e| e.to_string())? {
                    f.write_all(std::process::id().to_string().as_bytes())
                        .map_err(|e| format!("joining the slot cgroup: {e}"))?;
                }
                self.slot_files = match cg {
                    Cgroup::V1(v1) => Some(v1.files().map_err(|e| e.to_string())?),
                    Cgroup::V2(_) => None,
                };
                self.joined = Some(cg.clone());
            }
        }
        let files = if spec.shared_cgroup {
            self.slot_files.as_ref()
        } else {
            None
        };
        run_box(spec, proto, files)
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

fn self_cpu_ns() -> u64 {
    // SAFETY: rusage is plain data filled by the kernel.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage with a valid out-pointer.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Clones the box's init: fork semantics, plus fresh PID, mount, IPC and UTS namespaces
/// when isolating. Returns 0 in the child.
fn clone_init(isolate: bool) -> Result<i32, String> {
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

fn run_box(
    spec: &BoxSpec,
    proto: &Protocol,
    files: Option<&V1Files>,
) -> Result<HelperReport, String> {
    let shared = spec.shared_cgroup;
    let procs = match &spec.cgroup {
        Some(cg) if !shared => open_procs(&cg.procs_files()).map_err(|e| e.to_string())?,
        _ => Vec::new(),
    };
    let baseline = match (&spec.cgroup, files) {
        (Some(Cgroup::V1(_)), Some(files)) if shared => Some(
            files
                .prepare_run(super::cgroup::CgroupLimits {
                    memory_bytes: spec.rlimits.stack,
                    // The helper and the box's init live in the cgroup too.
                    max_processes: (spec.rlimits.processes as u32).saturating_add(2),
                })
                .map_err(|e| e.to_string())?,
        ),
        (Some(_), _) if shared => return Err("a shared cgroup needs cgroup v1".into()),
        _ => None,
    };
    let stdin = File::open(&spec.stdin)
        .map_err(|e| format!("opening stdin {}: {e}", spec.stdin.display()))?;
    let stdout = open_output(&spec.stdout)?;
    let stderr = open_output(&spec.stderr)?;
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
            stdin: &stdin,
            stdout: &stdout,
            stderr: &stderr,
        };
        let mut outcome = init_main(spec, &io, filter.as_ref());
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
    drop((stdin, stdout, stderr, procs));
    let mut report = supervise(
        spec,
        files,
        Pid::from_raw(child),
        res_r,
        start,
        self_cpu_before,
    )?;
    if let Some(base) = baseline {
        report.memory_peak_bytes = report.memory_peak_bytes.saturating_sub(base.memory_bytes);
        report.oom_kills = report.oom_kills.saturating_sub(base.oom_kills);
    }
    Ok(report)
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

/// What ended a wait for the init.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InitEvent {
    /// Nothing yet.
    Running,
    /// The init wrote its report: the program and every process it started are reaped.
    Reported,
    /// The init exited.
    Exited,
}

/// Waits up to `timeout` for the init to report or exit.
fn wait_init(pidfd: Option<&OwnedFd>, report: &OwnedFd, init: Pid, timeout: Duration) -> InitEvent {
    match pidfd {
        Some(fd) => {
            let mut pfds = [
                libc::pollfd {
                    fd: report.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: fd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
            // SAFETY: poll(2) on two valid pollfds.
            let n = unsafe { libc::poll(pfds.as_mut_ptr(), 2, ms) };
            if n <= 0 {
                InitEvent::Running
            } else if pfds[0].revents != 0 {
                InitEvent::Reported
            } else {
                InitEvent::Exited
            }
        }
        None => {
            std::thread::sleep(timeout.min(Duration::from_millis(1)));
            // SAFETY: siginfo_t is plain data filled by waitid.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: non-reaping peek at our own child.
            let r = unsafe {
                libc::waitid(
                    libc::P_PID,
                    init.as_raw() as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            // SAFETY: reading si_pid of a siginfo filled by waitid.
            if r == 0 && unsafe { info.si_pid() } != 0 {
                InitEvent::Exited
            } else {
                InitEvent::Running
            }
        }
    }
}

/// Reaps the init, retrying on EINTR; returns its wait status.
fn reap(init: Pid) -> i32 {
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
    let deadline = start + Duration::from_millis(spec.wall_limit_ms);
    let cpu_limit_ns = spec.cpu_limit_ms.saturating_mul(1_000_000);
    // In a shared cgroup the helper's own polling is counted too: leave it out.
    let helper_cpu = || {
        if spec.shared_cgroup {
            self_cpu_ns().saturating_sub(self_cpu_before)
        } else {
            0
        }
    };
    let mut killed = None;
    loop {
        let now = Instant::now();
        if now >= deadline {
            kill_box(spec, init);
            killed = Some(Kill::Wall);
            break;
        }
        if wait_init(pidfd.as_ref(), &res_r, init, (deadline - now).min(CPU_POLL))
            != InitEvent::Running
        {
            break;
        }
        if let Some(cg) = &spec.cgroup {
            let used = match files {
                Some(f) => f.cpu_ns(),
                None => cg.cpu_ns(),
            }
            .map_err(|e| e.to_string())?;
            if used.saturating_sub(helper_cpu()) > cpu_limit_ns {
                kill_box(spec, init);
                killed = Some(Kill::Cpu);
                break;
            }
        }
    }
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
    let spare = [std::process::id() as i32];

    let mut report = HelperReport {
        killed,
        ..HelperReport::default()
    };
    if let Some(cg) = &spec.cgroup {
        match (cg, spec.shared_cgroup) {
            (Cgroup::V1(v1), true) => v1.kill_all_but(&spare),
            _ => cg.kill_all(),
        }
        .map_err(|e| e.to_string())?;
        let stats = match files {
            Some(f) => f.stats(),
            None => cg.stats(),
        }
        .map_err(|e| e.to_string())?;
        report.cpu_ns = stats.cpu_ns.saturating_sub(helper_cpu());
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

fn init_main(
    spec: &BoxSpec,
    io: &ProgramIo,
    filter: Option<&seccompiler::BpfProgram>,
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
    if spec.isolate {
        if let Err(e) = rootfs::enter(
            &spec.root_dir,
            &spec.box_dir,
            spec.tmp_size_mb,
            spec.devices,
        ) {
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

/// argv and envp as C strings, and the resolved program path (first element).
struct ExecArgs {
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
}

extern "C" fn spawn_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `SpawnArgs` that `spawn_program` keeps alive while it is
    // suspended (CLONE_VFORK) until this process execs or exits.
    let a = unsafe { &*(arg as *const SpawnArgs) };
    let msg = exec_program(a.spec, a.io, a.filter, a.args, a.argv, a.envp, a.err_fd);
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
/// descriptor table, credentials, rlimits and seccomp filter, like a forked one.
fn spawn_program(
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
    let spawn = SpawnArgs {
        spec,
        io,
        filter,
        args,
        argv: &argv,
        envp: &envp,
        err_fd: err_w.as_raw_fd(),
    };
    let mut stack = vec![0u8; SPAWN_STACK];
    // The stack grows down from its 16-byte aligned top.
    let top = (stack.as_mut_ptr() as usize + SPAWN_STACK) & !15;
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
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
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
    // SAFETY: NUL-terminated arrays of pointers into CStrings that outlive the call.
    unsafe { libc::execve(args.path.as_ptr(), argv.as_ptr(), envp.as_ptr()) };
    format!(
        "exec {}: {}",
        args.path.to_string_lossy(),
        std::io::Error::last_os_error()
    )
}

/// Empties the capability bounding set of the calling process (and so of everything it
/// forks). The helper does it once: it keeps its own effective capabilities (mounts,
/// namespaces, cgroups), while a box's program, which drops to a non-root uid, can never
/// regain any, even through exec.
fn drop_bounding_set() -> Result<(), String> {
    let mut cap = 0;
    // SAFETY: prctl(2) without memory arguments. Drops each capability until the kernel
    // says there is no such capability.
    while cap < 64 && unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } == 0 {
        cap += 1;
    }
    // SAFETY: as above.
    if cap == 0 || unsafe { libc::prctl(libc::PR_CAPBSET_READ, 0, 0, 0, 0) } != 0 {
        return Err(format!(
            "emptying the capability bounding set: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
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
