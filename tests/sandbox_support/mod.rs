//! Shared by the sandbox integration tests: a sandbox per slot, compiling the hostile
//! programs of `tests/hostile/` through the sandbox itself, and the "nothing left behind"
//! checks (no process of the slot's uid, no box folder, no cgroup).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use sudojudge::config::Config;
use sudojudge::languages::{compile, Compiled, LanguageTable, Program};
use sudojudge::sandbox::{Limits, RunReport, RunStatus, Sandbox};

/// The embedded configuration.
pub fn config() -> Config {
    Config::embedded().expect("embedded config parses")
}

/// A sandbox on `slot` using the freshly built `sudojudge` as helper.
pub fn sandbox(slot: u32) -> Sandbox {
    let mut sb = Sandbox::new(&config().sandbox, slot).expect("sandbox available (run as root)");
    sb.set_helper(env!("CARGO_BIN_EXE_sudojudge"));
    sb
}

/// Path of a hostile program's source.
pub fn hostile(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(name)
}

/// Compiles `tests/hostile/<name>` in the sandbox; panics on a compile error.
pub fn build(sb: &Sandbox, name: &str) -> Program {
    let cfg = config();
    let table = LanguageTable::from_config(&cfg);
    let path = hostile(name);
    let lang = table.guess(&path).expect("known extension");
    let source = std::fs::read(&path).expect("hostile source exists");
    match compile(sb, lang, &source, &cfg.compile).expect("compile runs") {
        Compiled::Program(p) => p,
        Compiled::Failed(f) => panic!("{name} failed to compile: {}", f.log),
    }
}

/// Small limits for hostile runs.
pub fn limits() -> Limits {
    Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_bytes: 64 << 20,
        output_bytes: 64 << 10,
        max_processes: 16,
    }
}

/// Writes `text` to a fresh stdin file.
pub fn stdin_file(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("stdin.txt");
    std::fs::write(&p, text).expect("write stdin");
    p
}

/// Runs a program, then checks the host is clean for this slot.
pub fn run(sb: &Sandbox, p: &Program, stdin: Option<PathBuf>, limits: Limits) -> RunReport {
    let report = sb
        .run(&p.run_request(stdin, limits))
        .expect("run succeeds (no SE)");
    assert_clean(sb);
    report
}

/// Asserts the status, printing the report when it differs.
pub fn expect_status(r: &RunReport, status: RunStatus) {
    assert_eq!(
        r.status,
        status,
        "report: {r:?}\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
}

/// Pids of processes whose real uid is `uid`.
pub fn processes_of(uid: u32) -> Vec<i32> {
    let mut pids = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let real = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u32>().ok());
        if real == Some(uid) {
            pids.push(pid);
        }
    }
    pids
}

/// Every folder of this process for `slot`: box folders and cgroups, per run
/// (`slot{N}-{pid}-{sandbox}-{run}`) and per sandbox (`slot{N}-{pid}-{sandbox}`, the cgroup v1
/// the slot's helper lives in).
pub fn slot_folders(slot: u32) -> Vec<PathBuf> {
    let prefix = format!("slot{}-{}-", slot, std::process::id());
    judge_leftovers(|name| name.starts_with(&prefix))
}

/// The entries under the box root and under the judge's cgroup parents (every v1 controller,
/// and v2) whose name `pick` accepts: where anything a judge process made on the host lives.
pub fn judge_leftovers(pick: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    leftovers_in(&config().sandbox, pick)
}

/// The folders a judge on `sandbox` settings makes things in: its box root, then its cgroup
/// parents (every v1 controller, and v2) that exist.
pub fn judge_parents(sandbox: &sudojudge::config::SandboxConfig) -> Vec<PathBuf> {
    let proc_self = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut parents = vec![sandbox.box_root.clone()];
    for ctrl in ["memory", "pids", "cpuacct", ""] {
        let own = sudojudge::sandbox::cgroup::own_cgroup_path(&proc_self, ctrl)
            .unwrap_or_else(|| "/".into());
        let mount = if ctrl.is_empty() {
            sandbox.cgroup_root.clone()
        } else {
            sandbox.cgroup_root.join(ctrl)
        };
        let parent = mount
            .join(own.trim_start_matches('/'))
            .join(&sandbox.cgroup_name);
        if parent.is_dir() {
            parents.push(parent);
        }
    }
    parents
}

