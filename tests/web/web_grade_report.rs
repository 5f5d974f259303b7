//! `sudojudge grade --report`: the HTML report opened in a real headless Chromium. A class
//! of binary-sudoku where `mallory.cpp` is `alice.c` with other names and four lines of her
//! own before `main`: the pair's regions are highlighted on exactly the copied lines of both
//! files (alice's 10-45, mallory's 14-49), the regions' table says so, the verdict counts,
//! score histogram and similarity distribution are there; a student's source holding
//! `</pre><script>` and a file named `<img onerror>` stay text (no script runs, the title is
//! the report's). Screenshots go to `target/screenshots/grade_report*.png`.

use crate::fixtures::{browser, config, package};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use browser::Browser;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn source(rel: &str) -> String {
    std::fs::read_to_string(root().join("problems/binary-sudoku/submissions").join(rel)).unwrap()
}

/// Lines mallory added before `main`, shifting every copied line by as many.
const OWN_LINES: u32 = 4;

/// The class: alice, her copy mallory, the attack, and independent work.
fn class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    let alice = source("accepted/row_dp.c");
    std::fs::write(class.join("alice.c"), &alice).unwrap();
    // Other names, her own helper before `main`, handed in as C++.
    let mut mallory = String::new();
    for (n, line) in alice.lines().enumerate() {
        if n + 1 == 10 {
            mallory
                .push_str("static int spread(int q) {\n    int z = q * 7;\n    return z + 3;\n}\n");
        }
        let renamed = line
            .replace("orig", "grid")
            .replace("evens", "pats")
            .replace("effect", "eff")
            .replace("next", "nxt")
            .replace("cost", "c");
        mallory.push_str(&renamed);
        mallory.push('\n');
    }
    std::fs::write(class.join("mallory.cpp"), mallory).unwrap();
    for rel in [
        "accepted/cell_dp.rs",
        "wrong_answer/greedy_flips.cpp",
        "wrong_answer/max_odd_units.c",
        "accepted/band_parity.py",
        "run_time_error/space_separated.py",
    ] {
        let name = Path::new(rel).file_name().unwrap();
        std::fs::write(class.join(name), source(rel)).unwrap();
    }
    // A copy of band_parity carrying markup in a string, under a name that is markup too.
    let evil = source("accepted/band_parity.py").replacen(
        "\n",
        "\n_ = \"</pre><script>document.title = 'pwned'</script>\"\n",
        1,
    );
    std::fs::write(class.join("<img src=x onerror=alert(1)>.py"), evil).unwrap();
    class
}

fn marked(lines: &serde_json::Value) -> BTreeSet<u32> {
    lines
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as u32)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_shows_the_copied_lines_side_by_side_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    package::small_binary_sudoku(dir.path());
    let config = config::write_config(dir.path(), &dir.path().join("problems"), "");
    let class = class(dir.path());
    let report = dir.path().join("out/report.html");
    let run = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .args(["grade", "binary-sudoku"])
        .arg(&class)
        .arg("--report")
        .arg(&report)
        .arg("--config")
        .arg(&config)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        !html.contains("<script>document.title"),
        "escaped in the file"
    );
    assert!(!html.contains("<img src=x"), "escaped in the file");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network"
    );

    let Some(b) = Browser::start().await else {
        return;
    };
    b.resize(1280, 1000).await;
    b.open(&format!("file://{}", report.display())).await;
    let title = b.client.title().await.unwrap();
    assert_eq!(title, "Grades of binary-sudoku", "no student's script ran");
    assert!(!b.alert_open().await);
    let scripts = b
        .client
        .execute("return document.scripts.length", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, 1, "only the report's own script");
    let body = b.body().await;
    assert!(
        body.contains("</pre><script>document.title = 'pwned'</script>"),
        "the student's text is shown as text"
    );
    assert!(
        body.contains("<img src=x onerror=alert(1)>"),
        "the name as text"
    );
    assert!(body.contains("8 students"), "{body}");
    assert!(
        body.contains("RE 1") && body.contains("stderr (last lines)"),
        "the run-time error and its stderr: {body}"
    );
    for part in [
        ".verdict-count",
        ".score-histogram .bar",
        "svg.distribution rect.bin",
    ] {
        let n = b
            .client
            .execute(
                "return document.querySelectorAll(arguments[0]).length",
                vec![part.into()],
            )
            .await
            .unwrap();
        assert!(n.as_u64().unwrap() > 0, "{part}");
    }
    let threshold = b
        .client
        .execute(
            "return document.querySelector('svg.distribution text.threshold').textContent",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(threshold, "threshold 50%");

    // The pair alice ~ mallory: the highlighted lines are the copied ones, on both sides.
    let pair = b
        .client
        .execute(
            r#"const p = [...document.querySelectorAll('.pair')].find(p =>
                   p.querySelector('h4').textContent.includes('alice ~ mallory'));
               if (!p) return null;
               const lines = side => [...p.querySelectorAll(side + ' .ln[data-region]')]
                   .map(l => Number(l.dataset.line));
               const regions = [...p.querySelectorAll('tr.region')].map(r =>
                   [r.dataset.linesA, r.dataset.linesB]);
               return {a: lines('.side-a'), b: lines('.side-b'), regions,
                       similarity: p.dataset.similarity,
                       text: p.querySelector('.side-b .ln[data-line="14"]').textContent};"#,
            vec![],
        )
        .await
        .unwrap();
    assert!(!pair.is_null(), "the pair is shown: {body}");
    let a = marked(&pair["a"]);
    let b_lines = marked(&pair["b"]);
    let copied: BTreeSet<u32> = (10..=45).collect();
    assert_eq!(a, copied, "alice's copied lines: {pair}");
    assert_eq!(
        b_lines,
        copied.iter().map(|n| n + OWN_LINES).collect(),
        "mallory's copied lines, after her own four: {pair}"
    );
    assert_eq!(pair["regions"], serde_json::json!([["10-45", "14-49"]]));
    assert_eq!(pair["similarity"], "100.0");
    assert_eq!(pair["text"], "int main(void) {");
    let wide = b
        .client
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(wide, true, "no sideways scrolling of the page");
    b.screenshot("grade_report").await;
    b.client
        .execute(
            "document.querySelector('svg.distribution').scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    b.screenshot("grade_report_similarity").await;
    // The pair, scrolled to, for the docs.
    b.client
        .execute(
            "[...document.querySelectorAll('.pair')].find(p => p.textContent.includes('alice ~ mallory')).scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    b.screenshot("grade_report_pair").await;
    // A small one of the pair for docs/grade.md.
    b.resize(900, 560).await;
    b.client
        .execute(
            "[...document.querySelectorAll('.pair')].find(p => p.textContent.includes('alice ~ mallory')).scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    b.screenshot("grade_report_small").await;
    b.close().await;
}
