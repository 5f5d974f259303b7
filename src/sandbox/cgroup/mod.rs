//! Control groups: limits and exact accounting for everything a run starts.
//!
//! Two drivers with one interface: [`v1`] (one hierarchy per controller, this machine) and
//! [`v2`] (the unified hierarchy most hosts have). The hierarchy's root is a parameter so the
//! logic is testable against fake cgroupfs files in a temporary directory.

pub mod v1;
pub mod v2;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Errors of the cgroup layer; each names the file it failed on.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    /// A cgroup file or directory could not be read, written or created.
    #[error("cgroup {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A cgroup file did not hold what the kernel documents.
    #[error("cgroup {path}: cannot parse {content:?}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What it held.
        content: String,
    },
    /// Processes were still in the cgroup after repeated kills.
    #[error("cgroup {0}: processes survive SIGKILL")]
    Unkillable(PathBuf),
}

/// Which cgroup hierarchy the host offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CgroupVersion {
    /// Legacy: one hierarchy per controller under `<root>/<controller>`.
    V1,
    /// Unified: one hierarchy at `<root>` with `cgroup.controllers`.
    V2,
}

/// Limits applied to one run's cgroup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgroupLimits {
    /// Memory limit in bytes (swap off).
    pub memory_bytes: u64,
    /// Processes and threads alive at once.
    pub max_processes: u32,
}

/// What the cgroup measured for one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CgroupStats {
    /// CPU time of every task that was in the cgroup, in nanoseconds.
    pub cpu_ns: u64,
    /// Peak memory charged to the cgroup, in bytes.
    pub memory_peak_bytes: u64,
    /// Number of OOM kills inside the cgroup.
    pub oom_kills: u64,
    /// Times the memory limit was hit (reclaim or OOM).
    pub memory_failcnt: u64,
}

/// One run's cgroup, created by the judge and joined by the boxed program.
///
/// Serializable because the judge hands it to the single-threaded helper process.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Cgroup {
    /// A set of per-controller directories.
    V1(v1::V1Cgroup),
    /// One unified directory.
    V2(v2::V2Cgroup),
}

impl Cgroup {
    /// Every `cgroup.procs` file a process must join (one per hierarchy).
    pub fn procs_files(&self) -> Vec<PathBuf> {
        match self {
            Cgroup::V1(c) => c.dirs().map(|d| d.join("cgroup.procs")).collect(),
            Cgroup::V2(c) => vec![c.dir.join("cgroup.procs")],
        }
    }

    /// The cgroup's folder, open (v2 only: a process can be started directly in it with
    /// `clone3(CLONE_INTO_CGROUP)`; v1 has no such call).
    pub fn open_dir(&self) -> Result<Option<File>, CgroupError> {
        match self {
            Cgroup::V1(_) => Ok(None),
            Cgroup::V2(c) => File::open(&c.dir).map(Some).map_err(io_err(&c.dir)),
        }
    }

    /// CPU time used so far, in nanoseconds.
    pub fn cpu_ns(&self) -> Result<u64, CgroupError> {
        match self {
            Cgroup::V1(c) => c.cpu_ns(),
            Cgroup::V2(c) => c.cpu_ns(),
        }
    }

    /// Every measurement at once (call after the run's processes are gone).
    pub fn stats(&self) -> Result<CgroupStats, CgroupError> {
        match self {
            Cgroup::V1(c) => c.stats(),
            Cgroup::V2(c) => c.stats(),
        }
    }

    /// Kills every process in the cgroup and waits until it is empty.
    pub fn kill_all(&self) -> Result<(), CgroupError> {
        match self {
            Cgroup::V1(c) => c.kill_all(),
            Cgroup::V2(c) => c.kill_all(),
        }
    }

    /// Kills what is left and removes the directories.
    pub fn remove(&self) -> Result<(), CgroupError> {
        match self {
            Cgroup::V1(c) => c.remove(),
            Cgroup::V2(c) => c.remove(),
        }
    }

    /// Pids currently in the cgroup.
    pub fn pids(&self) -> Result<Vec<i32>, CgroupError> {
        match self {
            Cgroup::V1(c) => read_pids(&c.pids_dir().join("cgroup.procs")),
            Cgroup::V2(c) => read_pids(&c.dir.join("cgroup.procs")),
        }
    }
}

/// Where runs' cgroups are created on this host, found once at start-up.
#[derive(Debug, Clone)]
pub enum CgroupManager {
    /// cgroup v1.
    V1(v1::V1Manager),
    /// cgroup v2.
    V2(v2::V2Manager),
}

impl CgroupManager {
    /// Detects the hierarchy under `root` (normally `/sys/fs/cgroup`) and prepares the parent
    /// folder `name` inside this process's own cgroup. v2 wins when its controllers are there.
    pub fn detect(root: &Path, name: &str, own_cgroup: &str) -> Result<CgroupManager, String> {
        match v2::V2Manager::detect(root, name, own_cgroup) {
            Ok(m) => Ok(CgroupManager::V2(m)),
            Err(v2_why) => match v1::V1Manager::detect(root, name, own_cgroup) {
                Ok(m) => Ok(CgroupManager::V1(m)),
                Err(v1_why) => Err(format!("no usable cgroup: v2: {v2_why}; v1: {v1_why}")),
            },
        }
    }

