//! Hostile programs against the box's file system and what the box can see of the host
//! (issue 9: deep folders, many files, host paths). Each test asserts the contained outcome
//! and that nothing is left (`sandbox_support::assert_clean`). Needs root, like the judge.
//! Slots 150-159.

use crate::fixtures::sandbox_support;

use std::time::{Duration, Instant};

use sandbox_support::*;
use sudojudge::sandbox::RunStatus;

/// `SUnreclaim` of `/proc/meminfo`, in KiB: kernel memory that only freeing its objects
/// gives back (dentries and inodes of a box that was never removed stay here).
fn unreclaimable_slab_kib() -> u64 {
    let text = std::fs::read_to_string("/proc/meminfo").unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("SUnreclaim:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Inodes in use on the file system holding the box folders.
fn box_root_inodes_used(sb: &sudojudge::sandbox::Sandbox) -> u64 {
    let st = nix::sys::statvfs::statvfs(sb.box_root()).unwrap();
    st.files() - st.files_free()
}

fn first_number(stdout: &[u8]) -> u64 {
    String::from_utf8_lossy(stdout)
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap()
}

#[test]
fn thirty_runs_of_100000_nested_folders_leave_nothing_behind() {
    let sb = sandbox(150);
    let p = build(&sb, "deep_folders.c");
    let inodes = config().sandbox.box_inodes;
    // One run first, so the slab caches the boxes use exist before the baseline.
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    let slab_before = unreclaimable_slab_kib();
    let used_before = box_root_inodes_used(&sb);
    for _ in 0..30 {
        let r = run(&sb, &p, None, limits());
        expect_status(&r, RunStatus::Ok);
        // The box's own file system ends the chain at its inode bound.
        let depth = first_number(&r.stdout);
        assert!(depth > 100 && depth < inodes, "depth {depth}");
    }
    let slab_after = unreclaimable_slab_kib();
    let used_after = box_root_inodes_used(&sb);
    // Other engineers' boxes share the machine: allow their noise, not 30 x 4096 inodes
    // (each about 1 KiB of dentry and inode) nor the 3 GB of 30 unremovable 100,000-deep
    // trees seen before.
    assert!(
        slab_after < slab_before + 64 * 1024,
        "SUnreclaim {slab_before} -> {slab_after} KiB"
    );
    assert!(
        used_after < used_before + 1000,
        "box root inodes {used_before} -> {used_after}"
    );
}

#[test]
fn a_150000_file_box_is_capped_and_torn_down_quickly() {
    let sb = sandbox(151);
    let p = build(&sb, "many_files.c");
    let inodes = config().sandbox.box_inodes;
    let mut l = limits();
    l.wall_time_ms = 10_000;
    let started = Instant::now();
    let r = run(&sb, &p, None, l);
    let total = started.elapsed();
    expect_status(&r, RunStatus::Ok);
    let files = first_number(&r.stdout);
    assert!(files < inodes, "{files} files");
    // What the judge spends around the program (set-up, teardown, reading back): bounded
    // by the inode bound, not by what the program made (1.1 s for 150,000 files before).
    let around = total.saturating_sub(Duration::from_millis(r.wall_ms));
    assert!(
        around < Duration::from_millis(500),
        "{around:?} around {r:?}"
    );
}

#[test]
fn nothing_in_the_box_names_a_host_path() {
    let sb = sandbox(152);
    let p = build(&sb, "host_paths.c");
    let t = tempfile::tempdir().unwrap();
    let input = stdin_file(t.path(), "secret input\n");
    let r = run(&sb, &p, Some(input.clone()), limits());
    expect_status(&r, RunStatus::Ok);
    let out = String::from_utf8_lossy(&r.stdout).into_owned();
    let helper = env!("CARGO_BIN_EXE_sudojudge");
    assert!(!out.contains(helper), "{out}");
    assert!(!out.contains(env!("CARGO_MANIFEST_DIR")), "{out}");
    assert!(!out.contains(&*input.to_string_lossy()), "{out}");
    assert!(!out.contains(&*t.path().to_string_lossy()), "{out}");
    // stdout and stderr are unnamed files of the box's own file system.
    assert!(!out.contains(&*sb.box_root().to_string_lossy()), "{out}");
    assert!(!out.contains("/tmp/"), "{out}");
    assert!(out.contains("cmdline sudojudge __sandbox-init"), "{out}");
    assert!(out.contains("fd0 /box/.input\n"), "{out}");
}
