//! `sudojudge grade` for real: the built binary, the real sandbox (run as root), a small
//! binary-sudoku package in a temporary folder, and a generated class folder: accepted,
//! wrong, time-limit, compile-error and runtime-error students in all four languages, in the
//! three layouts (a file, a subfolder, an LMS export folder), and every odd case.

use crate::fixtures::{config, package};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The tests of this file share the grade's sandbox slots: one at a time.
static SLOTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A binary-sudoku package in `dir/problems`: the committed problem.toml with a 500 ms /
/// 64 MiB limit, the sample and two secret tests (all zeros: 0 flips; all ones: 9 flips).
/// Returns the config and the number of tests.
fn package(dir: &Path) -> (PathBuf, usize) {
    let pkg = package::small_binary_sudoku(dir);
    let toml = std::fs::read_to_string(pkg.join("problem.toml")).unwrap();
    let toml: String = toml
        .lines()
        .map(|l| {
            if l.starts_with("time_limit_ms") {
                "time_limit_ms = 500".to_string()
            } else if l.starts_with("memory_limit_mb") {
                "memory_limit_mb = 64".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(pkg.join("problem.toml"), toml).unwrap();
    let extra = format!("[sandbox]\nuid_base = {GRADE_UID_BASE}\n");
    (config::write_config(dir, &dir.join("problems"), &extra), 3)
}

/// The source of a `verdict` student in `language`: the judge's fixtures and the package's
/// accepted solutions where they exist, `tests/fixtures/grade/class/` for the rest.
fn fixture(verdict: &str, language: &str, ext: &str) -> PathBuf {
    let accepted = root().join("problems/binary-sudoku/submissions/accepted");
    match (verdict, language) {
        ("ac", "cpp") => root().join("tests/fixtures/grade/copies/original.cpp"),
        ("ac", "rust") => accepted.join("cell_dp.rs"),
        ("ac", "python") => accepted.join("band_parity.py"),
        ("ac" | "tle" | "ce" | "re", "c") | ("wa", "python") => root()
            .join("tests/fixtures/binary-sudoku")
            .join(format!("{verdict}.{ext}")),
        _ => root()
            .join("tests/fixtures/grade/class")
            .join(format!("{verdict}_{language}.{ext}")),
    }
}

/// The id a row names for a file of `language`'s extension: `.c` and `.cpp` are compiled as
/// the C17 and C++17 entries (`c` and `cpp` are their aliases).
fn compiled_as(language: &str) -> &str {
    match language {
        "c" => "c17",
        "cpp" => "cpp17",
        other => other,
    }
}

const LANGUAGES: [(&str, &str); 4] = [("c", "c"), ("cpp", "cpp"), ("rust", "rs"), ("python", "py")];
const VERDICTS: [&str; 5] = ["ac", "wa", "tle", "ce", "re"];

/// The class: `tests/fixtures/grade/class/<verdict>_<language>.<ext>` laid out three ways by
/// turns, plus the odd cases. Returns the expected `(verdict, language, message part)` per
/// student.
fn class(dir: &Path) -> BTreeMap<String, (&'static str, &'static str, &'static str)> {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    let mut expected = BTreeMap::new();
    let mut turn = 0;
    for (language, ext) in LANGUAGES {
        for verdict in VERDICTS {
            let student = format!("{verdict}-{language}");
            let from = fixture(verdict, language, ext);
            let to = match turn % 3 {
                0 => class.join(format!("{student}.{ext}")),
                1 => class.join(&student).join(format!("main.{ext}")),
                _ => class
                    .join(format!("{student}_{turn}042_assignsubmission_file_"))
                    .join(format!("Solution.{ext}")),
            };
            turn += 1;
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&from, &to).unwrap();
            let verdict_name = match verdict {
                "ac" => "AC",
                "wa" => "WA",
                "tle" => "TLE",
                "ce" => "CE",
                _ => "RE",
            };
            let message = match verdict {
                "ac" => "",
                "ce" => "compile error",
                "tle" => "time limit",
                _ => "sample/1",
            };
            expected.insert(student, (verdict_name, language, message));
        }
    }
    // The odd cases: each a row with verdict `-` and a plain message.
    std::fs::create_dir(class.join("empty")).unwrap();
    expected.insert("empty".into(), ("-", "", "empty"));
    std::fs::create_dir(class.join("two")).unwrap();
    std::fs::write(class.join("two/a.c"), "int main(){}").unwrap();
    std::fs::write(class.join("two/b.py"), "print(0)").unwrap();
    expected.insert("two".into(), ("-", "", "2 sources"));
    std::fs::write(class.join("kotlin.kt"), "fun main() {}").unwrap();
    expected.insert("kotlin".into(), ("-", "", "unknown language"));
    std::fs::write(class.join("binary.c"), b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
    expected.insert("binary".into(), ("-", "c", "binary file"));
    std::fs::write(class.join("huge.c"), "x".repeat(10 << 20)).unwrap();
    expected.insert("huge".into(), ("-", "c", "too large"));
    std::os::unix::fs::symlink(dir.join("nowhere.c"), class.join("dangling.c")).unwrap();
    expected.insert("dangling".into(), ("-", "c", "symbolic link"));
    std::fs::create_dir(class.join("notes")).unwrap();
    std::fs::write(class.join("notes/README.txt"), "my notes").unwrap();
    expected.insert("notes".into(), ("-", "", "unknown language"));
    expected
}

fn grade(config: &Path, args: &[&str], extra: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("grade")
        .args(args)
        .args(extra)
        .arg("--config")
        .arg(config)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .expect("the binary runs")
}

fn json_of(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The CSV parsed back: header, then student -> record.
fn read_csv(path: &Path) -> (Vec<String>, BTreeMap<String, csv::StringRecord>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r)
        })
        .collect();
    (header, rows)
}

#[test]
fn a_class_is_graded_row_by_row_and_a_rerun_judges_only_the_changed_file() {
    let _slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (config, tests) = package(dir.path());
    let expected = class(dir.path());
    let csv_path = dir.path().join("out/grades.csv");
    std::fs::create_dir_all(csv_path.parent().unwrap()).unwrap();
    let class_dir = dir.path().join("class");

    let out = grade(
        &config,
        &["binary-sudoku", "--json", "--jobs", "2", "--csv"],
        &[&csv_path, &class_dir],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = json_of(&out);
    assert_eq!(json["judged"], 20, "{}", json["summary"]);
    assert_eq!(json["reused"], 0);

    let (header, rows) = read_csv(&csv_path);
    assert_eq!(
        header,
        [
            "student",
            "file",
            "language",
            "verdict",
            "score",
            "passed",
            "total",
            "time_ms",
            "memory_kib",
            "message",
            "stderr",
            "team_message",
            "groups"
        ]
    );
    assert_eq!(
        rows.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "one row per student, sorted by student"
    );
    for (student, (verdict, language, message)) in &expected {
        let row = &rows[student];
        assert_eq!(&row[3], *verdict, "{student}: {row:?}");
        assert_eq!(&row[2], compiled_as(language), "{student}: {row:?}");
        assert!(row[9].contains(message), "{student}: {row:?}");
        assert!(
            Path::new(&row[1]).starts_with(&class_dir),
            "{student}: {row:?}"
        );
        let (score, passed, total): (u32, usize, usize) = (
            row[4].parse().unwrap(),
            row[5].parse().unwrap(),
            row[6].parse().unwrap(),
        );
        match *verdict {
            "AC" => assert_eq!((score, passed, total), (100, tests, tests), "{student}"),
            "-" => assert_eq!((score, passed, total), (0, 0, 0), "{student}"),
            "CE" => assert_eq!((score, passed, total), (0, 0, tests), "{student}"),
            _ => {
                assert!(
                    score < 100 && passed < total && total == tests,
                    "{student}: {row:?}"
                );
                assert!(
                    row[9].starts_with("sample/1:") || row[9].contains("secret/"),
                    "{student}: {row:?}"
                );
            }
        }
    }
    // A run-time error's stderr tail: the exception, the panic, the C++ runtime's report.
    for (student, says) in [
        ("re-python", "IndexError: list index out of range"),
        (
            "re-rust",
            "index out of bounds: the len is 0 but the index is 3",
        ),
        ("re-cpp", "what():  boom"),
    ] {
        assert!(
            rows[student][10].contains(says),
            "{student}: {:?}",
            rows[student]
        );
    }
    assert_eq!(&rows["wa-c"][10], "", "only a run-time error's");
    // The JSON has the per-test results; the summary counts the verdicts.
    let ac = json["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["student"] == "ac-c")
        .unwrap();
    assert_eq!(ac["report"]["tests"].as_array().unwrap().len(), tests);
    let counts: BTreeMap<String, u64> = json["summary"]["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v[0].as_str().unwrap().to_string(), v[1].as_u64().unwrap()))
        .collect();
    for v in ["AC", "WA", "TLE", "CE", "RE"] {
        assert_eq!(counts[v], 4, "{counts:?}");
    }
    assert_eq!(counts["-"], 7);

    // A late fix: only that student is judged again.
    let late = PathBuf::from(&rows["wa-python"][1]);
    assert!(late.exists());
    std::fs::copy(fixture("ac", "python", "py"), &late).unwrap();
    let out = grade(
        &config,
        &["binary-sudoku", "--csv"],
        &[&csv_path, &class_dir],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 to judge"), "{stderr}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("wa-python") && table.contains("(unchanged)"),
        "{table}"
    );
    // `passed` is tests passed of the problem's (verify's `tests run` is another column).
    let header = table.lines().next().unwrap_or("");
    assert!(
        header.contains(" passed ") && !header.contains("tests"),
        "{header}"
    );
    let (_, again) = read_csv(&csv_path);
    assert_eq!(&again["wa-python"][3], "AC");
    for (student, row) in &again {
        if student != "wa-python" {
            assert_eq!(row, &rows[student], "{student} unchanged");
        }
    }
}

#[test]
fn similarity_flags_the_copies_writes_its_csv_and_ctrl_c_stops_cleanly() {
    let _slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = package(dir.path());
    let copies = root().join("tests/fixtures/grade/copies");
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    for (student, file) in [
        ("ann", "original.cpp"),
        ("bob", "renamed.cpp"),
        ("cat", "reordered.cpp"),
    ] {
        std::fs::copy(copies.join(file), class.join(format!("{student}.cpp"))).unwrap();
    }
    std::fs::copy(fixture("ac", "c", "c"), class.join("dan.c")).unwrap();
    let last_year = dir.path().join("2025");
    std::fs::create_dir_all(last_year.join("eve")).unwrap();
    std::fs::copy(copies.join("padded.cpp"), last_year.join("eve/main.cpp")).unwrap();
    let csv_path = dir.path().join("grades.csv");
    let out = grade(
        &config,
        &["binary-sudoku", "--similarity", "--json", "--csv"],
        &[&csv_path, &class, Path::new("--against"), &last_year],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = json_of(&out);
    let pairs = json["similarity"].as_array().unwrap();
    let names: Vec<(String, String)> = pairs
        .iter()
        .map(|p| {
            (
                p["student_a"].as_str().unwrap().into(),
                p["student_b"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(pairs.len(), 6, "{names:?}");
    assert!(
        names.contains(&("ann".into(), "2025/eve".into())),
        "{names:?}"
    );
    let mut reader = csv::Reader::from_path(dir.path().join("grades.similarity.csv")).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "student_a",
            "student_b",
            "similarity",
            "lines_a",
            "lines_b",
            "language",
            "flag"
        ]
    );
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 6);
    for r in &records {
        let pct: f64 = r[2].parse().unwrap();
        assert!((50.0..=100.0).contains(&pct), "{r:?}");
        assert!(r[3].chars().next().unwrap().is_ascii_digit(), "{r:?}");
    }

    // Unchanged files are not judged again, unless --force.
    let args = ["binary-sudoku", "--json", "--csv"];
    let again = json_of(&grade(&config, &args, &[&csv_path, &class]));
    assert_eq!((&again["judged"], &again["reused"]), (&0.into(), &4.into()));
    let forced = grade(
        &config,
        &["binary-sudoku", "--force", "--json", "--csv"],
        &[&csv_path, &class],
    );
    let forced = json_of(&forced);
    assert_eq!(
        (&forced["judged"], &forced["reused"]),
        (&4.into(), &0.into())
    );

    // Ctrl-C: four students who each spin to the time limit on every test; a SIGINT after
    // the first is graded stops the run, prints what was graded, exits 130, and leaves no
    // process of the grade's sandbox slots behind.
    let slow = dir.path().join("slow");
    std::fs::create_dir_all(&slow).unwrap();
    for s in ["s1", "s2", "s3", "s4"] {
        std::fs::copy(fixture("tle", "c", "c"), slow.join(format!("{s}.c"))).unwrap();
    }
    let child = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .args(["grade", "binary-sudoku", "--jobs", "1"])
        .arg(&slow)
        .arg("--config")
        .arg(&config)
        .env_remove("SUDOJUDGE_CONFIG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    std::thread::sleep(std::time::Duration::from_millis(2500));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(started.elapsed().as_secs() < 10, "stops within one run");
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("not graded: the run was interrupted"),
        "{table}"
    );
    assert!(table.contains("4 students"), "{table}");
    let leftovers = slot_processes();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}

/// The sandbox uids of these tests start here, apart from every other process's (slots are
/// leased per process from `uid_base` up), so a process left under them is grade's: the
/// block just above the default `uid_base` (1879048192) and the 64 blocks of named nodes.
const GRADE_UID_BASE: u32 = 1_879_048_192 + 65 * 1000;

/// Processes running as the grade tests' sandbox uids.
fn slot_processes() -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let uid = status
            .lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|u| u.parse::<u32>().ok());
        if uid.is_some_and(|u| (GRADE_UID_BASE..GRADE_UID_BASE + 1000).contains(&u)) {
            found.push(status.lines().next().unwrap_or("").to_string());
        }
    }
    found
}

#[test]
fn usage_errors_stop_before_any_judging() {
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = package(dir.path());
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::write(class.join("a.c"), "int main(void) { return 0; }").unwrap();
    let class = class.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["chess", class], "chess"),
        (
            &["binary-sudoku", class, "--against", "/nonexistent/2025"],
            "--against",
        ),
        (
            &["binary-sudoku", class, "--base", "/nonexistent/template.c"],
            "--base",
        ),
        (
            &["binary-sudoku", "/nonexistent/class"],
            "/nonexistent/class",
        ),
    ];
    for (args, named) in cases {
        let out = grade(&config, args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(!stderr.contains("grading"), "nothing judged: {stderr}");
    }
}
