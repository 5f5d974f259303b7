//! The cache key: everything a compile's output may depend on, hashed.
//!
//! A key is the SHA-256 of, each length-prefixed: the format version; the compile command
//! as run (after `{toolchain}` and `{binary}` are substituted, so a Rust sysroot's path is
//! in it), the source's file name, the artifacts, the environment; the compile limits and
//! the sandbox's mounts (what the compiler may read) and box sizes (what it may write); the
//! compiler's identity (its resolved
//! path, device, inode, size, modification and change times, and what `--version` prints);
//! the size and times of every `[compile] cache_watch` file; and the source's own SHA-256.
//! Anything of these that changes (a toolchain update, a new flag, another limit) is another
//! key: an entry is never shared between compiles that might have made different programs.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

use crate::config::CompileConfig;
use crate::languages::{Language, COMPILE_FILE_SIZE};

/// Bumped when the key's or the entry's meaning changes: old entries then never match.
const FORMAT: &str = "sudojudge-compile-cache-v1";

/// A cache key: 32 bytes, shown as 64 lower-case hex digits (the entry's file name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// The key in hex, the entry's file name.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

/// What the key of one compile is made of, besides the source.
pub struct KeyParts<'a> {
    /// The language compiled.
    pub language: &'a Language,
    /// The compile command as run in the box.
    pub argv: &'a [String],
    /// The compile limits.
    pub limits: &'a CompileConfig,
    /// The host folders mounted in the box.
    pub mounts: &'a [PathBuf],
    /// The sizes of the box's file systems (`/tmp`, `/box`) and their inode bounds.
    pub box_settings: &'a str,
}

/// A file's identity on disk: a replaced or rewritten file has another one.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    path: PathBuf,
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl Stamp {
    fn of(path: &Path) -> std::io::Result<Stamp> {
        let path = std::fs::canonicalize(path)?;
        let m = std::fs::metadata(&path)?;
        Ok(Stamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
            ctime_ns: i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec()),
            path,
        })
    }

    fn text(&self) -> String {
        format!(
            "{} dev {} ino {} size {} mtime {} ctime {}",
            self.path.display(),
            self.dev,
            self.ino,
            self.size,
            self.mtime_ns,
            self.ctime_ns
        )
    }
}

/// What `--version` printed for a compiler as it is on disk now; run again only when the
/// file's stamp changes (once per toolchain and process, not once per compile).
fn version_of(stamp: &Stamp) -> String {
    type Versions = Mutex<HashMap<PathBuf, (Stamp, String)>>;
    static VERSIONS: OnceLock<Versions> = OnceLock::new();
    let versions = VERSIONS.get_or_init(Default::default);
    if let Some((seen, text)) = versions
        .lock()
        .ok()
        .and_then(|v| v.get(&stamp.path).cloned())
    {
        if seen == *stamp {
            return text;
        }
    }
    let text = match crate::config::toolchain::run_captured(&stamp.path, &["--version".into()]) {
        Ok(out) => out,
        Err(e) => format!("--version failed: {e}"),
    };
    if let Ok(mut v) = versions.lock() {
        v.insert(stamp.path.clone(), (stamp.clone(), text.clone()));
    }
    text
}

/// The compiler's identity: its stamp and its `--version`. `None` when the command's
/// program is not an absolute path to a file on this host (the cache is then not used).
fn compiler_identity(program: &str) -> Option<String> {
    let path = Path::new(program);
    if !path.is_absolute() {
        return None;
    }
    let stamp = Stamp::of(path).ok()?;
    let version = version_of(&stamp);
    Some(format!("{}\n{version}", stamp.text()))
}

