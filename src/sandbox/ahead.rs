//! The judge's side of a box made ahead: a thread of the sandbox makes the next runs' file
//! systems (a fresh tmpfs each) and copies into them the files the last run had (the same
//! program, test after test). A run takes one if it asks for the same files, unchanged on
//! the host since the copy; otherwise it is dropped and the run makes its own, as before.
//! The same thread drops each finished run's file system, so freeing it is off the run's
//! path too.
//!
//! When they are made: up to [`MADE_AHEAD`] (two) are kept, ordered when a run ENDS (after
//! its report), so a run whose box waits ready finds its file system made during the pause
//! and no copy runs beside it; a run started right after the last one takes the other,
//! made while the last one ran. Only a run that found none made (a new program) orders one
//! as it starts, so the next run need not wait for it.
//!
//! Nothing of one run reaches the next through it: a box made ahead was never given to a
//! run, it holds only the copies, and it has no name on the host (a detached mount).

use std::collections::VecDeque;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

use super::boxdir::RunDir;
use super::boxfs::BoxFs;

/// What identifies a host file's content well enough to reuse a copy of it: the same file
/// (device, inode), and no write or change since (size, modification and change times).
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl FileId {
    fn of(path: &Path) -> Option<FileId> {
        let m = std::fs::metadata(path).ok()?;
        Some(FileId {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
            ctime_ns: i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec()),
        })
    }
}

/// The files a run puts in its box: `(name in the box, host path)`.
pub(super) type Files = Vec<(String, PathBuf)>;

/// How many file systems a sandbox keeps made ahead at most (each a tmpfs holding copies of
/// the last run's files, charged to the judge): two, so that one is made while the other
/// waits. With the one a run uses, a sandbox holds at most three.
pub(super) const MADE_AHEAD: usize = 2;

/// A box file system made ahead and what it holds.
struct Made {
    files: Files,
    ids: Vec<FileId>,
    dir: RunDir,
}

enum Order {
    /// Make a box of `fs` under the name `name` holding `files`.
    Make {
        box_root: PathBuf,
        name: String,
        fs: BoxFs,
        files: Files,
    },
    /// Drop a run's box (its file system is freed when the last descriptor goes).
    Drop(RunDir),
}

struct State {
    done: Receiver<Option<Made>>,
    /// The files of each box ordered and not taken yet, oldest first (the thread makes them
    /// in that order).
    pending: VecDeque<Files>,
    /// Boxes ordered and found of no use (other files than the run asked for), to drop as
    /// the thread hands them over: they come before those still pending.
    stale: usize,
}

/// One sandbox's box maker: one thread, at most [`MADE_AHEAD`] boxes made ahead.
#[derive(Debug)]
pub(super) struct Ahead {
    orders: Mutex<Option<Sender<Order>>>,
    state: Mutex<State>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("pending", &self.pending.len())
            .field("stale", &self.stale)
            .finish()
    }
}

fn make(box_root: &Path, name: &str, fs: &BoxFs, files: Files) -> Option<Made> {
    let before: Vec<FileId> = files
        .iter()
        .map(|(_, host)| FileId::of(host))
        .collect::<Option<_>>()?;
    let dir = RunDir::create_with_fs(box_root, name, fs).ok()?;
    for (in_box, host) in &files {
        dir.copy_in(in_box, host).ok()?;
    }
    // A file changed while it was copied is not reused.
    let after: Vec<FileId> = files
        .iter()
        .map(|(_, host)| FileId::of(host))
        .collect::<Option<_>>()?;
    (before == after).then_some(Made {
        files,
        ids: after,
        dir,
    })
}

impl Ahead {
    /// Starts the thread.
    pub(super) fn new() -> std::io::Result<Ahead> {
        let (orders, inbox) = channel::<Order>();
        let (made, done) = channel();
        let worker = std::thread::Builder::new()
            .name("sandbox-ahead".into())
            .spawn(move || {
                for order in inbox {
                    match order {
                        Order::Make {
                            box_root,
                            name,
                            fs,
                            files,
                        } => {
                            if made.send(make(&box_root, &name, &fs, files)).is_err() {
                                return;
                            }
                        }
                        Order::Drop(dir) => drop(dir),
                    }
                }
            })?;
        Ok(Ahead {
            orders: Mutex::new(Some(orders)),
            state: Mutex::new(State {
                done,
                pending: VecDeque::new(),
                stale: 0,
            }),
            worker: Mutex::new(Some(worker)),
        })
    }

    fn send(&self, order: Order) -> Result<(), Order> {
        let orders = self.orders.lock().unwrap_or_else(|e| e.into_inner());
        match orders.as_ref() {
            Some(tx) => tx.send(order).map_err(|e| e.0),
            None => Err(order),
        }
    }

