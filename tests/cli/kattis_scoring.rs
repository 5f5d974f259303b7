//! `sudojudge verify` on scoring packages (issue 29, point 2): the repository's own
//! `groupsum` (three groups worth 20, 30 and 50, each all-or-nothing) with its accepted,
//! partially accepted and wrong submissions judged in the real sandbox and their scores
//! checked against the folders; an accepted solution short of the maximum fails; a custom
//! validator's `score.txt` is the test's score.

use std::path::Path;
use std::process::Command;

use crate::fixtures::{config, kattis};
use crate::kattis_verify::{assert_scores, solution, verify, verify_ok};

#[test]
fn the_scoring_package_verifies_with_each_folders_score() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _, json) = verify_ok(dir.path(), "groupsum");
    assert_scores(
        &json,
        &[
            ("accepted/sum.py", "AC", 100.0),
            ("accepted/sum.c", "AC", 100.0),
            // Groups 1 and 2 (20 + 30); AC, as secret accepts when any group does.
            ("partially_accepted/int32.py", "AC", 50.0),
            ("wrong_answer/absolute.py", "WA", 0.0),
        ],
    );
    // Group 3 stops at its first rejected test (on_reject: break): 1 sample + 3 + 2 + 1.
    let partial = solution(&json, "partially_accepted/int32.py");
    assert_eq!(partial["tests_run"], 7, "{partial:#}");
    assert_eq!(partial["tests_total"], 8, "{partial:#}");
}

#[test]
fn an_accepted_solution_short_of_the_maximum_fails_verify() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::copy_package(&problems, "groupsum");
    std::fs::remove_dir_all(package.join("submissions/wrong_answer")).unwrap();
    std::fs::rename(
        package.join("submissions/partially_accepted/int32.py"),
        package.join("submissions/accepted/int32.py"),
    )
    .unwrap();
    std::fs::rename(
        package.join("submissions/accepted/sum.py"),
        package.join("submissions/partially_accepted/sum.py"),
    )
    .unwrap();
    let config = config::write_config(dir.path(), &problems, "");
    let (out, json) = verify(&config, &[&package]);
    assert!(!out.status.success(), "{json:#}");
    let failures = |name: &str| solution(&json, name)["failures"].to_string();
    assert!(
        failures("accepted/int32.py").contains("accepted, but scores 50 of 100"),
        "{json:#}"
    );
    assert!(
        failures("partially_accepted/sum.py").contains("scores the maximum 100"),
        "{json:#}"
    );
}

/// A 2023-07-draft scoring package whose Python validator gives each test the number the
/// submission printed as its score (`score.txt`) and rejects a negative one; two secret
/// tests summed, the samples ignored, the score in 0-100.
fn score_file_package(problems: &Path) -> std::path::PathBuf {
    let validator = "import sys\n\
        feedback = sys.argv[3]\n\
        v = int(sys.stdin.read().split()[0])\n\
        if v < 0:\n    sys.exit(43)\n\
        open(feedback + '/score.txt', 'w').write(str(v))\n\
        sys.exit(42)\n";
    kattis::write_package(
        problems,
        "scorefile",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: Score File\nuuid: s\n\
                 type: scoring\nlimits:\n  time_limit: 1\n  validation_time: 10\n",
            ),
            ("statement/problem.en.md", "Print a number.\n"),
            (
                "data/testdata.yaml",
                "range: 0 100\non_reject: continue\ngrader_flags: ignore_sample\n",
            ),
            ("data/sample/1.in", "1\n"),
            ("data/sample/1.ans", "1\n"),
            ("data/secret/1.in", "1\n"),
            ("data/secret/1.ans", "1\n"),
            ("data/secret/2.in", "2\n"),
            ("data/secret/2.ans", "2\n"),
            ("output_validator/validate.py", validator),
            ("submissions/accepted/fifty.py", "print(50)\n"),
            ("submissions/partially_accepted/thirty.py", "print(30)\n"),
            ("submissions/partially_accepted/seventy.py", "print(70)\n"),
            ("submissions/wrong_answer/negative.py", "print(-1)\n"),
        ],
    )
}

#[test]
fn a_validators_score_file_is_the_tests_score_and_its_range_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = score_file_package(&problems);
    let config = config::write_config(dir.path(), &problems, "");
    let (out, json) = verify(&config, &[&package]);
    assert!(!out.status.success(), "{json:#}");
    for (name, verdict, score, ok) in [
        ("accepted/fifty.py", "AC", 100.0, true),
        ("partially_accepted/thirty.py", "AC", 60.0, true),
        // 70 + 70 is past the top of data/'s range.
        ("partially_accepted/seventy.py", "AC", 140.0, false),
        ("wrong_answer/negative.py", "WA", 0.0, true),
    ] {
        let s = solution(&json, name);
        assert_eq!(s["got"], verdict, "{name}: {s:#}");
        assert_eq!(s["score"].as_f64(), Some(score), "{name}: {s:#}");
        assert_eq!(s["ok"], ok, "{name}: {s:#}");
    }
    let seventy = solution(&json, "partially_accepted/seventy.py");
    assert!(
        seventy["failures"]
            .to_string()
            .contains("scores 140 on group data, outside its range [0, 100]"),
        "{seventy:#}"
    );
}

