//! `sudojudge verify` on the repository's own interactive package
//! (`tests/fixtures/kattis/guessing`, a guessing game with a Python validator): every
//! submission, well behaved or not (one that deadlocks, one that exits early, one that
//! floods, one that never reads, one that crashes after the right answer), gets the
//! verdict the Kattis format gives it, each run in two boxes talking through pipes, and
//! nothing is left behind.

use std::process::Command;

use crate::fixtures::sandbox_support::{leftovers_of, processes_of};
use crate::fixtures::{config, kattis};

/// A uid range of this test's own (past the 64 node blocks of the default range), so no
/// other test's boxes are counted as this one's leftovers.
const UID_BASE: u32 = 1_879_048_192 + 70_000;

#[test]
fn the_guessing_game_verifies_and_each_misbehaviour_gets_the_formats_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::copy_package(&problems, "guessing");
    let config = config::write_config(
        dir.path(),
        &problems,
        &format!("[sandbox]\nuid_base = {UID_BASE}\n"),
    );
    let child = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["verify", "--json"])
        .arg(&package)
        .env_remove("SUDOJUDGE_CONFIG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let out = child.wait_with_output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success(),
        "{json:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let judged = json["submissions"]["submissions"].as_array().unwrap();
    let got = |name: &str| -> &serde_json::Value {
        judged
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("{name} not judged: {json:#}"))
    };
    for (name, verdict) in [
        ("accepted/binary_search.py", "AC"),
        ("accepted/binary_search.c", "AC"),
        ("wrong_answer/off_by_one.py", "WA"),
        ("wrong_answer/exits_early.py", "WA"),
        ("wrong_answer/floods.c", "WA"),
        ("wrong_answer/never_reads.py", "WA"),
        ("time_limit_exceeded/no_flush.c", "TLE"),
        ("run_time_error/crash_after_correct.py", "RE"),
    ] {
        assert_eq!(got(name)["got"], verdict, "{name}: {}", got(name));
    }
    // The deadlock ends at the submission's wall-clock limit, not the validator's (10 s
    // of CPU, 21 s of wall clock): judged at 1.5 x 1 s, 3 x that on the wall.
    let deadlock = got("time_limit_exceeded/no_flush.c");
    assert_eq!(deadlock["judged_limit_ms"], 1500, "{deadlock}");
    // Every box and cgroup of the run is gone, and no program of its slots lives on.
    assert!(leftovers_of(pid).is_empty(), "{:?}", leftovers_of(pid));
    for uid in UID_BASE..UID_BASE + 16 {
        assert!(
            processes_of(uid).is_empty(),
            "uid {uid}: {:?}",
            processes_of(uid)
        );
    }
}

#[test]
fn an_interactive_statement_shows_its_sample_interaction() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::copy_package(&problems, "guessing");
    let p = sudojudge::problem::load(&package).unwrap();
    assert_eq!(p.validator.name(), "interactive");
    assert!(
        p.statement.contains(
            "Sample interaction 1\n\n```\n>500\n<lower\n>250\n<higher\n>375\n<correct\n```"
        ),
        "{}",
        p.statement
    );
    // The sample's validator data is a test, not shown as an input and an output.
    assert!(p.tests.iter().any(|t| t.name == "sample/1"));
    assert!(!p.statement.contains("Sample input"), "{}", p.statement);
}
