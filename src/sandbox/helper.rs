//! The single-threaded helper (`sudojudge __sandbox-init`): one per worker slot.
//!
//! Process tree of one run:
//! - the helper: a long-lived process per worker slot, reading one [`BoxSpec`] per line on
//!   stdin and answering one [`HelperReport`] per line on stdout. It lives in its own
//!   network namespace (empty, loopback down) and, on cgroup v1, inside the slot's cgroup,
//!   so every process it forks starts there with no costly migration. Per run it opens the
//!   files, resets the cgroup, clones the init into fresh PID, mount, IPC and UTS
//!   namespaces and supervises it ([`super::supervise`]: CPU from the cgroup, wall clock);
//! - the init ([`super::init`]), PID 1 of the box's PID namespace: builds the root, starts
//!   the program, reaps everything, reports the program's status, and on exit takes every
//!   process of the box with it (the kernel kills a PID namespace whose init dies);
//! - the program ([`super::exec`]): (joins a per-run cgroup on v2), sets rlimits, drops to
//!   the slot's uid and every capability, installs seccomp and execs.
//!
//! Forking is only safe in a single-threaded process, which is why this runs in its own
//! exec'd process and never inside the judge.

use std::fs::File;
use std::io::{BufRead, Write};
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};

use super::boxfs;
use super::cgroup::v1::V1Files;
use super::cgroup::{open_procs, Cgroup};
use super::namespaces;
use super::rootfs;
use super::spec::{BoxSpec, FromJudge, HelperReport, Protocol};
use super::supervise::run_box;
use super::waiting::{BoxShape, WaitingBox, WAITING_BOXES};

fn take_protocol_fds() -> Result<Protocol, String> {
    let dup = |fd: RawFd| -> Result<File, String> {
        // SAFETY: F_DUPFD_CLOEXEC of a standard descriptor to a new one we own.
        let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
        if new < 0 {
            return Err(format!("dup fd {fd}: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: the kernel just returned this fd to us.
        Ok(File::from(unsafe { OwnedFd::from_raw_fd(new) }))
    };
    let input = dup(0)?;
    let output = dup(1)?;
    let null = File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .map_err(|e| format!("open /dev/null: {e}"))?;
    for fd in [0, 1] {
        // SAFETY: dup2 of /dev/null over a standard descriptor.
        unsafe { libc::dup2(null.as_raw_fd(), fd) };
    }
    Ok(Protocol {
        input: std::io::BufReader::new(input),
        output,
    })
}

/// Entry point of `sudojudge __sandbox-init`: one spec per line in, one report (a JSON
/// `Result<HelperReport, String>`) per line out, until end of input. Returns the exit code.
pub fn helper_main() -> i32 {
    // Degraded runs have no PID namespace: a program orphaned by its init must come back to
    // this helper (and be reaped here) rather than linger under the host's init.
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) has no memory arguments.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    let mut proto = match take_protocol_fds() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sandbox helper: {e}");
            return 1;
        }
    };
    let mut state = HelperState::default();
    let mut line = String::new();
    loop {
        line.clear();
        match proto.input.read_line(&mut line) {
            Ok(0) => {
                state.stop_waiting();
                return 0;
            }
            Ok(_) => {}
            Err(_) => return 1,
        }
        let result: Result<HelperReport, String> = match serde_json::from_str::<BoxSpec>(&line) {
            Ok(spec) => state.run(&spec, &proto),
            Err(e) => Err(format!("invalid box spec: {e}")),
        };
        let Ok(mut text) = serde_json::to_string(&result) else {
            return 1;
        };
        text.push('\n');
        if proto
            .output
            .write_all(text.as_bytes())
            .and_then(|_| proto.output.flush())
            .is_err()
        {
            return 1;
        }
        state.between_runs(&proto);
    }
}

/// What the long-lived helper has set up once: its network namespace, its cgroup.
#[derive(Default)]
struct HelperState {
    own_netns: bool,
    bounding_set_empty: bool,
    template: Option<std::path::PathBuf>,
    joined: Option<Cgroup>,
    /// The joined cgroup's control files, open (v1 shared cgroup only).
    slot_files: Option<V1Files>,
    /// A pidfd of the judge, to take each box's file system from it.
    judge: Option<OwnedFd>,
    /// The boxes waiting for the next runs, made ahead ([`super::waiting`]), the one used
    /// longest ago first (at most [`WAITING_BOXES`]).
    waiting: std::collections::VecDeque<WaitingBox>,
    /// The shape of the last run that could use a waiting box: the next boxes are made so.
    next_shape: Option<BoxShape>,
    /// cgroup v1: the slot's box cgroups, one per waiting box.
    box_cgroups: Vec<Cgroup>,
    /// The last run was charged to the slot's own cgroup (a box made per run, or a
    /// waiting box without a cgroup of its own): reclaim it before the next.
    slot_charged: bool,
}

