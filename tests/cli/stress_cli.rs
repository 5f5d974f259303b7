//! `sudojudge stress`: a bug planted in a copy of a reference solution of each Sudoku
//! problem is found on random inputs and shrunk within a minute, and the shrunk input is
//! checked here, independently, to be minimal: every input one given (one 1) smaller either
//! breaks the statement's promises or gets a right answer from the same buggy program
//! (compiled here with the host's compiler, run outside the sandbox).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudojudge::checkers::{check, CheckOutcome};
use sudojudge::problem::answer::reference_answer;
use sudojudge::problem::format::{binary, sudoku, target};
use sudojudge::problem::CheckerKind;
use sudojudge::solvers::sudoku::count_solutions;

use crate::fixtures::config;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of `problems/<problem>/submissions/accepted/<file>` with `from` replaced by `to`.
fn planted(dir: &Path, problem: &str, file: &str, from: &str, to: &str) -> PathBuf {
    let original = std::fs::read_to_string(
        repo()
            .join("problems")
            .join(problem)
            .join("submissions/accepted")
            .join(file),
    )
    .unwrap();
    assert!(
        original.contains(from),
        "{problem}/{file} no longer has {from:?}"
    );
    let path = dir.join(format!("planted-{problem}-{file}"));
    std::fs::write(&path, original.replacen(from, to, 1)).unwrap();
    path
}

/// The planted program compiled on the host, for the independent minimality check.
fn host_binary(source: &Path) -> PathBuf {
    let out = source.with_extension("bin");
    let compiler = if source.extension().unwrap() == "c" {
        "gcc"
    } else {
        "g++"
    };
    let status = Command::new(compiler)
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(source)
        .status()
        .unwrap();
    assert!(status.success());
    out
}

fn run_host(binary: &Path, input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap().stdout
}

/// Every input one step smaller than `input` that keeps the statement's promises.
fn smaller_valid(kind: CheckerKind, input: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    match kind {
        CheckerKind::Sudoku => {
            let puzzles = sudoku::parse(input).unwrap();
            assert_eq!(puzzles.len(), 1);
            for cell in (0..81).filter(|&c| puzzles[0][c] != 0) {
                let mut p = puzzles[0];
                p[cell] = 0;
                if count_solutions(&p, 2) == 1 {
                    out.push(sudoku::write_puzzles(&[p]));
                }
            }
        }
        CheckerKind::TargetSudoku => {
            let grid = target::parse(input).unwrap();
            let givens = grid.iter().filter(|&&d| d != 0).count();
            if givens > 24 {
                for cell in (0..81).filter(|&c| grid[c] != 0) {
                    let mut g = grid;
                    g[cell] = 0;
                    out.push(target::write(&g));
                }
            }
        }
        CheckerKind::BinarySudoku => {
            let grid = binary::parse(input).unwrap();
            for cell in (0..81).filter(|&c| grid[c] == 1) {
                let mut g = grid;
                g[cell] = 0;
                out.push(binary::write(&g));
            }
        }
    }
    out
}

fn stress_finds_and_shrinks(
    problem: &str,
    seed: u32,
    kind: CheckerKind,
    file: &str,
    from: &str,
    to: &str,
) {
    let dir = tempfile::tempdir().unwrap();
    let source = planted(dir.path(), problem, file, from, to);
    let config = config::write_config(dir.path(), &repo().join("problems"), "");
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["stress", problem])
        .arg(&source)
        .args(["--seed", &seed.to_string(), "--time", "50", "--json"])
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    let took = started.elapsed();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{problem}: no JSON ({e}): {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(out.status.code(), Some(1), "{problem}: {json:#}");
    assert!(took < Duration::from_secs(60), "{problem}: {took:?}");
    let found = &json["found"];
    assert_eq!(found["minimal"], true, "{problem}: {found:#}");
    let shrunk = &found["shrunk"];
    assert_eq!(shrunk["verdict"], "WA", "{problem}: {found:#}");
    let input = shrunk["input"].as_str().unwrap().as_bytes().to_vec();
    let expected = reference_answer(kind, &input).unwrap();
    assert_eq!(shrunk["expected"].as_str().unwrap().as_bytes(), expected);
    // The buggy program, run here, still gets the shrunk input wrong ...
    let binary = host_binary(&source);
    let output = run_host(&binary, &input);
    assert!(
        matches!(
            check(kind, &input, &output, &expected),
            CheckOutcome::WrongAnswer(_)
        ),
        "{problem}: the shrunk input does not disagree"
    );
    // The seeds are chosen so that the first input disagreeing is not minimal yet.
    let sizes = found["sizes"].as_array().unwrap();
    assert!(sizes[1].as_u64() < sizes[0].as_u64(), "{found:#}");
    // ... and gets every valid input one step smaller right: nothing more can go.
    for smaller in smaller_valid(kind, &input) {
        let expected = reference_answer(kind, &smaller).unwrap();
        let output = run_host(&binary, &smaller);
        assert_eq!(
            check(kind, &smaller, &output, &expected),
            CheckOutcome::Accepted,
            "{problem}: not minimal, this one still disagrees:\n{}",
            String::from_utf8_lossy(&smaller)
        );
    }
    // The text form prints the input with both answers.
    let text = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["stress", problem])
        .arg(&source)
        .args(["--seed", &seed.to_string(), "--time", "50"])
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("input:\n") && text.contains("expected (reference solver):\n"),
        "{text}"
    );
    assert!(text.contains("got (WA"), "{text}");
    assert!(
        text.contains(shrunk["input"].as_str().unwrap().trim_end()),
        "{text}"
    );
}

#[test]
fn stress_shrinks_a_planted_sudoku_bug() {
    // Digit 9 is never mapped back from its bit: the search writes a 1 for it.
    stress_finds_and_shrinks(
        "sudoku",
        4,
        CheckerKind::Sudoku,
        "textbook.cpp",
        "for (int i = 0; i < 9; i++) digit_of[1 << i] = i;",
        "for (int i = 0; i < 8; i++) digit_of[1 << i] = i;",
    );
}

#[test]
fn stress_shrinks_a_planted_target_sudoku_bug() {
    // The ring forgets the right edge: cells near column 9 weigh too much.
    stress_finds_and_shrinks(
        "target-sudoku",
        1,
        CheckerKind::TargetSudoku,
        "textbook.cpp",
        "    if (8 - c < ring) ring = 8 - c;\n",
        "",
    );
}

#[test]
fn stress_shrinks_a_planted_binary_sudoku_bug() {
    // Row patterns stop at 256: no row of the result may have a 1 in the last column.
    stress_finds_and_shrinks(
        "binary-sudoku",
        1,
        CheckerKind::BinarySudoku,
        "row_dp.c",
        "for (int v = 0; v < 512; v++) {",
        "for (int v = 0; v < 256; v++) {",
    );
}

#[test]
fn a_correct_solution_survives_and_a_package_without_a_generator_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = config::write_config(dir.path(), &repo().join("problems"), "");
    let source = repo().join("problems/binary-sudoku/submissions/accepted/row_dp.c");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["stress", "binary-sudoku"])
        .arg(&source)
        .args(["--seed", "5", "--time", "3"])
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("no disagreement"), "{text}");
    // A Kattis package without a generator of its own: a clear error, exit 2.
    let problems = dir.path().join("problems");
    crate::fixtures::kattis::copy_package(&problems, "sum");
    std::fs::write(problems.join("sum/.timelimit"), "1\n").unwrap();
    let config = config::write_config(dir.path(), &problems, "");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["stress", "sum"])
        .arg(&source)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("sum has no generator"), "{err}");
}
