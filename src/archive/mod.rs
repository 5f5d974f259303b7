//! Safe extraction of a zip someone else made (an LMS export, an uploaded package) into a
//! fresh folder: every entry's path stays inside the folder (no absolute path, no `..`), no
//! link or special file is made, and the number of entries, each entry's size, the total
//! size and the compression ratio are bounded, the sizes counted on the bytes actually
//! inflated (a zip's declared sizes can lie). On any refusal the folder is removed: nothing
//! is left, inside or outside it.

use std::fs::{DirBuilder, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

/// The bounds of one extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most entries (files and folders).
    pub max_entries: usize,
    /// Largest file, inflated.
    pub max_file_bytes: u64,
    /// Largest total of the files, inflated.
    pub max_total_bytes: u64,
    /// Largest inflated / compressed ratio of a file over [`Limits::ratio_from_bytes`] (on
    /// the declared sizes; a file inflating past its declared size is refused as it is read).
    pub max_ratio: u64,
    /// Files up to this size may have any ratio (a small file cannot bomb anything).
    pub ratio_from_bytes: u64,
}

impl Default for Limits {
    /// A class's export: 2,000 entries, 32 MiB a file, 256 MiB in all, ratio 200.
    fn default() -> Limits {
        Limits {
            max_entries: 2000,
            max_file_bytes: 32 << 20,
            max_total_bytes: 256 << 20,
            max_ratio: 200,
            ratio_from_bytes: 1 << 20,
        }
    }
}

/// Why a zip was refused.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The file cannot be read or is not a zip.
    #[error("{}: not a readable zip: {reason}", path.display())]
    NotZip {
        /// The zip.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// An entry's path would leave the folder, or is not a plain relative path.
    #[error("entry {name:?}: {why}")]
    UnsafePath {
        /// The entry's name as stored.
        name: String,
        /// Why it is refused.
        why: &'static str,
    },
    /// A symbolic link or another special file.
    #[error("entry {name:?}: a {kind}, not extracted (a zip of files only)")]
    Special {
        /// The entry.
        name: String,
        /// What it is.
        kind: &'static str,
    },
    /// Too many entries, a file or the whole too large, or a ratio of a zip bomb.
    #[error("{0}")]
    Bounds(String),
    /// Writing the folder failed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// What an extraction wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The files, relative to the folder, in the zip's order.
    pub files: Vec<PathBuf>,
    /// Their total size.
    pub bytes: u64,
}

const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFLNK: u32 = 0o120_000;

/// The entry's path as relative components, or why not.
fn safe_path(name: &str) -> Result<PathBuf, &'static str> {
    if name.contains('\0') {
        return Err("a NUL byte in the name");
    }
    if name.contains('\\') {
        return Err("a backslash in the name (not a portable zip path)");
    }
    let path = Path::new(name);
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(c) => out.push(c),
            Component::CurDir => {}
            Component::ParentDir => return Err("a `..` component leaves the folder"),
            Component::RootDir | Component::Prefix(_) => {
                return Err("an absolute path leaves the folder")
            }
        }
    }
    if out.as_os_str().is_empty() {
        return Err("an empty name");
    }
    Ok(out)
}

fn kind_of(mode: u32) -> Option<&'static str> {
    match mode & S_IFMT {
        0 | S_IFREG | S_IFDIR => None,
        S_IFLNK => Some("symbolic link"),
        0o010_000 => Some("FIFO"),
        0o020_000 => Some("character device"),
        0o060_000 => Some("block device"),
        0o140_000 => Some("socket"),
        _ => Some("special file"),
    }
}

/// Extracts `zip` into `dest`, a folder this call creates (it must not exist; its parent
/// must). Files are created `0644`, folders `0755`, never over an existing file (two entries
/// of one name are refused). On error, `dest` is removed.
pub fn extract(zip: &Path, dest: &Path, limits: &Limits) -> Result<Extracted, ArchiveError> {
    DirBuilder::new()
        .mode(0o755)
        .create(dest)
        .map_err(|source| ArchiveError::Write {
            path: dest.to_path_buf(),
            source,
        })?;
    let result = extract_into(zip, dest, limits);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(dest);
    }
    result
}

fn extract_into(zip: &Path, dest: &Path, limits: &Limits) -> Result<Extracted, ArchiveError> {
    let not_zip = |reason: String| ArchiveError::NotZip {
        path: zip.to_path_buf(),
        reason,
    };
    let file = std::fs::File::open(zip).map_err(|e| not_zip(e.to_string()))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| not_zip(e.to_string()))?;
    if archive.len() > limits.max_entries {
        return Err(ArchiveError::Bounds(format!(
            "{} entries, more than {}",
            archive.len(),
            limits.max_entries
        )));
    }
    // Every entry is checked before anything is written.
    let mut plan = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let entry = archive
            .by_index_raw(i)
            .map_err(|e| not_zip(e.to_string()))?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let path = safe_path(&name).map_err(|why| ArchiveError::UnsafePath {
            name: name.clone(),
            why,
        })?;
        let mode = entry.unix_mode().unwrap_or(0);
        if let Some(kind) = kind_of(mode) {
            return Err(ArchiveError::Special { name, kind });
        }
        if entry.encrypted() {
            return Err(ArchiveError::Bounds(format!("entry {name:?}: encrypted")));
        }
        let is_dir = entry.is_dir() || mode & S_IFMT == S_IFDIR;
        let (size, compressed) = (entry.size(), entry.compressed_size().max(1));
        if !is_dir && size > limits.ratio_from_bytes && size / compressed > limits.max_ratio {
            return Err(ArchiveError::Bounds(format!(
                "entry {name:?}: {size} bytes from {compressed} compressed, more than {} times (a zip bomb)",
                limits.max_ratio
            )));
        }
        plan.push((path, is_dir, name, size));
    }
    let mut total: u64 = 0;
    let mut files = Vec::new();
    for (i, (path, is_dir, name, declared)) in plan.into_iter().enumerate() {
        let target = dest.join(&path);
        let write_err = |source| ArchiveError::Write {
            path: target.clone(),
            source,
        };
        if is_dir {
            DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(&target)
                .map_err(write_err)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(parent)
                .map_err(write_err)?;
        }
        let mut entry = archive.by_index(i).map_err(|e| not_zip(e.to_string()))?;
        let mut out = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&target)
            .map_err(write_err)?;
        let room = limits
            .max_file_bytes
            .min(limits.max_total_bytes.saturating_sub(total));
        let mut written: u64 = 0;
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = entry
                .read(&mut buf)
                .map_err(|e| not_zip(format!("entry {name:?}: {e}")))?;
            if n == 0 {
                break;
            }
            written += n as u64;
            if written > room {
                return Err(ArchiveError::Bounds(if written > limits.max_file_bytes {
                    format!(
                        "entry {name:?}: over {} bytes inflated (the limit of a file)",
                        limits.max_file_bytes
                    )
                } else {
                    format!(
                        "over {} bytes inflated in all (the limit of an archive)",
                        limits.max_total_bytes
                    )
                }));
            }
            // The ratio was checked on the declared sizes: inflating past them is a forgery.
            if written > declared {
                return Err(ArchiveError::Bounds(format!(
                    "entry {name:?}: inflates past its declared {declared} bytes (a forged zip)"
                )));
            }
            out.write_all(&buf[..n]).map_err(write_err)?;
        }
        total += written;
        files.push(path);
    }
    Ok(Extracted {
        files,
        bytes: total,
    })
}

#[cfg(test)]
mod tests;
