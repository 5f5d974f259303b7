//! The originals' data (issue 24): target-sudoku holds NOIP's kind of grids only, so a
//! solution written for NOIP (no clash check) is AC there and WA only on the clashing grids
//! of the `target-sudoku-clash` variant; `verify` refuses a clashing grid in a `noip` package.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sudojudge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .current_dir(dir)
        .env_remove("SUDOJUDGE_CONFIG")
        .args(args)
        .output()
        .expect("run sudojudge")
}

fn noip_solution() -> String {
    root()
        .join("problems/target-sudoku/submissions/accepted/noip_freopen.cpp98.cpp")
        .display()
        .to_string()
}

#[test]
fn a_solution_without_a_clash_check_is_ac_on_noip_data_and_wa_only_on_clashing_grids() {
    let judge = |problem: &str| -> serde_json::Value {
        let out = sudojudge(
            &root(),
            &[
                "judge",
                problem,
                &noip_solution(),
                "--language",
                "cpp98",
                "--json",
            ],
        );
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
        })
    };
    let v = judge("target-sudoku");
    assert_eq!(v["verdict"], "AC", "{v}");
    let v = judge("target-sudoku-clash");
    assert_eq!(v["verdict"], "WA", "{v}");
    let failed: Vec<&str> = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["verdict"] != "AC")
        .map(|t| t["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(failed, ["secret/21-full-grid-clashing"], "{v}");
}

#[test]
fn verify_refuses_a_clashing_grid_in_noips_data() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("problems/target-sudoku");
    for sub in ["data/sample", "data/secret"] {
        std::fs::create_dir_all(package.join(sub)).unwrap();
    }
    let src = root().join("problems/target-sudoku");
    for file in [
        "problem.toml",
        "statement.md",
        "data/sample/1.in",
        "data/sample/1.ans",
    ] {
        std::fs::copy(src.join(file), package.join(file)).unwrap();
    }
    let clash = root().join("problems/target-sudoku-clash/data/secret/18-clash-in-box");
    for ext in ["in", "ans"] {
        std::fs::copy(
            clash.with_extension(ext),
            package.join(format!("data/secret/01-clash.{ext}")),
        )
        .unwrap();
    }
    let problems = dir.path().join("problems").display().to_string();
    let out = sudojudge(
        dir.path(),
        &["verify", "--data-only", "--problems", &problems],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("01-clash.in") && text.contains("clash") && text.contains("noip"),
        "{text}"
    );
    // A contest listing a language the configuration does not offer fails too.
    let contests = dir.path().join("contests");
    std::fs::create_dir_all(&contests).unwrap();
    std::fs::write(
        contests.join("era.toml"),
        "title = \"Era\"\nformat = \"icpc\"\nlanguages = [\"cpp98\", \"cpp03\"]\n\
         [timing]\nkind = \"open\"\n[[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n",
    )
    .unwrap();
    let contests_arg = contests.display().to_string();
    let real = root().join("problems").display().to_string();
    let out = sudojudge(
        dir.path(),
        &[
            "verify",
            "--data-only",
            "--problems",
            &real,
            "--contests",
            &contests_arg,
            "sudoku",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("\"cpp03\" is no language"), "{text}");

    // The same grid is what the variant's `clashing` profile is for: its data passes.
    let out = sudojudge(&root(), &["verify", "--data-only", "target-sudoku-clash"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
