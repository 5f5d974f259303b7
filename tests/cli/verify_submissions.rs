//! `sudojudge verify` judging `submissions/` for real: the built binary, the real sandbox (run
//! as root), a small binary-sudoku package in a temporary folder holding copies of the
//! committed reference solutions.

use crate::fixtures::{config, package};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A binary-sudoku package in `dir/problems` with the sample, two secret tests (all zeros:
/// 0 flips; all ones: 9 flips) and the named committed solutions (`folder/file` in the real
/// package, copied to `folder/file` or to the folder given as the second element).
fn package(dir: &Path, solutions: &[(&str, &str)]) -> PathBuf {
    let src = root().join("problems/binary-sudoku");
    let pkg = package::small_binary_sudoku(dir);
    for (from, folder) in solutions {
        let file = Path::new(from).file_name().unwrap();
        let dest = pkg.join("submissions").join(folder);
        std::fs::create_dir_all(&dest).unwrap();
        std::fs::copy(src.join("submissions").join(from), dest.join(file)).unwrap();
    }
    config::write_config(dir, &dir.join("problems"), "")
}

fn verify_json(config: &Path) -> (Output, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .args(["verify", "binary-sudoku", "--json", "--config"])
        .arg(config)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .expect("the binary runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, json)
}

fn submission<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json["submissions"]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} not judged: {json}"))
}

#[test]
fn every_committed_kind_of_solution_gets_its_verdict_in_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let config = package(
        dir.path(),
        &[
            ("accepted/row_dp.c", "accepted"),
            ("accepted/band_parity.py", "accepted"),
            ("wrong_answer/odd_rows.py", "wrong_answer"),
            ("time_limit_exceeded/ida_star.cpp", "time_limit_exceeded"),
            ("run_time_error/space_separated.py", "run_time_error"),
        ],
    );
    let (out, json) = verify_json(&config);
    assert_eq!(out.status.code(), Some(0), "{json}");
    assert_eq!(json["ok"], true);
    let expected = [
        ("accepted/row_dp.c", "AC"),
        ("accepted/band_parity.py", "AC"),
        ("wrong_answer/odd_rows.py", "WA"),
        ("time_limit_exceeded/ida_star.cpp", "TLE"),
        ("run_time_error/space_separated.py", "RE"),
    ];
    for (name, verdict) in expected {
        let s = submission(&json, name);
        assert_eq!(s["got"], verdict, "{s}");
        assert_eq!(s["ok"], true, "{s}");
    }
    let tle = submission(&json, "time_limit_exceeded/ida_star.cpp");
    assert_eq!(
        tle["judged_limit_ms"], 1500,
        "judged at 1.5x the limit: {tle}"
    );
    assert_eq!(tle["failed_test"], "secret/02-ones", "{tle}");
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(
        progress.contains("[5/5] binary-sudoku/"),
        "plain progress lines when not on a terminal: {progress}"
    );
}

#[test]
fn a_wrong_solution_in_accepted_and_a_corrupted_answer_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = package(
        dir.path(),
        &[
            ("accepted/row_dp.c", "accepted"),
            ("accepted/band_parity.py", "accepted"),
            ("wrong_answer/odd_rows.py", "accepted"),
        ],
    );
    let (out, json) = verify_json(&config);
    assert_eq!(out.status.code(), Some(1), "{json}");
    let wrong = submission(&json, "accepted/odd_rows.py");
    assert_eq!(wrong["got"], "WA");
    let failure = wrong["failures"][0].as_str().unwrap();
    assert!(
        failure.contains("submissions/accepted/odd_rows.py: expected AC, got WA on sample/1"),
        "{failure}"
    );

    std::fs::remove_file(
        dir.path()
            .join("problems/binary-sudoku/submissions/accepted/odd_rows.py"),
    )
    .unwrap();
    let ans = dir
        .path()
        .join("problems/binary-sudoku/data/secret/02-ones.ans");
    std::fs::write(&ans, "8\n").unwrap();
    let (out, json) = verify_json(&config);
    assert_eq!(out.status.code(), Some(1), "{json}");
    let package = json["submissions"]["package_failures"][0]
        .as_str()
        .unwrap_or("");
    assert!(
        package.contains("02-ones.ans") && package.contains("every accepted solution gets WA"),
        "{json}"
    );
}