fn watch_identity(watch: &[PathBuf]) -> String {
    watch
        .iter()
        .map(|p| match Stamp::of(p) {
            Ok(s) => s.text(),
            Err(_) => format!("{} absent", p.display()),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

struct Hasher(Sha256);

impl Hasher {
    fn field(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn text(&mut self, s: &str) {
        self.field(s.as_bytes());
    }
}

/// The key of compiling `source` as `parts` say, or `None` when the compile cannot be keyed
/// (its compiler is not an absolute path to a file here): such compiles are never cached.
pub fn key_of(parts: &KeyParts<'_>, watch: &[PathBuf], source: &[u8]) -> Option<Key> {
    let compiler = compiler_identity(parts.argv.first()?)?;
    let mut h = Hasher(Sha256::new());
    h.text(FORMAT);
    h.field(&(parts.argv.len() as u64).to_le_bytes());
    for arg in parts.argv {
        h.text(arg);
    }
    h.text(&parts.language.source);
    h.text(&parts.language.artifacts.join("\n"));
    for (k, v) in &parts.language.env {
        h.text(k);
        h.text(v);
    }
    let l = parts.limits;
    h.text(&format!(
        "cpu {} wall {} memory {} output {} processes {} file {}",
        l.time_limit_ms,
        l.wall_limit_ms,
        l.memory_limit_mb,
        l.output_limit_kib,
        l.max_processes,
        COMPILE_FILE_SIZE
    ));
    for mount in parts.mounts {
        h.text(&mount.display().to_string());
    }
    h.text(parts.box_settings);
    h.text(&compiler);
    h.text(&watch_identity(watch));
    h.field(&Sha256::digest(source));
    Some(Key(h.0.finalize().into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::languages::LanguageTable;

    fn script(path: &Path, version: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(path, format!("#!/bin/sh\necho {version}\n")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn every_input_of_a_compile_is_in_its_key() {
        let config = Config::embedded().unwrap();
        let table = LanguageTable::from_config(&config);
        let c = table.get("c").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let cc = dir.path().join("cc");
        script(&cc, "cc 1.0");
        let watched = dir.path().join("status");
        std::fs::write(&watched, "a").unwrap();
        let watch = vec![watched.clone()];
        let mounts = config.sandbox.mounts.clone();
        let key = |argv: &[String], limits: &CompileConfig, source: &[u8]| {
            let parts = KeyParts {
                language: c,
                argv,
                limits,
                mounts: &mounts,
                box_settings: "tmp 64",
            };
            key_of(&parts, &watch, source)
        };
        let argv = vec![cc.display().to_string(), "-O2".to_string()];
        let limits = config.compile.clone();
        let base = key(&argv, &limits, b"int main(){}").unwrap();
        assert_eq!(Some(base), key(&argv, &limits, b"int main(){}"));
        assert_ne!(Some(base), key(&argv, &limits, b"int main(){ }"));

        let flags = vec![argv[0].clone(), "-O1".to_string()];
        assert_ne!(Some(base), key(&flags, &limits, b"int main(){}"));

        let mut more = limits.clone();
        more.memory_limit_mb += 1;
        assert_ne!(Some(base), key(&argv, &more, b"int main(){}"));

        // A watched file rewritten (a package upgrade): another key.
        std::fs::write(&watched, "ab").unwrap();
        let upgraded = key(&argv, &limits, b"int main(){}").unwrap();
        assert_ne!(base, upgraded);

        // The compiler replaced by another version: another key.
        let new = dir.path().join("cc.new");
        script(&new, "cc 2.0");
        std::fs::rename(&new, &cc).unwrap();
        assert_ne!(Some(upgraded), key(&argv, &limits, b"int main(){}"));

        // A compiler named without its path cannot be identified: never cached.
        assert!(key(&["cc".to_string()], &limits, b"x").is_none());
    }

    #[test]
    fn each_standard_has_keys_of_its_own() {
        let config = Config::embedded().unwrap();
        let table = LanguageTable::from_config(&config);
        let source = b"int main(){return 0;}";
        let mut keys = std::collections::HashMap::new();
        for id in [
            "cpp98", "cpp11", "cpp14", "cpp17", "cpp20", "c99", "c11", "c17",
        ] {
            let language = table.get(id).unwrap();
            let argv = language.compile.clone().unwrap();
            if !Path::new(&argv[0]).is_file() {
                continue;
            }
            let parts = KeyParts {
                language,
                argv: &argv,
                limits: &config.compile,
                mounts: &config.sandbox.mounts,
                box_settings: "tmp 64",
            };
            let key = key_of(&parts, &[], source).unwrap();
            if let Some(other) = keys.insert(key, id) {
                panic!("{id} and {other} share a key");
            }
        }
        // `cpp` is the `cpp17` entry, so its compiles share that entry's keys.
        assert_eq!(
            table.get("cpp").map(|l| &l.compile),
            table.get("cpp17").map(|l| &l.compile)
        );
    }
}
