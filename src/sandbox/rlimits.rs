//! Resource limits set on the boxed program just before exec: a second line of defence
//! behind the cgroup (and the only one in degraded mode).

use serde::{Deserialize, Serialize};

use super::Limits;

/// Errors setting a limit.
#[derive(Debug, thiserror::Error)]
pub enum RlimitError {
    /// `setrlimit` failed.
    #[error("setrlimit({resource}): {source}")]
    Set {
        /// Which limit.
        resource: &'static str,
        /// Why.
        source: std::io::Error,
    },
}

/// The rlimits of one run, computed on the judge's side from its [`Limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlimitPlan {
    /// RLIMIT_CPU soft limit in seconds (SIGXCPU; hard = soft + 1, SIGKILL). A backstop: the
    /// supervisor stops the run at the exact limit from the cgroup's CPU counter.
    pub cpu_seconds: u64,
    /// RLIMIT_FSIZE: largest file the program may write (stdout and stderr are files).
    pub file_size: u64,
    /// RLIMIT_STACK: the memory limit, so deep recursion is bounded only by memory.
    pub stack: u64,
    /// RLIMIT_NOFILE.
    pub open_files: u64,
    /// RLIMIT_NPROC for the slot's uid: a fork bomb backstop behind the pids cgroup.
    pub processes: u64,
    /// RLIMIT_AS, only in degraded mode (no memory cgroup).
    pub address_space: Option<u64>,
}

impl RlimitPlan {
    /// The plan for `limits`, with files capped at `file_size` bytes.
    pub fn new(limits: &Limits, file_size: u64, degraded: bool) -> RlimitPlan {
        RlimitPlan {
            cpu_seconds: limits.cpu_time_ms.div_ceil(1000) + 1,
            file_size,
            stack: limits.memory_bytes,
            open_files: 256,
            processes: u64::from(limits.max_processes),
            address_space: degraded.then_some(limits.memory_bytes),
        }
    }

    /// Applies the plan to the calling process.
    pub fn apply(&self) -> Result<(), RlimitError> {
        set("RLIMIT_CORE", libc::RLIMIT_CORE, 0, 0)?;
        set(
            "RLIMIT_CPU",
            libc::RLIMIT_CPU,
            self.cpu_seconds,
            self.cpu_seconds + 1,
        )?;
        set(
            "RLIMIT_FSIZE",
            libc::RLIMIT_FSIZE,
            self.file_size,
            self.file_size,
        )?;
        set("RLIMIT_STACK", libc::RLIMIT_STACK, self.stack, self.stack)?;
        set(
            "RLIMIT_NOFILE",
            libc::RLIMIT_NOFILE,
            self.open_files,
            self.open_files,
        )?;
        set(
            "RLIMIT_NPROC",
            libc::RLIMIT_NPROC,
            self.processes,
            self.processes,
        )?;
        if let Some(bytes) = self.address_space {
            set("RLIMIT_AS", libc::RLIMIT_AS, bytes, bytes)?;
        }
        Ok(())
    }
}

fn set(
    resource: &'static str,
    which: libc::__rlimit_resource_t,
    soft: u64,
    hard: u64,
) -> Result<(), RlimitError> {
    let lim = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: setrlimit with a valid pointer to a local struct.
    if unsafe { libc::setrlimit(which, &lim) } != 0 {
        return Err(RlimitError::Set {
            resource,
            source: std::io::Error::last_os_error(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_rounds_cpu_up_and_adds_a_second() {
        let limits = Limits {
            cpu_time_ms: 1001,
            wall_time_ms: 3000,
            memory_bytes: 64 << 20,
            output_bytes: 1024,
            max_processes: 8,
        };
        let p = RlimitPlan::new(&limits, 1025, false);
        assert_eq!(p.cpu_seconds, 3);
        assert_eq!(p.file_size, 1025);
        assert_eq!(p.stack, 64 << 20);
        assert_eq!(p.address_space, None);
        assert_eq!(
            RlimitPlan::new(&limits, 1, true).address_space,
            Some(64 << 20)
        );
    }
}
