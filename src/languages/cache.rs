//! The compiled-program cache: a rejudge or a re-grade does not compile again what this host
//! compiled before.
//!
//! One folder per host (`[compile] cache_dir`, root-only), shared by every process that
//! compiles through [`crate::languages::compile_cached`] (`serve`, `worker`, `grade`,
//! `verify`, `judge`, `run`, custom runs). An entry is one file named by its [`Key`], the
//! hash of everything the compile depends on ([`key`]), holding the compile log and the
//! artifacts ([`entry`]). Only successful compiles are stored: a compile error is compiled
//! again (cheap, and its message then always comes from the compiler as it is now).
//!
//! Entries are written to a temporary file and renamed into place, so a reader sees a whole
//! entry or none; each is checked against its SHA-256 when read, and a bad one is removed
//! and compiled again. The folder is bounded in bytes, least recently used out ([`evict`]).
//!
//! - [`key`]: what a key is made of (toolchain identity, command, limits, source).
//! - [`entry`]: one entry's file and its integrity check.
//! - [`evict`]: the size bound.

pub mod entry;
pub mod evict;
pub mod key;

use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::config::Config;

pub use key::{Key, KeyParts};

/// Whether a compile used the cache, and how (reports, logs and `/metrics` show it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheUse {
    /// The cache is off (or cannot key this language): the compiler ran.
    #[default]
    Off,
    /// The program came from the cache: no compiler ran.
    Hit,
    /// Not in the cache: the compiler ran (and a success was stored).
    Miss,
}

