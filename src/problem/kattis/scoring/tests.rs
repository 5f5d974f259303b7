use super::*;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn the_fixture_package_has_three_groups_of_min_with_break() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis/groupsum");
    let p = crate::problem::load(&dir).unwrap();
    let s = p.scoring().expect("a scoring problem");
    let names: Vec<&str> = s.root.groups().iter().map(|g| g.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "",
            "sample",
            "secret",
            "secret/group1",
            "secret/group2",
            "secret/group3"
        ]
    );
    assert_eq!(s.range(), (0.0, 100.0));
    assert!(s.root.rules.ignore_sample && !s.root.rules.on_reject_break);
    let g3 = s.root.find("secret/group3").unwrap();
    assert_eq!(g3.rules.aggregation, Aggregation::Min);
    assert_eq!((g3.rules.accept_score, g3.rules.range), (50.0, (0.0, 50.0)));
    assert!(g3.rules.on_reject_break);
    let secret = s.root.find("secret").unwrap();
    assert!(secret.rules.accept_if_any_accepted);
    assert_eq!(secret.rules.verdicts, VerdictRule::FirstError);
    // Inherited from data/secret/testdata.yaml: the flags of a group are its own.
    assert_eq!(g3.rules.verdicts, VerdictRule::WorstError);
    let Item::Test(first) = g3.items[0] else {
        panic!("{:?}", g3.items)
    };
    assert_eq!(p.tests[first].name, "secret/group3/01");
}

#[test]
fn the_2025_format_splits_a_groups_maximum_over_its_tests() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("split");
    write(
        &root,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: S\nuuid: u\ntype: scoring\n\
                     limits:\n  time_limit: 1\n",
            ),
            ("statement/problem.en.md", "x\n"),
            (
                "data/secret/a/test_group.yaml",
                "max_score: 40\nscore_aggregation: sum\n",
            ),
            ("data/secret/a/1.in", "1\n"),
            ("data/secret/a/1.ans", "1\n"),
            ("data/secret/a/2.in", "2\n"),
            ("data/secret/a/2.ans", "2\n"),
            ("data/secret/b/test_group.yaml", "max_score: 60\n"),
            ("data/secret/b/1.in", "3\n"),
            ("data/secret/b/1.ans", "3\n"),
        ],
    );
    let p = crate::problem::load(&root).unwrap();
    let s = p.scoring().unwrap();
    assert_eq!(s.scored, "secret");
    let a = s.root.find("secret/a").unwrap();
    assert_eq!(
        (a.rules.accept_score, a.rules.aggregation),
        (20.0, Aggregation::Sum)
    );
    let b = s.root.find("secret/b").unwrap();
    assert_eq!(b.rules.aggregation, Aggregation::PassFail);
    assert_eq!(s.range(), (0.0, 100.0));
}

#[test]
fn unsupported_scoring_keys_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("grading: custom\n", "custom graders"),
        ("grader_flags: median\n", "`median`"),
        ("on_reject: stop\n", "on_reject `stop`"),
        ("range: 5 1\n", "above the maximum"),
        ("accept_score: lots\n", "accept_score"),
    ];
    for (i, (yaml, needle)) in cases.iter().enumerate() {
        let root = dir.path().join(format!("p{i}"));
        write(
            &root,
            &[
                (
                    "problem.yaml",
                    "problem_format_version: 2023-07-draft\nname: S\nuuid: u\n\
                         type: scoring\nlimits:\n  time_limit: 1\n",
                ),
                ("statement/problem.en.md", "x\n"),
                ("data/secret/g/testdata.yaml", yaml),
                ("data/secret/g/1.in", "1\n"),
                ("data/secret/g/1.ans", "1\n"),
            ],
        );
        let err = crate::problem::load(&root).unwrap_err().to_string();
        assert!(err.contains(needle), "{yaml}: {err}");
        assert!(err.contains("testdata.yaml"), "{yaml}: {err}");
    }
}

#[test]
fn ranges_read_infinities_and_refuse_reversed_ones() {
    assert_eq!(parse_range("0 100"), Ok((0.0, 100.0)));
    assert_eq!(
        parse_range("-inf +inf"),
        Ok((f64::NEG_INFINITY, f64::INFINITY))
    );
    assert!(parse_range("5 1").unwrap_err().contains("above"));
    assert!(parse_range("1").is_err());
    assert!(parse_range("a b").is_err());
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

#[test]
fn the_score_rules_are_part_of_the_data_hash() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis/groupsum");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("groupsum");
    copy_tree(&fixture, &dir);
    let hash = || crate::problem::load(&dir).unwrap().data_hash;
    let original = hash();
    let file = dir.join("data/secret/group1/testdata.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    for (from, to) in [
        ("on_reject: break", "on_reject: continue"),
        (
            "accept_score: 20\nrange: 0 20",
            "accept_score: 10\nrange: 0 10",
        ),
        ("range: 0 20", "range: -20 20"),
        ("grader_flags: min", "grader_flags: sum"),
    ] {
        assert!(text.contains(from), "{from:?} not in {text}");
        std::fs::write(&file, text.replacen(from, to, 1)).unwrap();
        assert_ne!(hash(), original, "{from} -> {to} left the data hash alone");
        std::fs::write(&file, &text).unwrap();
        assert_eq!(hash(), original, "the same package hashes the same");
    }
}
