//! The contest clock read from a file (`[contests] clock_file`): tests and rehearsals drive
//! the real daemon through a contest by rewriting one line, without sleeping.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use jiff::Timestamp;

use crate::contest::Clock;

/// A clock showing the instant written in a file (RFC 3339, like `2026-03-01T09:30:00Z`),
/// read again at every use. A file that cannot be read or parsed (being rewritten, say)
/// leaves the last instant read.
#[derive(Debug)]
pub struct FileClock {
    path: PathBuf,
    last: Mutex<Timestamp>,
}

impl FileClock {
    /// A clock on `path`, which must hold an instant now.
    pub fn open(path: &Path) -> Result<FileClock, String> {
        let now = read(path)?;
        Ok(FileClock {
            path: path.to_path_buf(),
            last: Mutex::new(now),
        })
    }
}

fn read(path: &Path) -> Result<Timestamp, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("contest clock file {}: {e}", path.display()))?;
    text.trim().parse().map_err(|e| {
        format!(
            "contest clock file {}: {:?} is not an RFC 3339 instant: {e}",
            path.display(),
            text.trim()
        )
    })
}

impl Clock for FileClock {
    fn now(&self) -> Timestamp {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        match read(&self.path) {
            Ok(now) => *last = now,
            Err(e) => tracing::warn!(error = %e, "contest clock unchanged"),
        }
        *last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_clock_follows_its_file_and_keeps_the_last_good_instant() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clock");
        assert!(FileClock::open(&path).is_err());
        std::fs::write(&path, "2026-03-01T09:00:00Z\n").unwrap();
        let clock = FileClock::open(&path).unwrap();
        assert_eq!(clock.now().to_string(), "2026-03-01T09:00:00Z");
        std::fs::write(&path, "2026-03-01T13:45:00+00:00").unwrap();
        assert_eq!(clock.now().to_string(), "2026-03-01T13:45:00Z");
        std::fs::write(&path, "half past nine").unwrap();
        assert_eq!(clock.now().to_string(), "2026-03-01T13:45:00Z");
    }
}
