//! Secret tests leak nothing through the API (issue 9, finding 3).
//!
//! A program printing `0` used to read `expected 2876, found 0` for every secret test of
//! target-sudoku; an echo of the input or an exit code made of it carried secret inputs out.
//! Against the real daemon: programs that print 0, echo their input, exit with their input's
//! first byte, or fail to compile, on every problem; then a test whose answer file is gone (a
//! system error that names a host path). No secret answer, no line of a secret input, no
//! host path appears anywhere in `GET /api/submissions[/{id}]`; samples keep their full
//! messages; a daemon restarted with `feedback = "full"` shows the full stored messages.

use crate::fixtures::daemon;

use std::path::{Path, PathBuf};
use std::time::Duration;

use daemon::{client, get, get_json, submit, trimmed_problems, wait_done, Daemon};
use serde_json::Value;

const PRINT_ZERO: &str = "#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n";
const ECHO: &str = "#include <stdio.h>\nint main(void) {\n  int c;\n  \
                    while ((c = getchar()) != EOF) putchar(c);\n  return 0;\n}\n";
const EXIT_WITH_INPUT: &str =
    "#include <stdio.h>\nint main(void) { int c = getchar(); return c < 0 ? 0 : c; }\n";
const NO_COMPILE: &str = "#include \"secret.h\"\nint main(void) { return 0; }\n";

const PROBLEMS: &[&str] = &["sudoku", "target-sudoku", "binary-sudoku"];

/// The phrases a contestant may read on a secret test.
const PHRASES: &[&str] = &[
    "wrong answer",
    "time limit exceeded",
    "memory limit exceeded",
    "output limit exceeded",
    "runtime error",
    "compile error",
];

/// Every secret input and answer of the packages the daemon judges with.
struct Secrets {
    answers: Vec<String>,
    input_lines: Vec<String>,
}

fn secrets(problems: &Path) -> Secrets {
    let mut out = Secrets {
        answers: Vec::new(),
        input_lines: Vec::new(),
    };
    for problem in PROBLEMS {
        let dir = problems.join(problem).join("data/secret");
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            match path.extension().and_then(|e| e.to_str()) {
                Some("ans") => out.answers.push(text.trim().to_string()),
                Some("in") => out.input_lines.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| l.len() >= 8)
                        .map(str::to_string),
                ),
                _ => {}
            }
        }
    }
    assert!(!out.answers.is_empty() && !out.input_lines.is_empty());
    out
}

