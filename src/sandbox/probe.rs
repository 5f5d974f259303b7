//! What the host offers the sandbox: root, namespaces, cgroups, seccomp. Used by `doctor`,
//! by `GET /api/health` and by the refusal to start without isolation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::cgroup::{CgroupManager, CgroupVersion};
use crate::config::SandboxConfig;

/// The host's capabilities, and in plain words what is missing.
#[derive(Debug, Clone, Serialize)]
pub struct Capabilities {
    /// Effective uid 0 with CAP_SYS_ADMIN (mounts, namespaces, cgroups, changing uid).
    pub root: bool,
    /// Namespaces the kernel offers, by name (mount, pid, net, ipc, uts, user).
    pub namespaces: BTreeMap<String, bool>,
    /// The cgroup hierarchy in use, if any.
    pub cgroup: Option<CgroupVersion>,
    /// Controllers available to runs (v1: memory, pids, cpuacct; v2: memory, pids, cpu).
    pub cgroup_controllers: Vec<String>,
    /// Why no cgroup is usable, when none is.
    pub cgroup_error: Option<String>,
    /// Whether v1 can turn swap off (memsw); always true on v2.
    pub swap_limit: bool,
    /// Whether the kernel offers seccomp filters.
    pub seccomp: bool,
    /// Configured mounts that do not exist on this host.
    pub missing_mounts: Vec<PathBuf>,
    /// What full isolation needs and the host lacks; empty when fully isolated.
    pub missing: Vec<String>,
    /// True when nothing is missing.
    pub isolated: bool,
    /// The config allows running rlimit-only when something is missing.
    pub degraded_allowed: bool,
}

/// CAP_SYS_ADMIN is capability 21.
fn has_cap_sys_admin() -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|caps| caps & (1 << 21) != 0)
}

/// Finds the cgroup hierarchy named in the config (creating its parent folder).
pub fn detect_cgroups(config: &SandboxConfig) -> Result<CgroupManager, String> {
    let proc_self = std::fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    CgroupManager::detect(&config.cgroup_root, &config.cgroup_name, &proc_self)
}

/// Looks at the host; with `manager` the cgroup detection already done.
pub(crate) fn probe_with(
    config: &SandboxConfig,
    manager: &Result<CgroupManager, String>,
) -> Capabilities {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0 && has_cap_sys_admin();
    let namespaces: BTreeMap<String, bool> = [
        ("mount", "mnt"),
        ("pid", "pid"),
        ("net", "net"),
        ("ipc", "ipc"),
        ("uts", "uts"),
        ("user", "user"),
    ]
    .iter()
    .map(|(name, file)| {
        (
            name.to_string(),
            Path::new("/proc/self/ns").join(file).exists(),
        )
    })
    .collect();
    let seccomp = std::fs::read_to_string("/proc/self/status")
        .map(|s| s.lines().any(|l| l.starts_with("Seccomp:")))
        .unwrap_or(false);
    let missing_mounts = config
        .mounts
        .iter()
        .filter(|m| std::fs::symlink_metadata(m).is_err())
        .cloned()
        .collect();

    let mut missing = Vec::new();
    if !root {
        missing.push("root with CAP_SYS_ADMIN (run the judge as root)".to_string());
    }
    for ns in ["mount", "pid", "net", "ipc", "uts"] {
        if namespaces.get(ns) != Some(&true) {
            missing.push(format!("{ns} namespace"));
        }
    }
    let (cgroup, cgroup_controllers, cgroup_error, swap_limit) = match manager {
        Ok(m) => {
            let ctrls: Vec<String> = match m {
                CgroupManager::V1(_) => super::cgroup::v1::CONTROLLERS,
                CgroupManager::V2(_) => super::cgroup::v2::CONTROLLERS,
            }
            .iter()
            .map(|s| s.to_string())
            .collect();
            let swap = match m {
                CgroupManager::V1(v1) => v1.has_memsw(),
                CgroupManager::V2(_) => true,
            };
            (Some(m.version()), ctrls, None, swap)
        }
        Err(e) => {
            missing.push(format!("cgroups ({e})"));
            (None, Vec::new(), Some(e.clone()), false)
        }
    };
    if !seccomp {
        missing.push("seccomp filters".to_string());
    }
    Capabilities {
        root,
        namespaces,
        cgroup,
        cgroup_controllers,
        cgroup_error,
        swap_limit,
        seccomp,
        missing_mounts,
        isolated: missing.is_empty(),
        missing,
        degraded_allowed: config.allow_degraded,
    }
}

/// What the host offers the sandbox configured by `config`.
pub fn probe(config: &SandboxConfig) -> Capabilities {
    probe_with(config, &detect_cgroups(config))
}
