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
//!
//! A slot keeps up to [`WAITING_BOXES`] boxes waiting, used in turn: while one serves a run,
//! the one used before makes itself fresh, so runs started back to back do not wait for it.
//! On cgroup v1 each lives in a cgroup of its own (`<slot cgroup>.box<i>`, made by the
//! judge with the slot's), its init reclaims what a run left charged there before it says
//! it is ready, and every run still starts from a fresh cgroup state (counters reset, the
//! limit set on top of what the init itself holds).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::time::Instant;

use nix::fcntl::OFlag;
use nix::unistd::Pid;

use super::cgroup::v1::V1Files;
use super::cgroup::{open_procs, Cgroup};
use super::rootfs::{Devices, TmpFs};
use super::spec::{BoxSpec, FromJudge, HelperReport, Protocol};
use super::supervise::{
    clone_init, less_baseline, pidfd_open, prepare_cgroup, program_files, reap, report, Ended,
};
use super::waiting_init::{waiting_init_main, BoxCgroupFiles, FromInit, InitLink, WaitingRun};
use super::watch::{helper_cpu, self_cpu_ns, watch, Watched};

/// How many boxes a slot keeps waiting at most (each a process, the box's init, and on
/// cgroup v1 a cgroup of its own): two, so the next run finds one fresh while the last
/// one's is made fresh. With the helper and the running program's processes, a slot never
/// holds more than `max_processes + 1 + WAITING_BOXES` processes.
pub const WAITING_BOXES: usize = 2;

/// A waiting box's own v1 cgroup ([`super::spec::BoxSpec::box_cgroups`]).
struct OwnCgroup {
    /// Which of the slot's box cgroups.
    index: usize,
    cgroup: Cgroup,
    /// Its control files, open in the helper.
    files: V1Files,
}

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

/// Whether one of `fds` is readable within `timeout_ms` (-1: however long it takes).
fn readable(fds: &[i32], timeout_ms: i32) -> bool {
    let mut pfds: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    loop {
        // SAFETY: poll(2) on `pfds.len()` valid pollfds.
        let n = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, timeout_ms) };
        if n >= 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return n > 0;
        }
    }
}

