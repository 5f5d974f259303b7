//! The size bound: least recently used entries out.
//!
//! An entry's modification time is its last use (a hit sets it to now), so the oldest go
//! first. Every process evicts after it stores, without a lock: two evicting at once may
//! remove a little more than needed, never a file another is reading (an open file stays
//! readable on Linux after it is unlinked).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A temporary file this old was left by a writer that died; it is removed.
const STALE_TEMP: Duration = Duration::from_secs(3600);

/// Prefix of the temporary files entries are written to before their rename.
pub const TEMP_PREFIX: &str = ".tmp-";

/// Whether a file name is an entry's (64 lower-case hex digits).
pub fn is_entry_name(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The entries of `dir`: path, size and last use.
pub fn entries(dir: &Path) -> std::io::Result<Vec<(PathBuf, u64, SystemTime)>> {
    let now = SystemTime::now();
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let Ok(e) = e else { continue };
        let name = e.file_name().to_string_lossy().into_owned();
        let Ok(meta) = e.metadata() else { continue };
        let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        if is_entry_name(&name) && meta.is_file() {
            found.push((e.path(), meta.len(), used));
        } else if name.starts_with(TEMP_PREFIX)
            && now.duration_since(used).unwrap_or_default() > STALE_TEMP
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    Ok(found)
}

/// Removes the least recently used entries of `dir` until they total at most `bound`
/// bytes. Returns how many were removed.
pub fn evict(dir: &Path, bound: u64) -> std::io::Result<usize> {
    let mut found = entries(dir)?;
    let mut total: u64 = found.iter().map(|(_, size, _)| size).sum();
    if total <= bound {
        return Ok(0);
    }
    found.sort_by_key(|(_, _, used)| *used);
    let mut removed = 0;
    for (path, size, _) in found {
        if total <= bound {
            break;
        }
        match std::fs::remove_file(&path) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        total = total.saturating_sub(size);
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_go_first_until_under_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let name = |i: u8| format!("{:064x}", i);
        let base = SystemTime::now() - Duration::from_secs(100);
        for (i, used) in [(1u8, 30), (2, 10), (3, 20), (4, 40)] {
            let path = dir.path().join(name(i));
            std::fs::write(&path, vec![0u8; 100]).unwrap();
            let f = std::fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(base + Duration::from_secs(used)).unwrap();
        }
        std::fs::write(dir.path().join("not-an-entry"), vec![0u8; 1000]).unwrap();
        assert_eq!(evict(dir.path(), 400).unwrap(), 0);
        assert_eq!(evict(dir.path(), 250).unwrap(), 2);
        let mut left: Vec<String> = entries(dir.path())
            .unwrap()
            .into_iter()
            .map(|(p, _, _)| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, vec![name(1), name(4)]);
        assert!(dir.path().join("not-an-entry").exists());
    }
}
