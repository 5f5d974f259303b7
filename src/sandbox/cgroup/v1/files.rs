//! A reused cgroup's control files, opened once and read and reset on every run: the
//! helper's fast path between runs, apart from making and removing cgroups.

use serde::{Deserialize, Serialize};

use super::super::{CgroupError, CgroupLimits, CgroupStats, ControlFile};
use super::V1Cgroup;

/// What a reused cgroup already held when a run started (subtracted from its figures).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// Memory already charged (the helper's own pages).
    pub memory_bytes: u64,
    /// OOM kills counted before.
    pub oom_kills: u64,
}

/// A reused per-slot cgroup's control files, kept open by the helper that lives in it.
#[derive(Debug)]
pub struct V1Files {
    /// `memory.force_empty`: reclaims what earlier runs left charged (page cache of the
    /// files they read, a compiler's cache), so it cannot raise the next run's limit.
    force_empty: Option<ControlFile>,
    /// The charge left after the last reclaim: the helper's own memory, which cannot be
    /// reclaimed (no swap). More than this before a run means something to reclaim.
    resident: std::cell::Cell<Option<u64>>,
    cpu: ControlFile,
    failcnt: ControlFile,
    usage: ControlFile,
    limit: ControlFile,
    memsw_limit: Option<ControlFile>,
    max_usage: ControlFile,
    pids_max: ControlFile,
    oom_control: Option<ControlFile>,
}

impl V1Files {
    /// Opens `cgroup`'s control files ([`V1Cgroup::files`]).
    pub(super) fn open(cgroup: &V1Cgroup) -> Result<V1Files, CgroupError> {
        let mem = cgroup.memory_dir();
        let oom_control = mem.join("memory.oom_control");
        let force_empty = mem.join("memory.force_empty");
        Ok(V1Files {
            force_empty: match force_empty.exists() {
                true => Some(ControlFile::open(force_empty, true)?),
                false => None,
            },
            resident: std::cell::Cell::new(None),
            cpu: ControlFile::open(cgroup.cpuacct_dir().join("cpuacct.usage"), true)?,
            failcnt: ControlFile::open(mem.join("memory.failcnt"), true)?,
            usage: ControlFile::open(mem.join("memory.usage_in_bytes"), false)?,
            limit: ControlFile::open(mem.join("memory.limit_in_bytes"), true)?,
            memsw_limit: match cgroup.memsw {
                true => Some(ControlFile::open(
                    mem.join("memory.memsw.limit_in_bytes"),
                    true,
                )?),
                false => None,
            },
            max_usage: ControlFile::open(mem.join("memory.max_usage_in_bytes"), true)?,
            pids_max: ControlFile::open(cgroup.pids_dir().join("pids.max"), true)?,
            oom_control: match oom_control.exists() {
                true => Some(ControlFile::open(oom_control, false)?),
                false => None,
            },
        })
    }

    fn oom_kills(&self) -> Result<u64, CgroupError> {
        match &self.oom_control {
            Some(f) => Ok(f.read_keyed("oom_kill")?.unwrap_or(0)),
            None => Ok(0),
        }
    }

    /// `cpuacct.usage`: nanoseconds over every task in the group since the last reset.
    pub fn cpu_ns(&self) -> Result<u64, CgroupError> {
        self.cpu.read_u64()
    }

    /// CPU, peak memory and OOM kills.
    pub fn stats(&self) -> Result<CgroupStats, CgroupError> {
        Ok(CgroupStats {
            cpu_ns: self.cpu_ns()?,
            memory_peak_bytes: self.max_usage.read_u64()?,
            oom_kills: self.oom_kills()?,
            memory_failcnt: self.failcnt.read_u64()?,
        })
    }

    /// Reclaims what earlier runs left charged when the charge is above what was left after
    /// the last reclaim (the helper's own memory); returns the charge. The helper calls it
    /// between runs too, so a run rarely waits for it.
    pub fn reclaim(&self) -> Result<u64, CgroupError> {
        let mut usage = self.usage.read_u64()?;
        if let Some(force_empty) = &self.force_empty {
            if self.resident.get().is_none_or(|resident| usage > resident) {
                force_empty.write("0")?;
                usage = self.usage.read_u64()?;
                self.resident.set(Some(usage));
            }
        }
        Ok(usage)
    }

    /// Readies the cgroup for the next run: counters reset, what earlier runs left charged
    /// reclaimed, the memory limit set to `limits` on top of what is left (the helper's own
    /// memory), so every run starts with exactly its configured limit.
    pub fn prepare_run(&self, limits: CgroupLimits) -> Result<Baseline, CgroupError> {
        self.cpu.write("0")?;
        self.failcnt.write("0")?;
        let usage = self.reclaim()?;
        self.limit_and_reset(limits, usage)
    }

    /// [`V1Files::prepare_run`] of a cgroup whose charges the one process living in it
    /// reclaimed itself just before (a waiting box's init, between runs: see
    /// `memory.force_empty` in `waiting_init`), so the run does not wait for it again.
    pub fn prepare_run_reclaimed(&self, limits: CgroupLimits) -> Result<Baseline, CgroupError> {
        self.cpu.write("0")?;
        self.failcnt.write("0")?;
        let usage = self.usage.read_u64()?;
        self.limit_and_reset(limits, usage)
    }

    fn limit_and_reset(&self, limits: CgroupLimits, usage: u64) -> Result<Baseline, CgroupError> {
        let limit = limits.memory_bytes.saturating_add(usage).to_string();
        // memsw must never be below the memory limit: order the writes accordingly.
        match &self.memsw_limit {
            Some(memsw) if self.limit.write(&limit).is_err() => {
                memsw.write(&limit)?;
                self.limit.write(&limit)?;
            }
            Some(memsw) => memsw.write(&limit)?,
            None => self.limit.write(&limit)?,
        }
        self.max_usage.write("0")?;
        self.pids_max.write(&limits.max_processes.to_string())?;
        Ok(Baseline {
            memory_bytes: self.usage.read_u64()?,
            oom_kills: self.oom_kills()?,
        })
    }
}
