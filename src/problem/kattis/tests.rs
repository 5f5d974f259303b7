//! Loading whole Kattis packages from temporary folders.

use std::path::Path;

use super::super::validator::Protocol;
use super::super::{find, load, load_all, OutputValidator};
use super::TimeLimitSource;

/// Writes `files` (path, contents) under `root/name`.
fn package(root: &Path, name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = root.join(name);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const HELLO: &[(&str, &str)] = &[
    (
        "problem.yaml",
        "name: Hello World!\nlimits:\n  memory: 512\n",
    ),
    ("problem_statement/problem.en.tex", "\\problemname{Hello}\n"),
    ("data/secret/hello.in", ""),
    ("data/secret/hello.ans", "Hello World!\n"),
];

#[test]
fn a_legacy_package_loads_with_the_default_validator() {
    let root = tempfile::tempdir().unwrap();
    let dir = package(root.path(), "hello", HELLO);
    let p = load(&dir).unwrap();
    assert_eq!(p.id, "hello");
    assert_eq!(p.title, "Hello World!");
    assert_eq!(p.memory_limit_mb, 512);
    assert_eq!(p.output_limit_mb, 8);
    assert_eq!(p.validator, OutputValidator::Default);
    assert_eq!(p.tests.len(), 1);
    assert_eq!(p.tests[0].name, "secret/hello");
    let k = p.kattis.as_ref().unwrap();
    assert_eq!(k.version, "legacy");
    assert_eq!(k.time_limit_source, TimeLimitSource::Unset);
    assert!(p
        .statement
        .contains("written in LaTeX (`problem_statement/problem.en.tex`)"));
    assert!(!p.statement.contains("PDF"));
    // `.timelimit` (written by verify) sets the limit, and a PDF is linked.
    std::fs::write(dir.join(".timelimit"), "2\n").unwrap();
    std::fs::write(dir.join("problem_statement/problem.en.pdf"), "%PDF").unwrap();
    let p = load(&dir).unwrap();
    assert_eq!(p.time_limit_ms, 2000);
    assert_eq!(
        p.kattis.as_ref().unwrap().time_limit_source,
        TimeLimitSource::Derived
    );
    assert!(
        p.statement.contains("(/problems/hello/statement.pdf)"),
        "{}",
        p.statement
    );
    // Listed and found beside problem.toml packages.
    assert_eq!(load_all(root.path()).unwrap().len(), 1);
    assert_eq!(find(root.path(), "hello").unwrap().id, "hello");
}

#[test]
fn groups_pass_their_flags_down_and_samples_join_the_statement() {
    let root = tempfile::tempdir().unwrap();
    let dir = package(
        root.path(),
        "floats",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: Floats\nuuid: u\n\
                 limits:\n  time_limit: 2\n",
            ),
            ("statement/problem.en.md", "Print the number.\n"),
            ("data/sample/1.in", "1\n"),
            ("data/sample/1.ans", "1.0\n"),
            (
                "data/secret/testdata.yaml",
                "output_validator_args: float_tolerance 1e-6\n",
            ),
            (
                "data/secret/a/testdata.yaml",
                "output_validator_args: [case_sensitive]\n",
            ),
            ("data/secret/a/1.in", "2\n"),
            ("data/secret/a/1.ans", "2.0\n"),
            ("data/secret/b/1.in", "3\n"),
            ("data/secret/b/1.ans", "3.0\n"),
            ("data/secret/b/1.desc", "notes"),
        ],
    );
    let p = load(&dir).unwrap();
    let names: Vec<_> = p.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["sample/1", "secret/a/1", "secret/b/1"]);
    assert!(p.tests[0].validator_args.is_empty());
    assert_eq!(p.tests[1].validator_args, ["case_sensitive"]);
    assert_eq!(p.tests[2].validator_args, ["float_tolerance", "1e-6"]);
    assert_eq!(p.time_limit_ms, 2000);
    assert!(p.statement.starts_with("Print the number."));
    assert!(p.statement.contains("```\n1\n```") && p.statement.contains("```\n1.0\n```"));
    // The flags are part of the data hash.
    let before = p.data_hash;
    std::fs::write(
        dir.join("data/secret/testdata.yaml"),
        "output_validator_args: float_tolerance 1e-5\n",
    )
    .unwrap();
    assert_ne!(load(&dir).unwrap().data_hash, before);
}

