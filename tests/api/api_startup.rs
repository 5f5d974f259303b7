//! Start-up: the daemon refuses to run without isolation and says what is missing, unless the
//! config allows degraded mode, which it then reports; a second daemon on a database in use is
//! refused.

use crate::fixtures::daemon;

use std::process::Command;

use daemon::{client, get_json, trimmed_problems, write_config, Daemon};

const NO_CGROUPS: &str = "[sandbox]\ncgroup_root = \"/nonexistent/cgroup\"\n";

#[test]
fn refuses_to_start_without_isolation_and_names_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let config = write_config(dir.path(), &problems, NO_CGROUPS);
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(dir.path().join("judge.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cgroups"), "{stderr}");
    assert!(stderr.contains("allow_degraded"), "{stderr}");
    assert!(!dir.path().join("judge.db").exists(), "nothing started");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn degraded_mode_when_allowed_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let extra = format!("{NO_CGROUPS}allow_degraded = true\n");
    let d = Daemon::start_with(
        dir.path(),
        &dir.path().join("judge.db"),
        &problems,
        1,
        &extra,
    );
    let h = get_json(&client(), d.url("/api/health")).await;
    assert_eq!(h["sandbox"]["isolated"], false, "{h}");
    assert!(d.log().contains("DEGRADED"), "{}", d.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_daemon_on_the_same_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let db = dir.path().join("judge.db");
    let first = Daemon::start(dir.path(), &db, &problems, 1);
    let config = write_config(dir.path(), &problems, "");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--database",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in use by another sudojudge daemon")
            && stderr.contains(&format!("pid {}", first.pid())),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("listening"));
    let h = get_json(&client(), first.url("/api/health")).await;
    assert_eq!(h["ok"], true, "the first daemon still serves: {h}");
}

fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o7777
}

/// The database holds every source and every checker message: its folders (the ones the
/// daemon creates) are 0700, the database, its -wal, -shm and lock files 0600, on a fresh path
/// and after a restart; a database left 0644 by an older version is tightened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_and_its_folder_are_the_owners_alone() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let db = dir.path().join("fresh/data/judge.db");
    let side = |suffix: &str| dir.path().join(format!("fresh/data/judge.db{suffix}"));
    let check = || {
        for folder in ["fresh", "fresh/data"] {
            assert_eq!(mode(&dir.path().join(folder)), 0o700, "{folder}");
        }
        for suffix in ["", "-wal", "-shm", ".lock"] {
            assert_eq!(mode(&side(suffix)), 0o600, "judge.db{suffix}");
        }
    };
    let mut d = Daemon::start(dir.path(), &db, &problems, 1);
    assert_eq!(get_json(&client(), d.url("/api/health")).await["ok"], true);
    check();
    d.kill9();

    use std::os::unix::fs::PermissionsExt;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::set_permissions(side(suffix), std::fs::Permissions::from_mode(0o644));
    }
    let d = Daemon::start(dir.path(), &db, &problems, 1);
    assert_eq!(get_json(&client(), d.url("/api/health")).await["ok"], true);
    check();
}
