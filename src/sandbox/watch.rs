//! Watching one run, on the helper's side: waiting for the box's init to report or exit,
//! killing the box when the wall-clock or the cgroup's CPU limit passes.

use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

use nix::unistd::Pid;

use super::cgroup::v1::V1Files;
use super::spec::{BoxSpec, Kill};

/// How often the supervisor reads the cgroup's CPU counter while the program runs.
const CPU_POLL: Duration = Duration::from_millis(10);

/// This process's own CPU time so far (user and system), in nanoseconds.
pub(super) fn self_cpu_ns() -> u64 {
    // SAFETY: rusage is plain data filled by the kernel.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage with a valid out-pointer.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Kills the box: its init (with it its PID namespace) or, degraded, its process group.
pub(super) fn kill_box(spec: &BoxSpec, init: Pid) {
    let target = if spec.isolate {
        init.as_raw()
    } else {
        -init.as_raw()
    };
    // SAFETY: kill(2) on the box's init (or, degraded, its process group).
    unsafe { libc::kill(target, libc::SIGKILL) };
}

/// What ended a wait for the init.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum InitEvent {
    /// Nothing yet.
    Running,
    /// The init wrote its report: the program and every process it started are reaped.
    Reported,
    /// The init exited.
    Exited,
}

/// Waits up to `timeout` for the init to report or exit.
pub(super) fn wait_init(
    pidfd: Option<&OwnedFd>,
    report: BorrowedFd<'_>,
    init: Pid,
    timeout: Duration,
) -> InitEvent {
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

/// In a cgroup the helper lives in (v1's slot cgroup) its own polling is counted too: what
/// to leave out.
pub(super) fn helper_cpu(helper_inside: bool, self_cpu_before: u64) -> u64 {
    if helper_inside {
        self_cpu_ns().saturating_sub(self_cpu_before)
    } else {
        0
    }
}

/// The run [`watch`] waits for.
pub(super) struct Watched<'a> {
    /// The box's init.
    pub(super) init: Pid,
    /// A pidfd of it, if the kernel gave one.
    pub(super) pidfd: Option<&'a OwnedFd>,
    /// Readable once the init has reported.
    pub(super) report: BorrowedFd<'a>,
    /// When the run started.
    pub(super) start: Instant,
    /// The helper's own CPU then.
    pub(super) self_cpu_before: u64,
    /// Whether the helper lives in the run's cgroup (its CPU is then left out).
    pub(super) helper_inside: bool,
}

/// Waits until the init reports (`report` readable) or exits, killing the box (its init)
/// when the wall-clock or the cgroup's CPU limit passes; returns which limit, if any.
pub(super) fn watch(
    spec: &BoxSpec,
    files: Option<&V1Files>,
    run: Watched<'_>,
) -> Result<Option<Kill>, String> {
    let Watched {
        init,
        pidfd,
        report,
        start,
        self_cpu_before,
        helper_inside,
    } = run;
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
        if wait_init(pidfd, report, init, (deadline - now).min(CPU_POLL)) != InitEvent::Running {
            break;
        }
        if let Some(cg) = &spec.cgroup {
            let used = match files {
                Some(f) => f.cpu_ns(),
                None => cg.cpu_ns(),
            }
            .map_err(|e| e.to_string())?;
            if used.saturating_sub(helper_cpu(helper_inside, self_cpu_before)) > cpu_limit_ns {
                kill_box(spec, init);
                killed = Some(Kill::Cpu);
                break;
            }
        }
    }
    Ok(killed)
}