    /// Orders boxes of `fs` holding `files` until [`MADE_AHEAD`] are ordered, or only one
    /// when `only_if_none` and none is (`name` gives each its name).
    pub(super) fn order(
        &self,
        box_root: &Path,
        mut name: impl FnMut() -> String,
        fs: BoxFs,
        files: &Files,
        only_if_none: bool,
    ) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // At a run's end (after its report) the stale ones are waited for, so the ones
        // ordered now find room; as a run starts, only those made already are dropped.
        self.drop_stale(&mut state, !only_if_none);
        let room = MADE_AHEAD.saturating_sub(state.pending.len() + state.stale);
        let wanted = match only_if_none {
            true if state.pending.is_empty() => 1,
            true => 0,
            false => room,
        };
        for _ in 0..wanted.min(room) {
            let order = Order::Make {
                box_root: box_root.to_path_buf(),
                name: name(),
                fs,
                files: files.clone(),
            };
            if self.send(order).is_err() {
                return;
            }
            state.pending.push_back(files.clone());
        }
    }

    /// Drops the stale boxes the thread has handed over (`wait`: all of them, waiting for
    /// those still being made).
    fn drop_stale(&self, state: &mut State, wait: bool) {
        while state.stale > 0 {
            let made = match wait {
                true => state.done.recv().ok(),
                false => state.done.try_recv().ok(),
            };
            let Some(made) = made else { return };
            state.stale -= 1;
            if let Some(made) = made {
                self.dispose(made.dir);
            }
        }
    }

    /// The oldest box made ahead that was ordered with exactly `files`, if it holds them as
    /// they are on the host now (waits for it if it is still being made). Boxes ordered
    /// with other files, and one that does not fit, are dropped by the thread.
    pub(super) fn take(&self, files: &Files) -> Option<RunDir> {
        let made = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            while state.pending.front().is_some_and(|f| f != files) {
                state.pending.pop_front();
                state.stale += 1;
            }
            if state.pending.is_empty() {
                self.drop_stale(&mut state, false);
                return None;
            }
            // The thread hands boxes over in the order they were ordered: the stale ones
            // first.
            self.drop_stale(&mut state, true);
            state.pending.pop_front();
            state.done.recv().ok()??
        };
        let same = made.files == *files
            && files
                .iter()
                .map(|(_, host)| FileId::of(host))
                .collect::<Option<Vec<_>>>()
                .is_some_and(|now| now == made.ids);
        if same {
            Some(made.dir)
        } else {
            self.dispose(made.dir);
            None
        }
    }

    /// Drops a finished run's box on the thread (or here if the thread is gone).
    pub(super) fn dispose(&self, dir: RunDir) {
        if let Err(Order::Drop(dir)) = self.send(Order::Drop(dir)) {
            drop(dir);
        }
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        // Closing the channel ends the thread once it has done what it was given.
        self.orders.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(worker) = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs() -> BoxFs {
        BoxFs {
            size_mb: 4,
            inodes: 64,
            uid: 0,
            gid: 0,
        }
    }

    fn content(dir: &RunDir) -> String {
        let fd = dir.mount_fd().expect("a file system of its own");
        std::fs::read_to_string(format!("/proc/self/fd/{fd}/main")).unwrap()
    }

    /// A new program's run orders one as it starts, its end fills up to [`MADE_AHEAD`];
    /// runs with the same files take them in turn; a run with other files gets none, and
    /// what was made with the old files never reaches a later run.
    #[test]
    fn boxes_are_made_ahead_for_the_same_files_only() {
        if !nix::unistd::geteuid().is_root() {
            eprintln!("skipped: a box file system needs root");
            return;
        }
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a"), t.path().join("b"));
        std::fs::write(&a, "program a").unwrap();
        std::fs::write(&b, "program b").unwrap();
        let files_a: Files = vec![("main".into(), a)];
        let files_b: Files = vec![("main".into(), b)];
        let ahead = Ahead::new().unwrap();
        let mut n = 0;
        let mut name = || {
            n += 1;
            format!("t{n}")
        };
        assert!(ahead.take(&files_a).is_none());
        // As the run starts: one, and no more while one is pending.
        ahead.order(t.path(), &mut name, fs(), &files_a, true);
        ahead.order(t.path(), &mut name, fs(), &files_a, true);
        assert_eq!(content(&ahead.take(&files_a).unwrap()), "program a");
        assert!(ahead.take(&files_a).is_none());
        // As a run ends: up to MADE_AHEAD, whatever it is asked.
        for _ in 0..3 {
            ahead.order(t.path(), &mut name, fs(), &files_a, false);
        }
        for _ in 0..MADE_AHEAD {
            assert_eq!(content(&ahead.take(&files_a).unwrap()), "program a");
        }
        assert!(ahead.take(&files_a).is_none());
        // Another program: the boxes of the first are dropped, never handed over.
        ahead.order(t.path(), &mut name, fs(), &files_a, false);
        assert!(ahead.take(&files_b).is_none());
        ahead.order(t.path(), &mut name, fs(), &files_b, false);
        for _ in 0..MADE_AHEAD {
            assert_eq!(content(&ahead.take(&files_b).unwrap()), "program b");
        }
        assert!(ahead.take(&files_a).is_none());
        assert!(ahead.take(&files_b).is_none());
    }
}