    /// The hierarchy in use.
    pub fn version(&self) -> CgroupVersion {
        match self {
            CgroupManager::V1(_) => CgroupVersion::V1,
            CgroupManager::V2(_) => CgroupVersion::V2,
        }
    }

    /// Names of the cgroups under the parent folder (on v1, under any controller's parent:
    /// a removal cut short can leave a leaf in one controller only).
    pub fn leaves(&self) -> Vec<String> {
        let parents = match self {
            CgroupManager::V1(m) => (0..v1::CONTROLLERS.len()).map(|i| m.parent(i)).collect(),
            CgroupManager::V2(m) => vec![m.parent().to_path_buf()],
        };
        let mut names = std::collections::BTreeSet::new();
        for parent in parents {
            let Ok(dir) = std::fs::read_dir(parent) else {
                continue;
            };
            names.extend(
                dir.flatten()
                    .filter(|e| e.path().is_dir())
                    .map(|e| e.file_name().to_string_lossy().into_owned()),
            );
        }
        names.into_iter().collect()
    }

    /// An existing cgroup `leaf` (to remove a stale one).
    pub fn open(&self, leaf: &str) -> Cgroup {
        match self {
            CgroupManager::V1(m) => Cgroup::V1(m.open(leaf)),
            CgroupManager::V2(m) => Cgroup::V2(v2::V2Cgroup {
                dir: m.parent().join(leaf),
            }),
        }
    }

    /// Creates a fresh cgroup `leaf` with `limits` applied.
    pub fn create(&self, leaf: &str, limits: CgroupLimits) -> Result<Cgroup, CgroupError> {
        match self {
            CgroupManager::V1(m) => m.create(leaf, limits).map(Cgroup::V1),
            CgroupManager::V2(m) => m.create(leaf, limits).map(Cgroup::V2),
        }
    }
}

/// This process's cgroup path in the hierarchy holding `controller` (v1) or the unified one
/// (`controller` = ""), read from `/proc/self/cgroup`.
pub fn own_cgroup_path(proc_self_cgroup: &str, controller: &str) -> Option<String> {
    for line in proc_self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (_id, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        let matches = if controller.is_empty() {
            ctrls.is_empty()
        } else {
            ctrls.split(',').any(|c| c == controller)
        };
        if matches {
            return Some(path.to_string());
        }
    }
    None
}

/// Joins an absolute cgroup path (`/a/b`) under a hierarchy mount point.
pub(crate) fn under(mount: &Path, cgroup_path: &str) -> PathBuf {
    let rel = cgroup_path.trim_start_matches('/');
    if rel.is_empty() {
        mount.to_path_buf()
    } else {
        mount.join(rel)
    }
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CgroupError + '_ {
    move |source| CgroupError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `value` to a cgroup file in one `write(2)`, as the kernel expects.
pub(crate) fn write_file(path: &Path, value: &str) -> Result<(), CgroupError> {
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io_err(path))?;
    f.write_all(value.as_bytes()).map_err(io_err(path))
}

pub(crate) fn read_file(path: &Path) -> Result<String, CgroupError> {
    std::fs::read_to_string(path).map_err(io_err(path))
}

pub(crate) fn read_u64(path: &Path) -> Result<u64, CgroupError> {
    parse_u64(path, read_file(path)?)
}

fn parse_u64(path: &Path, text: String) -> Result<u64, CgroupError> {
    text.trim().parse().map_err(|_| CgroupError::Parse {
        path: path.to_path_buf(),
        content: text,
    })
}

/// Value of `key` in a flat-keyed file (`key value` per line), such as `memory.events`.
pub(crate) fn read_keyed(path: &Path, key: &str) -> Result<Option<u64>, CgroupError> {
    parse_keyed(path, &read_file(path)?, key)
}

fn parse_keyed(path: &Path, text: &str, key: &str) -> Result<Option<u64>, CgroupError> {
    for line in text.lines() {
        let mut it = line.split_whitespace();
        if it.next() == Some(key) {
            return match it.next().map(str::parse::<u64>) {
                Some(Ok(v)) => Ok(Some(v)),
                _ => Err(CgroupError::Parse {
                    path: path.to_path_buf(),
                    content: line.to_string(),
                }),
            };
        }
    }
    Ok(None)
}

/// A cgroup control file kept open: read from offset 0, written with one `pwrite(2)` per
/// value, without the open and close (microseconds each on cgroupfs) of every access.
#[derive(Debug)]
pub struct ControlFile {
    file: File,
    path: PathBuf,
}

impl ControlFile {
    /// Opens `path` for reading, and for writing too when `write`.
    pub fn open(path: PathBuf, write: bool) -> Result<ControlFile, CgroupError> {
        match OpenOptions::new().read(true).write(write).open(&path) {
            Ok(file) => Ok(ControlFile { file, path }),
            Err(source) => Err(CgroupError::Io { path, source }),
        }
    }

