//! Measurement accuracy and limit boundaries: CPU time and peak memory as the cgroup sees
//! them, memory limits at 90% and 110%. Needs root and cgroups.

use crate::fixtures::sandbox_support;

use sandbox_support::*;
use sudojudge::sandbox::RunStatus;

#[test]
fn a_400ms_cpu_loop_measures_within_10_percent() {
    let sb = sandbox(131);
    let p = build(&sb, "cpu_400ms.c");
    let _serial = timing_lock();
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    assert!((360..=440).contains(&r.time_ms), "{r:?}");
}

#[test]
fn touching_200_mib_measures_within_10_percent() {
    let sb = sandbox(132);
    let t = tempfile::tempdir().unwrap();
    let p = build(&sb, "touch_mem.c");
    let mut l = limits();
    l.memory_bytes = 512 << 20;
    let r = run(&sb, &p, Some(stdin_file(t.path(), "200")), l);
    expect_status(&r, RunStatus::Ok);
    let mib = r.memory_kib as f64 / 1024.0;
    assert!((180.0..=220.0).contains(&mib), "{mib} MiB: {r:?}");
}

#[test]
fn ninety_percent_of_the_limit_runs_and_110_percent_is_memory_limit() {
    let sb = sandbox(133);
    let t = tempfile::tempdir().unwrap();
    let p = build(&sb, "touch_mem.c");
    let mut l = limits();
    l.memory_bytes = 200 << 20;
    let r = run(&sb, &p, Some(stdin_file(t.path(), "180")), l);
    expect_status(&r, RunStatus::Ok);
    let r = run(&sb, &p, Some(stdin_file(t.path(), "220")), l);
    expect_status(&r, RunStatus::MemoryLimit);
}

#[test]
fn exit_code_and_signal_are_recorded() {
    let sb = sandbox(134);
    let t = tempfile::tempdir().unwrap();
    let p = build(&sb, "touch_mem.c");
    // No number on stdin: exit code 2.
    let r = run(&sb, &p, Some(stdin_file(t.path(), "x")), limits());
    expect_status(&r, RunStatus::RuntimeError);
    assert_eq!((r.exit_code, r.signal), (Some(2), None));
    let p = build(&sb, "segv.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::RuntimeError);
    assert_eq!((r.exit_code, r.signal), (None, Some(11)));
}
