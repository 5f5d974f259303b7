//! Without cgroups (or namespaces, or root) the sandbox refuses and names what is missing,
//! unless `allow_degraded` is set: then runs are rlimit-only and every report says so.

use crate::fixtures::sandbox_support;

use sandbox_support::*;
use sudojudge::sandbox::{RunStatus, Sandbox, SandboxError};

fn config_without_cgroups(allow: bool) -> (sudojudge::config::SandboxConfig, tempfile::TempDir) {
    let fake = tempfile::tempdir().unwrap();
    let mut c = config().sandbox;
    c.cgroup_root = fake.path().join("no-cgroups-here");
    c.allow_degraded = allow;
    (c, fake)
}

#[test]
fn missing_cgroups_are_refused_by_name() {
    let (c, _fake) = config_without_cgroups(false);
    match Sandbox::new(&c, 141) {
        Err(SandboxError::Unavailable(missing)) => {
            assert!(missing.iter().any(|m| m.contains("cgroups")), "{missing:?}");
            assert!(
                !missing.iter().any(|m| m.contains("namespace")),
                "{missing:?}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let caps = sudojudge::sandbox::probe(&c);
    assert!(!caps.isolated && caps.cgroup.is_none());
    assert!(serde_json::to_string(&caps)
        .unwrap()
        .contains("\"isolated\":false"));
}

#[test]
fn degraded_mode_runs_with_rlimits_and_says_so() {
    let full = sandbox(142);
    let p = build(&full, "touch_mem.c");
    let busy = build(&full, "busy.c");
    let (c, _fake) = config_without_cgroups(true);
    let mut sb = Sandbox::new(&c, 143).expect("degraded mode allowed");
    sb.set_helper(env!("CARGO_BIN_EXE_sudojudge"));
    assert!(sb.degraded());
    let t = tempfile::tempdir().unwrap();
    let r = sb
        .run(&p.run_request(Some(stdin_file(t.path(), "1")), limits()))
        .unwrap();
    expect_status(&r, RunStatus::Ok);
    assert!(r.degraded);
    assert_eq!(String::from_utf8_lossy(&r.stdout), "done 1\n");
    let mut l = limits();
    l.wall_time_ms = 6000;
    let r = sb.run(&busy.run_request(None, l)).unwrap();
    expect_status(&r, RunStatus::TimeLimit);
    assert!(r.degraded);
    assert!(processes_of(sb.uid()).is_empty());
}
