//! Boxes made ahead and reused across runs (issue 28): a run that leaves every trace it
//! can (files in `/box` and `/tmp`, SysV and POSIX IPC objects, a detached background
//! process, PIDs used up) is followed, in the same reused box, by runs of the same and of
//! another program that find none of it. Needs root. Slots 170-179.

use crate::fixtures::sandbox_support;

use sandbox_support::*;
use sudojudge::sandbox::{Limits, RunReport, RunStatus};

fn value(r: &RunReport, key: &str) -> i64 {
    let out = String::from_utf8_lossy(&r.stdout);
    out.lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key:?} in {out}"))
}

#[test]
fn nothing_of_one_run_reaches_the_next_in_a_reused_box() {
    let sb = sandbox(170);
    let p = build(&sb, "leave_traces.c");
    let other = build(&sb, "leave_traces.c");
    let t = tempfile::tempdir().unwrap();
    let (leave_dir, look_dir) = (t.path().join("leave"), t.path().join("look"));
    std::fs::create_dir_all(&leave_dir).unwrap();
    std::fs::create_dir_all(&look_dir).unwrap();
    let leave = stdin_file(&leave_dir, "leave\n");
    let look = stdin_file(&look_dir, "look\n");

    let left = run(&sb, &p, Some(leave.clone()), limits());
    expect_status(&left, RunStatus::Ok);
    // Every trace was really made: two files, four IPC objects, a message queue and the
    // background process (gone now: `run` checks no process of the slot's uid is left).
    assert_eq!(value(&left, "left "), 8, "{left:?}");
    assert_eq!(value(&left, "pid "), 2);
    let init = value(&left, "init ");
    for (program, stdin) in [(&p, &look), (&other, &look), (&p, &leave), (&other, &look)] {
        let r = run(&sb, program, Some(stdin.clone()), limits());
        expect_status(&r, RunStatus::Ok);
        let out = String::from_utf8_lossy(&r.stdout).into_owned();
        // The same box (its init started once) ...
        assert_eq!(value(&r, "init "), init, "{out}");
        // ... as fresh as a new one: the program is PID 2 again and finds nothing.
        assert_eq!(value(&r, "pid "), 2, "{out}");
        if stdin == &look {
            assert!(out.contains("clean"), "{out}");
        }
    }
}

#[test]
fn a_box_killed_on_a_limit_is_made_anew_for_the_next_run() {
    let sb = sandbox(171);
    let sleeper = build(&sb, "sleep.c");
    let p = build(&sb, "leave_traces.c");
    let t = tempfile::tempdir().unwrap();
    let look = stdin_file(t.path(), "look\n");
    let first = run(&sb, &p, Some(look.clone()), limits());
    expect_status(&first, RunStatus::Ok);
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
    let after = run(&sb, &p, Some(look), limits());
    expect_status(&after, RunStatus::Ok);
    let out = String::from_utf8_lossy(&after.stdout).into_owned();
    assert!(out.contains("clean"), "{out}");
    assert_eq!(value(&after, "pid "), 2, "{out}");
    assert_ne!(value(&after, "init "), value(&first, "init "), "{out}");
}
