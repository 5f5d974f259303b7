//! A Kattis output validator's `teammessage.txt` reaches the people the CLI serves: `judge
//! --json` keeps it on the test it belongs to, and `grade` gives the teacher what the package
//! told each student (the CSV's `team_message` column, the HTML report's "to the student"),
//! judged with the `reorder` fixture, whose Python validator writes one on a wrong answer.

use std::process::Command;

use crate::fixtures::{config, kattis};

/// What the fixture's validator writes to `teammessage.txt` on a wrong answer.
const TEAM: &str = "not a reordering of the input";

/// Right on the sample (n = 3), one number dropped on the secret tests.
const HALF_RIGHT: &str =
    "n = int(input())\na = input().split()\nprint(*(a if n == 3 else a[1:]))\n";

const RIGHT: &str = "input()\nprint(input())\n";

#[test]
fn judge_json_and_grade_show_the_validators_word_to_the_student() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    kattis::copy_package(&problems, "reorder");
    let config = config::write_config(dir.path(), &problems, "");
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::write(class.join("ann.py"), RIGHT).unwrap();
    std::fs::write(class.join("bob.py"), HALF_RIGHT).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["judge", "reorder"])
        .arg(class.join("bob.py"))
        .arg("--json")
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    assert_eq!(report["verdict"], "WA", "{report:#}");
    let tests = report["tests"].as_array().unwrap();
    let failing: Vec<_> = tests.iter().filter(|t| t["verdict"] == "WA").collect();
    assert!(!failing.is_empty(), "{report:#}");
    for t in &failing {
        assert_eq!(t["team_message"], TEAM, "{report:#}");
    }
    for t in tests.iter().filter(|t| t["verdict"] == "AC") {
        assert!(
            t["team_message"].is_null(),
            "none on a passed test: {report:#}"
        );
    }

    let csv = dir.path().join("grades.csv");
    let html = dir.path().join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["grade", "reorder"])
        .arg(&class)
        .arg("--csv")
        .arg(&csv)
        .arg("--report")
        .arg(&html)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = header
        .iter()
        .position(|h| h == "team_message")
        .expect("a team_message column");
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    let row = |student: &str| {
        rows.iter()
            .find(|r| &r[0] == student)
            .unwrap_or_else(|| panic!("{student} missing: {rows:?}"))
            .clone()
    };
    assert_eq!(&row("ann")[3], "AC");
    assert_eq!(
        &row("ann")[column],
        "",
        "nothing said to a student who passed"
    );
    assert_eq!(&row("bob")[3], "WA");
    assert_eq!(&row("bob")[column], TEAM);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("to the student") && page.contains(TEAM),
        "the report shows it"
    );
}
