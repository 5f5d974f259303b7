//! The similarity report on real sources: a solution and its disguised copies (renamed
//! identifiers, reordered functions, other comments and spacing, an extra dead function) are
//! flagged; independently written solutions (every reference solution of the packages, and
//! the test fixtures) are not.

use std::path::{Path, PathBuf};

use sudojudge::grade::similarity::{analyse, compare, Flag, Settings, SourceFile};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn language(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "c" => Some("c"),
        "cpp" => Some("cpp"),
        "rs" => Some("rust"),
        "py" => Some("python"),
        _ => None,
    }
}

fn source(student: String, path: &Path) -> SourceFile {
    SourceFile {
        student,
        file: path.display().to_string(),
        language: language(path).unwrap().to_string(),
        text: std::fs::read_to_string(path).unwrap(),
        against: false,
    }
}

fn copies() -> Vec<SourceFile> {
    let dir = root().join("tests/fixtures/grade/copies");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            source(
                format!("copies/{}", p.file_name().unwrap().to_string_lossy()),
                p,
            )
        })
        .collect()
}

/// The accepted reference solutions of every package and the judge fixtures' accepted
/// sources: written one by one, each its own approach. (The packages' wrong-answer solutions
/// are not in the list: several are the accepted one with a bug put in, and are flagged as
/// the copies they are. A package's symlink to another's solution is the same file, not a
/// second solution, and is left out.) One pair is derived, not independent: see
/// [`DERIVED`].
fn independent() -> Vec<SourceFile> {
    let mut out = Vec::new();
    for problem in std::fs::read_dir(root().join("problems")).unwrap() {
        let accepted = problem.unwrap().path().join("submissions/accepted");
        for entry in std::fs::read_dir(&accepted).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.is_symlink() {
                continue;
            }
            if language(&path).is_some() {
                let name = path.strip_prefix(root()).unwrap().display().to_string();
                out.push(source(name, &path));
            }
        }
    }
    for problem in ["sudoku", "target-sudoku", "binary-sudoku"] {
        let path = root().join("tests/fixtures").join(problem).join("ac.c");
        out.push(source(format!("fixtures/{problem}/ac.c"), &path));
    }
    out.sort_by(|a, b| a.student.cmp(&b.student));
    out
}

/// target-sudoku's textbook solution was written by adapting sudoku's (the same search with
/// a score on top), as a student who reuses last week's homework would: it must be flagged.
const DERIVED: (&str, &str) = (
    "problems/sudoku/submissions/accepted/textbook.cpp",
    "problems/target-sudoku/submissions/accepted/textbook.cpp",
);

fn names(pairs: &[sudojudge::grade::similarity::Pair]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|p| (p.student_a.clone(), p.student_b.clone()))
        .collect()
}

