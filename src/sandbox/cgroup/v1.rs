//! cgroup v1: one hierarchy per controller (`memory`, `pids`, `cpuacct` under the root).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    kill_listed, own_cgroup_path, read_keyed, read_u64, remove_dir, under, write_file, CgroupError,
    CgroupLimits, CgroupStats,
};

mod files;

pub use files::{Baseline, V1Files};

/// The controllers a run needs, in the order their directories are kept.
pub const CONTROLLERS: [&str; 3] = ["memory", "pids", "cpuacct"];

/// Parent folders (one per controller) under which runs' cgroups are created.
#[derive(Debug, Clone)]
pub struct V1Manager {
    parents: Vec<PathBuf>,
    memsw: bool,
}

impl V1Manager {
    /// Finds each controller under `root`, locates this process's own cgroup in it (from the
    /// text of `/proc/self/cgroup`) and creates the parent folder `name` there.
    pub fn detect(root: &Path, name: &str, proc_self_cgroup: &str) -> Result<V1Manager, String> {
        let mut parents = Vec::new();
        let mut missing = Vec::new();
        for ctrl in CONTROLLERS {
            let mount = root.join(ctrl);
            if !mount.join("cgroup.procs").is_file() {
                missing.push(ctrl);
                continue;
            }
            let own = own_cgroup_path(proc_self_cgroup, ctrl).unwrap_or_else(|| "/".into());
            let parent = under(&mount, &own).join(name);
            std::fs::create_dir_all(&parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            parents.push(parent);
        }
        if !missing.is_empty() {
            return Err(format!(
                "controllers missing under {}: {}",
                root.display(),
                missing.join(", ")
            ));
        }
        let memsw = parents[0].join("memory.memsw.limit_in_bytes").exists();
        Ok(V1Manager { parents, memsw })
    }

    /// Whether swap accounting (`memory.memsw.*`) exists, so swap can be limited to zero.
    pub fn has_memsw(&self) -> bool {
        self.memsw
    }

    /// The parent folder of controller `i` (0 memory, 1 pids, 2 cpuacct).
    pub fn parent(&self, i: usize) -> PathBuf {
        self.parents.get(i).cloned().unwrap_or_default()
    }

    /// An existing cgroup `leaf`.
    pub fn open(&self, leaf: &str) -> V1Cgroup {
        V1Cgroup {
            dirs: self.parents.iter().map(|p| p.join(leaf)).collect(),
            memsw: self.memsw,
        }
    }

    /// Creates the run's folder in every controller and writes the limits.
    pub fn create(&self, leaf: &str, limits: CgroupLimits) -> Result<V1Cgroup, CgroupError> {
        let mut dirs = Vec::new();
        for parent in &self.parents {
            let dir = parent.join(leaf);
            if let Err(source) = std::fs::create_dir(&dir) {
                let made = V1Cgroup {
                    dirs: dirs.clone(),
                    memsw: false,
                };
                let _ = made.remove();
                return Err(CgroupError::Io { path: dir, source });
            }
            dirs.push(dir);
        }
        let cg = V1Cgroup {
            dirs,
            memsw: self.memsw,
        };
        if let Err(e) = cg.apply(limits, self.memsw) {
            let _ = cg.remove();
            return Err(e);
        }
        Ok(cg)
    }
}

/// One run's cgroup: its folder in `memory`, `pids` and `cpuacct`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct V1Cgroup {
    dirs: Vec<PathBuf>,
    /// Whether swap accounting exists (its limit is then set with the memory limit).
    #[serde(default)]
    memsw: bool,
}

impl V1Cgroup {
    /// A cgroup from existing folders (memory, pids, cpuacct), e.g. fake ones in tests.
    pub fn from_dirs(memory: PathBuf, pids: PathBuf, cpuacct: PathBuf) -> V1Cgroup {
        V1Cgroup {
            dirs: vec![memory, pids, cpuacct],
            memsw: false,
        }
    }

    /// The folders, one per controller.
    pub fn dirs(&self) -> impl Iterator<Item = &PathBuf> {
        self.dirs.iter()
    }

    fn dir(&self, i: usize) -> &Path {
        self.dirs
            .get(i)
            .map(PathBuf::as_path)
            .unwrap_or(Path::new("/nonexistent"))
    }

    fn memory_dir(&self) -> &Path {
        self.dir(0)
    }

    /// The `pids` folder (every task of the run is listed there).
    pub fn pids_dir(&self) -> &Path {
        self.dir(1)
    }

    fn cpuacct_dir(&self) -> &Path {
        self.dir(2)
    }