impl HelperState {
    /// Copies of the descriptors the spec names in the judge (`pidfd_getfd`).
    fn take_from_judge(&mut self, spec: &BoxSpec) -> Result<FromJudge, String> {
        if spec.box_fs_fd.is_none() && spec.output_fds.is_none() && spec.pipe_fds.is_none() {
            return Ok(FromJudge::default());
        }
        if self.judge.is_none() {
            self.judge = Some(boxfs::parent_pidfd().map_err(|e| e.to_string())?);
        }
        let judge = self.judge.as_ref().ok_or("no pidfd of the judge")?;
        let take = |fd: i32| boxfs::fetch_from_parent(judge.as_fd(), fd).map_err(|e| e.to_string());
        Ok(FromJudge {
            box_fs: spec.box_fs_fd.map(take).transpose()?,
            outputs: match spec.output_fds {
                Some((out, err)) => Some((File::from(take(out)?), File::from(take(err)?))),
                None => None,
            },
            pipes: match spec.pipe_fds {
                Some((input, output)) => {
                    Some((File::from(take(input)?), File::from(take(output)?)))
                }
                None => None,
            },
        })
    }

    fn run(&mut self, spec: &BoxSpec, proto: &Protocol) -> Result<HelperReport, String> {
        if spec.isolate && !self.own_netns {
            namespaces::unshare_net().map_err(|e| e.to_string())?;
            self.own_netns = true;
        }
        // SAFETY: geteuid has no preconditions.
        if !self.bounding_set_empty && unsafe { libc::geteuid() } == 0 {
            drop_bounding_set()?;
            self.bounding_set_empty = true;
        }
        if spec.isolate && self.template.as_ref() != Some(&spec.root_dir) {
            if self.template.is_some() {
                return Err("the slot's root template cannot move".into());
            }
            rootfs::build_template(&spec.root_dir, &spec.mounts).map_err(|e| e.to_string())?;
            self.template = Some(spec.root_dir.clone());
        }
        if spec.shared_cgroup {
            let cg = spec
                .cgroup
                .as_ref()
                .ok_or("shared cgroup without a cgroup")?;
            let joined = self
                .joined
                .as_ref()
                .is_some_and(|j| j.procs_files() == cg.procs_files());
            if !joined {
                for mut f in open_procs(&cg.procs_files()).map_err(|e| e.to_string())? {
                    f.write_all(std::process::id().to_string().as_bytes())
                        .map_err(|e| format!("joining the slot cgroup: {e}"))?;
                }
                self.slot_files = match cg {
                    Cgroup::V1(v1) => Some(v1.files().map_err(|e| e.to_string())?),
                    Cgroup::V2(_) => None,
                };
                self.joined = Some(cg.clone());
            }
        }
        let taken = self.take_from_judge(spec)?;
        if spec.shared_cgroup && self.box_cgroups.is_empty() {
            self.box_cgroups = spec.box_cgroups.clone();
        }
        let shape = BoxShape::of(spec, &taken);
        // A box made per run (a compile's) in the slot's cgroup shares it with no other
        // init: boxes living there (no cgroup of their own) are stopped for it.
        let shared_slot = spec.shared_cgroup && shape.is_none();
        let keep = |w: &WaitingBox| match &shape {
            Some(s) => w.fits(s),
            None => !shared_slot || w.cgroup_index().is_some(),
        };
        if !self.waiting.iter().all(keep) {
            for waiting in std::mem::take(&mut self.waiting) {
                waiting.stop();
            }
        }
        if let Some(shape) = shape {
            self.next_shape = Some(shape.clone());
            if let Some(mut waiting) = self.fresh_box(&shape, proto) {
                let files = self.slot_files.as_ref().filter(|_| spec.shared_cgroup);
                self.slot_charged = waiting.cgroup_index().is_none();
                let (result, reusable) = waiting.run(spec, files, &taken);
                if reusable {
                    self.waiting.push_back(waiting);
                } else {
                    waiting.stop();
                }
                return result;
            }
        }
        if shared_slot {
            // A box just made lives in the slot's cgroup until its init has moved to its
            // own: the run made here must find nothing but the helper there.
            let mut gone = Vec::new();
            for (i, w) in self.waiting.iter_mut().enumerate() {
                if w.wait_ready().is_err() {
                    gone.push(i);
                }
            }
            for i in gone.into_iter().rev() {
                if let Some(w) = self.waiting.remove(i) {
                    w.stop();
                }
            }
        }
        let files = self.slot_files.as_ref().filter(|_| spec.shared_cgroup);
        self.slot_charged = true;
        run_box(spec, proto, files, &taken)
    }

