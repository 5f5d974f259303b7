//! cgroup v2: the unified hierarchy (`cgroup.controllers` at the root).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    kill_listed, own_cgroup_path, read_file, read_keyed, remove_dir, under, write_file,
    CgroupError, CgroupLimits, CgroupStats,
};

/// Controllers a run needs.
pub const CONTROLLERS: [&str; 3] = ["memory", "pids", "cpu"];

/// The parent folder under which runs' cgroups are created, controllers delegated to it.
#[derive(Debug, Clone)]
pub struct V2Manager {
    parent: PathBuf,
}

fn has_controllers(dir: &Path) -> Result<(), String> {
    let path = dir.join("cgroup.controllers");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let have: Vec<&str> = text.split_whitespace().collect();
    let missing: Vec<&str> = CONTROLLERS
        .iter()
        .copied()
        .filter(|c| !have.contains(c))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} lacks controllers: {}",
            path.display(),
            missing.join(", ")
        ))
    }
}

fn enable_controllers(dir: &Path) -> Result<(), String> {
    let path = dir.join("cgroup.subtree_control");
    let want = CONTROLLERS.map(|c| format!("+{c}")).join(" ");
    write_file(&path, &want).map_err(|e| e.to_string())
}

impl V2Manager {
    /// Checks the unified hierarchy at `root` offers memory, pids and cpu, creates `name`
    /// inside this process's own cgroup (from the text of `/proc/self/cgroup`) and delegates
    /// the controllers to it.
    pub fn detect(root: &Path, name: &str, proc_self_cgroup: &str) -> Result<V2Manager, String> {
        has_controllers(root)?;
        let own = own_cgroup_path(proc_self_cgroup, "").unwrap_or_else(|| "/".into());
        let own_dir = under(root, &own);
        let parent = own_dir.join(name);
        std::fs::create_dir_all(&parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        if has_controllers(&parent).is_err() {
            if let Err(first) = enable_controllers(&own_dir) {
                // "No internal processes": a non-root cgroup holding processes cannot hand
                // controllers to children. Move this process into a leaf and try again;
                // if other processes remain, the judge must run in a delegated cgroup.
                let leaf = own_dir.join(format!("{name}-judge"));
                std::fs::create_dir_all(&leaf)
                    .map_err(|e| format!("cannot create {}: {e}", leaf.display()))?;
                write_file(&leaf.join("cgroup.procs"), &std::process::id().to_string())
                    .map_err(|e| e.to_string())?;
                enable_controllers(&own_dir).map_err(|e| {
                    format!(
                        "{first}; still {e} after moving the judge to {} (run it in a \
                         cgroup of its own, e.g. systemd-run -p Delegate=yes)",
                        leaf.display()
                    )
                })?;
            }
            has_controllers(&parent)?;
        }
        enable_controllers(&parent)?;
        Ok(V2Manager { parent })
    }

    /// The parent folder of every run's cgroup.
    pub fn parent(&self) -> &Path {
        &self.parent
    }

    /// Creates the run's folder and writes the limits (swap off).
    pub fn create(&self, leaf: &str, limits: CgroupLimits) -> Result<V2Cgroup, CgroupError> {
        let dir = self.parent.join(leaf);
        std::fs::create_dir(&dir).map_err(|source| CgroupError::Io {
            path: dir.clone(),
            source,
        })?;
        let cg = V2Cgroup { dir };
        if let Err(e) = cg.apply(limits) {
            let _ = cg.remove();
            return Err(e);
        }
        Ok(cg)
    }
}

/// One run's cgroup in the unified hierarchy.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct V2Cgroup {
    /// The run's folder.
    pub dir: PathBuf,
}

impl V2Cgroup {
    fn apply(&self, limits: CgroupLimits) -> Result<(), CgroupError> {
        write_file(
            &self.dir.join("memory.max"),
            &limits.memory_bytes.to_string(),
        )?;
        let swap = self.dir.join("memory.swap.max");
        if swap.exists() {
            write_file(&swap, "0")?;
        }
        write_file(
            &self.dir.join("pids.max"),
            &limits.max_processes.to_string(),
        )
    }

    /// `usage_usec` of `cpu.stat`, in nanoseconds.
    pub fn cpu_ns(&self) -> Result<u64, CgroupError> {
        let path = self.dir.join("cpu.stat");
        match read_keyed(&path, "usage_usec")? {
            Some(us) => Ok(us.saturating_mul(1000)),
            None => Err(CgroupError::Parse {
                content: read_file(&path)?,
                path,
            }),
        }
    }

    /// CPU, peak memory (`memory.peak`, else `memory.current`) and OOM kills.
    pub fn stats(&self) -> Result<CgroupStats, CgroupError> {
        let peak = self.dir.join("memory.peak");
        let peak = if peak.exists() {
            peak
        } else {
            self.dir.join("memory.current")
        };
        let events = self.dir.join("memory.events");
        Ok(CgroupStats {
            cpu_ns: self.cpu_ns()?,
            memory_peak_bytes: super::read_u64(&peak)?,
            oom_kills: read_keyed(&events, "oom_kill")?.unwrap_or(0),
            memory_failcnt: read_keyed(&events, "max")?.unwrap_or(0),
        })
    }

    /// `cgroup.kill` when the kernel has it, then SIGKILL whatever is still listed.
    pub fn kill_all(&self) -> Result<(), CgroupError> {
        let kill = self.dir.join("cgroup.kill");
        if kill.exists() {
            write_file(&kill, "1")?;
        }
        kill_listed(&self.dir.join("cgroup.procs"), &self.dir, &[])
    }

