//! Sandbox slots shared by every sudojudge process on the host.
//!
//! A slot is a uid (`uid_base + N`), the cgroups and box folders named after it, and the
//! right to find no other process of that uid on the machine. Two processes on one slot
//! would see each other's programs as leftovers and share a process count, so a slot is
//! leased for the life of a [`super::Sandbox`]: an exclusive `flock` on
//! `<slot_locks>/<uid>.lock`, released by the kernel when the holder exits, however it
//! exits. Any number of `serve`, `judge`, `verify`, `run` and `doctor` processes can then
//! judge at once, each on slots of its own.

use std::fs::File;
use std::io::{Seek, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};

use crate::config::SandboxConfig;

/// Slots a host offers (uids `uid_base` to `uid_base + MAX_SLOTS - 1`).
pub const MAX_SLOTS: u32 = 1000;

/// Uids no slot runs as, wherever a uid range falls: `nobody` (65534) and 65535, the
/// 16-bit `-1` that some calls read as "no change".
pub const RESERVED_UIDS: [u32; 2] = [65534, 65535];

/// Why no slot could be leased.
#[derive(Debug, thiserror::Error)]
pub enum SlotError {
    /// The lock folder or a lock file could not be made or locked.
    #[error("slot lock {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Every slot is held by a live process.
    #[error("all {MAX_SLOTS} sandbox slots are in use (locks in {0})")]
    AllBusy(PathBuf),
    /// The slot asked for stayed held by another process.
    #[error(
        "sandbox slot {slot} is held by {holder} (lock {path}) and was not freed within {waited:?}"
    )]
    Busy {
        /// The slot.
        slot: u32,
        /// Who holds it, as its lock file says.
        holder: String,
        /// Its lock file.
        path: PathBuf,
        /// How long this process waited.
        waited: Duration,
    },
}

/// One slot, held until dropped (or until the process ends).
#[derive(Debug)]
pub struct SlotLease {
    slot: u32,
    _lock: Flock<File>,
}

impl SlotLease {
    /// The lowest slot no other sandbox on the host holds.
    pub fn first_free(config: &SandboxConfig) -> Result<SlotLease, SlotError> {
        for slot in 0..MAX_SLOTS {
            if let Some(lease) = Self::try_take(config, slot)? {
                return Ok(lease);
            }
        }
        Err(SlotError::AllBusy(config.slot_locks.clone()))
    }

    /// Slot `slot`, waiting up to `limit` for its holder to let go.
    pub fn wait_for(
        config: &SandboxConfig,
        slot: u32,
        limit: Duration,
    ) -> Result<SlotLease, SlotError> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(5);
        loop {
            if let Some(lease) = Self::try_take(config, slot)? {
                return Ok(lease);
            }
            if started.elapsed() >= limit {
                let path = lock_path(config, slot);
                let holder = std::fs::read_to_string(&path)
                    .ok()
                    .filter(|h| !h.trim().is_empty())
                    .map_or_else(|| "another process".into(), |h| h.trim().to_string());
                return Err(SlotError::Busy {
                    slot,
                    holder,
                    path,
                    waited: started.elapsed(),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(200));
        }
    }

    /// The slot number.
    pub fn slot(&self) -> u32 {
        self.slot
    }

    fn try_take(config: &SandboxConfig, slot: u32) -> Result<Option<SlotLease>, SlotError> {
        let uid = config.uid_base.saturating_add(slot);
        if RESERVED_UIDS.contains(&uid) {
            return Ok(None);
        }
        let dir = lock_dir(config)?;
        let path = lock_file(&dir, uid);
        let io = |source| SlotError::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(&path)
            .map_err(io)?;
        let mut lock = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(lock) => lock,
            Err((_, Errno::EWOULDBLOCK)) => return Ok(None),
            Err((_, errno)) => return Err(io(errno.into())),
        };
        // Who holds it, for the message of a process that waits in vain.
        let _ = lock.set_len(0);
        let _ = lock.rewind();
        let _ = write!(lock, "pid {}", std::process::id());
        Ok(Some(SlotLease { slot, _lock: lock }))
    }
}

fn lock_path(config: &SandboxConfig, slot: u32) -> PathBuf {
    let dir = lock_dir(config).unwrap_or_else(|_| config.slot_locks.clone());
    lock_file(&dir, config.uid_base.saturating_add(slot))
}

/// `slot_locks`, created if needed. A judge that is not root (degraded mode: its programs
/// run as its own user, so slots share nothing but folders) may not write there, and uses
/// a folder of its own user under the temporary folder instead.
fn lock_dir(config: &SandboxConfig) -> Result<PathBuf, SlotError> {
    let create = |dir: &Path| {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
    };
    match create(&config.slot_locks) {
        Ok(()) => Ok(config.slot_locks.clone()),
        Err(e)
            if e.kind() == std::io::ErrorKind::PermissionDenied
                && !nix::unistd::geteuid().is_root() =>
        {
            let own =
                std::env::temp_dir().join(format!("sudojudge-slots-{}", nix::unistd::geteuid()));
            create(&own).map_err(|source| SlotError::Io {
                path: own.clone(),
                source,
            })?;
            Ok(own)
        }
        Err(source) => Err(SlotError::Io {
            path: config.slot_locks.clone(),
            source,
        }),
    }
}

/// The lock file of uid `uid`: the uid is what slots really share.
fn lock_file(dir: &Path, uid: u32) -> PathBuf {
    dir.join(format!("{uid}.lock"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &Path) -> SandboxConfig {
        let mut config = crate::config::Config::embedded().unwrap().sandbox;
        config.slot_locks = dir.join("locks");
        config
    }

    #[test]
    fn leases_are_exclusive_and_freed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let config = config(dir.path());
        let a = SlotLease::first_free(&config).unwrap();
        let b = SlotLease::first_free(&config).unwrap();
        assert_eq!((a.slot(), b.slot()), (0, 1));
        let busy = SlotLease::wait_for(&config, 1, Duration::from_millis(30)).unwrap_err();
        assert!(
            busy.to_string()
                .contains(&format!("held by pid {}", std::process::id())),
            "{busy}"
        );
        drop(a);
        assert_eq!(SlotLease::first_free(&config).unwrap().slot(), 0);
        drop(b);
        let again = SlotLease::wait_for(&config, 1, Duration::ZERO).unwrap();
        assert_eq!(again.slot(), 1);
        assert!(dir
            .path()
            .join(format!("locks/{}.lock", config.uid_base + 1))
            .is_file());
    }

    #[test]
    fn reserved_uids_are_never_leased() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = config(dir.path());
        config.uid_base = 65533;
        let a = SlotLease::first_free(&config).unwrap();
        let b = SlotLease::first_free(&config).unwrap();
        assert_eq!((a.slot(), b.slot()), (0, 3));
    }

    #[test]
    fn a_waiting_process_gets_the_slot_when_it_is_freed() {
        let dir = tempfile::tempdir().unwrap();
        let config = config(dir.path());
        let held = SlotLease::wait_for(&config, 7, Duration::ZERO).unwrap();
        let waiter = {
            let config = config.clone();
            std::thread::spawn(move || SlotLease::wait_for(&config, 7, Duration::from_secs(10)))
        };
        std::thread::sleep(Duration::from_millis(50));
        drop(held);
        assert_eq!(waiter.join().unwrap().unwrap().slot(), 7);
    }
}