    /// The waiting box the next run goes to: one that is fresh already (the first in the
    /// queue: never used, or used longest ago), else the first to become fresh. Boxes whose
    /// init is gone are stopped; with none left, one is made (and waited for).
    fn fresh_box(&mut self, shape: &BoxShape, proto: &Protocol) -> Option<WaitingBox> {
        for _ in 0..2 {
            if self.waiting.is_empty() {
                self.start_box(shape, proto);
            }
            loop {
                let mut fresh = None;
                let mut gone = None;
                for (i, w) in self.waiting.iter_mut().enumerate() {
                    match w.poll_ready() {
                        Ok(true) => {
                            fresh = Some(i);
                            break;
                        }
                        Ok(false) => {}
                        Err(_) => {
                            gone = Some(i);
                            break;
                        }
                    }
                }
                if let Some(i) = gone {
                    if let Some(w) = self.waiting.remove(i) {
                        w.stop();
                    }
                    continue;
                }
                if let Some(i) = fresh {
                    return self.waiting.remove(i);
                }
                if self.waiting.is_empty() {
                    break;
                }
                WaitingBox::wait_any(self.waiting.iter());
            }
        }
        None
    }

    /// How many boxes may wait at once: one per box cgroup on v1 (one sharing the slot's
    /// cgroup when there are none), [`WAITING_BOXES`] elsewhere.
    fn box_bound(&self) -> usize {
        match (&self.joined, self.box_cgroups.len()) {
            (Some(_), 0) => 1,
            (Some(_), n) => n.min(WAITING_BOXES),
            (None, _) => WAITING_BOXES,
        }
    }

    /// Starts one more waiting box of `shape` (in a box cgroup no other box holds, on v1).
    fn start_box(&mut self, shape: &BoxShape, proto: &Protocol) {
        if self.waiting.len() >= self.box_bound() {
            return;
        }
        let own = match self.joined {
            Some(_) => (0..self.box_cgroups.len())
                .find(|i| self.waiting.iter().all(|w| w.cgroup_index() != Some(*i)))
                .map(|i| (i, &self.box_cgroups[i])),
            None => None,
        };
        if self.joined.is_some() && !self.box_cgroups.is_empty() && own.is_none() {
            return;
        }
        if let Ok(waiting) = WaitingBox::start(shape, proto, own) {
            // Never used: first in the queue (the used one makes itself fresh meanwhile).
            self.waiting.push_front(waiting);
        }
    }

    /// Stops the boxes waiting for a run (kills and reaps their inits).
    fn stop_waiting(&mut self) {
        for waiting in std::mem::take(&mut self.waiting) {
            waiting.stop();
        }
    }

    /// After a report, before the next spec (the judge is reading the report meanwhile):
    /// as many boxes as the bound allows made (they make themselves ready meanwhile; the
    /// box that served the run makes itself fresh, reclaiming its own cgroup on v1), what
    /// the last run left charged to the slot's cgroup reclaimed. Nothing here waits for a
    /// box that has a cgroup of its own: the next run goes to whichever is fresh first.
    fn between_runs(&mut self, proto: &Protocol) {
        if let Some(shape) = self.next_shape.clone() {
            while self.waiting.len() < self.box_bound() {
                let before = self.waiting.len();
                self.start_box(&shape, proto);
                if self.waiting.len() == before {
                    break;
                }
            }
        }
        if !std::mem::take(&mut self.slot_charged) {
            return;
        }
        // A box sharing the slot's cgroup is reclaimed with it once it is fresh.
        let sharing = self.waiting.iter_mut().find(|w| w.cgroup_index().is_none());
        if sharing.is_none_or(|w| w.wait_ready().is_ok()) {
            if let Some(files) = &self.slot_files {
                // Best effort: the next run in the slot's cgroup reclaims again if this
                // failed.
                let _ = files.reclaim();
            }
        }
    }
}

/// Empties the capability bounding set of the calling process (and so of everything it
/// forks). The helper does it once: it keeps its own effective capabilities (mounts,
/// namespaces, cgroups), while a box's program, which drops to a non-root uid, can never
/// regain any, even through exec.
fn drop_bounding_set() -> Result<(), String> {
    let mut cap = 0;
    // SAFETY: prctl(2) without memory arguments. Drops each capability until the kernel
    // says there is no such capability.
    while cap < 64 && unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } == 0 {
        cap += 1;
    }
    // SAFETY: as above.
    if cap == 0 || unsafe { libc::prctl(libc::PR_CAPBSET_READ, 0, 0, 0, 0) } != 0 {
        return Err(format!(
            "emptying the capability bounding set: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}
