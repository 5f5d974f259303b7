//! Boxes made ahead and reused across runs (issue 28): a run that leaves every trace it
//! can (files in `/box` and `/tmp`, SysV and POSIX IPC objects, a detached background
//! process, PIDs used up) is followed, in the slot's reused boxes (two wait at once, used
//! in turn), by runs of the same and of another program that find none of it. Needs root.
//! Slots 170-179.

use std::path::{Path, PathBuf};

use crate::fixtures::sandbox_support;

use sandbox_support::*;
use sudojudge::sandbox::{Limits, RunReport, RunStatus, WAITING_BOXES};

fn value(r: &RunReport, key: &str) -> i64 {
    let out = String::from_utf8_lossy(&r.stdout);
    out.lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key:?} in {out}"))
}

/// The two inputs of `leave_traces.c`, each in a folder of its own under `dir`: `leave`
/// makes every trace, `look` looks for them.
fn leave_and_look(dir: &Path) -> (PathBuf, PathBuf) {
    let stdin = |mode: &str| {
        let folder = dir.join(mode);
        std::fs::create_dir_all(&folder).unwrap();
        stdin_file(&folder, &format!("{mode}\n"))
    };
    (stdin("leave"), stdin("look"))
}

#[test]
fn nothing_of_one_run_reaches_the_next_in_a_reused_box() {
    let sb = sandbox(170);
    let p = build(&sb, "leave_traces.c");
    let other = build(&sb, "leave_traces.c");
    let t = tempfile::tempdir().unwrap();
    let (leave, look) = leave_and_look(t.path());

    let left = run(&sb, &p, Some(leave.clone()), limits());
    expect_status(&left, RunStatus::Ok);
    // Every trace was really made: two files, four IPC objects, a message queue and the
    // background process (gone now: `run` checks no process of the slot's uid is left).
    assert_eq!(value(&left, "left "), 8, "{left:?}");
    assert_eq!(value(&left, "pid "), 2);
    let mut boxes = vec![(value(&left, "box "), value(&left, "init "))];
    for (program, stdin) in [(&p, &look), (&other, &look), (&p, &leave), (&other, &look)] {
        let r = run(&sb, program, Some(stdin.clone()), limits());
        expect_status(&r, RunStatus::Ok);
        let out = String::from_utf8_lossy(&r.stdout).into_owned();
        // One of the slot's reused boxes (each init started once) ...
        let id = (value(&r, "box "), value(&r, "init "));
        if !boxes.contains(&id) {
            boxes.push(id);
        }
        assert!(boxes.len() <= WAITING_BOXES, "{boxes:?} {out}");
        // ... as fresh as a new one: the program is PID 2 again and finds nothing.
        assert_eq!(value(&r, "pid "), 2, "{out}");
        if stdin == &look {
            assert!(out.contains("clean"), "{out}");
        }
    }
}

/// A slot keeps two boxes waiting and uses them in turn (issue 28: runs back to back do
/// not wait for the last one to be made fresh). What a run leaves in one box (files in
/// `/box` and `/tmp`, SysV and POSIX IPC objects, a detached background process) is found
/// neither by the next runs in the other box nor, later, by runs in that same box again;
/// each box keeps its own init, and each box's cgroup holds nothing of a run between runs.
#[test]
fn nothing_of_one_run_reaches_the_next_in_either_waiting_box() {
    let sb = sandbox(175);
    let p = build(&sb, "leave_traces.c");
    let t = tempfile::tempdir().unwrap();
    let (leave, look) = leave_and_look(t.path());
    let mut boxes: Vec<(i64, i64)> = Vec::new();
    let mut seen = |r: &RunReport| {
        let id = (value(r, "box "), value(r, "init "));
        assert!(
            boxes.iter().all(|b| b.0 != id.0 || b.1 == id.1),
            "{id:?} {boxes:?}"
        );
        if !boxes.contains(&id) {
            boxes.push(id);
        }
        id.0
    };
    // Each round: a run leaves everything in one box; the following runs, in the other
    // box and then in this one again, find nothing.
    for _ in 0..2 {
        let left = run(&sb, &p, Some(leave.clone()), limits());
        expect_status(&left, RunStatus::Ok);
        assert_eq!(value(&left, "left "), 8, "{left:?}");
        assert_eq!(value(&left, "pid "), 2);
        let dirty = seen(&left);
        let (mut in_other, mut back) = (false, false);
        for _ in 0..12 {
            let r = run(&sb, &p, Some(look.clone()), limits());
            expect_status(&r, RunStatus::Ok);
            let out = String::from_utf8_lossy(&r.stdout).into_owned();
            assert!(out.contains("clean"), "{out}");
            assert_eq!(value(&r, "pid "), 2, "{out}");
            if seen(&r) != dirty {
                in_other = true;
            } else if in_other {
                back = true;
                break;
            }
        }
        assert!(in_other && back, "runs did not alternate boxes: {boxes:?}");
    }
    // Two boxes, never more, each with the same init all along.
    assert_eq!(boxes.len(), 2, "{boxes:?}");
}