    /// Kills what is left and removes the folder.
    pub fn remove(&self) -> Result<(), CgroupError> {
        let killed = self.kill_all();
        remove_dir(&self.dir)?;
        killed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake unified hierarchy: `mkdir` does not create files, so tests create what the
    /// kernel would.
    fn fake_root(controllers: &str) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("cgroup.controllers"), controllers).unwrap();
        std::fs::write(t.path().join("cgroup.subtree_control"), "").unwrap();
        t
    }

    fn fake_cgroup_files(dir: &Path) {
        for f in [
            "cgroup.controllers",
            "cgroup.subtree_control",
            "memory.max",
            "memory.swap.max",
            "pids.max",
            "cgroup.procs",
        ] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        std::fs::write(dir.join("cgroup.controllers"), "cpu memory pids").unwrap();
    }

    #[test]
    fn detect_refuses_missing_controllers() {
        let t = fake_root("cpuset io");
        let err = V2Manager::detect(t.path(), "sj", "0::/\n").unwrap_err();
        assert!(err.contains("memory, pids, cpu"), "{err}");
    }

    #[test]
    fn detect_delegates_controllers_to_parent() {
        let t = fake_root("cpuset cpu io memory pids");
        let parent = t.path().join("own/sj");
        std::fs::create_dir_all(&parent).unwrap();
        fake_cgroup_files(&t.path().join("own"));
        fake_cgroup_files(&parent);
        let m = V2Manager::detect(t.path(), "sj", "0::/own\n").unwrap();
        assert_eq!(m.parent(), parent);
        let sc = std::fs::read_to_string(parent.join("cgroup.subtree_control")).unwrap();
        assert_eq!(sc, "+memory +pids +cpu");
    }

    #[test]
    fn busy_own_cgroup_moves_the_judge_to_a_leaf_first() {
        let t = fake_root("cpuset cpu io memory pids");
        let own = t.path().join("svc");
        std::fs::create_dir_all(own.join("sj")).unwrap();
        // The fake kernel refuses the first write to subtree_control (processes inside):
        // a folder cannot be opened for writing.
        std::fs::create_dir(own.join("cgroup.subtree_control")).unwrap();
        std::fs::write(own.join("sj/cgroup.controllers"), "cpu").unwrap();
        std::fs::create_dir_all(own.join("sj-judge")).unwrap();
        std::fs::write(own.join("sj-judge/cgroup.procs"), "").unwrap();
        let err = V2Manager::detect(t.path(), "sj", "0::/svc\n").unwrap_err();
        // The judge was moved to the leaf, and the message says what to do next.
        let moved = std::fs::read_to_string(own.join("sj-judge/cgroup.procs")).unwrap();
        assert_eq!(moved, std::process::id().to_string());
        assert!(err.contains("Delegate=yes"), "{err}");
    }

    #[test]
    fn limits_are_written_with_swap_off() {
        let t = fake_root("cpu memory pids");
        let dir = t.path().join("run");
        std::fs::create_dir(&dir).unwrap();
        fake_cgroup_files(&dir);
        let cg = V2Cgroup { dir: dir.clone() };
        cg.apply(CgroupLimits {
            memory_bytes: 268435456,
            max_processes: 64,
        })
        .unwrap();
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        assert_eq!(read("memory.max"), "268435456");
        assert_eq!(read("memory.swap.max"), "0");
        assert_eq!(read("pids.max"), "64");
    }

    #[test]
    fn stats_read_cpu_peak_and_oom_kills() {
        let t = fake_root("cpu memory pids");
        let dir = t.path().to_path_buf();
        std::fs::write(
            dir.join("cpu.stat"),
            "usage_usec 400123\nuser_usec 400000\nsystem_usec 123\n",
        )
        .unwrap();
        std::fs::write(dir.join("memory.peak"), "209715200\n").unwrap();
        std::fs::write(
            dir.join("memory.events"),
            "low 0\nhigh 0\nmax 17\noom 1\noom_kill 1\noom_group_kill 0\n",
        )
        .unwrap();
        let cg = V2Cgroup { dir };
        assert_eq!(
            cg.stats().unwrap(),
            CgroupStats {
                cpu_ns: 400_123_000,
                memory_peak_bytes: 209_715_200,
                oom_kills: 1,
                memory_failcnt: 17
            }
        );
    }

    #[test]
    fn peak_falls_back_to_current_on_old_kernels() {
        let t = fake_root("cpu memory pids");
        let dir = t.path().to_path_buf();
        std::fs::write(dir.join("cpu.stat"), "usage_usec 5\n").unwrap();
        std::fs::write(dir.join("memory.current"), "8192\n").unwrap();
        std::fs::write(dir.join("memory.events"), "oom_kill 0\n").unwrap();
        let s = V2Cgroup { dir }.stats().unwrap();
        assert_eq!(
            (s.cpu_ns, s.memory_peak_bytes, s.oom_kills),
            (5000, 8192, 0)
        );
    }

    #[test]
    fn kill_all_writes_cgroup_kill_and_waits_for_empty_procs() {
        let t = fake_root("cpu memory pids");
        let dir = t.path().join("run");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("cgroup.kill"), "").unwrap();
        std::fs::write(dir.join("cgroup.procs"), "").unwrap();
        let cg = V2Cgroup { dir: dir.clone() };
        cg.kill_all().unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("cgroup.kill")).unwrap(),
            "1"
        );
    }
}
