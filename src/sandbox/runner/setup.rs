//! Setting up one slot's sandbox on the host (probe, helper path, root template folder,
//! cgroup v1 slot and box cgroups) and tearing it down when the sandbox is dropped.

use std::os::unix::fs::DirBuilderExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::ahead::Ahead;
use super::super::boxdir::{self, BoxDirError};
use super::super::cgroup::{CgroupLimits, CgroupManager};
use super::super::error::SandboxError;
use super::super::helper_link::HelperLink;
use super::super::probe::probe_with;
use super::super::slots::SlotLease;
use super::super::stale;
use super::Sandbox;
use crate::config::SandboxConfig;

/// Distinguishes sandboxes of one process (and so their cgroups and box folders).
static INSTANCES: AtomicU64 = AtomicU64::new(0);

impl Sandbox {
    /// Probes the host and refuses, naming what is missing, unless everything is there or
    /// `allow_degraded` is set.
    pub(super) fn with_lease(
        config: &SandboxConfig,
        lease: SlotLease,
    ) -> Result<Sandbox, SandboxError> {
        let slot = lease.slot();
        let manager = super::super::probe::detect_cgroups(config);
        let capabilities = probe_with(config, &manager);
        if !capabilities.isolated && !config.allow_degraded {
            return Err(SandboxError::Unavailable(capabilities.missing.clone()));
        }
        boxdir::prepare_root(&config.box_root, config.box_tmpfs_mb)?;
        let helper = match &config.helper {
            Some(p) => p.clone(),
            None => match std::env::var_os("SUDOJUDGE_HELPER") {
                Some(p) => PathBuf::from(p),
                None => std::env::current_exe().map_err(|source| SandboxError::Helper {
                    path: PathBuf::from("/proc/self/exe"),
                    source,
                })?,
            },
        };
        let id = config.uid_base.saturating_add(slot);
        let name = format!(
            "slot{}-{}-{}",
            slot,
            std::process::id(),
            INSTANCES.fetch_add(1, Ordering::Relaxed)
        );
        let cgroups = if capabilities.isolated {
            manager.ok()
        } else {
            None
        };
        stale::remove_stale(&config.box_root, cgroups.as_ref());
        let template = config.box_root.join(format!("{name}.root"));
        std::fs::DirBuilder::new()
            .mode(0o755)
            .create(&template)
            .map_err(|source| {
                SandboxError::BoxDir(BoxDirError::Io {
                    op: "mkdir",
                    path: template.clone(),
                    source,
                })
            })?;
        let slot_cgroup = match &cgroups {
            Some(m @ CgroupManager::V1(_)) => Some(m.create(
                &name,
                CgroupLimits {
                    memory_bytes: 256 << 20,
                    max_processes: config.max_processes.saturating_add(2),
                },
            )?),
            _ => None,
        };
        let mut box_cgroups = Vec::new();
        if let (Some(slot_cgroup), Some(m)) = (&slot_cgroup, &cgroups) {
            for i in 0..super::super::WAITING_BOXES {
                match m.create(
                    &format!("{name}.box{i}"),
                    CgroupLimits {
                        memory_bytes: 256 << 20,
                        max_processes: config.max_processes.saturating_add(1),
                    },
                ) {
                    Ok(cg) => box_cgroups.push(cg),
                    Err(e) => {
                        for cg in box_cgroups.iter().chain([slot_cgroup]) {
                            let _ = cg.remove();
                        }
                        return Err(e.into());
                    }
                }
            }
        }
        Ok(Sandbox {
            config: config.clone(),
            slot,
            uid: id,
            gid: id,
            helper: HelperLink::new(helper),
            cgroups,
            slot_cgroup,
            box_cgroups,
            capabilities,
            name,
            template,
            seq: AtomicU64::new(0),
            ahead: Ahead::new().ok(),
            _lease: lease,
        })
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.helper.stop();
        for cg in self.slot_cgroup.iter().chain(&self.box_cgroups) {
            let _ = cg.remove();
        }
        let _ = std::fs::remove_dir(&self.template);
    }
}
