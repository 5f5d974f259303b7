//! A run-time error's stderr tail on the daemon: a Python exception on a sample test and a
//! Rust panic on a secret test (its message quoting the secret input). The admin's API and
//! submission page show both; the contestant's show the Python exception (a sample is public)
//! and never the panic (a secret test's stderr can carry its input).

use crate::fixtures::{accounts, daemon, web};

use accounts::{get_as, login, post_as};
use daemon::{client, root};
use serde_json::{json, Value};
use web::{start_with_contests, wait_judged, web_login, PW};

const EXCEPTION: &str = "ValueError: row 7 has a stray character";
const PANIC: &str = "secret input starts with";

/// Passes the sample, panics on any other input quoting its first row.
fn rust_source() -> String {
    let sample =
        std::fs::read_to_string(root().join("problems/binary-sudoku/data/sample/1.in")).unwrap();
    let answer =
        std::fs::read_to_string(root().join("problems/binary-sudoku/data/sample/1.ans")).unwrap();
    format!(
        r#"use std::io::Read;
fn main() {{
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    if s.split_whitespace().eq({sample:?}.split_whitespace()) {{
        print!("{{}}", {answer:?});
    }} else {{
        panic!("{PANIC} {{}}", s.split_whitespace().next().unwrap_or(""));
    }}
}}
"#
    )
}

async fn page(c: &reqwest::Client, d: &daemon::Daemon, id: i64) -> String {
    let r = c
        .get(d.url(&format!("/submissions/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r.text().await.unwrap()
}

fn tail_of<'a>(submission: &'a Value, test: &str) -> Option<&'a str> {
    submission["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"].as_str().unwrap().starts_with(test))
        .and_then(|t| t["stderr_tail"].as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stderr_tails_reach_the_jury_and_a_contestant_only_on_samples() {
    let j = start_with_contests(2, 1, &[]);
    let c = client();
    let base = j.d.url("");
    let alice = login(&c, base.trim_end_matches('/'), "alice", PW).await;
    let boss = login(&c, base.trim_end_matches('/'), "boss", PW).await;
    let python = format!(
        "import sys\nsys.stdin.read()\ndef parse():\n    raise ValueError({:?})\nparse()\n",
        EXCEPTION.trim_start_matches("ValueError: ")
    );
    let mut ids = Vec::new();
    for (language, source) in [("python", python), ("rust", rust_source())] {
        let (status, v) = post_as(
            &c,
            &j.d,
            "/api/submissions",
            Some(&alice),
            Some(json!({"problem": "binary-sudoku", "language": language, "source": source})),
        )
        .await;
        assert_eq!(status, 202, "{v}");
        ids.push(v["id"].as_i64().unwrap());
    }
    let (py, rs) = (ids[0], ids[1]);
    let judged_py = wait_judged(&c, &j.d, &boss, py).await;
    let judged_rs = wait_judged(&c, &j.d, &boss, rs).await;

    // The jury: both tails, whole, from the API and on the page.
    assert_eq!(judged_py["verdict"], "RE", "{judged_py}");
    let tail = tail_of(&judged_py, "sample/").unwrap();
    assert!(tail.ends_with(EXCEPTION), "{tail}");
    assert!(tail.contains("Traceback"), "{tail}");
    assert_eq!(judged_rs["verdict"], "RE", "{judged_rs}");
    let tail = tail_of(&judged_rs, "secret/").unwrap();
    assert!(tail.contains("panicked") && tail.contains(PANIC), "{tail}");
    assert_eq!(tail_of(&judged_rs, "sample/"), None, "the sample passed");
    let admin = web_login(&j.d, "boss").await;
    let html = page(&admin, &j.d, py).await;
    assert!(
        html.contains(EXCEPTION) && html.contains("Traceback"),
        "{html}"
    );
    let html = page(&admin, &j.d, rs).await;
    // (The page shows the source too, which holds the panic's format string.)
    assert!(
        html.contains("panicked at") && html.contains("stderr-tail"),
        "{html}"
    );

    // The contestant: the sample's exception, never the secret test's panic.
    let (status, mine) = get_as(&c, &j.d, &format!("/api/submissions/{py}"), Some(&alice)).await;
    assert_eq!(status, 200);
    assert!(tail_of(&mine, "sample/").unwrap().ends_with(EXCEPTION));
    let (_, mine) = get_as(&c, &j.d, &format!("/api/submissions/{rs}"), Some(&alice)).await;
    assert!(
        mine["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("stderr_tail").is_none()),
        "{mine}"
    );
    assert!(!mine["tests"].to_string().contains(PANIC), "{mine}");
    let contestant = web_login(&j.d, "alice").await;
    let html = page(&contestant, &j.d, py).await;
    assert!(
        html.contains(EXCEPTION) && html.contains("Traceback"),
        "{html}"
    );
    let html = page(&contestant, &j.d, rs).await;
    assert!(
        !html.contains("panicked at") && !html.contains("stderr-tail"),
        "{html}"
    );
}
