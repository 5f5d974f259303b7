//! Three `serve --node` daemons on one machine at once (each on its own database: sharing one
//! is the PostgreSQL store's part): all judge right, each in its own uids and folders; one is
//! killed with `kill -9` mid-judging, another node started after that leaves the dead node's
//! leftovers alone, and the dead node, restarted, sweeps them and finishes its work. At the
//! end every node stops cleanly and its box folder (a tmpfs mount) and cgroup folders are
//! removed, and checked gone.

use crate::fixtures::{daemon, sandbox_support};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use daemon::{client, fixture, get, restart_fresh, start_fresh, submit, wait_done, Daemon};
use sudojudge::config::SandboxConfig;
use sudojudge::node::NodeIdentity;

const CASES: [(&str, &str, &str); 3] = [
    ("tle.c", "c", "TLE"),
    ("ac.c", "c", "AC"),
    ("wa.py", "python", "WA"),
];

fn node_sandbox(name: &str) -> SandboxConfig {
    NodeIdentity::from_config(&sandbox_support::config(), Some(name))
        .expect("valid name")
        .sandbox
}

fn extra(name: &str) -> String {
    format!("[node]\nname = \"{name}\"\n")
}

/// Everything under a node's folders whose name says process `pid` made it.
fn made_by(sandbox: &SandboxConfig, pid: i32) -> Vec<PathBuf> {
    let tag = format!("-{pid}-");
    let mut found = sandbox_support::leftovers_in(sandbox, |n| {
        n.starts_with("slot") && (n.contains(&tag) || n.ends_with(&format!("-{pid}")))
    });
    found.sort();
    found
}

async fn submit_cases(c: &reqwest::Client, d: &Daemon) -> Vec<i64> {
    let mut ids = Vec::new();
    for (file, lang, _) in CASES {
        let source = fixture("binary-sudoku", file);
        ids.push(submit(c, d, "binary-sudoku", lang, &source).await);
    }
    ids
}

fn check_verdicts(done: &[serde_json::Value]) {
    for (s, (file, _, verdict)) in done.iter().zip(CASES) {
        assert_eq!(s["verdict"], verdict, "{file}: {s:#}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_on_one_machine_judge_apart_and_sweep_only_their_own() {
    let names = ["node-x", "node-y", "node-z"];
    let sandboxes: Vec<SandboxConfig> = names.iter().map(|n| node_sandbox(n)).collect();
    let mut blocks: Vec<u32> = sandboxes.iter().map(|s| s.uid_base).collect();
    blocks.sort();
    blocks.dedup();
    assert_eq!(blocks.len(), 3, "names in distinct uid blocks: {blocks:?}");
    let c = client();
    let mut nodes: Vec<(tempfile::TempDir, Daemon)> =
        names.iter().map(|n| start_fresh(2, 1, &extra(n))).collect();
    for ((_, d), name) in nodes.iter().zip(names) {
        assert!(d.log().contains(&format!("node={name}")), "{}", d.log());
    }
    let mut ids = Vec::new();
    for (_, d) in &nodes {
        ids.push(submit_cases(&c, d).await);
    }

    // Node y dies while judging its first submission (a TLE, so it runs for seconds).
    let y_pid = {
        let d = &mut nodes[1].1;
        let started = Instant::now();
        while get(&c, d, ids[1][0]).await["status"] != "running" {
            assert!(started.elapsed() < Duration::from_secs(60), "{}", d.log());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let pid = d.pid();
        d.kill9();
        pid
    };
    let y_left = made_by(&sandboxes[1], y_pid);
    assert!(!y_left.is_empty(), "a killed node leaves its slot folders");

    // x and z judge everything right meanwhile, each in its own folders only.
    for i in [0, 2] {
        let d = &nodes[i].1;
        check_verdicts(&wait_done(&c, d, &ids[i], Duration::from_secs(300)).await);
        let pid = d.pid();
        assert!(
            !made_by(&sandboxes[i], pid).is_empty(),
            "node {} uses its folders",
            names[i]
        );
        for (j, other) in sandboxes.iter().enumerate() {
            if j != i {
                assert!(
                    made_by(other, pid).is_empty(),
                    "{} in {}'s folders",
                    names[i],
                    names[j]
                );
            }
        }
        let default = sandbox_support::config().sandbox;
        assert!(
            made_by(&default, pid).is_empty(),
            "{} in the default folders",
            names[i]
        );
    }

    // A node started now sweeps at start: its own folders only; y's leftovers stay.
    let (_w_dir, w) = start_fresh(2, 1, &extra("node-w"));
    let w_sandbox = node_sandbox("node-w");
    assert!(w.log().contains("node=node-w"), "{}", w.log());
    assert_eq!(
        made_by(&sandboxes[1], y_pid),
        y_left,
        "node w swept node y's"
    );

    // y again on its folder and database: its sweep removes what it left, its work finishes.
    let y_dir = nodes[1].0.path().to_path_buf();
    let y = restart_fresh(&y_dir, 1, &extra("node-y"));
    check_verdicts(&wait_done(&c, &y, &ids[1], Duration::from_secs(300)).await);
    assert!(
        made_by(&sandboxes[1], y_pid).is_empty(),
        "node y left its own"
    );
    // No program of any node is left running (each judged on its first slots).
    for (s, name) in sandboxes.iter().zip(names) {
        for slot in 0..4 {
            let left = sandbox_support::processes_of(s.uid_base + slot);
            assert!(left.is_empty(), "{name} slot {slot}: processes {left:?}");
        }
    }
    // Every node stops cleanly, then its box folder (a tmpfs) and cgroup folders go.
    let (mut w, mut y) = (w, y);
    let [(_, x), _, (_, z)] = &mut nodes[..] else {
        panic!("three nodes")
    };
    for d in [&mut w, &mut y, x, z] {
        let pid = d.pid();
        assert!(
            d.terminate(Duration::from_secs(30)).success(),
            "{}",
            d.log()
        );
        for s in sandboxes.iter().chain([&w_sandbox]) {
            assert!(made_by(s, pid).is_empty(), "{:?}", made_by(s, pid));
        }
    }
    for s in sandboxes.iter().chain([&w_sandbox]) {
        sandbox_support::remove_node_folders(s);
    }
}
