//! `sudojudge judge` end to end with the real sandbox and the real problem packages.

use std::process::Command;

fn judge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("judge")
        .args(args)
        .output()
        .expect("run sudojudge judge")
}

#[test]
fn judge_prints_the_design_json_and_a_table_and_exits_0_on_ac_only() {
    let out = judge(&[
        "binary-sudoku",
        "tests/fixtures/binary-sudoku/ac.c",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["verdict"], "AC", "{v}");
    assert_eq!(
        (v["problem"].as_str(), v["language"].as_str()),
        (Some("binary-sudoku"), Some("c17"))
    );
    assert_eq!(v["score"], 100);
    assert_eq!(v["compile"]["ok"], true);
    let tests = v["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    assert_eq!(tests[0]["name"], "sample/1", "samples first");
    for key in [
        "time_ms",
        "wall_ms",
        "memory_kib",
        "exit_code",
        "signal",
        "message",
    ] {
        assert!(tests[0].get(key).is_some(), "tests[].{key}");
    }

    // A wrong answer in Python (language from the extension), as a table: exit 1.
    let out = judge(&["binary-sudoku", "tests/fixtures/binary-sudoku/wa.py"]);
    assert_eq!(out.status.code(), Some(1));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("sample/1") && table.contains("WA"),
        "{table}"
    );
    assert!(table.contains("binary-sudoku python"), "{table}");

    // A compile error carries the compiler's message; exit 1 like any verdict but AC.
    let out = judge(&[
        "target-sudoku",
        "tests/fixtures/target-sudoku/ce.cpp",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "CE");
    assert!(
        v["compile"]["log"].as_str().unwrap().contains("error"),
        "{v}"
    );
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let out = judge(&["chess", "tests/fixtures/binary-sudoku/ac.c"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("chess") && stderr.contains("known: binary-sudoku"),
        "{stderr}"
    );

    // A blank source is refused before any compile, in every language, with the HTTP
    // API's words.
    let dir = tempfile::tempdir().unwrap();
    for name in ["empty.c", "empty.py", "blank.rs"] {
        let path = dir.path().join(name);
        std::fs::write(&path, if name == "blank.rs" { " \n\t\n" } else { "" }).unwrap();
        let out = judge(&["binary-sudoku", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("source is empty"), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}: no verdict printed");
    }
    let out = judge(&["binary-sudoku", "Cargo.toml"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--language"));
    let out = judge(&[
        "binary-sudoku",
        "tests/fixtures/binary-sudoku/ac.c",
        "--language",
        "cobol",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cobol"));
}

/// Issue 10: the solution every tutorial teaches is accepted under the original judge's
/// limits with half the limit to spare on every test, measured in the sandbox (as `verify`'s
/// margins rule asks), for the classic Sudoku (POJ 3074: 1 s, 64 MiB) and target Sudoku
/// (NOIP 2009: 2 s, 128 MiB).
#[test]
fn the_textbook_solutions_are_accepted_within_half_the_original_limits() {
    for (problem, time_limit, memory_limit) in [("sudoku", 1000, 64), ("target-sudoku", 2000, 128)]
    {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
        let package = sudojudge::problem::find(&root, problem).unwrap();
        assert_eq!(
            (package.time_limit_ms, package.memory_limit_mb),
            (time_limit, memory_limit),
            "{problem}: the original's limits"
        );
        let source = format!("problems/{problem}/submissions/accepted/textbook.cpp");
        let out = judge(&[problem, &source, "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(v["verdict"], "AC", "{problem}: {v}");
        let tests = v["tests"].as_array().unwrap();
        assert_eq!(tests.len(), package.tests.len(), "{problem}");
        for t in tests {
            let ms = t["time_ms"].as_u64().unwrap();
            assert!(
                ms <= time_limit / 2,
                "{problem}: {} took {ms} ms",
                t["name"]
            );
        }
    }
}
