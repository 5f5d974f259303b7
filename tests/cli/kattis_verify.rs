//! `sudojudge verify PATH...` on Kattis packages (and a `problem.toml` one with a testlib
//! checker): the data checked by their validators, every submission judged in the real
//! sandbox against its folder, the time limit derived and written, unknown folders and
//! languages skipped (Java where there is no JDK).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::fixtures::{config, kattis};

/// `name` copied into `dir/problems` and verified under a plain config, as a setter would;
/// the run must pass. The package's folder, the config and the JSON.
pub fn verify_ok(dir: &Path, name: &str) -> (PathBuf, PathBuf, serde_json::Value) {
    let problems = dir.join("problems");
    let package = kattis::copy_package(&problems, name);
    let config = config::write_config(dir, &problems, "");
    let (out, json) = verify(&config, &[&package]);
    assert!(
        out.status.success(),
        "{json:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json["ok"], true, "{json:#}");
    (package, config, json)
}

/// Asserts each submission's (name, verdict, score) in `verify --json`'s output.
pub fn assert_scores(json: &serde_json::Value, expected: &[(&str, &str, f64)]) {
    for (name, verdict, score) in expected {
        let s = solution(json, name);
        assert_eq!(s["got"], *verdict, "{name}: {s:#}");
        assert_eq!(s["score"].as_f64(), Some(*score), "{name}: {s:#}");
    }
}

/// The report of submission `name` (`accepted/sum.py`) in `verify --json`'s output.
pub fn solution<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json["submissions"]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} not judged: {json:#}"))
}

/// `sudojudge verify --json PACKAGES...` under `config`: its output and the JSON it printed.
pub fn verify(config: &Path, packages: &[&Path]) -> (Output, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(config)
        .args(["verify", "--json"])
        .args(packages)
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

fn got<'a>(json: &'a serde_json::Value, problem: &str, name: &str) -> &'a str {
    json["submissions"]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["problem"] == problem && s["name"] == name)
        .unwrap_or_else(|| panic!("{problem}/{name} not judged: {json}"))["got"]
        .as_str()
        .unwrap()
}

#[test]
fn the_fixture_packages_verify_and_every_submission_gets_its_folders_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let packages: Vec<_> = kattis::PACKAGES
        .iter()
        .map(|name| kattis::copy_package(&problems, name))
        .collect();
    let config = config::write_config(dir.path(), &problems, "");
    let paths: Vec<&Path> = packages.iter().map(|p| p.as_path()).collect();
    let (out, json) = verify(&config, &paths);
    assert!(
        out.status.success(),
        "{json:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json["ok"], true);
    for (problem, name, verdict) in [
        ("sum", "accepted/sum.c", "AC"),
        ("sum", "accepted/sum.py", "AC"),
        ("sum", "wrong_answer/int32.c", "WA"),
        ("sum", "time_limit_exceeded/spin.py", "TLE"),
        ("sum", "run_time_error/crash.py", "RE"),
        ("sum", "rejected/prints_nothing.py", "WA"),
        ("floats", "accepted/six_digits.py", "AC"),
        ("floats", "accepted/exponent.py", "AC"),
        ("floats", "wrong_answer/two_digits.py", "WA"),
        ("divisor", "accepted/smallest.py", "AC"),
        ("divisor", "accepted/itself.c", "AC"),
        ("divisor", "wrong_answer/one.py", "WA"),
        ("divisor", "wrong_answer/half.py", "WA"),
        ("reorder", "accepted/sorted.py", "AC"),
        ("reorder", "accepted/reversed.cpp", "AC"),
        ("reorder", "wrong_answer/drops_one.py", "WA"),
        ("maxpair", "accepted/two_largest.py", "AC"),
        ("maxpair", "wrong_answer/first_two.py", "WA"),
    ] {
        assert_eq!(got(&json, problem, name), verdict, "{problem}/{name}");
    }
    // Python 3 as Kattis runs it: on PyPy (scripts/install-deps installs it), unless the
    // file names CPython.
    let language = |name: &str| {
        json["submissions"]["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["problem"] == "sum" && s["name"] == name)
            .unwrap()["language"]
            .clone()
    };
    assert_eq!(language("accepted/sum.py"), "pypy3");
    assert_eq!(language("accepted/sum.python.py"), "python");
    assert_eq!(got(&json, "sum", "accepted/sum.python.py"), "AC");
    assert_eq!(language("accepted/sum.c"), "c17");
    // The legacy package's limit is derived (slowest accepted x 5, whole seconds) and kept.
    let limits = json["time_limits"].as_array().unwrap();
    let sum = limits.iter().find(|l| l["problem"] == "sum").unwrap();
    assert_eq!(sum["source"], "derived", "{sum}");
    let slowest = sum["slowest_accepted_ms"].as_u64().unwrap();
    let seconds = (slowest * 5).div_ceil(1000).max(1);
    assert_eq!(sum["time_limit_ms"], seconds * 1000, "{sum}");
    // The wall-clock limit verify reports: the legacy margin (2) x the limit, at least the
    // host's wall_factor (3) x it.
    assert_eq!(sum["wall_limit_ms"], seconds * 3000, "{sum}");
    assert_eq!(
        std::fs::read_to_string(packages[0].join(".timelimit")).unwrap(),
        format!("{seconds}\n")
    );
    let floats = limits.iter().find(|l| l["problem"] == "floats").unwrap();
    assert_eq!(floats["source"], "problem_yaml");
    // The time-limit submission is judged at 2x (legacy time_safety_margin).
    let spin = json["submissions"]["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "time_limit_exceeded/spin.py")
        .unwrap();
    assert_eq!(spin["judged_limit_ms"], 2000, "{spin}");
    // What cannot be judged here is skipped, not failed.
    let skipped: Vec<String> = json["submissions"]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect();
    // Java is judged where the machine has a JDK (CI does), else skipped.
    if std::path::Path::new("/usr/bin/javac").exists() {
        assert_eq!(got(&json, "sum", "accepted/Sum.java"), "AC");
    } else {
        assert!(
            skipped.iter().any(|p| p.ends_with("accepted/Sum.java")),
            "{skipped:?}"
        );
    }
    assert!(
        skipped.iter().any(|p| p.ends_with("partially_accepted")),
        "{skipped:?}"
    );
}

#[test]
fn data_that_its_validators_reject_fails_verify_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let sum = kattis::copy_package(&problems, "sum");
    std::fs::write(sum.join("data/secret/02.in"), "1 2 3\n").unwrap();
    let reorder = kattis::copy_package(&problems, "reorder");
    std::fs::write(reorder.join("data/secret/2.ans"), "8\n").unwrap();
    // A leading zero only the checktestdata script of the 2023-07-draft package catches.
    let floats = kattis::copy_package(&problems, "floats");
    std::fs::write(floats.join("data/secret/02.in"), "03\n").unwrap();
    let config = config::write_config(dir.path(), &problems, "");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["verify", "--data-only"])
        .args([&sum, &reorder, &floats])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("validate.py rejects the input"), "{text}");
    // The legacy package's `.ctd` says where and why.
    assert!(
        text.contains("sum.ctd rejects the input")
            && text.contains("input line 1, column 4: expected newline"),
        "{text}"
    );
    assert!(
        text.contains("square.ctd rejects the input")
            && text.contains("02.in")
            && text.contains("integer with leading zeros"),
        "{text}"
    );
    assert!(text.contains("02.in"), "{text}");
    assert!(
        text.contains("the output validator rejects the answer file") && text.contains("2.ans"),
        "{text}"
    );
    assert!(
        text.contains("expected a permutation of 7, found 8"),
        "{text}"
    );
}
