//! Hostile programs against the kernel interfaces a box keeps (issue 9: page cache raising
//! the memory limit, vsock and netlink sockets, modify_ldt, inherited signal state). Each
//! test asserts the contained outcome and that nothing is left. Needs root. Slots 160-169.

use crate::fixtures::sandbox_support;

use sandbox_support::*;
use sudojudge::sandbox::RunStatus;

#[test]
fn page_cache_left_by_one_test_does_not_raise_the_next_ones_memory_limit() {
    let sb = sandbox(160);
    let reader = build(&sb, "read_usr.c");
    let toucher = build(&sb, "child_touch.c");
    let mut read_limits = limits();
    read_limits.memory_bytes = 256 << 20;
    read_limits.cpu_time_ms = 10_000;
    read_limits.wall_time_ms = 60_000;
    let mut touch_limits = read_limits;
    touch_limits.cpu_time_ms = 5_000;
    for round in 0..2 {
        // Each reader leaves up to its limit of page cache charged to the slot. Before the
        // fix, the next run's limit was the configured one on top of that, so three readers
        // in a row took it from 256 MiB past the toucher's 900 MB (no MLE).
        for part in 0..3 {
            let t = tempfile::tempdir().unwrap();
            let which = stdin_file(t.path(), &(round * 3 + part).to_string());
            let r = run(&sb, &reader, Some(which), read_limits);
            expect_status(&r, RunStatus::Ok);
        }
        let r = run(&sb, &toucher, None, touch_limits);
        // 900 MB in a child under 256 MiB: the limit holds at the configured value.
        expect_status(&r, RunStatus::MemoryLimit);
        let kib = r.memory_kib;
        assert!(
            (240 << 10..=(256 << 10) + 1024).contains(&kib),
            "round {round}: memory_kib {kib}"
        );
    }
}

#[test]
fn vsock_netlink_packet_sockets_and_modify_ldt_are_refused() {
    let sb = sandbox(161);
    let p = build(&sb, "sockets.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "vsock EAFNOSUPPORT\nnetlink EAFNOSUPPORT\npacket EAFNOSUPPORT\nunix ok\ninet ok\n\
         inet6 ok\nvsock pair EAFNOSUPPORT\nmodify_ldt EPERM\n"
    );
}

#[test]
fn the_program_starts_with_default_signal_dispositions_and_no_mask() {
    let sb = sandbox(162);
    let p = build(&sb, "signals.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n"
    );
}
