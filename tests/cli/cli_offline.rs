//! The offline commands (`solve`, `check`, `gen`, `verify`) run as a user runs them: the built
//! binary, real files, exit codes and messages.

use crate::fixtures::config;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PROBLEMS: [&str; 5] = [
    "sudoku",
    "sudoku-hard",
    "target-sudoku",
    "target-sudoku-clash",
    "binary-sudoku",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn datasets() -> PathBuf {
    root().join("datasets")
}

/// Runs the binary from the crate root with `args`, feeding `stdin`.
fn sudojudge(args: &[&str], stdin: &[u8]) -> Output {
    sudojudge_in(&root(), args, stdin)
}

fn sudojudge_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .args(args)
        .current_dir(dir)
        .env_remove("SUDOJUDGE_CONFIG")
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let feed = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // A failing command may exit before reading everything; that is not this test's fault.
        let _ = pipe.write_all(&feed);
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().expect("the stdin writer finishes");
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A usage or file error: exit 2 and exactly one clear line on stderr, no panic or backtrace.
fn assert_one_line_error(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "`{needle}` not in: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
}

fn sample(problem: &str, name: &str) -> PathBuf {
    root()
        .join("problems")
        .join(problem)
        .join("data/sample")
        .join(name)
}

/// Copies a package's `problem.toml`, statement and samples into `dest/<problem>`.
fn copy_package(problem: &str, dest: &Path) {
    let src = root().join("problems").join(problem);
    let dst = dest.join(problem);
    std::fs::create_dir_all(dst.join("data/sample")).unwrap();
    for file in ["problem.toml", "statement.md"] {
        std::fs::copy(src.join(file), dst.join(file)).unwrap();
    }
    for entry in std::fs::read_dir(src.join("data/sample")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dst.join("data/sample").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
}

/// A config file pointing `problems.dir` at `dir/problems`.
fn config_for(dir: &Path) -> PathBuf {
    config::write_config(dir, &dir.join("problems"), "")
}

#[test]
fn solve_prints_every_sample_answer() {
    for problem in PROBLEMS {
        for entry in
            std::fs::read_dir(root().join("problems").join(problem).join("data/sample")).unwrap()
        {
            let input = entry.unwrap().path();
            if input.extension().is_none_or(|e| e != "in") {
                continue;
            }
            let out = sudojudge(&["solve", problem], &std::fs::read(&input).unwrap());
            assert!(
                out.status.success(),
                "{}: {}",
                input.display(),
                stderr(&out)
            );
            let answer = std::fs::read(input.with_extension("ans")).unwrap();
            assert_eq!(out.stdout, answer, "{}", input.display());
            assert_eq!(stderr(&out), "", "{}", input.display());
        }
    }
}

#[test]
fn solve_warns_below_the_target_constraint_and_still_answers() {
    let input = std::fs::read_to_string(sample("target-sudoku", "1.in")).unwrap();
    // The sample has 30 givens; clearing its last two rows leaves 20.
    let sparser: String = input
        .lines()
        .enumerate()
        .map(|(i, l)| match i {
            7 | 8 => "0 0 0 0 0 0 0 0 0\n".to_string(),
            _ => format!("{l}\n"),
        })
        .collect();
    let out = sudojudge(&["solve", "target-sudoku"], sparser.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("20 givens, fewer than the statement's 24"),
        "{}",
        stderr(&out)
    );
    // Every completion of the sample is one of the sparser grid: the maximum cannot drop.
    let best: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert!(best >= 2829, "{best}");
}

#[test]
fn solve_accepts_crlf_input() {
    let input = std::fs::read_to_string(sample("target-sudoku", "1.in")).unwrap();
    let out = sudojudge(
        &["solve", "target-sudoku"],
        input.replace('\n', "\r\n").as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, b"2829\n");
}

#[test]
fn solve_names_the_line_of_a_malformed_input() {
    let bad = "000000000\n00100010\n000000000\n";
    let out = sudojudge(&["solve", "binary-sudoku"], bad.as_bytes());
    assert_one_line_error(&out, "line 2: expected 9 characters 0/1, found 8");

    let out = sudojudge(&["solve", "sudoku"], b"123\nend\n");
    assert_one_line_error(&out, "line 1: expected a puzzle of 81 characters");

    let out = sudojudge(&["solve", "target-sudoku"], b"");
    assert_one_line_error(&out, "line 1: expected 9 rows, found 0");
}

#[test]
fn errors_say_things_once() {
    let out = sudojudge(&["solve", "sudoku"], b"");
    assert_eq!(
        stderr(&out),
        "error: stdin: malformed input: line 1: missing the final line `end`\n"
    );
    let out = sudojudge(&["check", "sudoku", "nope.in", "nope.out"], b"");
    assert_eq!(
        stderr(&out),
        "error: cannot read nope.in: No such file or directory (os error 2)\n"
    );
}

#[test]
fn a_missing_problems_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = sudojudge_in(dir.path(), &["verify"], b"");
    assert_one_line_error(&out, "no problems folder at problems");
}

#[test]
fn unknown_problem_is_one_clear_line() {
    let out = sudojudge(&["solve", "chess"], b"");
    assert_one_line_error(&out, "unknown problem `chess`");
    let out = sudojudge(&["verify", "../etc"], b"");
    assert_one_line_error(&out, "unknown problem `../etc`");
}

#[test]
fn check_exit_codes_follow_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample("target-sudoku", "2.in");
    let answer = sample("target-sudoku", "2.ans");
    let right = dir.path().join("right.out");
    std::fs::write(&right, "2852\r\n").unwrap();
    let wrong = dir.path().join("wrong.out");
    std::fs::write(&wrong, "2851\n").unwrap();
    let (i, r, w, a) = (
        input.to_str().unwrap(),
        right.to_str().unwrap(),
        wrong.to_str().unwrap(),
        answer.to_str().unwrap(),
    );

    let out = sudojudge(&["check", "target-sudoku", i, r, "--answer", a], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Without --answer the reference solver supplies it.
    let out = sudojudge(&["check", "target-sudoku", i, r], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let out = sudojudge(&["check", "target-sudoku", i, w], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "wrong answer: expected 2852, found 2851\n");

    let missing = dir.path().join("nope.out");
    let out = sudojudge(
        &["check", "target-sudoku", i, missing.to_str().unwrap()],
        b"",
    );
    assert_one_line_error(&out, "nope.out");
}

#[test]
fn check_names_the_first_sudoku_fault() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample("sudoku", "1.in");
    let answer = std::fs::read_to_string(sample("sudoku", "1.ans")).unwrap();
    // Break the second grid: swap its first two cells (both empty in the puzzle).
    let mut lines: Vec<String> = answer.lines().map(str::to_string).collect();
    let mut cells: Vec<char> = lines[1].chars().collect();
    cells.swap(0, 1);
    lines[1] = cells.into_iter().collect();
    let output = dir.path().join("out");
    std::fs::write(&output, lines.join("\n")).unwrap();
    let out = sudojudge(
        &[
            "check",
            "sudoku",
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "wrong answer: puzzle 2: column 1 has 1 twice\n"
    );
}

#[test]
fn solve_handles_the_whole_17_clue_list_in_one_go() {
    let list = datasets().join("puzzles2_17_clue.txt");
    let text = std::fs::read_to_string(&list)
        .unwrap_or_else(|e| panic!("the repository ships {}: {e}", list.display()));
    let mut input: String = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    input.push_str("end\n");
    let out = sudojudge(&["solve", "sudoku"], input.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 49_158);

    let dir = tempfile::tempdir().unwrap();
    let (i, o) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::write(&i, &input).unwrap();
    std::fs::write(&o, &out.stdout).unwrap();
    let (i, o) = (i.to_str().unwrap(), o.to_str().unwrap());
    let checked = sudojudge(&["check", "sudoku", i, o, "--answer", o], b"");
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
}

/// Regenerates a problem into a scratch copy and compares with the committed bytes.
fn assert_gen_reproduces(problem: &str) {
    let dir = tempfile::tempdir().unwrap();
    copy_package(problem, &dir.path().join("problems"));
    let config = config_for(dir.path());
    let out = sudojudge(
        &[
            "gen",
            problem,
            "--config",
            config.to_str().unwrap(),
            "--datasets",
            datasets().to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let committed = root().join("problems").join(problem).join("data/secret");
    let fresh = dir
        .path()
        .join("problems")
        .join(problem)
        .join("data/secret");
    let names = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&committed),
        names(&fresh),
        "{problem}: file names differ"
    );
    for name in names(&committed) {
        let (a, b) = (
            std::fs::read(committed.join(&name)).unwrap(),
            std::fs::read(fresh.join(&name)).unwrap(),
        );
        assert!(a == b, "{problem}: {name:?} differs from a fresh `gen`");
    }
}

#[test]
fn gen_reproduces_the_committed_target_data() {
    assert_gen_reproduces("target-sudoku");
}

#[test]
fn gen_reproduces_the_committed_binary_data() {
    assert_gen_reproduces("binary-sudoku");
}

#[test]
fn gen_reproduces_the_committed_sudoku_data() {
    assert_gen_reproduces("sudoku");
}

/// `sudoku-hard` shares the `sudoku` checker kind; its `[gen] profile = "speed"` alone picks
/// its heavier data.
#[test]
fn gen_reproduces_the_committed_sudoku_hard_data() {
    assert_gen_reproduces("sudoku-hard");
}

/// `target-sudoku-clash` shares the `target-sudoku` kind; its `[gen] profile = "clashing"`
/// adds the clashing grids NOIP's data (target-sudoku's `noip` profile) never had.
#[test]
fn gen_reproduces_the_committed_target_sudoku_clash_data() {
    assert_gen_reproduces("target-sudoku-clash");
}

#[test]
fn verify_data_only_passes_on_the_committed_data() {
    let out = sudojudge(&["verify", "--data-only", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ok"], true);
    let data = json["data"].as_array().unwrap();
    assert_eq!(data.len(), PROBLEMS.len());
    for report in data {
        assert_eq!(report["ok"], true, "{report}");
        assert!(report["tests"].as_u64().unwrap() >= 11, "{report}");
    }
    assert_eq!(json["submissions"]["checked"], false);
    let contests = json["contests"].as_array().unwrap();
    let ids: Vec<_> = contests
        .iter()
        .map(|c| c["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["noip-2009", "practice"], "{contests:?}");
    assert!(contests.iter().all(|c| c["ok"] == true), "{contests:?}");

    let out = sudojudge(&["verify", "--data-only", "binary-sudoku"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("binary-sudoku: "));
}

#[test]
fn verify_reports_broken_data() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    copy_package("binary-sudoku", &problems);
    let pkg = problems.join("binary-sudoku");
    let secret = pkg.join("data/secret");
    std::fs::create_dir_all(&secret).unwrap();
    // A wrong answer, a non-canonical input, and a sample the statement does not show.
    std::fs::write(secret.join("a.in"), "000000000\n".repeat(9)).unwrap();
    std::fs::write(secret.join("a.ans"), "1\n").unwrap();
    std::fs::write(secret.join("b.in"), "000000000\r\n".repeat(9)).unwrap();
    std::fs::write(secret.join("b.ans"), "0\n").unwrap();
    std::fs::write(pkg.join("data/sample/2.in"), "111111111\n".repeat(9)).unwrap();
    std::fs::write(pkg.join("data/sample/2.ans"), "9\n").unwrap();
    let config = config_for(dir.path());
    let out = sudojudge(
        &[
            "verify",
            "--data-only",
            "--config",
            config.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("binary-sudoku: 4 tests, 4 faults"), "{text}");
    assert!(
        text.contains("secret/a: ") && text.contains("differs from the reference"),
        "{text}"
    );
    assert!(
        text.contains("secret/b: ") && text.contains("not in canonical form"),
        "{text}"
    );
    assert!(
        text.contains("sample/2: statement.md does not show"),
        "{text}"
    );

    // An input without its answer is a package error naming the file.
    std::fs::remove_file(secret.join("a.ans")).unwrap();
    let out = sudojudge(&["verify", "--config", config.to_str().unwrap()], b"");
    assert_one_line_error(&out, "a.in: input without a .ans file beside it");
}

#[test]
fn verify_names_the_file_and_key_of_a_broken_contest() {
    let dir = tempfile::tempdir().unwrap();
    let practice = std::fs::read_to_string(root().join("contests/practice.toml")).unwrap();
    let broken = [
        ("ghost.toml", practice.replace("\"binary-sudoku\"", "\"chess\"")),
        ("late.toml", practice.replace("kind = \"open\"", "kind = \"window\"\nwindow_start = 2026-03-09T00:00:00Z\nwindow_end = 2026-03-06T00:00:00Z\nduration = \"4h\"")),
        ("acm.toml", practice.replace("\"ioi\"", "\"acm\"")),
    ];
    for (name, text) in &broken {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let problems = root().join("problems");
    let args = [
        "verify",
        "--data-only",
        "--problems",
        problems.to_str().unwrap(),
        "--contests",
        dir.path().to_str().unwrap(),
    ];
    let out = sudojudge(&args, b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "ghost.toml: key `problems[3].problem`: unknown problem \"chess\"",
        "late.toml: key `timing.window_end`: 2026-03-06T00:00:00Z is not after window_start",
        "acm.toml: key `format`: \"acm\" is not a format",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    // The packages themselves are fine: only the contests fail.
    assert!(
        text.contains("binary-sudoku: ") && text.contains("data ok"),
        "{text}"
    );
}

#[test]
fn solve_runs_from_a_folder_without_problems() {
    let dir = tempfile::tempdir().unwrap();
    for problem in ["sudoku", "target-sudoku", "binary-sudoku"] {
        let input = std::fs::read(sample(problem, "1.in")).unwrap();
        let out = sudojudge_in(dir.path(), &["solve", problem], &input);
        assert!(out.status.success(), "{problem}: {}", stderr(&out));
        assert_eq!(out.stdout, std::fs::read(sample(problem, "1.ans")).unwrap());
    }
    let out = sudojudge_in(dir.path(), &["solve", "chess"], b"");
    assert_one_line_error(&out, "no problems folder at problems");
}

#[test]
fn gen_refuses_to_replace_hand_made_tests_without_force() {
    let dir = tempfile::tempdir().unwrap();
    copy_package("binary-sudoku", &dir.path().join("problems"));
    let config = config_for(dir.path());
    let secret = dir.path().join("problems/binary-sudoku/data/secret");
    std::fs::create_dir_all(&secret).unwrap();
    let mine = secret.join("my-own.in");
    std::fs::write(&mine, "hand made\n").unwrap();
    std::fs::write(secret.join("my-own.ans"), "1\n").unwrap();
    let gen = |extra: &[&str]| {
        let mut args = vec!["gen", "binary-sudoku", "--config", config.to_str().unwrap()];
        args.extend(extra);
        sudojudge(&args, b"")
    };
    let out = gen(&[]);
    assert_one_line_error(
        &out,
        "2 test file(s) gen did not make (my-own.ans, my-own.in)",
    );
    assert!(out.stderr.windows(7).any(|w| w == b"--force"));
    let names = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&secret),
        ["my-own.ans", "my-own.in"],
        "nothing touched"
    );

    // With --force: replaced. A second run regenerates gen's own output without --force.
    let out = gen(&["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!mine.exists());
    let generated = names(&secret);
    assert!(generated.len() >= 2);
    let out = gen(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(names(&secret), generated);

    // A generated test edited by hand is hand-made too.
    let edited = secret.join(&generated[0]);
    std::fs::write(&edited, "edited\n").unwrap();
    let out = gen(&[]);
    assert_one_line_error(&out, &generated[0]);
    assert_eq!(std::fs::read(&edited).unwrap(), b"edited\n");
}