    /// Writes `value` in one `write(2)` at offset 0.
    pub fn write(&self, value: &str) -> Result<(), CgroupError> {
        match self.file.write_at(value.as_bytes(), 0) {
            Ok(n) if n == value.len() => Ok(()),
            Ok(_) => Err(CgroupError::Io {
                path: self.path.clone(),
                source: std::io::Error::new(std::io::ErrorKind::WriteZero, "short write"),
            }),
            Err(e) => Err(io_err(&self.path)(e)),
        }
    }

    /// The whole file, read afresh from offset 0.
    pub fn read(&self) -> Result<String, CgroupError> {
        let mut buf = Vec::with_capacity(256);
        let mut chunk = [0u8; 256];
        loop {
            let n = self
                .file
                .read_at(&mut chunk, buf.len() as u64)
                .map_err(io_err(&self.path))?;
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        String::from_utf8(buf).map_err(|e| CgroupError::Parse {
            path: self.path.clone(),
            content: String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    /// The file as one number.
    pub fn read_u64(&self) -> Result<u64, CgroupError> {
        parse_u64(&self.path, self.read()?)
    }

    /// Value of `key` in the file (`key value` per line).
    pub fn read_keyed(&self, key: &str) -> Result<Option<u64>, CgroupError> {
        parse_keyed(&self.path, &self.read()?, key)
    }
}

pub(crate) fn read_pids(path: &Path) -> Result<Vec<i32>, CgroupError> {
    let text = read_file(path)?;
    Ok(text.lines().filter_map(|l| l.trim().parse().ok()).collect())
}

/// Sends SIGKILL to every pid listed in `procs` (but `spare`) until no other is listed.
pub(crate) fn kill_listed(procs: &Path, dir: &Path, spare: &[i32]) -> Result<(), CgroupError> {
    for attempt in 0..200u32 {
        let pids = match read_pids(procs) {
            Ok(p) => p
                .into_iter()
                .filter(|p| !spare.contains(p))
                .collect::<Vec<_>>(),
            Err(CgroupError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(())
            }
            Err(e) => return Err(e),
        };
        if pids.is_empty() {
            return Ok(());
        }
        for pid in pids {
            if pid > 0 {
                // SAFETY: kill(2) with a positive pid read from our own cgroup.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        std::thread::sleep(std::time::Duration::from_micros(if attempt < 20 {
            200
        } else {
            5000
        }));
    }
    Err(CgroupError::Unkillable(dir.to_path_buf()))
}

/// Removes a cgroup directory, retrying while the last tasks finish exiting.
pub(crate) fn remove_dir(dir: &Path) -> Result<(), CgroupError> {
    for _ in 0..500u32 {
        match std::fs::remove_dir(dir) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                std::thread::sleep(std::time::Duration::from_millis(2))
            }
            Err(source) => {
                return Err(CgroupError::Io {
                    path: dir.to_path_buf(),
                    source,
                })
            }
        }
    }
    Err(CgroupError::Unkillable(dir.to_path_buf()))
}

/// Opens every `cgroup.procs` for writing; the boxed child writes `0` to each to join.
pub fn open_procs(files: &[PathBuf]) -> Result<Vec<File>, CgroupError> {
    files
        .iter()
        .map(|p| OpenOptions::new().write(true).open(p).map_err(io_err(p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_path_is_found_per_controller() {
        let text = "9:name=systemd:/\n4:memory:/process_api/abc\n2:cpu,cpuacct:/x\n0::/u\n";
        assert_eq!(
            own_cgroup_path(text, "memory").as_deref(),
            Some("/process_api/abc")
        );
        assert_eq!(own_cgroup_path(text, "cpuacct").as_deref(), Some("/x"));
        assert_eq!(own_cgroup_path(text, "").as_deref(), Some("/u"));
        assert_eq!(own_cgroup_path(text, "pids"), None);
    }

    #[test]
    fn v1_leaves_include_a_leaf_left_in_one_controller_only() {
        let t = tempfile::tempdir().unwrap();
        for c in v1::CONTROLLERS {
            std::fs::create_dir_all(t.path().join(c)).unwrap();
            std::fs::write(t.path().join(c).join("cgroup.procs"), "").unwrap();
        }
        let m = CgroupManager::V1(v1::V1Manager::detect(t.path(), "sj", "").unwrap());
        for (c, leaf) in [("memory", "both"), ("pids", "both"), ("pids", "pids-only")] {
            std::fs::create_dir_all(t.path().join(c).join("sj").join(leaf)).unwrap();
        }
        std::fs::create_dir_all(t.path().join("cpuacct/sj/cpu-only")).unwrap();
        assert_eq!(m.leaves(), ["both", "cpu-only", "pids-only"]);
    }

    #[test]
    fn under_joins_root_and_nested_paths() {
        assert_eq!(under(Path::new("/m"), "/"), PathBuf::from("/m"));
        assert_eq!(under(Path::new("/m"), "/a/b"), PathBuf::from("/m/a/b"));
    }
}