/// [`judge_leftovers`] of a judge on `sandbox` settings (another node's, say).
pub fn leftovers_in(
    sandbox: &sudojudge::config::SandboxConfig,
    pick: impl Fn(&str) -> bool,
) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for parent in judge_parents(sandbox) {
        if let Ok(dir) = std::fs::read_dir(&parent) {
            for e in dir.flatten() {
                if pick(&e.file_name().to_string_lossy()) {
                    found.push(e.path());
                }
            }
        }
    }
    found
}

/// Box folders, compiled programs and cgroups whose name says process `pid` (a judge that
/// was killed) made them.
pub fn leftovers_of(pid: i32) -> Vec<PathBuf> {
    let program = format!("program-{pid}-");
    let slot = format!("-{pid}-");
    judge_leftovers(|name| {
        name.starts_with(&program) || (name.starts_with("slot") && name.contains(&slot))
    })
}

/// Nothing of the slot's runs is left: no process of its uid, no per-run box folder or
/// cgroup, and the slot's own cgroup (if any) holds nothing but the root-owned helper.
pub fn assert_clean(sb: &Sandbox) {
    let procs = processes_of(sb.uid());
    assert!(
        procs.is_empty(),
        "processes of uid {} left: {procs:?}",
        sb.uid()
    );
    for path in slot_folders(sb.slot()) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            name.split('-').count(),
            3,
            "run leftover: {}",
            path.display()
        );
        let procs = std::fs::read_to_string(path.join("cgroup.procs")).unwrap_or_default();
        assert!(procs.lines().count() <= 1, "{}: {procs}", path.display());
    }
}

static TIMING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Serializes the tests that measure time within this test binary (the machine has two
/// cores; parallel CPU hogs would distort each other's wall clocks).
pub fn timing_lock() -> std::sync::MutexGuard<'static, ()> {
    TIMING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether `path` is a mount point in this process's mount namespace (`/proc/self/mountinfo`,
/// whose fifth field is the mount point, with spaces and the like octal-escaped).
pub fn is_mount_point(path: &Path) -> bool {
    let wanted = path.to_string_lossy().replace(' ', "\\040");
    std::fs::read_to_string("/proc/self/mountinfo")
        .unwrap_or_default()
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(wanted.as_str()))
}

/// Removes what a named node's judges made on the host once they are all gone: unmounts the
/// node's box folder (the tmpfs `prepare_root` mounts on it) and removes it, and removes the
/// node's cgroup parents; then asserts that none of them is left. Only this node's folders
/// are touched (another node's mounts and cgroups live under other names), and never the
/// default node's (whose box folder stays mounted by design).
pub fn remove_node_folders(sandbox: &sudojudge::config::SandboxConfig) {
    let default = config().sandbox;
    assert_ne!(sandbox.box_root, default.box_root, "not the default node's");
    assert_ne!(
        sandbox.cgroup_name, default.cgroup_name,
        "not the default node's"
    );
    let parents = judge_parents(sandbox);
    let (boxes, cgroups) = parents.split_first().expect("the box root comes first");
    // A run's process may still be letting go of the tmpfs for a moment: umount is retried
    // (never lazily detached, so a mount that stays busy fails the test instead of hiding).
    let started = std::time::Instant::now();
    while is_mount_point(boxes) {
        match nix::mount::umount(boxes) {
            Ok(()) => {}
            Err(nix::errno::Errno::EBUSY)
                if started.elapsed() < std::time::Duration::from_secs(5) =>
            {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => panic!("umount {}: {e}", boxes.display()),
        }
    }
    if boxes.exists() {
        std::fs::remove_dir_all(boxes)
            .unwrap_or_else(|e| panic!("remove {}: {e}", boxes.display()));
    }
    for parent in cgroups {
        // A cgroup folder is removed with rmdir (its files are the kernel's); it is empty
        // once the node's sandboxes are dropped.
        std::fs::remove_dir(parent).unwrap_or_else(|e| panic!("rmdir {}: {e}", parent.display()));
    }
    assert!(
        !is_mount_point(&sandbox.box_root),
        "{} still mounted",
        sandbox.box_root.display()
    );
    let left: Vec<PathBuf> = judge_parents(sandbox)
        .into_iter()
        .filter(|p| p.exists())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
