//! One cache entry on disk: a single file, so it is replaced whole by one `rename`.
//!
//! Layout: `MAGIC` (8 bytes), the SHA-256 of everything after the digest (32 bytes), the
//! header's length (u32, little-endian), the header (JSON: the key, the compile log, each
//! artifact's name, executable bit and length), then the artifacts' bytes in order. A
//! reader streams the artifacts out while hashing and accepts them only if the digest, the
//! key and every length match: a truncated, flipped or misplaced entry is refused, never run.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::key::Key;

const MAGIC: &[u8; 8] = b"SJCC\x01\0\0\0";

/// Largest header accepted (the compile log is capped well below).
const MAX_HEADER: u32 = 1 << 20;

#[derive(Serialize, Deserialize)]
struct Header {
    key: String,
    log: String,
    artifacts: Vec<ArtifactHeader>,
}

#[derive(Serialize, Deserialize)]
struct ArtifactHeader {
    name: String,
    executable: bool,
    len: u64,
}

/// Why an entry was refused.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    /// The entry is not what was written (torn, flipped, truncated, another key's).
    #[error("corrupt entry: {0}")]
    Corrupt(String),
    /// Reading it or writing the program out failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

fn corrupt(why: impl Into<String>) -> EntryError {
    EntryError::Corrupt(why.into())
}

struct Hashing<T> {
    inner: T,
    hash: Sha256,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the entry of `key` to `file` (a fresh temporary file): the compile `log` and the
/// `artifacts` (name, host path). Returns the entry's size in bytes.
pub fn write(
    file: &mut File,
    key: &Key,
    log: &str,
    artifacts: &[(String, PathBuf)],
) -> std::io::Result<u64> {
    let mut headers = Vec::with_capacity(artifacts.len());
    for (name, path) in artifacts {
        let meta = std::fs::metadata(path)?;
        headers.push(ArtifactHeader {
            name: name.clone(),
            executable: meta.permissions().mode() & 0o111 != 0,
            len: meta.len(),
        });
    }
    let lens: Vec<u64> = headers.iter().map(|h| h.len).collect();
    let header = serde_json::to_vec(&Header {
        key: key.to_hex(),
        log: log.to_string(),
        artifacts: headers,
    })
    .map_err(std::io::Error::other)?;
    let header_len = u32::try_from(header.len())
        .ok()
        .filter(|n| *n <= MAX_HEADER)
        .ok_or_else(|| std::io::Error::other("compile log too long for an entry"))?;
    file.write_all(MAGIC)?;
    file.write_all(&[0; 32])?;
    let (digest, expected) = {
        let mut out = Hashing {
            inner: std::io::BufWriter::new(&mut *file),
            hash: Sha256::new(),
        };
        out.write_all(&header_len.to_le_bytes())?;
        out.write_all(&header)?;
        let mut expected = 0;
        for ((_, path), len) in artifacts.iter().zip(lens) {
            let copied = std::io::copy(&mut File::open(path)?.take(len), &mut out)?;
            if copied != len {
                return Err(std::io::Error::other(
                    "an artifact changed while it was stored",
                ));
            }
            expected += copied;
        }
        out.flush()?;
        (out.hash.finalize(), expected)
    };
    file.seek(SeekFrom::Start(MAGIC.len() as u64))?;
    file.write_all(&digest)?;
    Ok(MAGIC.len() as u64 + 32 + 4 + u64::from(header_len) + expected)
}

/// What a good entry gives back: the compile log and the artifacts written out.
pub struct Restored {
    /// The compiler's messages of the compile that made the entry.
    pub log: String,
    /// Each artifact: its name and where it was written.
    pub files: Vec<(String, PathBuf)>,
}

/// Reads the entry of `key` from `file`, writing its artifacts into `dest` (an empty
/// folder), and accepts it only if they are exactly `artifacts` and every check passes.
/// On `Err` some artifacts may be left in `dest`: the caller discards the folder.
pub fn read(
    file: &mut File,
    key: &Key,
    artifacts: &[String],
    dest: &Path,
) -> Result<Restored, EntryError> {
    let mut magic = [0u8; 8];
    let mut digest = [0u8; 32];
    read_exact(file, &mut magic, "magic")?;
    if &magic != MAGIC {
        return Err(corrupt("not an entry of this version"));
    }
    read_exact(file, &mut digest, "digest")?;
    let mut input = Hashing {
        inner: std::io::BufReader::new(&mut *file),
        hash: Sha256::new(),
    };
    let mut len = [0u8; 4];
    read_exact(&mut input, &mut len, "header length")?;
    let len = u32::from_le_bytes(len);
    if len > MAX_HEADER {
        return Err(corrupt("header too long"));
    }
    let mut header = vec![0; len as usize];
    read_exact(&mut input, &mut header, "header")?;
    let header: Header =
        serde_json::from_slice(&header).map_err(|e| corrupt(format!("header: {e}")))?;
    if header.key != key.to_hex() {
        return Err(corrupt("another key's entry"));
    }
    let names: Vec<&str> = header.artifacts.iter().map(|a| a.name.as_str()).collect();
    if names != artifacts.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(corrupt("other artifacts than the language's"));
    }
    let mut files = Vec::with_capacity(header.artifacts.len());
    for a in &header.artifacts {
        // The names are the language's own (checked above), never a path from the file.
        let path = dest.join(&a.name);
        let mode = if a.executable { 0o755 } else { 0o644 };
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&path)?;
        let copied = std::io::copy(&mut (&mut input).take(a.len), &mut out)?;
        if copied != a.len {
            return Err(corrupt(format!("{} is truncated", a.name)));
        }
        files.push((a.name.clone(), path));
    }
    let mut rest = [0u8; 1];
    if input.read(&mut rest)? != 0 {
        return Err(corrupt("bytes after the last artifact"));
    }
    if input.hash.finalize().as_slice() != digest {
        return Err(corrupt("digest mismatch"));
    }
    Ok(Restored {
        log: header.log,
        files,
    })
}

