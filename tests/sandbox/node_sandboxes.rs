//! Two nodes on one machine (`serve --node A`, `serve --node B`): each judges in its own
//! namespace (slot uids, box folder, cgroup folder), runs of both go on at once, each
//! cleans up only its own, and node A's sweep of what a dead judge left leaves node B's
//! boxes alone (live or stale: B's stale ones are B's to sweep). Each test unmounts and
//! removes its nodes' box folders and cgroup folders at the end, and checks they are gone.

use crate::fixtures::sandbox_support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use sandbox_support::{config, processes_of, remove_node_folders};
use sudojudge::config::SandboxConfig;
use sudojudge::node::NodeIdentity;
use sudojudge::sandbox::{Limits, RunRequest, RunStatus, Sandbox};

fn node(name: &str) -> SandboxConfig {
    NodeIdentity::from_config(&config(), Some(name))
        .expect("valid node name")
        .sandbox
}

fn sandbox(cfg: &SandboxConfig, slot: u32) -> Sandbox {
    let mut sb = Sandbox::new(cfg, slot).expect("sandbox available (run as root)");
    sb.set_helper(env!("CARGO_BIN_EXE_sudojudge"));
    sb
}

/// `/bin/sh -c script` under small limits.
fn shell(script: &str) -> RunRequest {
    RunRequest {
        argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
        files: Vec::new(),
        stdin: None,
        env: Vec::new(),
        limits: Limits {
            cpu_time_ms: 2000,
            wall_time_ms: 8000,
            memory_bytes: 64 << 20,
            output_bytes: 4096,
            max_processes: 8,
        },
        collect: Vec::new(),
    }
}

/// Entries of the node's folders whose name starts with `prefix`.
fn entries(cfg: &SandboxConfig, prefix: &str) -> Vec<PathBuf> {
    sandbox_support::leftovers_in(cfg, |name| name.starts_with(prefix))
}

/// A pid no process has now (a child that has exited and been reaped).
fn dead_pid() -> i32 {
    let mut child = std::process::Command::new("/bin/true").spawn().unwrap();
    let pid = child.id() as i32;
    child.wait().unwrap();
    // SAFETY: kill(2) with signal 0 only checks existence.
    assert_ne!(
        unsafe { libc::kill(pid, 0) },
        0,
        "pid {pid} was reused at once"
    );
    pid
}

/// Plants what a judge of `pid` that died on slot 0 leaves: a box folder and (in every
/// cgroup parent the node has) a cgroup.
fn plant_stale(cfg: &SandboxConfig, pid: i32) -> Vec<PathBuf> {
    let name = format!("slot0-{pid}-0-0");
    sandbox_support::judge_parents(cfg)
        .into_iter()
        .map(|parent| {
            let path = parent.join(&name);
            std::fs::create_dir(&path).unwrap();
            path
        })
        .collect()
}

fn assert_node_clean(cfg: &SandboxConfig, sb: &Sandbox) {
    assert!(
        processes_of(sb.uid()).is_empty(),
        "processes of uid {}",
        sb.uid()
    );
    let mine = format!("slot{}-{}-", sb.slot(), std::process::id());
    for path in entries(cfg, &mine) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Only the sandbox's own folders (three parts) may stay while it lives.
        assert_eq!(
            name.split('-').count(),
            3,
            "run leftover: {}",
            path.display()
        );
    }
}

/// How many of `paths` exist.
fn existing(paths: &[PathBuf]) -> usize {
    paths.iter().filter(|p| p.exists()).count()
}

fn in_root(path: &Path, root: &Path) -> bool {
    path.starts_with(root)
}

