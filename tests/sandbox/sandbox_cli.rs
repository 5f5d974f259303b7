//! `sudojudge run` and `sudojudge doctor` as a user calls them.

use std::process::Command;

fn sudojudge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn run_json_reports_status_output_and_figures() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("sum.py");
    std::fs::write(
        &src,
        "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n",
    )
    .unwrap();
    let input = t.path().join("in.txt");
    std::fs::write(&input, "2 40\n").unwrap();
    let out = sudojudge()
        .args(["run", "--json", "--stdin"])
        .arg(&input)
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json_of(&out);
    assert_eq!(v["status"], "ok", "{v}");
    assert_eq!(v["stdout"], "42\n");
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["compile"]["ok"], true);
    for key in ["signal", "time_ms", "wall_ms", "memory_kib", "stderr"] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
}

#[test]
fn run_reports_compile_errors_and_limits_with_exit_0() {
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join("bad.c");
    std::fs::write(&bad, "int main( { return 0; }\n").unwrap();
    let out = sudojudge()
        .args(["run", "--json"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json_of(&out);
    assert_eq!(v["status"], "compile_error");
    assert_eq!(v["compile"]["ok"], false);
    assert!(
        v["compile"]["log"].as_str().unwrap().contains("error"),
        "{v}"
    );

    let sleepy = t.path().join("sleepy.py");
    std::fs::write(&sleepy, "import time\ntime.sleep(30)\n").unwrap();
    let out = sudojudge()
        .args(["run", "--json", "--time-limit", "300"])
        .arg(&sleepy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json_of(&out)["status"], "time_limit");

    let hog = t.path().join("hog.py");
    std::fs::write(&hog, "x = bytearray(200 << 20)\nprint(len(x))\n").unwrap();
    let out = sudojudge()
        .args(["run", "--json", "--memory-limit", "64"])
        .arg(&hog)
        .output()
        .unwrap();
    assert_eq!(json_of(&out)["status"], "memory_limit");
}

#[test]
fn usage_errors_exit_2() {
    let t = tempfile::tempdir().unwrap();
    let unknown = t.path().join("x.cobol");
    std::fs::write(&unknown, "").unwrap();
    let out = sudojudge().arg("run").arg(&unknown).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--language"));
    let out = sudojudge()
        .args(["run", "/nonexistent/x.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let empty = t.path().join("empty.py");
    std::fs::write(&empty, "\n").unwrap();
    let out = sudojudge().arg("run").arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("source is empty"));
}

#[test]
fn doctor_reports_a_fully_isolated_host() {
    let out = sudojudge().args(["doctor", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["capabilities"]["isolated"], true);
    assert_eq!(v["trial_run"]["ok"], true);
    // What it found per language: the compiler, its version, Rust's toolchain folder (C and
    // C++ by their default standards' entries; `c` and `cpp` are their aliases).
    for language in ["c17", "cpp17", "python", "rust"] {
        let l = &v["languages"][language];
        assert_eq!(l["found"], true, "{language}: {v}");
        assert!(l["version"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
    }
    let rust = v["languages"]["rust"]["toolchain"]["folder"]
        .as_str()
        .unwrap();
    assert!(
        std::path::Path::new(rust).join("bin/rustc").is_file(),
        "{v}"
    );
    assert!(v["config"].as_str().unwrap().contains("config.toml"), "{v}");
    let text = sudojudge().arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("fully isolated: yes"), "{text}");
    assert!(
        text.contains("language rust: ") && text.contains("config: "),
        "{text}"
    );
}