fn read_exact(r: &mut impl Read, buf: &mut [u8], what: &str) -> Result<(), EntryError> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => corrupt(format!("truncated in the {what}")),
        _ => EntryError::Io(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(dir: &Path) -> (Key, PathBuf) {
        let main = dir.join("main");
        std::fs::write(&main, b"\x7fELF program bytes").unwrap();
        std::fs::set_permissions(&main, std::fs::Permissions::from_mode(0o755)).unwrap();
        let key = Key([7; 32]);
        let path = dir.join("entry");
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .unwrap();
        let size = write(&mut f, &key, "warning: x", &[("main".into(), main)]).unwrap();
        assert_eq!(size, std::fs::metadata(&path).unwrap().len());
        (key, path)
    }

    #[test]
    fn an_entry_reads_back_and_any_flipped_byte_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (key, path) = entry(dir.path());
        let names = vec!["main".to_string()];
        let out = tempfile::tempdir().unwrap();
        let got = read(&mut File::open(&path).unwrap(), &key, &names, out.path()).unwrap();
        assert_eq!(got.log, "warning: x");
        assert_eq!(
            std::fs::read(&got.files[0].1).unwrap(),
            b"\x7fELF program bytes"
        );
        let mode = std::fs::metadata(&got.files[0].1)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);

        let bytes = std::fs::read(&path).unwrap();
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x20;
            std::fs::write(&path, &bad).unwrap();
            let out = tempfile::tempdir().unwrap();
            let r = read(&mut File::open(&path).unwrap(), &key, &names, out.path());
            assert!(r.is_err(), "byte {i} flipped was accepted");
        }
        for cut in [0, 5, 40, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let out = tempfile::tempdir().unwrap();
            let r = read(&mut File::open(&path).unwrap(), &key, &names, out.path());
            assert!(matches!(r, Err(EntryError::Corrupt(_))), "cut at {cut}");
        }
        std::fs::write(&path, &bytes).unwrap();
        let out = tempfile::tempdir().unwrap();
        let r = read(
            &mut File::open(&path).unwrap(),
            &Key([8; 32]),
            &names,
            out.path(),
        );
        assert!(r.is_err(), "another key's entry");
        let out = tempfile::tempdir().unwrap();
        let r = read(
            &mut File::open(&path).unwrap(),
            &key,
            &["a.out".to_string()],
            out.path(),
        );
        assert!(r.is_err(), "other artifacts");
    }
}
