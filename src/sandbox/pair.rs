//! Two programs talking to each other, each in a box of its own (an interactive problem's
//! submission and validator): `a`'s stdout is `b`'s stdin and `b`'s stdout is `a`'s stdin.
//!
//! The judge keeps its own copy of each pipe end until the box that uses it has ended, as
//! problemtools' interactive runner does, so which program ended first is never a race
//! with the other one reading end of file: `a`'s stdout is closed here only once `a`'s run
//! is over (then `b` reads end of file), `b`'s stdout once `b`'s is. The end `b` reads from
//! is closed when `b` ends (a program writing on gets `SIGPIPE`) unless `b` exited with
//! [`PairOptions::keep_input_after`]: a validator that accepted before reading to the end
//! must not turn a late write into a crash.

use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicU8, Ordering};

use nix::fcntl::OFlag;

use super::{RunReport, RunRequest, Sandbox, SandboxError};

/// Size asked for each pipe (problemtools' 1 MiB, the most an unprivileged process may set).
const PIPE_SIZE: libc::c_int = 1 << 20;

/// How a pair is run.
#[derive(Debug, Clone, Copy, Default)]
pub struct PairOptions {
    /// `b`'s exit code after which the pipe into `b` stays open until `a` ends.
    pub keep_input_after: Option<i32>,
}

/// The two reports, and which program ended first.
#[derive(Debug)]
pub struct PairReport {
    /// `a`'s run (its stdout is always empty: it went to `b`).
    pub a: RunReport,
    /// `b`'s run.
    pub b: RunReport,
    /// Whether `b`'s box ended before `a`'s.
    pub b_first: bool,
}

fn pipe() -> Result<(OwnedFd, OwnedFd), SandboxError> {
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)
        .map_err(|e| SandboxError::Request(format!("pipe2: {e}")))?;
    // Best effort: a smaller pipe only makes a chatty program wait more often.
    // SAFETY: fcntl(2) F_SETPIPE_SZ on a pipe we own.
    unsafe { libc::fcntl(read.as_raw_fd(), libc::F_SETPIPE_SZ, PIPE_SIZE) };
    Ok((read, write))
}

/// Runs `a` in `sandbox_a` and `b` in `sandbox_b` at once, connected by two pipes, and
/// waits for both. `Err` only for the judge's faults (either box's set-up).
pub fn run_pair(
    sandbox_a: &Sandbox,
    a: &RunRequest,
    sandbox_b: &Sandbox,
    b: &RunRequest,
    options: PairOptions,
) -> Result<PairReport, SandboxError> {
    let (a_to_b_read, a_to_b_write) = pipe()?;
    let (b_to_a_read, b_to_a_write) = pipe()?;
    let order = AtomicU8::new(0);
    let (a_result, b_result) = std::thread::scope(|scope| {
        let b_to_a_read = &b_to_a_read;
        let order = &order;
        let a_thread = scope.spawn(move || {
            let a_to_b_write = a_to_b_write;
            let report = sandbox_a.run_piped(a, (b_to_a_read.as_fd(), a_to_b_write.as_fd()));
            let rank = order.fetch_add(1, Ordering::SeqCst);
            drop(a_to_b_write);
            (report, rank)
        });
        let b_thread = scope.spawn(move || {
            let (a_to_b_read, b_to_a_write) = (a_to_b_read, b_to_a_write);
            let report = sandbox_b.run_piped(b, (a_to_b_read.as_fd(), b_to_a_write.as_fd()));
            let rank = order.fetch_add(1, Ordering::SeqCst);
            drop(b_to_a_write);
            let keep = match (&report, options.keep_input_after) {
                (Ok(r), Some(code)) => r.exit_code == Some(code),
                _ => false,
            };
            // Kept until `a` ends: returned, and dropped when the scope's threads are done.
            let kept = if keep { Some(a_to_b_read) } else { None };
            (report, rank, kept)
        });
        let joined_b = b_thread.join();
        let joined_a = a_thread.join();
        (joined_a, joined_b)
    });
    drop(b_to_a_read);
    let panicked = || SandboxError::Request("a thread of an interactive run panicked".into());
    let (a_report, a_rank) = a_result.map_err(|_| panicked())?;
    let (b_report, b_rank, kept) = b_result.map_err(|_| panicked())?;
    drop(kept);
    Ok(PairReport {
        a: a_report?,
        b: b_report?,
        b_first: b_rank < a_rank,
    })
}