#[test]
fn two_nodes_judge_at_once_in_their_own_namespaces() {
    let (a, b) = (node("test-node-a"), node("test-node-b"));
    assert_ne!(a.uid_base, b.uid_base, "pick names in different uid blocks");
    let (sa, sb) = (sandbox(&a, 0), sandbox(&b, 0));
    assert_eq!(sa.uid(), a.uid_base);
    assert_eq!(sb.uid(), b.uid_base);
    assert!(in_root(sa.box_root(), &a.box_root) && in_root(sb.box_root(), &b.box_root));
    assert_ne!(a.box_root, b.box_root);

    // Both run at once: each sleeps while the other runs, then prints its own uid.
    let script = "sleep 1; id -u";
    let (ra, rb) = std::thread::scope(|s| {
        let ta = s.spawn(|| sa.run(&shell(script)));
        let tb = s.spawn(|| sb.run(&shell(script)));
        (ta.join().unwrap(), tb.join().unwrap())
    });
    let (ra, rb) = (ra.expect("node a runs"), rb.expect("node b runs"));
    for (r, uid) in [(&ra, sa.uid()), (&rb, sb.uid())] {
        assert_eq!(
            r.status,
            RunStatus::Ok,
            "{r:?} {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), uid.to_string());
        assert!(r.wall_ms >= 1000, "{r:?}");
    }
    assert_node_clean(&a, &sa);
    assert_node_clean(&b, &sb);
    // Neither node's folders hold the other's boxes.
    let pid = std::process::id();
    assert!(entries(&a, &format!("slot0-{pid}-"))
        .iter()
        .all(|p| !in_root(p, &b.box_root)));
    drop((sa, sb));
    assert!(entries(&a, &format!("slot0-{pid}-")).is_empty());
    assert!(entries(&b, &format!("slot0-{pid}-")).is_empty());
    remove_node_folders(&a);
    remove_node_folders(&b);
}

#[test]
fn a_nodes_sweep_leaves_another_nodes_boxes_alone() {
    let (a, b) = (node("sweep-node-a"), node("sweep-node-b"));
    // Node A has judged before (its box folder and cgroup folders exist).
    drop(sandbox(&a, 2));
    // Node B is judging: a run that lasts while node A starts a sandbox (and sweeps).
    let sb = sandbox(&b, 1);
    let dead = dead_pid();
    let stale_a = plant_stale(&a, dead);
    let stale_b = plant_stale(&b, dead);
    assert!(
        stale_a.len() >= 2 && stale_b.len() >= 2,
        "{stale_a:?} {stale_b:?}"
    );

    let long = std::thread::scope(|s| {
        let running = s.spawn(|| sb.run(&shell("sleep 2; echo alive")));
        std::thread::sleep(Duration::from_millis(500));
        // What node B's live sandbox has on the host while its run lasts (its slot's root
        // folder and cgroups; a box with a file system of its own has no folder).
        let live_b = entries(&b, &format!("slot1-{}-", std::process::id()));
        assert!(
            !live_b.is_empty(),
            "node B's sandbox has nothing on the host"
        );
        // Node A's slot 0 sweeps its stale box and cgroup, and runs while B's box lives.
        let sa = sandbox(&a, 0);
        assert_eq!(existing(&stale_a), 0, "node A left its own: {stale_a:?}");
        assert_eq!(
            existing(&stale_b),
            stale_b.len(),
            "node A swept B's: {stale_b:?}"
        );
        assert_eq!(
            existing(&live_b),
            live_b.len(),
            "node A swept node B's live sandbox: {live_b:?}"
        );
        let r = sa.run(&shell("echo a")).expect("node a runs");
        assert_eq!(r.status, RunStatus::Ok);
        assert_node_clean(&a, &sa);
        running.join().unwrap()
    });
    let long = long.expect("node b's run survives node a's sweep");
    assert_eq!(long.status, RunStatus::Ok, "{long:?}");
    assert_eq!(String::from_utf8_lossy(&long.stdout).trim(), "alive");
    assert_node_clean(&b, &sb);
    drop(sb);

    // B's stale leftovers are B's to sweep: its next sandbox on slot 0 does.
    let sb0 = sandbox(&b, 0);
    assert_eq!(existing(&stale_b), 0, "node B left its own: {stale_b:?}");
    drop(sb0);
    remove_node_folders(&a);
    remove_node_folders(&b);
}
