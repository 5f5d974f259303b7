//! `sudojudge stress` on a Kattis package (`tests/fixtures/kattis/listsum`): its own
//! generator, input validator and reference solution find a bug planted in a copy of the
//! reference and shrink the input within a minute; the shrunk input is checked here,
//! independently, to be minimal (the planted program and the validator compiled with the
//! host's compiler, run outside the sandbox). And the refusals: no generator, a generator
//! that crashes, a generator whose input the validator rejects, each a clear error, exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::fixtures::{config, kattis};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The reference with negative numbers skipped.
const FROM: &str = "        s += x;\n";
const TO: &str = "        if (x > 0) s += x;\n";

fn planted(dir: &Path) -> PathBuf {
    let original = std::fs::read_to_string(
        repo().join("tests/fixtures/kattis/listsum/submissions/accepted/sum.c"),
    )
    .unwrap();
    assert!(original.contains(FROM), "sum.c no longer has {FROM:?}");
    let path = dir.join("planted.c");
    std::fs::write(&path, original.replacen(FROM, TO, 1)).unwrap();
    path
}

fn host_binary(source: &Path, name: &str, dir: &Path) -> PathBuf {
    let out = dir.join(name);
    let status = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(source)
        .status()
        .unwrap();
    assert!(status.success());
    out
}

