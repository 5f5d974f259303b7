//! `sudojudge grade`'s gradebook counts a score as its share of the problem's full score
//! (found while closing issues 29/30): an assignment of `negsum` (maximum 15) and `groupsum`
//! (maximum 100); ada's 15 and 100 are full marks on both (total 100.0, not (15 + 100) / 2),
//! bo's -5 of 15 and 50 of 100 make (-33.3 + 50) / 2. The HTML report's score bars are
//! tenths of the same share (found while closing issue 37's brief): ada's 15 of 15 is in the
//! `100%` bar, not in the `10-19` one of a raw score.

use std::process::Command;

use crate::fixtures::{config, kattis};
use crate::grade_assignment::{csv_rows, text};

#[test]
fn a_gradebook_counts_each_score_against_its_problems_full_score() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let mut args: Vec<String> = Vec::new();
    for (package, files) in [
        (
            "negsum",
            [
                ("ada", "accepted/sum.py"),
                ("bo", "wrong_answer/absolute.py"),
            ],
        ),
        (
            "groupsum",
            [
                ("ada", "accepted/sum.py"),
                ("bo", "partially_accepted/int32.py"),
            ],
        ),
    ] {
        let root = kattis::copy_package(&problems, package);
        let class = dir.path().join(format!("class-{package}"));
        std::fs::create_dir_all(&class).unwrap();
        for (student, file) in files {
            let to = class.join(format!("{student}.py"));
            std::fs::copy(root.join("submissions").join(file), to).unwrap();
        }
        args.push(format!("{package}={}", class.display()));
    }
    let config = config::write_config(dir.path(), &problems, "");
    let book = dir.path().join("out/book.csv");
    let report = dir.path().join("out/report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .arg("grade")
        .args(&args)
        .arg("--csv")
        .arg(&book)
        .arg("--report")
        .arg(&report)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = csv_rows(&book);
    assert_eq!(rows[0], ["student", "id", "negsum", "groupsum", "total"]);
    assert_eq!(rows[1], ["ada", "", "15", "100", "100.0"]);
    assert_eq!(rows[2], ["bo", "", "-5", "50", "8.3"]);

    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("Scores, as a share of the full score (15 points)"),
        "the bars say what they count"
    );
    let bars = score_bars(&html, "negsum");
    assert_eq!(bars.len(), 11, "{bars:?}");
    assert_eq!(
        bars[10],
        ("100% (15 pts)".into(), 1),
        "ada's 15/15: {bars:?}"
    );
    assert_eq!(bars[1], ("10-19% (2 pts)".into(), 0), "{bars:?}");
    assert_eq!(bars[0], ("0-9% (0-1 pts)".into(), 1), "bo's -5: {bars:?}");
    let bars = score_bars(&html, "groupsum");
    assert_eq!(bars[10], ("100%".into(), 1), "ada's 100/100: {bars:?}");
    assert_eq!(bars[5], ("50-59%".into(), 1), "bo's 50: {bars:?}");
}

/// The score bars of `problem`'s section of the report: (label, count) from top to bottom.
fn score_bars(html: &str, problem: &str) -> Vec<(String, usize)> {
    let section = html
        .split("<section class=\"problem\"")
        .find(|s| s.contains(&format!("data-problem=\"{problem}\"")))
        .unwrap_or_else(|| panic!("no section of {problem}"));
    let bars = section
        .split("<div class=\"bars score-histogram\">")
        .nth(1)
        .and_then(|s| s.split("</div>\n").next())
        .expect("the score histogram");
    // Each bar: <span>LABEL</span><div>...</div><span class="num">COUNT</span>.
    bars.split("<span>")
        .skip(1)
        .map(|bar| {
            let label = bar.split("</span>").next().unwrap().to_string();
            let count = bar
                .split("<span class=\"num\">")
                .nth(1)
                .and_then(|c| c.split("</span>").next())
                .and_then(|c| c.parse().ok())
                .unwrap_or_else(|| panic!("a count in {bar}"));
            (label, count)
        })
        .collect()
}
