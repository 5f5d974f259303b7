//! `sudojudge grade`'s gradebook counts a score as its share of the problem's full score
//! (found while closing issues 29/30): an assignment of `negsum` (maximum 15) and `groupsum`
//! (maximum 100); ada's 15 and 100 are full marks on both (total 100.0, not (15 + 100) / 2),
//! bo's -5 of 15 and 50 of 100 make (-33.3 + 50) / 2.

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
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .arg("grade")
        .args(&args)
        .arg("--csv")
        .arg(&book)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = csv_rows(&book);
    assert_eq!(rows[0], ["student", "id", "negsum", "groupsum", "total"]);
    assert_eq!(rows[1], ["ada", "", "15", "100", "100.0"]);
    assert_eq!(rows[2], ["bo", "", "-5", "50", "8.3"]);
}