fn run_host(binary: &Path, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The sum of the list, the problem's answer.
fn answer(input: &str) -> i64 {
    input
        .lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .map(|t| t.parse::<i64>().unwrap())
        .sum()
}

/// Every input one line or one token smaller than `input`, and with one number reset to
/// 0 or halved.
fn one_step_smaller(input: &str) -> Vec<String> {
    let lines: Vec<&str> = input.split_inclusive('\n').collect();
    let mut out = Vec::new();
    for i in 0..lines.len() {
        let mut l = lines.clone();
        l.remove(i);
        out.push(l.concat());
        let body = lines[i].trim_end_matches('\n');
        let tokens: Vec<&str> = body.split(' ').collect();
        for j in 0..tokens.len() {
            let mut t = tokens.clone();
            t.remove(j);
            let mut l = lines.clone();
            let line = format!("{}\n", t.join(" "));
            l[i] = &line;
            out.push(l.concat());
            if let Ok(v) = tokens[j].parse::<i64>() {
                for smaller in [0, v / 2] {
                    if smaller != v {
                        let mut t = tokens.clone();
                        let s = smaller.to_string();
                        t[j] = &s;
                        let line = format!("{}\n", t.join(" "));
                        let mut l = lines.clone();
                        l[i] = &line;
                        out.push(l.concat());
                    }
                }
            }
        }
    }
    out
}

fn stress(config: &Path, package: &str, source: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(config)
        .args(["stress", package])
        .arg(source)
        .args(extra)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap()
}

#[test]
fn stress_finds_and_shrinks_a_planted_bug_with_the_packages_own_programs() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::copy_package(&problems, "listsum");
    let config = config::write_config(dir.path(), &problems, "");
    let source = planted(dir.path());
    let started = Instant::now();
    let out = stress(
        &config,
        "listsum",
        &source,
        &["--seed", "1", "--time", "25", "--json"],
    );
    let took = started.elapsed();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(out.status.code(), Some(1), "{json:#}");
    assert!(took < Duration::from_secs(60), "{took:?}");
    assert!(
        json["generator"]
            .as_str()
            .unwrap()
            .ends_with("generators/gen.c")
            && json["reference"]
                .as_str()
                .unwrap()
                .ends_with("accepted/sum.c"),
        "{json:#}"
    );
    let found = &json["found"];
    assert_eq!(found["minimal"], true, "{found:#}");
    assert_eq!(found["unit"], "tokens", "{found:#}");
    assert_eq!(
        found["generator_seed"], 1,
        "the first input disagrees: {found:#}"
    );
    let sizes = found["sizes"].as_array().unwrap();
    assert!(sizes[1].as_u64() < sizes[0].as_u64(), "{found:#}");
    let shrunk = &found["shrunk"];
    assert_eq!(shrunk["verdict"], "WA", "{found:#}");
    let input = shrunk["input"].as_str().unwrap();
    assert_eq!(
        shrunk["expected"].as_str().unwrap().trim(),
        answer(input).to_string()
    );

    // Independently: the validator accepts the shrunk input, the planted program gets it
    // wrong, and every valid input one step smaller right.
    let validator = host_binary(
        &package.join("input_validators/validate.c"),
        "validate",
        dir.path(),
    );
    let buggy = host_binary(&source, "planted", dir.path());
    let valid = |text: &str| run_host(&validator, text.as_bytes()).status.code() == Some(42);
    let wrong = |text: &str| {
        let got = String::from_utf8(run_host(&buggy, text.as_bytes()).stdout).unwrap();
        got.trim() != answer(text).to_string()
    };
    assert!(valid(input) && wrong(input), "{input}");
    let smaller = one_step_smaller(input);
    assert!(!smaller.is_empty());
    for candidate in smaller {
        assert!(
            !(valid(&candidate) && wrong(&candidate)),
            "not minimal, this one still disagrees:\n{candidate}"
        );
    }

    // The text form prints the input with both answers and how to get the first again.
    let text = stress(
        &config,
        "listsum",
        &source,
        &["--seed", "1", "--time", "25"],
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("input 1 (`gen 1`) disagrees (WA"), "{text}");
    assert!(
        text.contains(&format!("input:\n{input}"))
            && text.contains("expected (reference solution ")
            && text.contains("got (WA"),
        "{text}"
    );

    // The unchanged reference finds nothing.
    let reference = package.join("submissions/accepted/sum.c");
    let out = stress(
        &config,
        "listsum",
        &reference,
        &["--seed", "1", "--time", "2"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("no disagreement"), "{text}");
}

/// `stress` on a copy of `listsum` changed by `change`, which must be refused: exit 2 and
/// the message names `expected`.
fn refused(change: impl FnOnce(&Path), expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::copy_package(&problems, "listsum");
    change(&package);
    let config = config::write_config(dir.path(), &problems, "");
    let source = package.join("submissions/accepted/sum.c");
    let out = stress(
        &config,
        "listsum",
        &source,
        &["--seed", "3", "--time", "10"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for part in expected {
        assert!(err.contains(part), "{part:?} not in: {err}");
    }
}

#[test]
fn a_package_without_a_generator_or_with_a_broken_one_is_refused() {
    refused(
        |p| std::fs::remove_dir_all(p.join("generators")).unwrap(),
        &["has no generator", "generators/gen.c, gen.cpp or gen.py"],
    );
    refused(
        |p| {
            std::fs::remove_file(p.join("generators/gen.c")).unwrap();
            std::fs::write(p.join("generators/generators.yaml"), "solution: x\n").unwrap();
        },
        &[
            "has no generator",
            "generators.yaml, BAPCtools' format, is not read",
        ],
    );
    refused(
        |p| {
            std::fs::write(
                p.join("generators/gen.c"),
                "#include <stdio.h>\nint main(void) { fputs(\"no seed today\", stderr); return 3; }\n",
            )
            .unwrap()
        },
        &[
            "the generator",
            "gen.c exited with 3 on `gen 3`: no seed today",
        ],
    );
    refused(
        |p| {
            std::fs::write(
                p.join("generators/gen.py"),
                "import sys\nprint(101)\nprint(' '.join(['1'] * 101))\n",
            )
            .unwrap();
            std::fs::remove_file(p.join("generators/gen.c")).unwrap();
        },
        &[
            "the input `gen 3` printed is invalid, a bug of the generator",
            "gen.py",
            "validate.c rejects it: n out of range",
        ],
    );
}
