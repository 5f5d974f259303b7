//! The password checks of logins, bounded: a few dedicated hashing threads (about one per
//! core), each keeping its argon2 memory for the next check, and a short waiting line; a
//! check that finds the line full is refused at once ([`Busy`]: the server answers 503 with
//! `Retry-After`).
//!
//! Why: every login costs one argon2id computation (19 MiB, 2 passes), a name that does not
//! exist included (so the answer's timing does not tell whether it exists). On tokio's
//! blocking pool, with no bound, three waves of 240 concurrent failed logins took the daemon
//! from 16 MB to 14.7 GB of RSS, which stayed (each of up to 512 blocking threads kept its
//! malloc arena), and `/api/health` took up to 11 s meanwhile. Bounding how many checks run
//! at once is not enough when each runs on a fresh thread with fresh memory: here the threads
//! are few and fixed, and their memory is reused, so the peak is about
//! `threads x 19 MiB` whatever the clients do.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use super::password;

/// Stack of a hashing thread (argon2 keeps its blocks on the heap, in the reused buffer).
const STACK_BYTES: usize = 256 * 1024;
/// Threads used by default at most, whatever the core count: each keeps up to 19 MiB.
pub const DEFAULT_MAX_THREADS: usize = 4;
/// A hashing thread that has had no check for this long gives its memory back (to the
/// system, not only to the allocator): a flood reuses one buffer per thread, and a quiet
/// daemon holds none.
const KEEP_MEMORY: Duration = Duration::from_millis(500);

/// The line was full: the check was not made (503 with `Retry-After`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// One check to make.
struct Job {
    password: String,
    /// The stored hash; `None` for a name that does not exist or cannot sign in (checked
    /// against [`password::dummy_hash`] and never matching).
    stored: Option<String>,
    reply: oneshot::Sender<bool>,
}

/// The hashing threads and their waiting line. Dropping it lets the threads finish the
/// checks in line and exit.
#[derive(Debug)]
pub struct PasswordChecks {
    line: SyncSender<Job>,
    threads: usize,
    waiting: usize,
    made: Arc<AtomicU64>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Job")
    }
}

/// Threads for a `password_threads` setting: 0 means one per core, at most
/// [`DEFAULT_MAX_THREADS`].
pub fn thread_count(setting: usize) -> usize {
    match setting {
        0 => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(DEFAULT_MAX_THREADS),
        n => n,
    }
}

impl PasswordChecks {
    /// `threads` hashing threads (at least one) and a line of `waiting` checks.
    pub fn new(threads: usize, waiting: usize) -> PasswordChecks {
        let threads = threads.max(1);
        let (line, rx) = sync_channel::<Job>(waiting);
        let rx = Arc::new(Mutex::new(rx));
        let made = Arc::new(AtomicU64::new(0));
        for i in 0..threads {
            let (rx, made) = (Arc::clone(&rx), Arc::clone(&made));
            let spawned = std::thread::Builder::new()
                .name(format!("password-{i}"))
                .stack_size(STACK_BYTES)
                .spawn(move || work(&rx, &made));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-hashing thread");
            }
        }
        PasswordChecks {
            line,
            threads,
            waiting,
            made,
        }
    }

    /// Whether `password` matches `stored` (`None`: a name that cannot sign in, checked all
    /// the same and never matching), computed on a hashing thread; [`Busy`] at once when the
    /// line is full.
    pub async fn check(&self, password: String, stored: Option<String>) -> Result<bool, Busy> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            password,
            stored,
            reply,
        };
        match self.line.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(Busy),
            Err(TrySendError::Disconnected(_)) => {
                tracing::error!("no password-hashing thread is running");
                return Err(Busy);
            }
        }
        // A hashing thread always answers; a dropped reply means it died.
        answer.await.map_err(|_| Busy)
    }

    /// Checks made so far (each one argon2 computation).
    pub fn made(&self) -> u64 {
        self.made.load(Ordering::Relaxed)
    }

    /// The hashing threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The checks that may wait for a thread.
    pub fn waiting(&self) -> usize {
        self.waiting
    }
}

/// A hashing thread: takes checks from the line one at a time, in the memory it keeps while
/// checks keep coming. A check whose client has gone (its request timed out or was dropped)
/// is skipped.
fn work(line: &Mutex<Receiver<Job>>, made: &AtomicU64) {
    let mut memory = Vec::new();
    loop {
        let job = {
            let rx = line.lock().unwrap_or_else(|p| p.into_inner());
            if memory.is_empty() {
                rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
            } else {
                rx.recv_timeout(KEEP_MEMORY)
            }
        };
        let job = match job {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => {
                memory = Vec::new();
                give_back_freed_memory();
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if job.reply.is_closed() {
            continue;
        }
        made.fetch_add(1, Ordering::Relaxed);
        let ok = match &job.stored {
            Some(stored) => password::verify_with(&job.password, stored, &mut memory),
            None => {
                let _ = password::verify_with(&job.password, password::dummy_hash(), &mut memory);
                false
            }
        };
        let _ = job.reply.send(ok);
    }
}

/// Returns memory freed to the allocator to the system. glibc raises its mmap threshold to the
/// size of the largest block freed (up to 32 MiB), so after the first check a 19 MiB buffer
/// comes from a thread's arena and stays in the process when freed; `malloc_trim` gives it
/// back (and what the connections of a flood left in the arenas).
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own lists; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn checks_are_bounded_and_answered() {
        let stored = password::hash("correct horse").unwrap();
        let checks = Arc::new(PasswordChecks::new(1, 2));
        assert!(checks
            .check("correct horse".into(), Some(stored.clone()))
            .await
            .unwrap());
        assert!(!checks
            .check("wrong horse".into(), Some(stored.clone()))
            .await
            .unwrap());
        assert!(!checks.check("correct horse".into(), None).await.unwrap());
        assert_eq!(checks.made(), 3);
        // Twenty at once: one runs, two wait, the rest are refused without a check.
        let all: Vec<_> = (0..20)
            .map(|_| {
                let (c, s) = (Arc::clone(&checks), stored.clone());
                tokio::spawn(async move { c.check("wrong".into(), Some(s)).await })
            })
            .collect();
        let mut busy = 0;
        let mut answered = 0;
        for t in all {
            match t.await.unwrap() {
                Ok(false) => answered += 1,
                Err(Busy) => busy += 1,
                Ok(true) => panic!("a wrong password matched"),
            }
        }
        assert_eq!(answered + busy, 20);
        assert!(busy >= 1, "the line is bounded");
        assert_eq!(checks.made(), 3 + answered);
    }

    #[test]
    fn the_default_is_one_thread_per_core_at_most_four() {
        assert!((1..=DEFAULT_MAX_THREADS).contains(&thread_count(0)));
        assert_eq!(thread_count(7), 7);
    }
}