    fn apply(&self, limits: CgroupLimits, memsw: bool) -> Result<(), CgroupError> {
        let mem = self.memory_dir();
        let bytes = limits.memory_bytes.to_string();
        write_file(&mem.join("memory.limit_in_bytes"), &bytes)?;
        if memsw {
            write_file(&mem.join("memory.memsw.limit_in_bytes"), &bytes)?;
        }
        // Best effort: some kernels refuse swappiness in non-root groups.
        let _ = write_file(&mem.join("memory.swappiness"), "0");
        write_file(
            &self.pids_dir().join("pids.max"),
            &limits.max_processes.to_string(),
        )?;
        Ok(())
    }

    /// `cpuacct.usage`: nanoseconds over every task ever in the group.
    pub fn cpu_ns(&self) -> Result<u64, CgroupError> {
        read_u64(&self.cpuacct_dir().join("cpuacct.usage"))
    }

    /// CPU, peak memory and OOM kills.
    pub fn stats(&self) -> Result<CgroupStats, CgroupError> {
        let mem = self.memory_dir();
        let oom_control = mem.join("memory.oom_control");
        Ok(CgroupStats {
            cpu_ns: self.cpu_ns()?,
            memory_peak_bytes: read_u64(&mem.join("memory.max_usage_in_bytes"))?,
            oom_kills: if oom_control.exists() {
                read_keyed(&oom_control, "oom_kill")?.unwrap_or(0)
            } else {
                0
            },
            memory_failcnt: read_u64(&mem.join("memory.failcnt"))?,
        })
    }

