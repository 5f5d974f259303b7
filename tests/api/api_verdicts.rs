//! End to end over HTTP against the real daemon and sandbox: an accepted, wrong-answer,
//! time-limit, runtime-error and compile-error submission for each problem, then a rejudge
//! and the `submit --wait` command.

use crate::fixtures::daemon;

use std::collections::BTreeMap;
use std::time::Duration;

use daemon::{client, fixture, get, submit, trimmed_problems, wait_done, Daemon};
use serde_json::Value;

/// (problem, fixture file, language, expected verdict)
const CASES: &[(&str, &str, &str, &str)] = &[
    ("sudoku", "tle.c", "c", "TLE"),
    ("target-sudoku", "tle.c", "c", "TLE"),
    ("binary-sudoku", "tle.c", "c", "TLE"),
    ("sudoku", "ac.c", "c", "AC"),
    ("sudoku", "wa.c", "c", "WA"),
    ("sudoku", "re.c", "c", "RE"),
    ("sudoku", "ce.c", "c", "CE"),
    ("sudoku", "ce.py", "python", "CE"),
    ("target-sudoku", "ac.c", "c", "AC"),
    ("target-sudoku", "wa.c", "c", "WA"),
    ("target-sudoku", "re.c", "c", "RE"),
    ("target-sudoku", "ce.cpp", "cpp", "CE"),
    ("binary-sudoku", "ac.c", "c", "AC"),
    ("binary-sudoku", "wa.py", "python", "WA"),
    ("binary-sudoku", "re.c", "c", "RE"),
    ("binary-sudoku", "ce.c", "c", "CE"),
];

fn check_verdict(
    s: &Value,
    problem: &str,
    file: &str,
    expected: &str,
    limits: &BTreeMap<String, u64>,
) {
    let what = format!("{problem}/{file}: {s:#}");
    assert_eq!(s["verdict"], expected, "{what}");
    let tests = s["tests"].as_array().unwrap();
    match expected {
        "CE" => {
            assert_eq!(s["compile"]["ok"], false, "{what}");
            let log = s["compile"]["log"].as_str().unwrap();
            assert!(log.to_lowercase().contains("error"), "{what}");
            if file.ends_with(".py") {
                assert!(
                    log.contains("SyntaxError") && log.contains("line 7"),
                    "{what}"
                );
            }
            assert!(tests.is_empty(), "{what}");
            assert_eq!(s["score"], 0);
        }
        "AC" => {
            assert_eq!(s["score"], 100, "{what}");
            assert!(!tests.is_empty(), "{what}");
            assert!(tests.iter().all(|t| t["verdict"] == "AC"), "{what}");
        }
        _ => {
            assert_eq!(s["compile"]["ok"], true, "{what}");
            let first = &tests[0];
            assert_eq!(first["verdict"], expected, "{what}");
            assert!(
                first["message"].as_str().is_some_and(|m| !m.is_empty()),
                "{what}"
            );
            assert!(s["score"].as_u64().unwrap() < 100, "{what}");
        }
    }
    match (problem, expected) {
        ("sudoku", "RE") => assert_eq!(tests[0]["exit_code"], 3, "{what}"),
        ("target-sudoku", "RE") => assert_eq!(tests[0]["signal"], 11, "{what}"),
        ("binary-sudoku", "RE") => assert_eq!(tests[0]["signal"], 6, "{what}"),
        (_, "TLE") => {
            let limit = limits[problem];
            // The CPU limit, or the wall limit on a loaded machine.
            let cpu = tests[0]["time_ms"].as_u64().unwrap();
            let wall = tests[0]["wall_ms"].as_u64().unwrap();
            assert!(cpu >= limit * 9 / 10 || wall >= limit, "{what}");
            assert!(tests.iter().all(|t| t["verdict"] == "TLE"), "{what}");
        }
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_verdict_for_every_problem_then_rejudge_and_submit_wait() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 2);
    let d = Daemon::start(dir.path(), &dir.path().join("db/judge.db"), &problems, 2);
    let limits: BTreeMap<String, u64> = sudojudge::problem::load_all(&problems)
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.time_limit_ms))
        .collect();
    let c = client();

    let mut ids = Vec::new();
    for (problem, file, language, _) in CASES {
        ids.push(submit(&c, &d, problem, language, &fixture(problem, file)).await);
    }
    let done = wait_done(&c, &d, &ids, Duration::from_secs(240)).await;
    for (s, (problem, file, _, expected)) in done.iter().zip(CASES) {
        check_verdict(s, problem, file, expected, &limits);
    }

    // One log line per judged submission.
    let log = d.log();
    assert_eq!(log.matches(" judged id=").count(), CASES.len(), "{log}");

    // Rejudge: results replaced, verdict unchanged, a fresh finish time.
    let (ac, wa) = (ids[3], ids[4]);
    let before = get(&c, &d, ac).await;
    for id in [ac, wa] {
        let r = c
            .post(d.url(&format!("/api/submissions/{id}/rejudge")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 202);
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["status"], "queued");
    }
    let again = wait_done(&c, &d, &[ac, wa], Duration::from_secs(60)).await;
    assert_eq!(again[0]["verdict"], "AC");
    assert_eq!(
        again[0]["tests"].as_array().unwrap().len(),
        before["tests"].as_array().unwrap().len()
    );
    assert_ne!(again[0]["finished_at"], before["finished_at"]);
    assert_eq!(again[1]["verdict"], "WA");

    // The CLI client against the same daemon.
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .args(["submit", "binary-sudoku"])
        .arg(daemon::root().join("tests/fixtures/binary-sudoku/ac.c"))
        .args(["--server", &d.base, "--wait"])
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("queued"), "{stdout}");
    assert!(
        stdout.contains("AC") && stdout.contains("score 100"),
        "{stdout}"
    );

    // `status` reads what `submit` queued, exiting like `judge`; the server may be written
    // without a scheme.
    let bare = d.base.trim_start_matches("http://").to_string();
    let status = |id: i64| {
        let bare = bare.clone();
        async move {
            tokio::process::Command::new(env!("CARGO_BIN_EXE_sudojudge"))
                .args(["status", &id.to_string(), "--server", &bare, "--json"])
                .output()
                .await
                .unwrap()
        }
    };
    for (id, code, verdict) in [(ac, 0, "AC"), (wa, 1, "WA")] {
        let out = status(id).await;
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{id}: {stderr}");
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(
            (v["id"].as_i64(), v["verdict"].as_str()),
            (Some(id), Some(verdict))
        );
    }
    // Not judged yet: exit 3 (a time-limit submission takes a second at least).
    let slow = submit(
        &c,
        &d,
        "binary-sudoku",
        "c",
        &fixture("binary-sudoku", "tle.c"),
    )
    .await;
    let out = status(slow).await;
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_ne!(v["status"], "done", "{v}");
    assert_eq!(out.status.code(), Some(3), "{v}");
    wait_done(&c, &d, &[slow], Duration::from_secs(60)).await;
    // An unknown id is an error (exit 2) quoting the server.
    let out = status(999_999).await;
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("404"), "{stderr}");
}
