//! From what was observed to how the run ended: one pure function, the only place where a
//! limit is told apart from a crash.

use super::spec::{HelperReport, Kill};
use super::{Limits, RunStatus};

/// The observations that decide a run's status.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// What the helper saw.
    pub report: &'a HelperReport,
    /// The limits of the run.
    pub limits: &'a Limits,
    /// Real size of the stdout file.
    pub stdout_len: u64,
    /// Real size of the stderr file.
    pub stderr_len: u64,
}

/// Limits first (time, memory, output), then crashes, then success.
pub fn classify(f: &Facts) -> RunStatus {
    let r = f.report;
    if r.killed.is_some() || r.cpu_ns > f.limits.cpu_time_ms.saturating_mul(1_000_000) {
        return RunStatus::TimeLimit;
    }
    if r.oom_kills > 0 {
        return RunStatus::MemoryLimit;
    }
    if f.stdout_len > f.limits.output_bytes
        || f.stderr_len > f.limits.output_bytes
        || r.signal == Some(libc::SIGXFSZ)
    {
        return RunStatus::OutputLimit;
    }
    if r.signal == Some(libc::SIGXCPU) {
        return RunStatus::TimeLimit;
    }
    if r.signal.is_some() || r.exit_code != Some(0) {
        return RunStatus::RuntimeError;
    }
    RunStatus::Ok
}

/// Whether the supervisor killed the run for its wall clock (for messages).
pub fn wall_killed(r: &HelperReport) -> bool {
    r.killed == Some(Kill::Wall)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_bytes: 64 << 20,
        output_bytes: 100,
        max_processes: 8,
    };

    fn status(r: HelperReport, out: u64) -> RunStatus {
        classify(&Facts {
            report: &r,
            limits: &LIMITS,
            stdout_len: out,
            stderr_len: 0,
        })
    }

    fn exited(code: i32) -> HelperReport {
        HelperReport {
            exit_code: Some(code),
            cpu_ns: 1_000_000,
            ..HelperReport::default()
        }
    }

    #[test]
    fn clean_exit_is_ok_and_nonzero_is_runtime_error() {
        assert_eq!(status(exited(0), 100), RunStatus::Ok);
        assert_eq!(status(exited(3), 0), RunStatus::RuntimeError);
    }

    #[test]
    fn a_signal_is_not_a_limit() {
        let r = HelperReport {
            signal: Some(libc::SIGSEGV),
            ..HelperReport::default()
        };
        assert_eq!(status(r, 0), RunStatus::RuntimeError);
        let r = HelperReport {
            signal: Some(libc::SIGKILL),
            ..HelperReport::default()
        };
        assert_eq!(status(r, 0), RunStatus::RuntimeError);
    }

    #[test]
    fn limits_win_over_crashes() {
        let mut r = exited(0);
        r.cpu_ns = 1_000_000_001;
        assert_eq!(status(r, 0), RunStatus::TimeLimit);
        let r = HelperReport {
            killed: Some(Kill::Wall),
            signal: Some(libc::SIGKILL),
            ..HelperReport::default()
        };
        assert!(wall_killed(&r));
        assert_eq!(status(r, 0), RunStatus::TimeLimit);
        let r = HelperReport {
            oom_kills: 1,
            signal: Some(libc::SIGKILL),
            ..HelperReport::default()
        };
        assert_eq!(status(r, 0), RunStatus::MemoryLimit);
        assert_eq!(status(exited(0), 101), RunStatus::OutputLimit);
        let r = HelperReport {
            signal: Some(libc::SIGXFSZ),
            ..HelperReport::default()
        };
        assert_eq!(status(r, 0), RunStatus::OutputLimit);
        let r = HelperReport {
            signal: Some(libc::SIGXCPU),
            ..HelperReport::default()
        };
        assert_eq!(status(r, 0), RunStatus::TimeLimit);
    }
}
