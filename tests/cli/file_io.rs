//! Packages that name files (issue 24): binary-sudoku's `bsudoku.in` / `bsudoku.out`, as
//! USACO judged. The program gets the test as the file and on stdin; its answer is the
//! output file when it wrote one, else stdout; an output file past the limit is OLE.

use std::path::Path;
use std::process::Command;

/// The accepted row DP of the fixtures, with `prologue` run first in `main` and `epilogue`
/// replacing its `printf` of the answer (`dp[0]`).
fn variant(prologue: &str, epilogue: &str) -> String {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/binary-sudoku/ac.c"),
    )
    .expect("fixture");
    let print = "printf(\"%d\\n\", dp[0]);";
    assert!(base.contains(print) && base.contains("int main(void) {"));
    let base = base
        .replace(
            "#include <stdio.h>",
            "#include <stdio.h>\n#include <signal.h>",
        )
        .replace(
            "int main(void) {",
            &format!("int main(void) {{\n{prologue}"),
        );
    base.replace(print, epilogue)
}

/// `sudojudge judge binary-sudoku` of `source` (as `name`) with `--json`.
fn judge(name: &str, source: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, source).expect("write source");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["judge", "binary-sudoku"])
        .arg(&path)
        .arg("--json")
        .output()
        .expect("run sudojudge judge");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn verdicts(v: &serde_json::Value) -> Vec<String> {
    v["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| format!("{} {}", t["name"], t["verdict"]))
        .collect()
}

#[test]
fn a_program_reading_and_writing_usaco_files_is_accepted() {
    // stdin and stdout reopened on the files: no byte goes through the real ones.
    let v = judge(
        "usaco.c",
        &variant(
            "if (!freopen(\"bsudoku.in\", \"r\", stdin)) return 3;\n\
             if (!freopen(\"bsudoku.out\", \"w\", stdout)) return 4;",
            "printf(\"%d\\n\", dp[0]);",
        ),
    );
    assert_eq!(v["verdict"], "AC", "{:?}", verdicts(&v));
    // The test is on stdin as well: the unchanged stdin program stays AC.
    let v = judge("plain.c", &variant("", "printf(\"%d\\n\", dp[0]);"));
    assert_eq!(v["verdict"], "AC", "{:?}", verdicts(&v));
}

#[test]
fn the_output_file_is_judged_over_stdout() {
    let file_right = variant(
        "",
        "FILE *f = fopen(\"bsudoku.out\", \"w\");\n\
         if (!f) return 5;\n\
         fprintf(f, \"%d\\n\", dp[0]);\n\
         fclose(f);\n\
         printf(\"debug: not the answer\\n\");",
    );
    let v = judge("file_right.c", &file_right);
    assert_eq!(v["verdict"], "AC", "{:?}", verdicts(&v));

    let stdout_right = variant(
        "",
        "FILE *f = fopen(\"bsudoku.out\", \"w\");\n\
         if (!f) return 5;\n\
         fprintf(f, \"%d\\n\", dp[0] + 1);\n\
         fclose(f);\n\
         printf(\"%d\\n\", dp[0]);",
    );
    let v = judge("stdout_right.c", &stdout_right);
    assert_eq!(v["verdict"], "WA", "{:?}", verdicts(&v));
    let tests = v["tests"].as_array().expect("tests");
    assert!(
        tests.iter().all(|t| t["verdict"] == "WA"),
        "{:?}",
        verdicts(&v)
    );
}

#[test]
fn an_output_file_past_the_output_limit_is_ole() {
    // binary-sudoku's output limit is 1 MiB: 2 MiB into the file, the right answer on stdout.
    let write_big = "FILE *f = fopen(\"bsudoku.out\", \"w\");\n\
         if (!f) return 5;\n\
         static char block[4096];\n\
         memset(block, '7', sizeof block);\n\
         for (int i = 0; i < 512; i++) fwrite(block, 1, sizeof block, f);\n\
         fclose(f);\n\
         printf(\"%d\\n\", dp[0]);";
    let v = judge("big_file.c", &variant("", write_big));
    assert_eq!(v["verdict"], "OLE", "{:?}", verdicts(&v));
    let tests = v["tests"].as_array().expect("tests");
    assert!(
        tests.iter().all(|t| t["verdict"] == "OLE"),
        "{:?}",
        verdicts(&v)
    );

    // Ignoring SIGXFSZ only turns the signal into a short write: still OLE, not AC.
    let v = judge(
        "big_file_no_signal.c",
        &variant("signal(SIGXFSZ, SIG_IGN);", write_big),
    );
    assert_eq!(v["verdict"], "OLE", "{:?}", verdicts(&v));
}