/// Why the cache folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// The folder could not be made or examined.
    #[error("compile cache {path}: {source}")]
    Io {
        /// The folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The folder is not safe: a program from it would run as submitted.
    #[error("compile cache {path} refused: {why} (it must be a folder of this user, mode 0700)")]
    Unsafe {
        /// The folder.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// What a lookup found.
pub enum Lookup {
    /// A good entry: its log and its artifacts, written into the folder asked for.
    Hit(entry::Restored),
    /// No entry (or a bad one, now removed): compile.
    Miss,
}

/// The cache of one process (cheap to make; every process shares the folder).
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: PathBuf,
    bound: u64,
    watch: Vec<PathBuf>,
    mounts: Vec<PathBuf>,
    box_settings: String,
}

impl CompileCache {
    /// The cache `config` asks for: `None` when `[compile] cache_mb` is 0; an error when the
    /// folder cannot be made or is not safe.
    pub fn open(config: &Config) -> Result<Option<CompileCache>, CacheError> {
        let c = &config.compile;
        if c.cache_mb == 0 {
            return Ok(None);
        }
        let mut cache = CompileCache::at(&c.cache_dir, c.cache_mb.saturating_mul(1 << 20))?;
        cache.watch = c.cache_watch.clone();
        cache.mounts = config.sandbox.mounts.clone();
        let s = &config.sandbox;
        cache.box_settings = format!(
            "tmp {} box {} inodes {}",
            s.tmp_size_mb, s.box_tmpfs_mb, s.box_inodes
        );
        Ok(Some(cache))
    }

    /// A cache in `dir` bounded at `bound` bytes, watching no file; the folder is made
    /// (0700) if missing and refused unless it is this user's, closed to others, and in a
    /// parent others cannot rename it out of.
    pub fn at(dir: &Path, bound: u64) -> Result<CompileCache, CacheError> {
        let io = |source| CacheError::Io {
            path: dir.to_path_buf(),
            source,
        };
        match std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
        {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io(e)),
        }
        let unsafe_ = |why: String| CacheError::Unsafe {
            path: dir.to_path_buf(),
            why,
        };
        let meta = std::fs::symlink_metadata(dir).map_err(io)?;
        let me = nix::unistd::geteuid().as_raw();
        if !meta.is_dir() {
            return Err(unsafe_("not a folder (a link?)".into()));
        }
        if meta.uid() != me {
            return Err(unsafe_(format!("owned by uid {}", meta.uid())));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(unsafe_(format!("mode {:o}", meta.mode() & 0o7777)));
        }
        let parent = dir.parent().unwrap_or(Path::new("/"));
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        let pm = std::fs::metadata(parent).map_err(io)?;
        let sticky = pm.mode() & 0o1000 != 0;
        if pm.mode() & 0o022 != 0 && !sticky {
            return Err(unsafe_(format!(
                "its parent {} is writable by others",
                parent.display()
            )));
        }
        Ok(CompileCache {
            dir: dir.to_path_buf(),
            bound,
            watch: Vec::new(),
            mounts: Vec::new(),
            box_settings: String::new(),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The bound, in bytes.
    pub fn bound(&self) -> u64 {
        self.bound
    }

    /// How many entries the folder holds and their bytes (`doctor` shows it).
    pub fn usage(&self) -> std::io::Result<(usize, u64)> {
        let found = evict::entries(&self.dir)?;
        Ok((found.len(), found.iter().map(|(_, size, _)| size).sum()))
    }

    /// The key of a compile of `source` with `language` running `argv` under `limits`;
    /// `None` when it cannot be keyed (never cached).
    pub fn key(
        &self,
        language: &super::Language,
        argv: &[String],
        limits: &crate::config::CompileConfig,
        source: &[u8],
    ) -> Option<Key> {
        let parts = KeyParts {
            language,
            argv,
            limits,
            mounts: &self.mounts,
            box_settings: &self.box_settings,
        };
        key::key_of(&parts, &self.watch, source)
    }

    fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(key.to_hex())
    }

    /// The entry of `key`, its `artifacts` written into `dest` (an empty folder). A bad
    /// entry is removed and logged, and is a miss; so is one that cannot be read.
    pub fn load(&self, key: &Key, artifacts: &[String], dest: &Path) -> Lookup {
        let path = self.path(key);
        let mut file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => {
                tracing::warn!(entry = %path.display(), error = %e, "compile cache: unreadable");
                return Lookup::Miss;
            }
        };
        match entry::read(&mut file, key, artifacts, dest) {
            Ok(restored) => {
                // The entry's time is its last use: the eviction's order.
                let _ = file.set_modified(SystemTime::now());
                Lookup::Hit(restored)
            }
            Err(e) => {
                tracing::warn!(entry = %path.display(), error = %e,
                    "compile cache: entry refused and removed; compiling again");
                if matches!(e, entry::EntryError::Corrupt(_)) {
                    let _ = std::fs::remove_file(&path);
                }
                clear(dest);
                Lookup::Miss
            }
        }
    }

    /// Stores a successful compile: its `log` and `artifacts` (name, host path), then
    /// evicts down to the bound. An entry larger than the bound is not stored. Failures
    /// are logged and leave the cache as it was (a miss next time).
    pub fn store(&self, key: &Key, log: &str, artifacts: &[(String, PathBuf)]) {
        if let Err(e) = self.try_store(key, log, artifacts) {
            tracing::warn!(dir = %self.dir.display(), error = %e,
                "compile cache: the program was not stored");
        }
    }

    fn try_store(
        &self,
        key: &Key,
        log: &str,
        artifacts: &[(String, PathBuf)],
    ) -> std::io::Result<()> {
        let mut size = 0;
        for (_, path) in artifacts {
            size += std::fs::metadata(path)?.len();
        }
        if size > self.bound {
            return Ok(());
        }
        let temp = self.dir.join(format!(
            "{}{}-{:016x}",
            evict::TEMP_PREFIX,
            std::process::id(),
            rand::random::<u64>()
        ));
        let written = (|| {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&temp)?;
            entry::write(&mut file, key, log, artifacts)?;
            std::fs::rename(&temp, self.path(key))
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        written?;
        evict::evict(&self.dir, self.bound)?;
        Ok(())
    }
}

/// Empties a folder a refused entry was being written into.
fn clear(dest: &Path) {
    if let Ok(dir) = std::fs::read_dir(dest) {
        for e in dir.flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn an_open_or_foreign_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let made = dir.path().join("a/cache");
        CompileCache::at(&made, 1 << 20).unwrap();
        let mode = std::fs::metadata(&made).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);

        let open = dir.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = CompileCache::at(&open, 1).unwrap_err();
        assert!(err.to_string().contains("mode 755"), "{err}");

        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&made, &link).unwrap();
        assert!(CompileCache::at(&link, 1).is_err());

        let shared = dir.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = CompileCache::at(&shared.join("cache"), 1).unwrap_err();
        assert!(err.to_string().contains("writable by others"), "{err}");
    }

    #[test]
    fn a_stored_program_comes_back_and_a_corrupt_one_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CompileCache::at(&dir.path().join("c"), 1 << 20).unwrap();
        let built = dir.path().join("main");
        std::fs::write(&built, b"program").unwrap();
        let key = Key([1; 32]);
        let names = vec!["main".to_string()];
        let out = tempfile::tempdir().unwrap();
        assert!(matches!(cache.load(&key, &names, out.path()), Lookup::Miss));
        cache.store(&key, "log", &[("main".into(), built)]);
        let Lookup::Hit(got) = cache.load(&key, &names, out.path()) else {
            panic!("stored entry not found");
        };
        assert_eq!(std::fs::read(&got.files[0].1).unwrap(), b"program");

        let entry = cache.path(&key);
        let mut bytes = std::fs::read(&entry).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&entry, bytes).unwrap();
        let out = tempfile::tempdir().unwrap();
        assert!(matches!(cache.load(&key, &names, out.path()), Lookup::Miss));
        assert!(!entry.exists(), "the corrupt entry is removed");
        assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
    }
}