/// Asserts that a submission, as the API shows it, holds nothing secret and no host path.
fn assert_nothing_leaks(s: &Value, secrets: &Secrets, host_paths: &[PathBuf]) {
    // Every text of the answer (numbers such as memory_kib may equal an answer by chance),
    // without the samples' messages (public, and their numbers may equal an answer).
    let mut shown = s.clone();
    for t in shown["tests"].as_array_mut().unwrap() {
        if t["name"].as_str().unwrap().starts_with("sample/") {
            t["message"] = Value::Null;
        }
    }
    let mut text = String::new();
    strings(&shown, &mut text);
    for t in s["tests"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        let message = t["message"].as_str();
        if name.starts_with("secret/") {
            assert!(
                message.is_none_or(|m| PHRASES.contains(&m) || m.starts_with("system error")),
                "secret test {name} shows {message:?}: {s:#}"
            );
            assert!(t["exit_code"].is_null() && t["signal"].is_null(), "{s:#}");
            for key in ["verdict", "time_ms", "memory_kib"] {
                assert!(!t[key].is_null(), "{key} must stay: {s:#}");
            }
        }
        if t["verdict"] == "SE" {
            assert!(message.unwrap().starts_with("system error"), "{s:#}");
        }
    }
    for answer in &secrets.answers {
        assert!(
            !text.contains(&format!("expected {answer}")),
            "answer {answer} in {s:#}"
        );
        if answer.len() >= 3 {
            assert!(!text.contains(answer.as_str()), "answer {answer} in {s:#}");
        }
    }
    for line in &secrets.input_lines {
        assert!(
            !text.contains(line.as_str()),
            "input line {line:?} in {s:#}"
        );
    }
    for path in host_paths {
        let path = path.display().to_string();
        assert!(!text.contains(&path), "host path {path} in {s:#}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_tests_show_only_verdict_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 2);
    let secrets = secrets(&problems);
    let db = dir.path().join("judge.db");
    let host_paths = vec![
        dir.path().to_path_buf(),
        daemon::root(),
        PathBuf::from("/tmp/sudojudge-boxes"),
    ];
    let mut d = Daemon::start(dir.path(), &db, &problems, 2);
    let c = client();

    let mut ids = Vec::new();
    for problem in PROBLEMS {
        for source in [PRINT_ZERO, ECHO, EXIT_WITH_INPUT, NO_COMPILE] {
            ids.push((*problem, source, submit(&c, &d, problem, "c", source).await));
        }
    }
    let all: Vec<i64> = ids.iter().map(|(_, _, id)| *id).collect();
    wait_done(&c, &d, &all, Duration::from_secs(300)).await;
    let mut secret_tests_seen = 0;
    for (problem, source, id) in &ids {
        let s = get(&c, &d, *id).await;
        assert_nothing_leaks(&s, &secrets, &host_paths);
        secret_tests_seen += s["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["name"].as_str().unwrap().starts_with("secret/") && t["verdict"] != "AC")
            .count();
        if *source == NO_COMPILE {
            assert_eq!(s["verdict"], "CE", "{s:#}");
            let log = s["compile"]["log"].as_str().unwrap();
            assert!(
                log.contains("secret.h"),
                "the submitter's own log stays: {log}"
            );
        }
        if *source == PRINT_ZERO && *problem == "target-sudoku" {
            let sample = &s["tests"][0];
            assert!(sample["name"].as_str().unwrap().starts_with("sample/"));
            let m = sample["message"].as_str().unwrap();
            assert!(
                m.starts_with("expected ") && m.contains("found 0"),
                "samples keep their full message: {s:#}"
            );
        }
        if *source == EXIT_WITH_INPUT && *problem == "target-sudoku" {
            assert!(
                !s["tests"][0]["exit_code"].is_null(),
                "samples keep it: {s:#}"
            );
        }
    }
    assert!(secret_tests_seen >= 12, "the programs fail secret tests");
    let list = get_json(&c, d.url("/api/submissions?limit=500")).await;
    for s in list.as_array().unwrap() {
        assert_nothing_leaks(s, &secrets, &host_paths);
    }

    // A system error names a host path: the answer files of a secret and a sample test vanish.
    let secret_ans = first_file(&problems.join("target-sudoku/data/secret"), "ans");
    let sample_ans = first_file(&problems.join("binary-sudoku/data/sample"), "ans");
    let kept: Vec<(PathBuf, Vec<u8>)> = [&secret_ans, &sample_ans]
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect();
    std::fs::remove_file(&secret_ans).unwrap();
    std::fs::remove_file(&sample_ans).unwrap();
    let se_target = submit(&c, &d, "target-sudoku", "c", PRINT_ZERO).await;
    let se_binary = submit(&c, &d, "binary-sudoku", "c", PRINT_ZERO).await;
    for s in wait_done(&c, &d, &[se_target, se_binary], Duration::from_secs(120)).await {
        let tests = s["tests"].as_array().unwrap();
        assert!(tests.iter().any(|t| t["verdict"] == "SE"), "{s:#}");
        assert_nothing_leaks(&s, &secrets, &host_paths);
    }

    // The database kept everything: the host's own view shows it.
    d.kill9();
    for (path, bytes) in kept {
        std::fs::write(path, bytes).unwrap();
    }
    let d = Daemon::start_with(
        dir.path(),
        &db,
        &problems,
        1,
        "[server]\nfeedback = \"full\"\n",
    );
    assert_eq!(get_json(&c, d.url("/api/health")).await["ok"], true);
    let target_zero = ids
        .iter()
        .find(|(p, s, _)| *p == "target-sudoku" && *s == PRINT_ZERO)
        .unwrap()
        .2;
    let full = get(&c, &d, target_zero).await.to_string();
    assert!(
        secrets
            .answers
            .iter()
            .any(|a| full.contains(&format!("expected {a}, found 0"))),
        "the full view shows the stored checker messages: {full}"
    );
    let full = get(&c, &d, se_target).await.to_string();
    assert!(full.contains("cannot read"), "{full}");
}

fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

fn first_file(dir: &Path, ext: &str) -> PathBuf {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.remove(0)
}
