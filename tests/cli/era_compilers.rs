//! The compilers of the originals' era (issue 24) on the command line: `gets` is AC under
//! `cpp98` and CE under `cpp17`; `ONLINE_JUDGE` is defined, so a program that reads a local
//! file under `#ifndef ONLINE_JUDGE` is AC; `grade --language` compiles a class as one
//! standard; `doctor` lists every standard with its compiler.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sudojudge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run sudojudge")
}

fn judge_json(problem: &str, source: &Path, language: Option<&str>) -> serde_json::Value {
    let path = source.to_str().expect("utf-8 path");
    let mut args = vec!["judge", problem, path, "--json"];
    if let Some(l) = language {
        args.extend(["--language", l]);
    }
    let out = sudojudge(&args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// POJ 3074 read with `gets`, as POJ's C++98 compiled it.
fn gets_solution() -> PathBuf {
    root().join("problems/sudoku/submissions/accepted/poj_gets.cpp98.cpp")
}

#[test]
fn gets_is_accepted_under_cpp98_and_a_compile_error_under_cpp17() {
    let v = judge_json("sudoku", &gets_solution(), Some("cpp98"));
    assert_eq!(
        (v["verdict"].as_str(), v["language"].as_str()),
        (Some("AC"), Some("cpp98")),
        "{v}"
    );
    for language in [Some("cpp17"), Some("cpp"), None] {
        let v = judge_json("sudoku", &gets_solution(), language);
        assert_eq!(v["verdict"], "CE", "{language:?}: {v}");
        assert_eq!(
            v["language"], "cpp17",
            "the alias and the extension are C++17: {v}"
        );
        let log = v["compile"]["log"].as_str().unwrap_or("");
        assert!(log.contains("gets"), "{log}");
    }
}

#[test]
fn online_judge_is_defined_so_a_local_file_reader_is_accepted() {
    let base = std::fs::read_to_string(root().join("tests/fixtures/sudoku/ac.c")).unwrap();
    assert!(base.contains("int main(void) {"));
    let source = base.replace(
        "int main(void) {",
        "int main(void) {\n#ifndef ONLINE_JUDGE\n    \
         if (!freopen(\"sudoku_local_test.txt\", \"r\", stdin)) return 7;\n#endif",
    );
    let dir = tempfile::tempdir().unwrap();
    for (name, language) in [("local.c", None), ("local99.c", Some("c99"))] {
        let path = dir.path().join(name);
        std::fs::write(&path, &source).unwrap();
        let v = judge_json("sudoku", &path, language);
        assert_eq!(v["verdict"], "AC", "{language:?}: {v}");
    }
    // Python and Rust define nothing: the judge adds no flag to them.
    let v = judge_json(
        "sudoku",
        &root().join("problems/sudoku/submissions/accepted/digit_bitboards.rs"),
        None,
    );
    assert_eq!(v["language"], "rust", "{v}");
}

#[test]
fn grade_compiles_a_class_as_the_standard_asked() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(gets_solution(), class.join("ann.cpp")).unwrap();
    let class_arg = class.to_str().unwrap();
    let row = |out: &Output| -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
        });
        v["students"][0].clone()
    };
    let out = sudojudge(&[
        "grade",
        "sudoku",
        class_arg,
        "--json",
        "--language",
        "cpp98",
    ]);
    let ann = row(&out);
    assert_eq!(
        (ann["verdict"].as_str(), ann["language"].as_str()),
        (Some("AC"), Some("cpp98")),
        "{ann}"
    );
    let ann = row(&sudojudge(&["grade", "sudoku", class_arg, "--json"]));
    assert_eq!(
        (ann["verdict"].as_str(), ann["language"].as_str()),
        (Some("CE"), Some("cpp17")),
        "{ann}"
    );
    let out = sudojudge(&["grade", "sudoku", class_arg, "--language", "cpp03"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cpp03") && err.contains("cpp98"), "{err}");
}

#[test]
fn doctor_lists_every_standard_with_its_compiler() {
    let out = sudojudge(&["doctor", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    for id in [
        "c99", "c11", "c17", "cpp98", "cpp11", "cpp14", "cpp17", "cpp20",
    ] {
        let l = &v["languages"][id];
        assert_eq!(l["found"], true, "{id}: {l}");
        assert!(
            l["name"].as_str().unwrap_or("").contains("GNU"),
            "{id}: {l}"
        );
    }
    assert_eq!(v["languages"]["c17"]["aliases"], serde_json::json!(["c"]));
    let text = String::from_utf8_lossy(&sudojudge(&["doctor"]).stdout).into_owned();
    assert!(
        text.contains("language cpp98: /usr/bin/g++ (")
            && text.contains("[C++98 (g++, GNU C++98)]"),
        "{text}"
    );
    assert!(
        text.contains("[C++17 (g++, GNU C++17); alias cpp]"),
        "{text}"
    );
}
