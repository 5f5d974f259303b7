//! A box made ahead of its runs and reused, on the helper's side: what a box made per run
//! cost on the run's path (the `clone` into four new namespaces, the copy of the mount
//! tree, `/tmp` and `/proc`, `pivot_root`, the init's page faults, and the teardown of all
//! of it) is done once, or between runs while the judge reads the last report.
//!
//! Its init ([`super::waiting_init`]) serves one run after another; between two runs it
//! detaches `/box` and `/tmp`, mounts a fresh `/tmp`, takes a fresh IPC namespace and sets
//! the PID counter back, and only then says it is ready. Every run still gets its own file
//! system at `/box`, and before the outcome is sent the init has killed and reaped every
//! other process of the box (the helper then checks the cgroup holds nothing else). A run
//! the supervisor kills (time limits) takes the box down with it: the next one is made anew.
//! Compiles (a `/dev` of their own) keep a box made per run.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::time::Instant;

use nix::fcntl::OFlag;
use nix::unistd::Pid;

use super::cgroup::open_procs;
use super::cgroup::v1::V1Files;
use super::rootfs::{Devices, TmpFs};
use super::spec::{BoxSpec, FromJudge, HelperReport, Protocol};
use super::supervise::{
    clone_init, helper_cpu, less_baseline, pidfd_open, prepare_cgroup, program_files, reap, report,
    self_cpu_ns, watch, Ended,
};
use super::waiting_init::{waiting_init_main, FromInit, InitLink, WaitingRun};

/// What a waiting box is made of: a run fits it only if it asks for the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BoxShape {
    root_dir: PathBuf,
    tmp_size_mb: u64,
    inodes: u64,
}

impl BoxShape {
    /// The shape `spec` asks for, if a waiting box can serve it: an isolated run with the
    /// standard `/dev` and a file system of its own for `/box`.
    pub(super) fn of(spec: &BoxSpec, taken: &FromJudge) -> Option<BoxShape> {
        // An interactive run's pipes (`taken.pipes`) go to a box made for the run: in a
        // waiting box the validator was left waiting for the submission's output.
        let plain = taken.pipes.is_none();
        (spec.isolate && spec.devices == Devices::Standard && taken.box_fs.is_some() && plain).then(
            || BoxShape {
                root_dir: spec.root_dir.clone(),
                tmp_size_mb: spec.tmp_size_mb,
                inodes: spec.inodes,
            },
        )
    }
}

/// A box whose init waits for runs.
pub(super) struct WaitingBox {
    shape: BoxShape,
    init: Pid,
    pidfd: Option<OwnedFd>,
    to_init: File,
    from_init: BufReader<File>,
    /// The init said it is fresh and waiting (its `Ready` is read).
    ready: bool,
    /// The init is reaped (its pid may be another process's by now).
    reaped: bool,
}

impl WaitingBox {
    /// Clones the init into fresh PID, mount, IPC and UTS namespaces; it builds its root
    /// while the caller goes on.
    pub(super) fn start(shape: &BoxShape, proto: &Protocol) -> Result<WaitingBox, String> {
        let helper = pidfd_open(Pid::this()).ok_or("pidfd_open of the helper")?;
        let pipe = || nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe2: {e}"));
        let (to_r, to_w) = pipe()?;
        let (from_r, from_w) = pipe()?;
        let child = clone_init(true)?;
        if child == 0 {
            drop((to_w, from_r));
            // SAFETY: the box must not hold the helper's protocol pipes.
            unsafe {
                libc::close(proto.input.get_ref().as_raw_fd());
                libc::close(proto.output.as_raw_fd());
            }
            let tmp = TmpFs {
                size_mb: shape.tmp_size_mb,
                inodes: shape.inodes,
            };
            let link = InitLink {
                from_helper: BufReader::new(File::from(to_r)),
                to_helper: File::from(from_w),
                helper,
            };
            let code = waiting_init_main(&shape.root_dir, tmp, link);
            // SAFETY: leave the cloned child without running the parent's destructors.
            unsafe { libc::_exit(code) }
        }
        let init = Pid::from_raw(child);
        Ok(WaitingBox {
            shape: shape.clone(),
            init,
            pidfd: pidfd_open(init),
            to_init: File::from(to_w),
            from_init: BufReader::new(File::from(from_r)),
            ready: false,
            reaped: false,
        })
    }

    /// Whether runs of `shape` can use this box.
    pub(super) fn fits(&self, shape: &BoxShape) -> bool {
        self.shape == *shape
    }

