//! Kattis packages served for real: the fixture packages (both format versions, the default
//! validator with a float tolerance, validators in C++ and Python, a testlib checker) judged
//! through the daemon in an icpc contest; and hostile validators (one that loops, one that
//! writes a huge feedback file, one that reads outside its box) refused at load, so the
//! daemon serves nothing.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fixtures::accounts::get_as;
use crate::fixtures::config::write_config;
use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;

fn contest() -> String {
    fixed_five_hours(
        "Kattis packages",
        "icpc",
        &[],
        &[
            ("A", "sum"),
            ("B", "floats"),
            ("C", "divisor"),
            ("D", "reorder"),
            ("E", "maxpair"),
        ],
    )
}

#[tokio::test]
async fn kattis_packages_are_judged_in_an_icpc_contest() {
    let kattis::KattisContest {
        dir: _dir,
        daemon: d,
        client: c,
        boss,
        alice,
    } = kattis::contest(
        &kattis::PACKAGES,
        &["sum", "reorder"],
        ("kattis", &contest()),
        2,
        "",
    )
    .await;
    let listed: Value = get_as(&c, &d, "/api/problems/divisor", Some(boss.as_str()))
        .await
        .1;
    assert_eq!(listed["checker"], "kattis", "{listed}");
    assert!(listed["statement"]
        .as_str()
        .unwrap()
        .contains("print any divisor"));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis");
    let cases = [
        ("A", "sum", "accepted/sum.c", "c", "AC"),
        ("A", "sum", "wrong_answer/int32.c", "c", "WA"),
        ("B", "floats", "accepted/exponent.py", "python", "AC"),
        ("B", "floats", "wrong_answer/two_digits.py", "python", "WA"),
        ("C", "divisor", "accepted/itself.c", "c", "AC"),
        ("C", "divisor", "wrong_answer/one.py", "python", "WA"),
        ("D", "reorder", "accepted/reversed.cpp", "cpp", "AC"),
        ("D", "reorder", "wrong_answer/drops_one.py", "python", "WA"),
        ("E", "maxpair", "accepted/two_largest.py", "python", "AC"),
        ("E", "maxpair", "wrong_answer/first_two.py", "python", "WA"),
    ];
    let mut ids = Vec::new();
    for (label, problem, file, language, _) in cases {
        let source =
            std::fs::read_to_string(fixtures.join(problem).join("submissions").join(file)).unwrap();
        let r = c
            .post(d.url("/api/contests/kattis/submissions"))
            .bearer_auth(&alice)
            .json(&json!({"problem": label, "language": language, "source": source}))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let v: Value = r.json().await.unwrap();
        assert_eq!(status, 202, "{label} {file}: {v}");
        ids.push(v["id"].as_i64().unwrap());
    }
    for ((_, problem, file, _, verdict), id) in cases.iter().zip(ids) {
        let v = wait_done_as(&c, &d, Some(&boss), &[id], Duration::from_secs(120))
            .await
            .remove(0);
        assert_eq!(v["verdict"], *verdict, "{problem}/{file}: {v}");
        if *verdict == "WA" {
            // The jury reads the validator's own message.
            let messages: Vec<&str> = v["tests"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|t| t["message"].as_str())
                .collect();
            let wanted = match *problem {
                "sum" => "differs: expected",
                "floats" => "differs: expected",
                "divisor" => "is not a divisor of",
                "reorder" => "expected a permutation",
                _ => "is not the largest",
            };
            assert!(
                messages.iter().any(|m| m.contains(wanted)),
                "{problem}: {messages:?}"
            );
        }
    }
}

/// Runs `serve` on `problems`, expecting it to refuse to start: its stderr.
fn refused(dir: &Path, problems: &Path) -> String {
    let config = write_config(dir, problems, "");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(dir.join("judge.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(!status.success());
            assert!(!stdout.contains("listening on"), "{stdout}");
            return String::from_utf8_lossy(&out.stderr).into_owned();
        }
        if started.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("serve did not refuse the package within 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn hostile_validators_are_refused_at_load_and_nothing_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the host's secret 8f3a\n").unwrap();
    let cases = [
        (
            "loops",
            "int main() { volatile unsigned long n = 0; for (;;) n++; }\n".to_string(),
            "passed its time limit",
        ),
        (
            "floods",
            "#include <cstdio>\nint main(int, char** argv) {\n  std::FILE* f = std::fopen((std::string(argv[3]) + \"/judgemessage.txt\").c_str(), \"w\");\n  static char block[1 << 16];\n  for (int i = 0; i < (1 << 14); i++) std::fwrite(block, 1, sizeof block, f);\n  std::fclose(f);\n  return 42;\n}\n"
                .replace("#include <cstdio>", "#include <cstdio>\n#include <string>"),
            "passed its output limit (1 MiB)",
        ),
        (
            "peeks",
            format!(
                "#include <cstdio>\nint main() {{\n  std::FILE* f = std::fopen({:?}, \"r\");\n  if (!f) return 1;\n  char buf[64] = {{0}};\n  std::fread(buf, 1, 63, f);\n  std::printf(\"%s\", buf);\n  return 42;\n}}\n",
                secret.display().to_string()
            ),
            "exited with 1",
        ),
    ];
    for (name, validator, needle) in cases {
        let case_dir = dir.path().join(name);
        let problems = case_dir.join("problems");
        kattis::with_validator(&problems, name, &validator);
        let started = Instant::now();
        let stderr = refused(&case_dir, &problems);
        assert!(
            stderr.contains(&format!("problem {name}")),
            "{name}: {stderr}"
        );
        assert!(stderr.contains("is refused"), "{name}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{name}: `{needle}` not in {stderr}"
        );
        assert!(
            !stderr.contains("8f3a"),
            "{name}: the secret leaked: {stderr}"
        );
        assert!(started.elapsed() < Duration::from_secs(60), "{name}");
    }
}

#[test]
fn a_native_package_whose_data_fails_verify_is_refused_at_load_and_nothing_is_served() {
    // The old rule served a `problem.toml` package whatever its data: now a wrong answer
    // file, and an input that is not in canonical form, each stop serve naming the file.
    let dir = tempfile::tempdir().unwrap();
    for (case, file, text, needle) in [
        (
            "answer",
            "data/secret/02-ones.ans",
            "8\n",
            "differs from the reference solver's answer",
        ),
        (
            "input",
            "data/secret/01-zeros.in",
            "0 0 0 0 0 0 0 0 0\n",
            "01-zeros.in",
        ),
    ] {
        let case_dir = dir.path().join(case);
        std::fs::create_dir_all(&case_dir).unwrap();
        let pkg = crate::fixtures::package::small_binary_sudoku(&case_dir);
        std::fs::write(pkg.join(file), text).unwrap();
        let stderr = refused(&case_dir, &case_dir.join("problems"));
        assert!(
            stderr.contains("problem binary-sudoku") && stderr.contains("is refused"),
            "{case}: {stderr}"
        );
        assert!(
            stderr.contains(needle),
            "{case}: `{needle}` not in {stderr}"
        );
        if case == "answer" {
            assert!(stderr.contains("02-ones.ans"), "{stderr}");
        }
    }
}
