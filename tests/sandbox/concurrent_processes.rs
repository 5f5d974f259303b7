//! Several judging processes on one machine at once: a daemon judging a burst of
//! submissions while `sudojudge judge` and `sudojudge verify` run in the same moment. Each
//! process leases sandbox slots of its own, so every verdict is right and none is SE.

use crate::fixtures::{daemon, sandbox_support};

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use daemon::{client, fixture, root, submit, trimmed_problems, wait_done, write_config, Daemon};

/// (problem, fixture, language, verdict) of the daemon's burst.
const BURST: &[(&str, &str, &str, &str)] = &[
    ("binary-sudoku", "ac.c", "c", "AC"),
    ("binary-sudoku", "wa.py", "python", "WA"),
    ("sudoku", "ac.c", "c", "AC"),
    ("target-sudoku", "ac.c", "c", "AC"),
    ("sudoku", "re.c", "c", "RE"),
    ("binary-sudoku", "ce.c", "c", "CE"),
    ("target-sudoku", "wa.c", "c", "WA"),
    ("binary-sudoku", "tle.c", "c", "TLE"),
];

/// (problem, fixture, verdict, exit code) of the `judge` processes.
const JUDGES: &[(&str, &str, &str, i32)] = &[
    ("binary-sudoku", "ac.c", "AC", 0),
    ("target-sudoku", "wa.c", "WA", 1),
    ("sudoku", "ac.c", "AC", 0),
    ("binary-sudoku", "re.c", "RE", 1),
];

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

/// Which process holds which slot lock now: uid -> pid, from `/proc/locks` and the inodes
/// of the lock files.
fn slot_holders() -> BTreeMap<u32, i32> {
    use std::os::unix::fs::MetadataExt;
    let dir = sandbox_support::config().sandbox.slot_locks;
    let mut by_inode = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let (Some(uid), Ok(meta)) = (
            name.strip_suffix(".lock")
                .and_then(|u| u.parse::<u32>().ok()),
            entry.metadata(),
        ) else {
            continue;
        };
        by_inode.insert(meta.ino(), uid);
    }
    let mut holders = BTreeMap::new();
    let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
    for line in locks.lines() {
        // "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF"
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.get(1) != Some(&"FLOCK") || fields.len() < 6 {
            continue;
        }
        let pid = fields[4].parse::<i32>().ok();
        let inode = fields[5]
            .rsplit(':')
            .next()
            .and_then(|i| i.parse::<u64>().ok());
        if let (Some(pid), Some(uid)) = (pid, inode.and_then(|i| by_inode.get(&i))) {
            holders.insert(*uid, pid);
        }
    }
    holders
}

fn command(config: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_sudojudge"));
    cmd.arg("--config").arg(config).kill_on_drop(true);
    cmd
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daemon_judge_and_verify_judge_at_once_with_right_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 3);
    let d = Daemon::start(dir.path(), &dir.path().join("judge.db"), &problems, 2);
    // The CLI processes get the whole binary-sudoku package (all its data catches every
    // wrong reference solution) beside the trimmed ones.
    let cli_dir = dir.path().join("cli");
    let cli_problems = cli_dir.join("problems");
    copy_tree(&problems, &cli_problems);
    copy_tree(
        &root().join("problems/binary-sudoku"),
        &cli_problems.join("binary-sudoku"),
    );
    let config = write_config(&cli_dir, &cli_problems, "");
    let c = client();

    // The same moment: the CLI processes start, then the burst is posted.
    let mut pids: Vec<i32> = Vec::new();
    let mut spawn = |cmd: &mut tokio::process::Command| {
        let child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        pids.push(child.id().unwrap() as i32);
        tokio::spawn(child.wait_with_output())
    };
    let mut judges = Vec::new();
    for (problem, file, _, _) in JUDGES {
        let source = root().join("tests/fixtures").join(problem).join(file);
        judges.push(spawn(
            command(&config)
                .args(["judge", problem])
                .arg(source)
                .arg("--json"),
        ));
    }
    let verify = spawn(command(&config).args(["verify", "binary-sudoku", "--json"]));
    let mut ids = Vec::new();
    for (problem, file, language, _) in BURST {
        ids.push(submit(&c, &d, problem, language, &fixture(problem, file)).await);
    }
    // They do judge at once, each on slots of its own: the daemon and CLI processes hold
    // slot locks in the same moment (the kernel's lock table says who holds which).
    // The CLI processes among the holders of a sample.
    let cli_count = |holders: &BTreeMap<u32, i32>| -> usize {
        holders
            .values()
            .filter(|p| pids.contains(p))
            .collect::<BTreeSet<_>>()
            .len()
    };
    let mut most = BTreeMap::new();
    for _ in 0..250 {
        let holders = slot_holders();
        let ours: BTreeSet<i32> = holders
            .values()
            .copied()
            .filter(|p| pids.contains(p))
            .collect();
        let daemon_holds = holders.values().any(|&p| p == d.pid());
        if daemon_holds && ours.len() > cli_count(&most) {
            most = holders.clone();
        }
        if daemon_holds && ours.len() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        cli_count(&most) >= 2,
        "the daemon and at least two CLI processes should hold slots at once: {most:?}"
    );

    for (handle, (problem, file, verdict, code)) in judges.into_iter().zip(JUDGES) {
        let out = handle.await.unwrap().unwrap();
        let what = format!(
            "judge {problem} {file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect(&what);
        assert_eq!(v["verdict"], *verdict, "{what}\n{v}");
        assert_eq!(out.status.code(), Some(*code), "{what}");
        for t in v["tests"].as_array().unwrap() {
            assert_ne!(t["verdict"], "SE", "{what}\n{v}");
        }
    }
    let out = verify.await.unwrap().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(
        out.status.code(),
        Some(0),
        "verify: {v}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(v["ok"], true, "{v}");

    let done = wait_done(&c, &d, &ids, Duration::from_secs(180)).await;
    for (s, (problem, file, _, verdict)) in done.iter().zip(BURST) {
        assert_eq!(s["verdict"], *verdict, "{problem}/{file}: {s}");
        for t in s["tests"].as_array().unwrap() {
            assert_ne!(t["verdict"], "SE", "{problem}/{file}: {s}");
        }
    }

    // The CLI processes have exited: nothing of theirs is left on the host.
    let left = sandbox_support::judge_leftovers(|name| {
        pids.iter().any(|pid| {
            name.starts_with(&format!("program-{pid}-"))
                || (name.starts_with("slot") && name.contains(&format!("-{pid}-")))
        })
    });
    assert!(left.is_empty(), "left by exited processes: {left:?}");
}
