//! `sudojudge grade` on LMS exports as downloaded: a two-problem assignment from Moodle zips
//! and from Canvas zips into one gradebook in each LMS's import layout, a `.c` copy renamed
//! `.cpp` and a partial copy standing out of its class flagged, and hostile zips (`../`, a
//! link, a zip bomb) refused, leaving nothing outside the output folder.

use crate::fixtures::package;
use crate::grade_assignment::{csv_rows, grade, text, two_problems};

use std::io::Write;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(root().join(rel)).unwrap()
}

/// A zip at `path` with `files` (name, bytes); a name ending in `/` is a folder.
fn zip(path: &Path, files: &[(String, Vec<u8>)]) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in files {
        if name.ends_with('/') {
            w.add_directory(name.as_str(), options).unwrap();
        } else {
            w.start_file(name.as_str(), options).unwrap();
            w.write_all(bytes).unwrap();
        }
    }
    w.finish().unwrap();
}

/// Every path under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn moodle_and_canvas_zips_make_one_gradebook_each_and_flag_the_copies() {
    let dir = tempfile::tempdir().unwrap();
    let (config, pkg) = two_problems(dir.path());
    let solution = |right: bool| package::python_solution(&pkg, 1, right).into_bytes();
    let accepted = "problems/binary-sudoku/submissions/accepted";
    let moodle =
        |name: &str, id: u32, file: &str| format!("{name}_{id}_assignsubmission_file_/{file}");
    // Problem 1 from Moodle: folders, a flat file, an online text, `.C`, a renamed copy and
    // a partial one.
    let first = dir.path().join("binary-sudoku-moodle.zip");
    zip(
        &first,
        &[
            (
                moodle("Kim Lee", 4411, "row_dp.c"),
                read(&format!("{accepted}/row_dp.c")),
            ),
            (
                "Kim Lee_4411_assignsubmission_onlinetext_/onlinetext.html".into(),
                b"<p>see my file</p>".to_vec(),
            ),
            (
                moodle("Ana Ruiz", 4412, "partial.cpp"),
                read("tests/fixtures/grade/partial/partial.cpp"),
            ),
            (
                "Bo Chen_4413_assignsubmission_file_Main.C".into(),
                read("problems/binary-sudoku/submissions/wrong_answer/greedy_flips.cpp"),
            ),
            (
                moodle("Dev Patel", 4414, "cell_dp.rs"),
                read(&format!("{accepted}/cell_dp.rs")),
            ),
            (
                moodle("Alice Wong", 4417, "sol.c"),
                read("tests/fixtures/binary-sudoku/ac.c"),
            ),
            (
                moodle("Mallory Fox", 4416, "mine.cpp"),
                read("tests/fixtures/binary-sudoku/ac.c"),
            ),
            (
                moodle("Eve Stone", 4415, "odd.c"),
                read("problems/binary-sudoku/submissions/wrong_answer/max_odd_units.c"),
            ),
        ],
    );
    let second = dir.path().join("binary-twin-moodle.zip");
    zip(
        &second,
        &[
            (moodle("Kim Lee", 4411, "twin.py"), solution(true)),
            (moodle("Ana Ruiz", 4412, "twin.py"), solution(false)),
        ],
    );
    std::fs::write(
        dir.path().join("week3.toml"),
        "[[problem]]\nproblem = \"binary-sudoku\"\npath = \"binary-sudoku-moodle.zip\"\n\n\
         [[problem]]\nproblem = \"binary-twin\"\npath = \"binary-twin-moodle.zip\"\nweight = 3\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let book = out.join("week3.csv");
    let run = grade(
        &config,
        &[
            "--assignment".as_ref(),
            dir.path().join("week3.toml").as_os_str(),
            "--csv".as_ref(),
            book.as_os_str(),
            "--lms".as_ref(),
            "moodle".as_ref(),
            "--similarity".as_ref(),
            "--json".as_ref(),
        ],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let rows = csv_rows(&book);
    assert_eq!(
        rows[0],
        ["Identifier", "Full name", "Grade", "Maximum Grade"]
    );
    let find = |name: &str| {
        rows.iter()
            .find(|r| r[1] == name)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        rows.len(),
        8,
        "every student once, the online text no row: {rows:?}"
    );
    assert_eq!(
        find("Kim Lee"),
        ["Participant 4411", "Kim Lee", "100.00", "100.00"]
    );
    let ana = find("Ana Ruiz");
    assert_eq!(ana[0], "Participant 4412");
    assert_eq!(
        find("Alice Wong")[2],
        "25.00",
        "weights 1 and 3: only the first problem"
    );
    let students = json["problems"][0]["students"].as_array().unwrap();
    let bo = students.iter().find(|s| s["student"] == "Bo Chen").unwrap();
    assert_eq!(
        bo["language"], "cpp17",
        "`.C` is C++ (C++17, what `cpp` names)"
    );
    // The renamed copy (c/cpp) and the partial copy standing out of its class.
    let pairs = json["problems"][0]["similarity"].as_array().unwrap();
    let names: Vec<(String, String, String)> = pairs
        .iter()
        .map(|p| {
            (
                p["student_a"].as_str().unwrap().into(),
                p["student_b"].as_str().unwrap().into(),
                p["flag"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        names.contains(&(
            "Alice Wong".into(),
            "Mallory Fox".into(),
            "threshold".into()
        )),
        "{names:?}"
    );
    assert!(
        names.contains(&("Ana Ruiz".into(), "Kim Lee".into(), "class".into())),
        "{names:?}"
    );
    let partial = pairs.iter().find(|p| p["student_a"] == "Ana Ruiz").unwrap();
    assert!(partial["similarity"].as_f64().unwrap() < 50.0, "{partial}");
    assert_eq!(names.len(), 2, "no independent pair: {names:?}");

    // The same assignment from Canvas: flat names, a late one, the Canvas layout.
    let first = dir.path().join("bs-canvas.zip");
    zip(
        &first,
        &[
            ("kimlee_4411_889123_bsudoku.py".into(), solution(true)),
            (
                "anaruiz_LATE_4412_889124_bsudoku-1.py".into(),
                solution(false),
            ),
        ],
    );
    let second = dir.path().join("twin-canvas.zip");
    zip(
        &second,
        &[("kimlee_4411_889200_twin.py".into(), solution(true))],
    );
    let canvas_book = out.join("week3-canvas.csv");
    let run = grade(
        &config,
        &[
            format!("binary-sudoku={}", first.display()).as_ref(),
            format!("binary-twin={}", second.display()).as_ref(),
            "--csv".as_ref(),
            canvas_book.as_os_str(),
            "--lms".as_ref(),
            "canvas".as_ref(),
        ],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let rows = csv_rows(&canvas_book);
    assert_eq!(
        rows[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            "week3-canvas"
        ]
    );
    assert_eq!(rows[1][0].trim(), "Points Possible");
    assert_eq!(rows[2], ["anaruiz", "4412", "", "", "", "0.00"]);
    assert_eq!(rows[3], ["kimlee", "4411", "", "", "", "100.00"]);
    assert_eq!(rows.len(), 4);
}

#[test]
fn hostile_zips_are_refused_leaving_nothing_outside_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = two_problems(dir.path());
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let up = work.join("up.zip");
    zip(
        &up,
        &[
            ("ok_1_2_a.c".into(), b"int main(){}".to_vec()),
            ("../../escaped.c".into(), b"x".to_vec()),
        ],
    );
    let link = work.join("link.zip");
    {
        let mut w = zip::ZipWriter::new(std::fs::File::create(&link).unwrap());
        w.add_symlink(
            "alice.c",
            "/etc/shadow",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        w.finish().unwrap();
    }
    let bomb = work.join("bomb.zip");
    {
        let mut w = zip::ZipWriter::new(std::fs::File::create(&bomb).unwrap());
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .large_file(true);
        w.start_file("bomb.c", options).unwrap();
        let block = vec![b' '; 1 << 20];
        for _ in 0..512 {
            w.write_all(&block).unwrap();
        }
        w.finish().unwrap();
    }
    assert!(
        std::fs::metadata(&bomb).unwrap().len() < 2 << 20,
        "512 MiB in under 2 MiB"
    );
    let out = work.join("out");
    let before = tree(dir.path());
    for (zip, needle) in [(&up, "`..`"), (&link, "symbolic link"), (&bomb, "zip bomb")] {
        let csv = out.join("grades.csv");
        let run = grade(
            &config,
            &[
                "binary-sudoku".as_ref(),
                zip.as_os_str(),
                "--csv".as_ref(),
                csv.as_os_str(),
            ],
        );
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(err.contains(needle) && err.contains("refusing"), "{err}");
        // The output folder may exist (made before judging); nothing else changed.
        let mut after = tree(dir.path());
        after.retain(|p| p != "work/out");
        assert_eq!(after, before, "{}: nothing left behind", zip.display());
        assert!(!dir.path().join("escaped.c").exists() && !work.join("escaped.c").exists());
    }
}

#[test]
fn one_problem_with_lms_gets_that_lms_gradebook_beside_its_grades() {
    let dir = tempfile::tempdir().unwrap();
    let (config, pkg) = two_problems(dir.path());
    let solution = |right: bool| package::python_solution(&pkg, 1, right).into_bytes();
    let export = dir.path().join("bs-canvas.zip");
    zip(
        &export,
        &[
            ("kimlee_4411_889123_bsudoku.py".into(), solution(true)),
            ("anaruiz_4412_889124_bsudoku.py".into(), solution(false)),
        ],
    );
    let csv = dir.path().join("out/grades.csv");
    let args = [
        "binary-sudoku".as_ref(),
        export.as_os_str(),
        "--csv".as_ref(),
        csv.as_os_str(),
        "--lms".as_ref(),
        "canvas".as_ref(),
    ];
    for _ in 0..2 {
        // The second run is a re-run: it replaces its own gradebook.
        let run = grade(&config, &args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let rows = csv_rows(&dir.path().join("out/grades.canvas.csv"));
        assert_eq!(
            rows[0],
            [
                "Student",
                "ID",
                "SIS User ID",
                "SIS Login ID",
                "Section",
                "grades"
            ]
        );
        assert_eq!(rows[2], ["anaruiz", "4412", "", "", "", "0.00"]);
        assert_eq!(rows[3], ["kimlee", "4411", "", "", "", "100.00"]);
        assert_eq!(rows.len(), 4);
        // The grades keep their own layout.
        assert_eq!(csv_rows(&csv)[0][0], "student");
    }
    // A sheet of the teacher's at that name is never replaced.
    let moodle = dir.path().join("out/grades.moodle.csv");
    std::fs::write(&moodle, "the teacher's own\n").unwrap();
    let mut args = args.to_vec();
    args[5] = "moodle".as_ref();
    let run = grade(&config, &args);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("not made by `sudojudge grade`"));
    assert_eq!(
        std::fs::read_to_string(&moodle).unwrap(),
        "the teacher's own\n"
    );
}