#[test]
fn a_box_killed_on_a_limit_is_made_anew_for_the_next_run() {
    let sb = sandbox(171);
    let sleeper = build(&sb, "sleep.c");
    let p = build(&sb, "leave_traces.c");
    let t = tempfile::tempdir().unwrap();
    let look = stdin_file(t.path(), "look\n");
    // Until both waiting boxes have served a run (each id once: its PID namespace).
    let boxes_seen = |limit: usize| {
        let mut seen = Vec::new();
        for _ in 0..limit {
            let r = run(&sb, &p, Some(look.clone()), limits());
            expect_status(&r, RunStatus::Ok);
            let out = String::from_utf8_lossy(&r.stdout).into_owned();
            assert!(out.contains("clean"), "{out}");
            assert_eq!(value(&r, "pid "), 2, "{out}");
            let id = value(&r, "box ");
            if !seen.contains(&id) {
                seen.push(id);
            }
            if seen.len() == WAITING_BOXES {
                break;
            }
        }
        seen
    };
    let before = boxes_seen(12);
    assert_eq!(before.len(), WAITING_BOXES, "{before:?}");
    let killed = run(
        &sb,
        &sleeper,
        None,
        Limits {
            wall_time_ms: 300,
            ..limits()
        },
    );
    expect_status(&killed, RunStatus::TimeLimit);
    // The killed run's box is gone (made anew); the other one still serves.
    let after = boxes_seen(12);
    assert_eq!(after.len(), WAITING_BOXES, "{after:?}");
    let kept = after.iter().filter(|id| before.contains(id)).count();
    assert_eq!(
        kept,
        WAITING_BOXES - 1,
        "before {before:?}, after {after:?}"
    );
}

/// Set in the child the next test starts: it holds a sandbox with its idle waiting boxes.
const HOLD: &str = "SUDOJUDGE_TEST_HOLD_WAITING_BOX";

/// Children of `pid` (from `/proc/*/stat`).
fn children_of(pid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            // "pid (comm) state ppid ...": the comm may hold spaces, so after the last ')'.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
                == Some(pid)
        })
        .collect()
}

/// Whether `pid` exists and is not a zombie.
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| Some(s.rsplit_once(')')?.1.split_whitespace().next()? != "Z"))
        .unwrap_or(false)
}

