//! One daemon per database. A judge that starts requeues every submission left `compiling` or
//! `running` (a crash's leftovers), so a second daemon on the same file would requeue, and
//! judge twice, what the first is judging. The owner holds an exclusive `flock` on
//! `<database>.lock`; the kernel drops it when the process ends, even by `kill -9`.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};

use super::StoreError;

/// Proof that this process owns a database; dropping it lets another daemon start.
#[derive(Debug)]
pub struct DatabaseOwner {
    _lock: Flock<File>,
    path: PathBuf,
}

impl DatabaseOwner {
    /// Takes `<database>.lock` (creating the folder if needed) or says which process has it.
    pub fn claim(database: &Path) -> Result<DatabaseOwner, StoreError> {
        let path = lock_path(database);
        let io = |source| StoreError::Lock {
            path: path.clone(),
            source,
        };
        super::create_parent_dir(&path)?;
        super::make_private(&path, true).map_err(io)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io)?;
        let mut lock = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(lock) => lock,
            Err((mut file, Errno::EWOULDBLOCK)) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(StoreError::InUse {
                    database: database.to_path_buf(),
                    holder: holder.trim().to_string(),
                });
            }
            Err((_, errno)) => return Err(io(std::io::Error::from(errno))),
        };
        lock.set_len(0).map_err(io)?;
        lock.rewind().map_err(io)?;
        writeln!(lock, "pid {}", std::process::id()).map_err(io)?;
        Ok(DatabaseOwner { _lock: lock, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("sub/judge.db");
        let first = DatabaseOwner::claim(&db).unwrap();
        assert_eq!(first.path(), dir.path().join("sub/judge.db.lock"));
        // flock locks belong to the open file description, so a second open in the same
        // process conflicts like another process would.
        match DatabaseOwner::claim(&db) {
            Err(StoreError::InUse { database, holder }) => {
                assert_eq!(database, db);
                assert_eq!(holder, format!("pid {}", std::process::id()));
            }
            other => panic!("second claim: {other:?}"),
        }
        drop(first);
        DatabaseOwner::claim(&db).unwrap();
    }
}
