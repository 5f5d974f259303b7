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
//!
//! A thread's buffer is mapped from the system directly (`Mapped`), not taken from malloc:
//! glibc serves a 19 MiB block from the thread's arena once its mmap threshold has risen past
//! that size, and keeps a freed block at the top of a thread arena resident (`malloc_trim`
//! trims only the main arena's top), so a buffer freed after a flood stayed in the process.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::oneshot;

use argon2::Block;

use super::password::{self, BlockMemory};

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
    line: Arc<Line>,
    threads: usize,
    waiting: usize,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Job")
    }
}

/// The checks waiting, shared by the caller side and the threads.
#[derive(Debug)]
struct Line {
    state: Mutex<LineState>,
    /// Signalled when a check is put in line or the line closes.
    ready: Condvar,
    /// Checks running or waiting at most.
    capacity: usize,
    /// Checks made so far.
    made: AtomicU64,
}

#[derive(Debug, Default)]
struct LineState {
    waiting: VecDeque<Job>,
    /// Checks waiting or running.
    in_flight: usize,
    closed: bool,
}

impl Line {
    fn lock(&self) -> MutexGuard<'_, LineState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
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
        let line = Arc::new(Line {
            state: Mutex::new(LineState::default()),
            ready: Condvar::new(),
            capacity: threads + waiting,
            made: AtomicU64::new(0),
        });
        for i in 0..threads {
            let line = Arc::clone(&line);
            let spawned = std::thread::Builder::new()
                .name(format!("password-{i}"))
                .stack_size(STACK_BYTES)
                .spawn(move || work(&line));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-hashing thread");
            }
        }
        PasswordChecks {
            line,
            threads,
            waiting,
        }
    }

    /// Whether `password` matches `stored` (`None`: a name that cannot sign in, checked all
    /// the same and never matching), computed on a hashing thread; [`Busy`] at once when the
    /// threads are all busy and the line is full.
    pub async fn check(&self, password: String, stored: Option<String>) -> Result<bool, Busy> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            password,
            stored,
            reply,
        };
        {
            let mut state = self.line.lock();
            if state.closed || state.in_flight >= self.line.capacity {
                return Err(Busy);
            }
            state.in_flight += 1;
            state.waiting.push_back(job);
        }
        self.line.ready.notify_one();
        // A hashing thread always answers; a dropped reply means it died.
        answer.await.map_err(|_| Busy)
    }

    /// Checks made so far (each one argon2 computation).
    pub fn made(&self) -> u64 {
        self.line.made.load(Ordering::Relaxed)
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

impl Drop for PasswordChecks {
    fn drop(&mut self) {
        self.line.lock().closed = true;
        self.line.ready.notify_all();
    }
}

/// A hashing thread: takes checks from the line one at a time, in the memory it keeps while
/// checks keep coming (given back after [`KEEP_MEMORY`] without one). A check whose client has
/// gone (its request timed out or was dropped) is skipped. Exits when the line is closed and
/// empty.
fn work(line: &Line) {
    let mut memory = Mapped::default();
    loop {
        let job = {
            let mut state = line.lock();
            loop {
                if let Some(job) = state.waiting.pop_front() {
                    break Some(job);
                }
                if state.closed {
                    break None;
                }
                if memory.is_empty() {
                    state = line.ready.wait(state).unwrap_or_else(|p| p.into_inner());
                } else {
                    let (s, timeout) = line
                        .ready
                        .wait_timeout(state, KEEP_MEMORY)
                        .unwrap_or_else(|p| p.into_inner());
                    state = s;
                    if timeout.timed_out() && state.waiting.is_empty() {
                        memory = Mapped::default();
                    }
                }
            }
        };
        let Some(job) = job else {
            return;
        };
        if !job.reply.is_closed() {
            line.made.fetch_add(1, Ordering::Relaxed);
            let ok = match &job.stored {
                Some(stored) => password::verify_with(&job.password, stored, &mut memory),
                None => {
                    let _ =
                        password::verify_with(&job.password, password::dummy_hash(), &mut memory);
                    false
                }
            };
            let _ = job.reply.send(ok);
        }
        line.lock().in_flight -= 1;
    }
}

/// Argon2 blocks in an anonymous private mapping of their own: given back to the system when
/// dropped (`munmap`), whatever the allocator would have kept.
#[derive(Debug, Default)]
struct Mapped {
    /// The mapping; `None` until the first check.
    at: Option<std::ptr::NonNull<Block>>,
    /// Blocks mapped.
    len: usize,
}

impl Mapped {
    fn is_empty(&self) -> bool {
        self.at.is_none()
    }

    fn unmap(&mut self) {
        if let Some(at) = self.at.take() {
            // SAFETY: `at` and `len` are exactly what `mmap` returned and was asked for, and
            // no slice of it outlives `&mut self` (see `blocks`).
            unsafe {
                libc::munmap(at.as_ptr().cast(), self.len * std::mem::size_of::<Block>());
            }
            self.len = 0;
        }
    }
}

impl BlockMemory for Mapped {
    fn blocks(&mut self, blocks: usize) -> Option<&mut [Block]> {
        if self.len < blocks {
            self.unmap();
            let bytes = blocks.checked_mul(std::mem::size_of::<Block>())?;
            // SAFETY: a fresh anonymous private mapping, owned by `self` alone.
            let at = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if at == libc::MAP_FAILED {
                tracing::error!(bytes, "cannot map memory for a password check");
                return None;
            }
            self.at = Some(std::ptr::NonNull::new(at.cast::<Block>())?);
            self.len = blocks;
        }
        let at = self.at?;
        // SAFETY: the mapping is page-aligned (Block needs 64), zero-filled (all zeros is a
        // valid Block: it is plain `u64`s), `len >= blocks` blocks long, and borrowed
        // mutably through `&mut self` only.
        Some(unsafe { std::slice::from_raw_parts_mut(at.as_ptr(), blocks) })
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        self.unmap();
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
    fn checks_in_a_mapping_of_their_own() {
        let stored = password::hash("correct horse").unwrap();
        let mut memory = Mapped::default();
        assert!(memory.is_empty());
        for _ in 0..2 {
            assert!(password::verify_with("correct horse", &stored, &mut memory));
            assert!(!password::verify_with(
                "correct horsE",
                &stored,
                &mut memory
            ));
        }
        assert_eq!(memory.len, 19 * 1024);
        drop(memory);
    }

    #[test]
    fn the_default_is_one_thread_per_core_at_most_four() {
        assert!((1..=DEFAULT_MAX_THREADS).contains(&thread_count(0)));
        assert_eq!(thread_count(7), 7);
    }
}