#[test]
fn a_custom_validator_is_found_in_the_versions_folder() {
    let root = tempfile::tempdir().unwrap();
    let mut files = HELLO.to_vec();
    files[0] = (
        "problem.yaml",
        "name: H\nvalidation: custom\nlimits:\n  validation_time: 3\n",
    );
    files.push((
        "output_validators/check/check.cc",
        "#include \"v.h\"\nint main() { return 42; }\n",
    ));
    files.push(("output_validators/check/v.h", "int v;\n"));
    let dir = package(root.path(), "custom", &files);
    let p = load(&dir).unwrap();
    let OutputValidator::Program(v) = &p.validator else {
        panic!("{:?}", p.validator)
    };
    assert_eq!(v.language, "cpp");
    assert_eq!(v.protocol, Protocol::Kattis);
    assert_eq!(v.time_limit_ms, 3000);
    assert!(String::from_utf8_lossy(&v.source).contains("int v;"));
    // 2025-09 reads output_validator/ (a single file there is the program).
    let dir = package(
        root.path(),
        "modern",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: M\nuuid: u\n",
            ),
            ("statement/problem.en.md", "M\n"),
            ("data/secret/1.in", "1\n"),
            ("data/secret/1.ans", "1\n"),
            ("output_validator/validate.py", "import sys\nsys.exit(42)\n"),
        ],
    );
    let p = load(&dir).unwrap();
    assert_eq!(p.validator.name(), "kattis");
}

#[test]
fn an_interactive_package_talks_to_its_validator() {
    let root = tempfile::tempdir().unwrap();
    let files = [
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: G\ntype: interactive\n",
        ),
        ("statement/problem.en.md", "Guess.\n"),
        ("data/sample/1.interaction", ">1\n<correct\n"),
        ("data/secret/1.in", "1\n"),
        ("data/secret/1.ans", "1\n"),
        ("output_validator/validate.py", "import sys\nsys.exit(42)\n"),
    ];
    let dir = package(root.path(), "guess", &files);
    let p = load(&dir).unwrap();
    assert_eq!(p.validator.name(), "interactive");
    assert!(p.validator.interactive().is_some());
    // The sample interaction is the statement's, not a test.
    let names: Vec<_> = p.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["secret/1"]);
    // Legacy: `validation: custom interactive`, the validator in output_validators/.
    let legacy = package(
        root.path(),
        "legacy",
        &[
            ("problem.yaml", "name: G\nvalidation: custom interactive\n"),
            ("problem_statement/problem.en.md", "Guess.\n"),
            ("data/secret/1.in", "1\n"),
            ("data/secret/1.ans", "1\n"),
            (
                "output_validators/v/validate.py",
                "import sys\nsys.exit(42)\n",
            ),
        ],
    );
    assert_eq!(load(&legacy).unwrap().validator.name(), "interactive");
    // No validator to talk to: refused, naming the folder.
    let err = load(&package(
        root.path(),
        "alone",
        &[files[0], files[1], files[3], files[4]],
    ))
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("an interactive problem, but there is no output_validator/ folder"),
        "{err}"
    );
}

#[test]
fn broken_packages_are_refused_naming_the_file_and_key() {
    let root = tempfile::tempdir().unwrap();
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (
            vec![("problem.yaml", "name: H\nlimits:\n  memroy: 3\n")],
            "problem.yaml: limits: unknown field `memroy`",
        ),
        (
            vec![("problem.yaml", "name: H\nvalidation: custom\n")],
            "problem.yaml: validation: custom, but there is no output_validators/",
        ),
        (
            vec![("problem.yaml", "name: H\nvalidator_flags: ignore_case\n")],
            "problem.yaml: validator_flags: unknown default-validator flag `ignore_case`",
        ),
        (
            vec![(
                "data/secret/testdata.yaml",
                "output_validator_flags: float_tolerance\n",
            )],
            "hello.in: the output validator flags of this test: `float_tolerance` needs a number",
        ),
        (
            vec![("data/secret/testdata.yaml", "grading: x\nbogus: 1\n")],
            "testdata.yaml: unknown field `bogus`",
        ),
        (
            vec![("data/secret/2.in", "")],
            "2.in: input without a .ans file",
        ),
        (
            vec![("data/secret/3.ans", "")],
            "3.ans: answer without an input file",
        ),
        (
            vec![("data/sample/1.interaction", "")],
            "1.interaction: only an interactive problem (type: interactive) has .interaction files",
        ),
        (
            vec![("data/secret/test_group.yaml", "")],
            "test_group.yaml: format legacy names this file testdata.yaml",
        ),
        (
            vec![("output_validator/v.py", "")],
            "output_validator: format legacy names this folder output_validators/",
        ),
        (
            vec![("problem.yaml", "type: multi-pass\n")],
            "problem.yaml: type `multi-pass`",
        ),
        (
            vec![(".timelimit", "soon\n")],
            ".timelimit: `soon` is not a number of seconds",
        ),
    ];
    for (i, (extra, needle)) in cases.into_iter().enumerate() {
        let mut files = HELLO.to_vec();
        for (path, text) in extra {
            files.retain(|(p, _)| *p != path);
            files.push((path, text));
        }
        let dir = package(root.path(), &format!("p{i}"), &files);
        let err = load(&dir).unwrap_err().to_string();
        assert!(err.contains(needle), "`{needle}` not in {err}");
    }
    let dir = package(root.path(), "nostatement", &HELLO[..1]);
    std::fs::create_dir_all(dir.join("data/secret")).unwrap();
    let err = load(&dir).unwrap_err().to_string();
    assert!(err.contains("no tests"), "{err}");
}