/// A box whose init waits for runs.
pub(super) struct WaitingBox {
    shape: BoxShape,
    /// The box's own cgroup (v1; `None`: the init lives in the helper's cgroup).
    own: Option<OwnCgroup>,
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
    /// Clones the init into fresh PID, mount, IPC and UTS namespaces; it moves into `own`
    /// (the slot's box cgroup `index`, v1) and builds its root while the caller goes on.
    pub(super) fn start(
        shape: &BoxShape,
        proto: &Protocol,
        own: Option<(usize, &Cgroup)>,
    ) -> Result<WaitingBox, String> {
        let helper = pidfd_open(Pid::this()).ok_or("pidfd_open of the helper")?;
        let err = |e: super::cgroup::CgroupError| e.to_string();
        let (own, cgroup_files) = match own {
            Some((index, cgroup @ Cgroup::V1(v1))) => {
                let files = BoxCgroupFiles {
                    procs: open_procs(&cgroup.procs_files()).map_err(err)?,
                    force_empty: v1.open_force_empty().map_err(err)?,
                };
                let own = OwnCgroup {
                    index,
                    cgroup: cgroup.clone(),
                    files: v1.files().map_err(err)?,
                };
                (Some(own), Some(files))
            }
            _ => (None, None),
        };
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
                cgroup: cgroup_files,
            };
            let code = waiting_init_main(&shape.root_dir, tmp, link);
            // SAFETY: leave the cloned child without running the parent's destructors.
            unsafe { libc::_exit(code) }
        }
        let init = Pid::from_raw(child);
        drop(cgroup_files);
        Ok(WaitingBox {
            shape: shape.clone(),
            own,
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

    /// Which of the slot's box cgroups it lives in, if one.
    pub(super) fn cgroup_index(&self) -> Option<usize> {
        self.own.as_ref().map(|o| o.index)
    }

    fn receive(from_init: &mut BufReader<File>) -> Result<FromInit, String> {
        let mut line = String::new();
        match from_init.read_line(&mut line) {
            Ok(0) => Err("the waiting box's init exited".into()),
            Ok(_) => serde_json::from_str(&line)
                .map_err(|e| format!("the waiting box's init answered {line:?}: {e}")),
            Err(e) => Err(format!("reading from the waiting box's init: {e}")),
        }
    }

    /// Waits until the init is fresh and waiting (at once when it already said so).
    pub(super) fn wait_ready(&mut self) -> Result<(), String> {
        if !self.ready {
            match Self::receive(&mut self.from_init)? {
                FromInit::Ready => self.ready = true,
                FromInit::Outcome(_) => return Err("the waiting box's init is not ready".into()),
            }
        }
        Ok(())
    }

    /// Whether the init said it is fresh and waiting, without waiting for it; `Err` when
    /// it never will (it exited or answered something else: stop the box).
    pub(super) fn poll_ready(&mut self) -> Result<bool, String> {
        if self.ready {
            return Ok(true);
        }
        if self.from_init.buffer().is_empty() && !readable(&[self.link_fd()], 0) {
            return Ok(false);
        }
        // A closed link (the init exited) is readable too: an error here.
        self.wait_ready().map(|()| true)
    }

    /// The descriptor the init's next message arrives on.
    fn link_fd(&self) -> i32 {
        self.from_init.get_ref().as_raw_fd()
    }

    /// Waits until one of `boxes` has something to say (fresh, or gone).
    pub(super) fn wait_any<'a>(boxes: impl Iterator<Item = &'a WaitingBox>) {
        let fds: Vec<i32> = boxes.map(WaitingBox::link_fd).collect();
        if !fds.is_empty() {
            readable(&fds, -1);
        }
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
        let per_run_procs = match &spec.cgroup {
            Some(cg) if !spec.shared_cgroup => Some(cg.procs_files()),
            _ => None,
        };
        // In a cgroup of its own the box's init alone is there (and reclaimed it already);
        // else the helper is too.
        let own_spec;
        let (spec, files, resident, helper_inside) = match &self.own {
            Some(own) => {
                own_spec = BoxSpec {
                    cgroup: Some(own.cgroup.clone()),
                    ..spec.clone()
                };
                (&own_spec, Some(&own.files), 1, false)
            }
            None => (spec, files, 2, spec.shared_cgroup),
        };
        let baseline = match prepare_cgroup(spec, files, resident, self.own.is_some()) {
            Ok(b) => b,
            Err(e) => return (Err(e), true),
        };
        let opened = (|| -> Result<_, String> {
            let (stdin, stdout, stderr) = program_files(spec, taken)?;
            let procs = match &per_run_procs {
                Some(files) => open_procs(files).map_err(|e| e.to_string())?,
                None => Vec::new(),
            };
            let cgroup_dir = match &spec.cgroup {
                Some(cg) if per_run_procs.is_some() => cg.open_dir().map_err(|e| e.to_string())?,
                _ => None,
            };
            let box_fs = taken.box_fs.as_ref().ok_or("no file system for /box")?;
            let run = WaitingRun {
                spec: spec.clone(),
                box_fs: box_fs.as_raw_fd(),
                stdin: stdin.as_raw_fd(),
                stdout: stdout.as_raw_fd(),
                stderr: stderr.as_raw_fd(),
                procs: procs.iter().map(|f| f.as_raw_fd()).collect(),
                cgroup_dir: cgroup_dir.as_ref().map(|f| f.as_raw_fd()),
            };
            let mut line = serde_json::to_vec(&run).map_err(|e| e.to_string())?;
            line.push(b'\n');
            Ok((line, (stdin, stdout, stderr, procs, cgroup_dir)))
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
        let watched = Watched {
            init: self.init,
            pidfd: self.pidfd.as_ref(),
            report: self.from_init.get_ref().as_fd(),
            start,
            self_cpu_before,
            helper_inside,
        };
        let killed = match watch(spec, files, watched) {
            Ok(k) => k,
            Err(e) => return (Err(e), false),
        };
        let outcome = match killed {
            None => match Self::receive(&mut self.from_init) {
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
            helper_cpu: helper_cpu(helper_inside, self_cpu_before),
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
