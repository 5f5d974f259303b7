//! `sudojudge grade` over an assignment: two problems in one run, from an `--assignment`
//! TOML file and from `PROBLEM=DIR` pairs, into one gradebook; every file named after its
//! assignment and problem, and no run overwriting another's files.

use crate::fixtures::{config, package};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Two small binary-sudoku packages, `binary-sudoku` and `binary-twin` (the same tests), in
/// `dir/problems`; returns the config and the first package's folder.
pub fn two_problems(dir: &Path) -> (PathBuf, PathBuf) {
    let pkg = package::small_binary_sudoku(dir);
    let twin = dir.join("problems/binary-twin");
    for sub in ["data/sample", "data/secret"] {
        std::fs::create_dir_all(twin.join(sub)).unwrap();
        for entry in std::fs::read_dir(pkg.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, twin.join(sub).join(path.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(pkg.join("statement.md"), twin.join("statement.md")).unwrap();
    let toml = std::fs::read_to_string(pkg.join("problem.toml"))
        .unwrap()
        .replace("id = \"binary-sudoku\"", "id = \"binary-twin\"");
    std::fs::write(twin.join("problem.toml"), toml).unwrap();
    (config::write_config(dir, &dir.join("problems"), ""), pkg)
}

pub fn grade<S: AsRef<std::ffi::OsStr>>(config: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("grade")
        .args(args)
        .arg("--config")
        .arg(config)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Rows of a CSV file, header first.
pub fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn an_assignment_of_two_problems_makes_one_gradebook_and_overwrites_nothing_of_another_run() {
    let dir = tempfile::tempdir().unwrap();
    let (config, pkg) = two_problems(dir.path());
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    std::fs::create_dir_all(&first).unwrap();
    std::fs::create_dir_all(&second).unwrap();
    for (folder, student, right) in [
        (&first, "ann", true),
        (&first, "bob", false),
        (&second, "ann", true),
        (&second, "cy", true),
    ] {
        let source = package::python_solution(&pkg, student.len(), right);
        std::fs::write(folder.join(format!("{student}.py")), source).unwrap();
    }
    std::fs::write(
        dir.path().join("week3.toml"),
        "[[problem]]\nproblem = \"binary-sudoku\"\npath = \"first\"\n\n\
         [[problem]]\nproblem = \"binary-twin\"\npath = \"second\"\nweight = 3\n",
    )
    .unwrap();
    let toml = dir.path().join("week3.toml");
    let out_dir = dir.path().join("out");
    let book = out_dir.join("week3.csv");
    let args = |extra: &[&str]| {
        let mut a: Vec<std::ffi::OsString> = vec![
            "--assignment".into(),
            toml.clone().into(),
            "--csv".into(),
            book.clone().into(),
            "--similarity".into(),
        ];
        a.extend(extra.iter().map(std::ffi::OsString::from));
        a
    };
    let out = grade(&config, &args(&[]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = csv_rows(&book);
    assert_eq!(
        rows[0],
        ["student", "id", "binary-sudoku", "binary-twin", "total"]
    );
    assert_eq!(rows[1], ["ann", "", "100", "100", "100.0"]);
    assert_eq!(rows[2], ["bob", "", "0", "", "0.0"]);
    assert_eq!(rows[3], ["cy", "", "", "100", "75.0"], "weights 1 and 3");
    assert_eq!(rows.len(), 4, "every student once");
    let table = text(&out.stdout);
    assert!(
        table.contains("== binary-sudoku ==") && table.contains("gradebook"),
        "{table}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "week3.binary-sudoku.csv",
            "week3.binary-sudoku.csv.cache.json",
            "week3.binary-sudoku.similarity.csv",
            "week3.binary-twin.csv",
            "week3.binary-twin.csv.cache.json",
            "week3.binary-twin.similarity.csv",
            "week3.csv",
            "week3.csv.cache.json",
        ]
    );
    let details = csv_rows(&out_dir.join("week3.binary-twin.csv"));
    assert_eq!(details[1][0], "ann");
    assert_eq!(details[1][3], "AC");

    // The same assignment again: nothing judged, the same gradebook.
    let before: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(out_dir.join(n)).unwrap())
        .collect();
    let again = grade(&config, &args(&["--json"]));
    assert!(again.status.success(), "{}", text(&again.stderr));
    let json: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(json["problems"][0]["judged"], 0);
    assert_eq!(json["problems"][1]["reused"], 2);
    assert_eq!(json["gradebook"]["lines"].as_array().unwrap().len(), 3);
    assert_eq!(csv_rows(&book), rows);

    // Pairs on the command line (equal weights) into another gradebook: week3's files stay.
    let pairs = out_dir.join("pairs.csv");
    let out = grade(
        &config,
        &[
            format!("binary-sudoku={}", first.display()).as_ref(),
            format!("binary-twin={}", second.display()).as_ref(),
            "--csv".as_ref(),
            pairs.as_os_str(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        csv_rows(&pairs)[3],
        ["cy", "", "", "100", "50.0"],
        "equal weights"
    );
    for (name, bytes) in names.iter().zip(&before) {
        if !name.ends_with(".cache.json") {
            assert_eq!(&std::fs::read(out_dir.join(name)).unwrap(), bytes, "{name}");
        }
    }

    // Another problem's run with a CSV this assignment made is refused before judging, and a
    // file no grade made is never replaced.
    let details_path = out_dir.join("week3.binary-sudoku.csv");
    let refused = grade(
        &config,
        &[
            "binary-twin".as_ref(),
            second.as_os_str(),
            "--csv".as_ref(),
            details_path.as_os_str(),
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("its cache names binary-sudoku"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(std::fs::read(&details_path).unwrap(), before[0]);
    let sheet = out_dir.join("my-sheet.csv");
    std::fs::write(&sheet, "the teacher's own sheet\n").unwrap();
    let refused = grade(
        &config,
        &[
            "binary-twin".as_ref(),
            second.as_os_str(),
            "--csv".as_ref(),
            sheet.as_os_str(),
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("not made by `sudojudge grade`"));
    assert_eq!(
        std::fs::read_to_string(&sheet).unwrap(),
        "the teacher's own sheet\n"
    );
}

#[test]
fn an_assignments_report_has_its_gradebook_and_a_section_per_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (config, pkg) = two_problems(dir.path());
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    std::fs::create_dir_all(&first).unwrap();
    std::fs::create_dir_all(&second).unwrap();
    for (folder, student, right) in [(&first, "ann", true), (&second, "cy", false)] {
        let source = package::python_solution(&pkg, student.len(), right);
        std::fs::write(folder.join(format!("{student}.py")), source).unwrap();
    }
    let report = dir.path().join("out/week3.html");
    let args: Vec<std::ffi::OsString> = vec![
        format!("binary-sudoku={}", first.display()).into(),
        format!("binary-twin={}", second.display()).into(),
        "--report".into(),
        report.clone().into(),
    ];
    for _ in 0..2 {
        // The second run replaces its own report.
        let out = grade(&config, &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let html = std::fs::read_to_string(&report).unwrap();
        assert!(html.contains(r#"<h2 id="gradebook">"#), "{html}");
        for problem in ["binary-sudoku", "binary-twin"] {
            assert!(
                html.contains(&format!(r#"data-problem="{problem}""#)),
                "{problem}: {html}"
            );
        }
        assert!(html.contains("<td>ann</td>") && html.contains("<td>cy</td>"));
    }
    // A page of the teacher's at that name is kept, and nothing is judged.
    std::fs::write(&report, "<html>my notes</html>").unwrap();
    let out = grade(&config, &args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is not a report of `sudojudge grade`"));
    assert_eq!(
        std::fs::read_to_string(&report).unwrap(),
        "<html>my notes</html>"
    );
}