#[test]
fn disguised_copies_are_flagged_and_independent_solutions_are_not() {
    let mut files = copies();
    let independent = independent();
    assert!(independent.len() >= 6, "the packages' accepted solutions");
    files.extend(independent);
    let all = compare(&files, &[], &Settings::default());
    // This set mixes problems, so it is no class: only the fixed threshold is asserted here
    // (the class's distribution is `a_partial_copy_stands_out_of_its_class_under_the_threshold`).
    let pairs: Vec<_> = all
        .into_iter()
        .filter(|p| p.flag == Flag::Threshold)
        .collect();
    let expected: Vec<(String, String)> = [
        ("copies/original.cpp", "copies/padded.cpp"),
        ("copies/original.cpp", "copies/renamed.cpp"),
        ("copies/original.cpp", "copies/reordered.cpp"),
        ("copies/padded.cpp", "copies/renamed.cpp"),
        ("copies/padded.cpp", "copies/reordered.cpp"),
        ("copies/renamed.cpp", "copies/reordered.cpp"),
        ("copies/disguised.py", "copies/original.py"),
        DERIVED,
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let mut found = names(&pairs);
    found.sort();
    let mut want = expected.clone();
    want.sort();
    assert_eq!(found, want, "{pairs:#?}");
    for p in &pairs {
        let derived = (p.student_a.as_str(), p.student_b.as_str()) == DERIVED;
        assert!(derived || p.similarity >= 85.0, "{p:?}");
        assert!(!p.lines_a.is_empty() && !p.lines_b.is_empty());
    }
    assert!(
        pairs.windows(2).all(|w| w[0].similarity >= w[1].similarity),
        "most similar first"
    );
    // The padded copy matches the whole original; its dead function matches nothing.
    let padded = pairs
        .iter()
        .find(|p| p.student_a == "copies/original.cpp" && p.student_b == "copies/padded.cpp")
        .unwrap();
    let dead = 10..=19; // describe() in padded.cpp
    assert!(
        padded
            .lines_b
            .iter()
            .all(|&(a, b)| !(dead.contains(&a) && dead.contains(&b))),
        "{:?}",
        padded.lines_b
    );
    assert!(padded.share_b < padded.share_a);
}

#[test]
fn handed_out_code_never_counts() {
    let files: Vec<SourceFile> = copies()
        .into_iter()
        .filter(|f| f.student == "copies/renamed.cpp" || f.student == "copies/padded.cpp")
        .collect();
    let base =
        std::fs::read_to_string(root().join("tests/fixtures/grade/copies/original.cpp")).unwrap();
    assert_eq!(compare(&files, &[], &Settings::default()).len(), 1);
    let with_base = compare(&files, &[("cpp".to_string(), base)], &Settings::default());
    assert!(with_base.is_empty(), "{with_base:?}");
}

#[test]
fn earlier_years_are_compared_with_the_class_only() {
    let mut files: Vec<SourceFile> = copies()
        .into_iter()
        .filter(|f| f.language == "cpp")
        .collect();
    for f in &mut files {
        f.against = f.student != "copies/original.cpp";
    }
    let pairs = compare(&files, &[], &Settings::default());
    assert_eq!(pairs.len(), 3, "{:?}", names(&pairs));
    assert!(pairs.iter().all(|p| p.student_a == "copies/original.cpp"));
}

#[test]
fn a_hundred_files_compare_in_well_under_a_second() {
    let mut files = Vec::new();
    let all = copies();
    for i in 0..100 {
        let mut f = all[i % all.len()].clone();
        f.student = format!("s{i}");
        f.text = f.text.replace("grid", &format!("grid{i}"));
        files.push(f);
    }
    let started = std::time::Instant::now();
    let pairs = compare(&files, &[], &Settings::default());
    let took = started.elapsed();
    assert!(!pairs.is_empty());
    assert!(took.as_millis() < 1000, "{took:?}");
}

/// A class of binary-sudoku in C, C++ and Rust: the packages' solutions of every verdict and
/// the judge fixture, written independently (at most 29% alike, most pairs 0%), and
/// `partial.cpp`, a student who took a classmate's reading and table code (`row_dp.c`, other
/// names) and wrote their own search: 41%, under the 50% threshold, far above the class.
fn binary_sudoku_class() -> Vec<SourceFile> {
    let mut files = Vec::new();
    for folder in ["accepted", "wrong_answer", "time_limit_exceeded"] {
        let dir = root()
            .join("problems/binary-sudoku/submissions")
            .join(folder);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if matches!(language(&path), Some("c" | "cpp" | "rust")) {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                files.push(source(name, &path));
            }
        }
    }
    for rel in [
        "tests/fixtures/binary-sudoku/ac.c",
        "tests/fixtures/grade/copies/original.cpp",
        "tests/fixtures/grade/partial/partial.cpp",
    ] {
        let path = root().join(rel);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        files.push(source(name, &path));
    }
    files.sort_by(|a, b| a.student.cmp(&b.student));
    files
}

#[test]
fn a_partial_copy_stands_out_of_its_class_under_the_threshold() {
    let files = binary_sudoku_class();
    assert!(files.len() >= 8, "{}", files.len());
    let comparison = analyse(&files, &[], &Settings::default());
    let d = &comparison.distribution;
    assert_eq!(
        d.pairs,
        files.len() * (files.len() - 1) / 2,
        "C, C++, Rust: one group"
    );
    assert_eq!(d.histogram.iter().sum::<usize>(), d.pairs);
    let bound = d.bound.expect("enough pairs for a distribution");
    assert_eq!(
        comparison.pairs.len(),
        1,
        "only the partial copy: {:#?} {d:?}",
        comparison.pairs
    );
    let p = &comparison.pairs[0];
    assert_eq!(
        (p.student_a.as_str(), p.student_b.as_str()),
        ("partial.cpp", "row_dp.c")
    );
    assert_eq!(p.flag, Flag::Class);
    assert_eq!(p.language, "cpp/c");
    assert!(p.similarity < 50.0 && p.similarity > bound, "{p:?} {d:?}");
    assert!(!p.lines_a.is_empty() && !p.lines_b.is_empty());
}

#[test]
fn a_c_file_renamed_cpp_is_the_same_tokens() {
    let c = root().join("problems/binary-sudoku/submissions/accepted/row_dp.c");
    let mut files = vec![source("alice".into(), &c), source("mallory".into(), &c)];
    files[1].language = "cpp".into();
    files[1].file = "mallory.cpp".into();
    let pairs = compare(&files, &[], &Settings::default());
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(pairs[0].similarity, 100.0);
    assert_eq!(pairs[0].language, "c/cpp");
    // Python is compared with Python only.
    files[1].language = "python".into();
    let d = analyse(&files, &[], &Settings::default()).distribution;
    assert_eq!(d.pairs, 0);
}
