//! The judge's side of a box made ahead: while a run goes on (the order is given as it
//! starts, so a run started right after it finds the box made), a thread of the sandbox
//! makes the next run's file system (a fresh tmpfs) and copies into it the files this run
//! has (the same program, test after test). The next run takes it if it asks for the same
//! files, unchanged on the host since the copy; otherwise it is dropped and the run makes
//! its own, as before. The same thread drops the last run's file system, so freeing it is
//! off the run's path too.
//!
//! Nothing of one run reaches the next through it: a box made ahead was never given to a
//! run, it holds only the copies, and it has no name on the host (a detached mount).

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
    /// Boxes ordered and not taken yet (zero or one).
    pending: usize,
}

/// One sandbox's box maker: one thread, at most one box made ahead.
#[derive(Debug)]
pub(super) struct Ahead {
    orders: Mutex<Option<Sender<Order>>>,
    state: Mutex<State>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("pending", &self.pending)
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
            state: Mutex::new(State { done, pending: 0 }),
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

    /// Orders a box of `fs` holding `files` for the next run.
    pub(super) fn order(&self, box_root: &Path, name: String, fs: BoxFs, files: Files) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.pending > 0 {
            return;
        }
        let order = Order::Make {
            box_root: box_root.to_path_buf(),
            name,
            fs,
            files,
        };
        if self.send(order).is_ok() {
            state.pending += 1;
        }
    }

    /// The box made ahead, if one was ordered and it holds exactly `files` as they are on
    /// the host now (waits for it if it is still being made). A box that does not fit is
    /// dropped by the thread.
    pub(super) fn take(&self, files: &Files) -> Option<RunDir> {
        let made = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if state.pending == 0 {
                return None;
            }
            state.pending -= 1;
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
