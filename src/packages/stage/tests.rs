//! Unit tests: a package zip staged and placed; a failing one refused with the file at fault
//! and nothing left in the problems folder.

use std::io::Write;

use super::*;
use zip::write::SimpleFileOptions;

/// The zip of `files` (name, text), each name under `top/` when `top` is given.
fn zip_of(top: Option<&str>, files: &[(&str, &str)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in files {
        let name = top.map_or(name.to_string(), |t| format!("{t}/{name}"));
        w.start_file(name, SimpleFileOptions::default()).unwrap();
        w.write_all(text.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const YAML: &str = "problem_format_version: 2023-07-draft\nname: Echo\nuuid: u\n\
    limits:\n  time_limit: 1\n";

fn echo(answer: &str) -> Vec<(&'static str, String)> {
    vec![
        ("problem.yaml", YAML.to_string()),
        ("statement/problem.en.md", "Print the number.\n".to_string()),
        ("data/secret/1.in", "7\n".to_string()),
        ("data/secret/1.ans", answer.to_string()),
    ]
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn refs<'a>(files: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    files.iter().map(|(n, t)| (*n, t.as_str())).collect()
}

#[test]
fn a_package_in_one_top_folder_is_staged_then_placed_under_its_name() {
    let problems = tempfile::tempdir().unwrap();
    let zip = zip_of(Some("echo"), &refs(&echo("7\n")));
    let staged = stage(problems.path(), &zip, None, &archive::Limits::default()).unwrap();
    assert_eq!(staged.problem().id, "echo");
    assert_eq!(names(problems.path()).len(), 1, "only the staging folder");
    let placed = staged.place(problems.path()).unwrap();
    assert_eq!(placed.dir, problems.path().join("echo"));
    assert_eq!(
        names(problems.path()),
        ["echo"],
        "the staging folder is gone"
    );
    // The same id again is refused at placing, and leaves nothing.
    let again = stage(problems.path(), &zip, None, &archive::Limits::default()).unwrap();
    assert!(matches!(
        again.place(problems.path()),
        Err(PackageError::Taken(_))
    ));
    assert_eq!(names(problems.path()), ["echo"]);
}

#[test]
fn a_root_package_needs_an_id_and_a_bad_one_is_refused() {
    let problems = tempfile::tempdir().unwrap();
    let zip = zip_of(None, &refs(&echo("7\n")));
    let limits = archive::Limits::default();
    let err = stage(problems.path(), &zip, None, &limits).unwrap_err();
    assert!(err.to_string().contains("?id=NAME"), "{err}");
    let err = stage(problems.path(), &zip, Some("Echo!"), &limits).unwrap_err();
    assert!(err.to_string().contains("lowercase"), "{err}");
    assert_eq!(
        stage(problems.path(), &zip, Some("e2"), &limits)
            .unwrap()
            .problem()
            .id,
        "e2"
    );
    assert!(
        names(problems.path()).is_empty(),
        "{:?}",
        names(problems.path())
    );
}

#[test]
fn a_failing_package_names_the_file_and_leaves_nothing() {
    let problems = tempfile::tempdir().unwrap();
    let limits = archive::Limits::default();
    let mut files = echo("7\n");
    files[0].1 = YAML.replace("time_limit: 1", "time_limit: -1");
    let err = stage(
        problems.path(),
        &zip_of(Some("echo"), &refs(&files)),
        None,
        &limits,
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("echo/problem.yaml"), "{err}");
    assert!(err.contains("time_limit"), "{err}");
    let mut files = echo("7\n");
    files.pop();
    let err = stage(
        problems.path(),
        &zip_of(Some("echo"), &refs(&files)),
        None,
        &limits,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("echo/data/secret/1.in"), "{err}");
    let err = stage(problems.path(), b"not a zip", Some("x"), &limits).unwrap_err();
    assert!(err.to_string().contains("not a readable zip"), "{err}");
    let err = stage(
        problems.path(),
        &zip_of(Some("a"), &[("x.txt", "")]),
        None,
        &limits,
    )
    .unwrap_err();
    assert!(matches!(err, PackageError::NoPackage), "{err}");
    assert!(
        names(problems.path()).is_empty(),
        "{:?}",
        names(problems.path())
    );
}