/// A judge killed (-9) while its slot's boxes wait for the next runs leaves the slot's
/// cgroup, the waiting boxes' cgroups (v1), the root template's folder and the waiting
/// inits' trees; the next sandbox made on this host sweeps all of it, whatever its slot.
/// The judge is this test binary, started again as a child that makes a sandbox on slot
/// 172, runs a program in each of its two waiting boxes and sleeps until it is killed.
#[test]
fn a_killed_judges_waiting_box_is_swept_by_the_next_sandbox() {
    if std::env::var_os(HOLD).is_some() {
        let sb = sandbox(172);
        let p = build(&sb, "leave_traces.c");
        let t = tempfile::tempdir().unwrap();
        let look = stdin_file(t.path(), "look\n");
        let mut boxes = std::collections::BTreeSet::new();
        for _ in 0..12 {
            let r = run(&sb, &p, Some(look.clone()), limits());
            expect_status(&r, RunStatus::Ok);
            boxes.insert(value(&r, "box "));
            if boxes.len() == 2 {
                break;
            }
        }
        assert_eq!(boxes.len(), 2, "both waiting boxes served a run");
        // libtest has printed the test's name on this line already.
        println!("waiting box held");
        std::thread::sleep(std::time::Duration::from_secs(120));
        return;
    }
    use std::io::BufRead;
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "reused_box::a_killed_judges_waiting_box_is_swept_by_the_next_sandbox",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(HOLD, "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let judge = child.id() as i32;
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(
        lines.any(|l| l.is_ok_and(|l| l.trim_end().ends_with("waiting box held"))),
        "the child judge never held its box"
    );
    // The judge's helper and, under it, the inits of the boxes waiting for the next runs.
    let helpers = children_of(judge);
    let inits: Vec<i32> = helpers.iter().flat_map(|&h| children_of(h)).collect();
    assert_eq!(
        inits.len(),
        WAITING_BOXES,
        "waiting boxes under {helpers:?}"
    );
    let before = sandbox_support::leftovers_of(judge);
    let cgroups: Vec<_> = before
        .iter()
        .filter(|p| !p.starts_with(&config().sandbox.box_root))
        .collect();
    assert!(
        before
            .iter()
            .any(|p| p.to_string_lossy().ends_with(".root"))
            && !cgroups.is_empty(),
        "the live judge's slot cgroup and root: {before:?}"
    );
    // cgroup v1: each waiting box's own cgroup holds its init.
    let in_box_cgroups: Vec<i32> = cgroups
        .iter()
        .filter(|p| p.to_string_lossy().contains(".box"))
        .flat_map(|p| {
            std::fs::read_to_string(p.join("cgroup.procs"))
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.trim().parse().ok())
                .collect::<Vec<i32>>()
        })
        .collect();
    if cgroups.iter().any(|p| p.to_string_lossy().contains(".box")) {
        for init in &inits {
            assert!(in_box_cgroups.contains(init), "{init} in {cgroups:?}");
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();

    let sb = sandbox(173);
    let left = sandbox_support::leftovers_of(judge);
    assert!(left.is_empty(), "left by the killed judge: {left:?}");
    let alive: Vec<i32> = helpers
        .iter()
        .chain(&inits)
        .copied()
        .filter(|&p| running(p))
        .collect();
    assert!(alive.is_empty(), "processes of the killed judge: {alive:?}");
    drop(sb);
}

/// The next run's file system is made ahead with the last run's files (the same program,
/// test after test). A program file changed on the host in between, in place or replaced,
/// is what the next run gets, never the copy made ahead; a run with other files gets only
/// its own.
#[test]
fn a_box_made_ahead_holds_the_program_as_it_is_on_the_host_now() {
    let sb = sandbox(174);
    let traces = build(&sb, "leave_traces.c");
    let segv = build(&sb, "segv.c");
    let t = tempfile::tempdir().unwrap();
    let look = stdin_file(t.path(), "look\n");
    let mut request = traces.run_request(Some(look.clone()), limits());
    let (_, program) = request.files[0].clone();
    let host = t.path().join("program");
    std::fs::copy(&program, &host).unwrap();
    request.files[0].1 = host.clone();
    let run_it = |request: &sudojudge::sandbox::RunRequest| {
        let r = sb.run(request).expect("run succeeds");
        sandbox_support::assert_clean(&sb);
        r
    };
    for _ in 0..2 {
        let r = run_it(&request);
        expect_status(&r, RunStatus::Ok);
        assert!(
            String::from_utf8_lossy(&r.stdout).contains("clean"),
            "{r:?}"
        );
    }
    // In place: the same inode, other bytes (and another size: a rewrite of the same size
    // within one tick of the file system's clock is the case docs/sandbox.md says is not
    // caught).
    let segv_bytes = std::fs::read(&segv.run_request(None, limits()).files[0].1).unwrap();
    assert_ne!(
        segv_bytes.len() as u64,
        std::fs::metadata(&program).unwrap().len()
    );
    std::fs::write(&host, &segv_bytes).unwrap();
    expect_status(&run_it(&request), RunStatus::RuntimeError);
    // Replaced by another file under the same name.
    let fresh = t.path().join("fresh");
    std::fs::copy(&program, &fresh).unwrap();
    std::fs::rename(&fresh, &host).unwrap();
    let r = run_it(&request);
    expect_status(&r, RunStatus::Ok);
    assert!(
        String::from_utf8_lossy(&r.stdout).contains("clean"),
        "{r:?}"
    );
    // Other files: the other program alone, in a box of its own.
    let other = segv.run_request(None, limits());
    expect_status(&run_it(&other), RunStatus::RuntimeError);
    expect_status(&run_it(&request), RunStatus::Ok);
}