    fn receive(&mut self) -> Result<FromInit, String> {
        let mut line = String::new();
        match self.from_init.read_line(&mut line) {
            Ok(0) => Err("the waiting box's init exited".into()),
            Ok(_) => serde_json::from_str(&line)
                .map_err(|e| format!("the waiting box's init answered {line:?}: {e}")),
            Err(e) => Err(format!("reading from the waiting box's init: {e}")),
        }
    }

    /// Waits until the init is fresh and waiting (at once when it already said so).
    pub(super) fn wait_ready(&mut self) -> Result<(), String> {
        if !self.ready {
            match self.receive()? {
                FromInit::Ready => self.ready = true,
                FromInit::Outcome(_) => return Err("the waiting box's init is not ready".into()),
            }
        }
        Ok(())
    }

    /// Runs `spec` in this box. The second value is whether the box can serve another run
    /// (false: it was killed or failed; [`WaitingBox::stop`] it).
    pub(super) fn run(
        &mut self,
        spec: &BoxSpec,
        files: Option<&V1Files>,
        taken: &FromJudge,
    ) -> (Result<HelperReport, String>, bool) {
        if let Err(e) = self.wait_ready() {
            return (Err(e), false);
        }
        // The helper and the waiting init live in the cgroup too.
        let baseline = match prepare_cgroup(spec, files, 2) {
            Ok(b) => b,
            Err(e) => return (Err(e), true),
        };
        let opened = (|| -> Result<_, String> {
            let (stdin, stdout, stderr) = program_files(spec, taken)?;
            let procs = match &spec.cgroup {
                Some(cg) if !spec.shared_cgroup => {
                    open_procs(&cg.procs_files()).map_err(|e| e.to_string())?
                }
                _ => Vec::new(),
            };
            let box_fs = taken.box_fs.as_ref().ok_or("no file system for /box")?;
            let run = WaitingRun {
                spec: spec.clone(),
                box_fs: box_fs.as_raw_fd(),
                stdin: stdin.as_raw_fd(),
                stdout: stdout.as_raw_fd(),
                stderr: stderr.as_raw_fd(),
                procs: procs.iter().map(|f| f.as_raw_fd()).collect(),
            };
            let mut line = serde_json::to_vec(&run).map_err(|e| e.to_string())?;
            line.push(b'\n');
            Ok((line, (stdin, stdout, stderr, procs)))
        })();
        let (line, open_files) = match opened {
            Ok(o) => o,
            Err(e) => return (Err(e), true),
        };
        self.ready = false;
        let self_cpu_before = self_cpu_ns();
        let start = Instant::now();
        if let Err(e) = self.to_init.write_all(&line) {
            return (
                Err(format!("writing to the waiting box's init: {e}")),
                false,
            );
        }
        let killed = match watch(
            spec,
            files,
            self.init,
            self.pidfd.as_ref(),
            self.from_init.get_ref().as_fd(),
            start,
            self_cpu_before,
        ) {
            Ok(k) => k,
            Err(e) => return (Err(e), false),
        };
        let outcome = match killed {
            None => match self.receive() {
                Ok(FromInit::Outcome(o)) => Some(o),
                _ => None,
            },
            Some(_) => None,
        };
        // The init has its copies (or is gone): ours are no longer needed.
        drop(open_files);
        let alive = outcome.is_some();
        let init_status = if alive {
            0
        } else {
            // SAFETY: kill(2) on our own child, the box's init (not reaped yet): the box
            // goes with it.
            unsafe { libc::kill(self.init.as_raw(), libc::SIGKILL) };
            self.reaped = true;
            reap(self.init)
        };
        let ended = Ended {
            killed,
            outcome,
            elapsed: start.elapsed(),
            helper_cpu: helper_cpu(spec, self_cpu_before),
            init_status,
        };
        let spare: Vec<i32> = if alive {
            vec![std::process::id() as i32, self.init.as_raw()]
        } else {
            vec![std::process::id() as i32]
        };
        let result = report(spec, files, ended, &spare).map(|r| less_baseline(r, baseline));
        (result, alive)
    }

    /// Kills the box (its init, and with it everything in its PID namespace) and reaps it.
    pub(super) fn stop(self) {
        if !self.reaped {
            // SAFETY: kill(2) on our own child, the box's init, not reaped yet.
            unsafe { libc::kill(self.init.as_raw(), libc::SIGKILL) };
            reap(self.init);
        }
    }
}