    /// `memory.force_empty`, opened for writing (a waiting box's init reclaims its own
    /// cgroup's charges through it between runs), if the kernel has it.
    pub fn open_force_empty(&self) -> Result<Option<std::fs::File>, CgroupError> {
        let path = self.memory_dir().join("memory.force_empty");
        if !path.exists() {
            return Ok(None);
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .map(Some)
            .map_err(|source| CgroupError::Io { path, source })
    }

    /// The control files a reused per-slot cgroup is reset and read through on every run,
    /// opened once.
    pub fn files(&self) -> Result<V1Files, CgroupError> {
        V1Files::open(self)
    }

    /// SIGKILLs every listed task until every controller's list is empty.
    pub fn kill_all(&self) -> Result<(), CgroupError> {
        self.kill_all_but(&[])
    }

    /// SIGKILLs every listed task except `spare` (the helper living in a reused cgroup).
    pub fn kill_all_but(&self, spare: &[i32]) -> Result<(), CgroupError> {
        for dir in &self.dirs {
            kill_listed(&dir.join("cgroup.procs"), dir, spare)?;
        }
        Ok(())
    }

    /// Kills what is left and removes every folder.
    pub fn remove(&self) -> Result<(), CgroupError> {
        let killed = self.kill_all();
        let mut first_err = killed.err();
        for dir in &self.dirs {
            if let Err(e) = remove_dir(dir) {
                first_err.get_or_insert(e);
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_root() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for c in CONTROLLERS {
            std::fs::create_dir_all(t.path().join(c)).unwrap();
            std::fs::write(t.path().join(c).join("cgroup.procs"), "").unwrap();
        }
        t
    }

    #[test]
    fn detect_creates_parent_inside_own_cgroup() {
        let t = fake_root();
        let m = V1Manager::detect(t.path(), "sj", "4:memory:/api/x\n8:pids:/\n").unwrap();
        assert!(t.path().join("memory/api/x/sj").is_dir());
        assert!(t.path().join("pids/sj").is_dir());
        assert!(t.path().join("cpuacct/sj").is_dir());
        assert!(!m.has_memsw());
    }

    #[test]
    fn detect_names_missing_controllers() {
        let t = tempfile::tempdir().unwrap();
        let err = V1Manager::detect(t.path(), "sj", "").unwrap_err();
        assert!(err.contains("memory, pids, cpuacct"), "{err}");
    }

    #[test]
    fn create_writes_limits_and_stats_parse() {
        let t = fake_root();
        let m = V1Manager::detect(t.path(), "sj", "").unwrap();
        // The fake kernel: files a real mkdir would create.
        let cg = {
            let limits = CgroupLimits {
                memory_bytes: 1 << 20,
                max_processes: 7,
            };
            // Pre-create the leaf files after create_dir by creating the dirs ourselves.
            for c in CONTROLLERS {
                std::fs::create_dir_all(t.path().join(c).join("sj")).unwrap();
            }
            let err = m.create("leaf", limits).unwrap_err();
            // Fake cgroupfs has no memory.limit_in_bytes to open: creation must fail cleanly
            // and leave nothing behind.
            assert!(err.to_string().contains("memory.limit_in_bytes"), "{err}");
            assert!(!t.path().join("memory/sj/leaf").exists());
            V1Cgroup::from_dirs(
                t.path().join("memory/sj"),
                t.path().join("pids/sj"),
                t.path().join("cpuacct/sj"),
            )
        };
        let mem = t.path().join("memory/sj");
        std::fs::write(mem.join("memory.max_usage_in_bytes"), "4096\n").unwrap();
        std::fs::write(mem.join("memory.failcnt"), "3\n").unwrap();
        std::fs::write(
            mem.join("memory.oom_control"),
            "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n",
        )
        .unwrap();
        std::fs::write(t.path().join("cpuacct/sj/cpuacct.usage"), "123456789\n").unwrap();
        let s = cg.stats().unwrap();
        assert_eq!(
            s,
            CgroupStats {
                cpu_ns: 123456789,
                memory_peak_bytes: 4096,
                oom_kills: 2,
                memory_failcnt: 3
            }
        );
    }

    #[test]
    fn open_files_reset_and_read_afresh() {
        let t = tempfile::tempdir().unwrap();
        let dir = |c: &str| {
            let d = t.path().join(c);
            std::fs::create_dir_all(&d).unwrap();
            d
        };
        let (mem, pids, cpu) = (dir("memory"), dir("pids"), dir("cpuacct"));
        for (d, name, text) in [
            (&cpu, "cpuacct.usage", "5\n"),
            (&mem, "memory.failcnt", "9\n"),
            (&mem, "memory.usage_in_bytes", "1000\n"),
            (&mem, "memory.limit_in_bytes", "00000\n"),
            (&mem, "memory.max_usage_in_bytes", "7\n"),
            (
                &mem,
                "memory.oom_control",
                "oom_kill_disable 0\noom_kill 4\n",
            ),
            (&pids, "pids.max", "00\n"),
            (&mem, "memory.force_empty", "x\n"),
        ] {
            std::fs::write(d.join(name), text).unwrap();
        }
        let files = V1Cgroup::from_dirs(mem.clone(), pids.clone(), cpu.clone())
            .files()
            .unwrap();
        let limits = CgroupLimits {
            memory_bytes: 24000,
            max_processes: 10,
        };
        let base = files.prepare_run(limits).unwrap();
        assert_eq!(
            base,
            Baseline {
                memory_bytes: 1000,
                oom_kills: 4
            }
        );
        let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
        // A fake file keeps its tail; the kernel's replaces the whole value.
        assert!(read(mem.join("memory.limit_in_bytes")).starts_with("25000"));
        assert!(read(pids.join("pids.max")).starts_with("10"));
        // The first run reclaims what the cgroup holds; the next one only when it holds
        // more than after that reclaim (here: the same, so no second reclaim).
        assert!(read(mem.join("memory.force_empty")).starts_with('0'));
        std::fs::write(mem.join("memory.force_empty"), "x\n").unwrap();
        files.prepare_run(limits).unwrap();
        assert!(read(mem.join("memory.force_empty")).starts_with('x'));
        std::fs::write(mem.join("memory.usage_in_bytes"), "9000\n").unwrap();
        files.prepare_run(limits).unwrap();
        assert!(read(mem.join("memory.force_empty")).starts_with('0'));
        assert!(read(cpu.join("cpuacct.usage")).starts_with('0'));
        std::fs::write(cpu.join("cpuacct.usage"), "123456789\n").unwrap();
        std::fs::write(mem.join("memory.max_usage_in_bytes"), "4096\n").unwrap();
        std::fs::write(mem.join("memory.failcnt"), "3\n").unwrap();
        assert_eq!(
            files.stats().unwrap(),
            CgroupStats {
                cpu_ns: 123456789,
                memory_peak_bytes: 4096,
                oom_kills: 4,
                memory_failcnt: 3
            }
        );
        // A waiting box's cgroup, reclaimed by its init: reset and limited on top of what
        // it holds, without writing force_empty again.
        std::fs::write(mem.join("memory.force_empty"), "x\n").unwrap();
        std::fs::write(mem.join("memory.usage_in_bytes"), "12000\n").unwrap();
        let base = files.prepare_run_reclaimed(limits).unwrap();
        assert_eq!(base.memory_bytes, 12000);
        assert!(read(mem.join("memory.force_empty")).starts_with('x'));
        assert!(read(mem.join("memory.limit_in_bytes")).starts_with("36000"));
        assert!(read(cpu.join("cpuacct.usage")).starts_with('0'));
        assert!(read(mem.join("memory.max_usage_in_bytes")).starts_with('0'));
    }
}