#[test]
fn grade_reports_partial_scores_and_groups_in_the_table_csv_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::copy_package(&problems, "groupsum");
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    for (student, file) in [
        ("ada", "accepted/sum.py"),
        ("bo", "partially_accepted/int32.py"),
        ("cy", "wrong_answer/absolute.py"),
    ] {
        std::fs::copy(
            package.join("submissions").join(file),
            class.join(format!("{student}.py")),
        )
        .unwrap();
    }
    let config = config::write_config(dir.path(), &problems, "");
    let csv_path = dir.path().join("grades.csv");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sudojudge"))
            .arg("--config")
            .arg(&config)
            .args(["grade", "groupsum"])
            .arg(&class)
            .args(extra)
            .env_remove("SUDOJUDGE_CONFIG")
            .output()
            .expect("the binary runs")
    };
    let out = run(&["--csv", csv_path.to_str().unwrap()]);
    let table = String::from_utf8_lossy(&out.stdout).to_string();
    let line = |student: &str| {
        table
            .lines()
            .find(|l| l.starts_with(student))
            .unwrap_or_else(|| panic!("no {student} in {table}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(line("bo").contains("AC 50"), "{table}");
    assert!(
        line("bo").contains("[group1 20/20 group2 30/30 group3 0/50]"),
        "{table}"
    );
    assert!(line("ada").contains("AC 100"), "{table}");
    assert!(line("cy").contains("WA 0"), "{table}");
    let mut csv = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    let (score, groups) = (
        header.iter().position(|h| h == "score").unwrap(),
        header.iter().position(|h| h == "groups").unwrap(),
    );
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    let bo = rows.iter().find(|r| &r[0] == "bo").unwrap();
    assert_eq!(&bo[score], "50");
    assert_eq!(&bo[groups], "group1 20/20 group2 30/30 group3 0/50");
    let out = run(&["--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    let bo = json["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["student"] == "bo")
        .unwrap();
    assert_eq!(bo["score"], 50, "{bo:#}");
    assert_eq!(bo["report"]["points"].as_f64(), Some(50.0), "{bo:#}");
    let g3 = bo["report"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "secret/group3")
        .unwrap();
    assert_eq!(
        (g3["verdict"].as_str(), g3["score"].as_f64()),
        (Some("WA"), Some(0.0))
    );
}

#[test]
fn an_interactive_validators_score_file_is_the_tests_score() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    // Tells the submission the test's number k, reads its reply: the test's score.
    let validator = "import sys\n\
        feedback = sys.argv[3]\n\
        k = open(sys.argv[1]).read().split()[0]\n\
        print(k, flush=True)\n\
        v = int(sys.stdin.readline().split()[0])\n\
        if v < 0:\n    sys.exit(43)\n\
        open(feedback + '/score.txt', 'w').write(str(v))\n\
        sys.exit(42)\n";
    let package = kattis::write_package(
        &problems,
        "talkscore",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: Talk Score\nuuid: t\n\
                 type: [scoring, interactive]\nlimits:\n  time_limit: 1\n  validation_time: 10\n",
            ),
            ("statement/problem.en.md", "Answer.\n"),
            (
                "data/testdata.yaml",
                "range: 0 100\non_reject: continue\ngrader_flags: ignore_sample\n",
            ),
            ("data/sample/1.in", "1\n"),
            ("data/sample/1.ans", "1\n"),
            ("data/secret/1.in", "1\n"),
            ("data/secret/1.ans", "1\n"),
            ("data/secret/2.in", "2\n"),
            ("data/secret/2.ans", "2\n"),
            ("output_validator/validate.py", validator),
            ("submissions/accepted/fifty.py", "input()\nprint(50)\n"),
            (
                "submissions/partially_accepted/tenfold.py",
                "print(int(input()) * 10)\n",
            ),
            (
                "submissions/wrong_answer/negative.py",
                "input()\nprint(-1)\n",
            ),
        ],
    );
    let config = config::write_config(dir.path(), &problems, "");
    let (out, json) = verify(&config, &[&package]);
    assert!(out.status.success(), "{json:#}");
    for (name, verdict, score) in [
        ("accepted/fifty.py", "AC", 100.0),
        ("partially_accepted/tenfold.py", "AC", 30.0),
        ("wrong_answer/negative.py", "WA", 0.0),
    ] {
        let s = solution(&json, name);
        assert_eq!(s["got"], verdict, "{name}: {s:#}");
        assert_eq!(s["score"].as_f64(), Some(score), "{name}: {s:#}");
    }
}
