//! The HTTP API's reads, custom runs and every bad request, against the real daemon.

use crate::fixtures::daemon;

use std::time::Duration;

use daemon::{client, fixture, get_json, submit, trimmed_problems, Daemon};
use serde_json::{json, Value};

async fn error_of(r: reqwest::Response, status: u16) -> String {
    assert_eq!(r.status().as_u16(), status);
    let v: Value = r.json().await.unwrap();
    let code = v["error"]["code"].as_str().expect("error.code").to_string();
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{v}"
    );
    code
}

/// A body far over the server's limit, and over what it reads to throw away, is refused from
/// its Content-Length alone (the server answers 413 and closes without reading it, so a raw
/// socket reads the answer).
async fn oversized_body_status(d: &Daemon) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = d.base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/submissions HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        64 * 1024 * 1024
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(b"{\"source\": \"").await.unwrap();
    let mut answer = vec![0u8; 4096];
    let n = s.read(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer[..n]).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_runs_and_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 1);
    let d = Daemon::start(dir.path(), &dir.path().join("judge.db"), &problems, 1);
    let c = client();

    // Health.
    let h = get_json(&c, d.url("/api/health")).await;
    assert_eq!(h["ok"], true);
    assert_eq!(h["workers"], 1);
    assert_eq!(h["queue_depth"], 0);
    assert!(h["sandbox"].is_object(), "{h}");

    // Problems.
    let list = get_json(&c, d.url("/api/problems")).await;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "binary-sudoku",
            "sudoku",
            "sudoku-hard",
            "target-sudoku",
            "target-sudoku-clash"
        ]
    );
    let sudoku = sudojudge::problem::load(&problems.join("sudoku")).unwrap();
    assert_eq!(list[1]["time_limit_ms"], sudoku.time_limit_ms);
    assert_eq!(list[1]["tests"], sudoku.tests.len());
    let one = get_json(&c, d.url("/api/problems/target-sudoku")).await;
    assert!(!one["statement"].as_str().unwrap().is_empty());
    assert!(one["samples"][0]["input"].as_str().unwrap().contains('0'));
    assert_eq!(
        error_of(
            c.get(d.url("/api/problems/chess")).send().await.unwrap(),
            404
        )
        .await,
        "not_found"
    );

    // Bad submissions: nothing stored.
    let post = |body: String| {
        c.post(d.url("/api/submissions"))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    assert_eq!(
        error_of(post("{not json".into()).await.unwrap(), 400).await,
        "malformed_json"
    );
    assert_eq!(
        error_of(post(r#"{"problem":"sudoku"}"#.into()).await.unwrap(), 400).await,
        "malformed_json"
    );
    let body =
        |p: &str, l: &str, s: &str| json!({"problem": p, "language": l, "source": s}).to_string();
    assert_eq!(
        error_of(post(body("chess", "c", "x")).await.unwrap(), 422).await,
        "unknown_problem"
    );
    assert_eq!(
        error_of(post(body("sudoku", "cobol", "x")).await.unwrap(), 422).await,
        "unknown_language"
    );
    assert_eq!(
        error_of(post(body("sudoku", "c", "  ")).await.unwrap(), 422).await,
        "invalid"
    );
    let big = "x".repeat(256 * 1024 + 1);
    assert_eq!(
        error_of(post(body("sudoku", "c", &big)).await.unwrap(), 413).await,
        "too_large"
    );
    assert!(oversized_body_status(&d).await.starts_with("HTTP/1.1 413"));
    let r = c
        .post(d.url("/api/submissions"))
        .body(body("sudoku", "c", "int main(){}"))
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(r, 415).await, "unsupported_media_type");
    let listed = get_json(&c, d.url("/api/submissions")).await;
    assert_eq!(
        listed.as_array().unwrap().len(),
        0,
        "bad requests stored nothing"
    );

    // Missing submissions, bad queries, unknown routes.
    for path in [
        "/api/submissions/999",
        "/api/submissions/abc",
        "/api/nothing",
    ] {
        assert_eq!(
            error_of(c.get(d.url(path)).send().await.unwrap(), 404).await,
            "not_found"
        );
    }
    let r = c
        .post(d.url("/api/submissions/999/rejudge"))
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(r, 404).await, "not_found");
    for q in ["limit=0", "limit=abc", "before=x", "color=red"] {
        let r = c
            .get(d.url(&format!("/api/submissions?{q}")))
            .send()
            .await
            .unwrap();
        assert_eq!(error_of(r, 400).await, "bad_query", "{q}");
    }

    // Listing newest first, by problem, with paging.
    let a = submit(
        &c,
        &d,
        "binary-sudoku",
        "python",
        &fixture("binary-sudoku", "wa.py"),
    )
    .await;
    let b = submit(&c, &d, "sudoku", "c", &fixture("sudoku", "ce.c")).await;
    let e = submit(
        &c,
        &d,
        "binary-sudoku",
        "c",
        &fixture("binary-sudoku", "ce.c"),
    )
    .await;
    let page = |q: &'static str| {
        let c = c.clone();
        let url = d.url(&format!("/api/submissions?{q}"));
        async move {
            let v = get_json(&c, url).await;
            v.as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(page("").await, [e, b, a]);
    assert_eq!(page("problem=binary-sudoku").await, [e, a]);
    assert_eq!(page("problem=binary-sudoku&limit=1").await, [e]);
    let url = d.url(&format!("/api/submissions?before={e}&limit=5"));
    let v = get_json(&c, url).await;
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert!(v[0].get("source").is_none(), "listings carry no source");
    daemon::wait_done(&c, &d, &[a, b, e], Duration::from_secs(60)).await;

    // Custom invocation.
    let run = |language: &str, source: &str, stdin: &str| {
        c.post(d.url("/api/runs"))
            .json(&json!({"language": language, "source": source, "stdin": stdin}))
            .send()
    };
    let echo = "#include <stdio.h>\nint main(void){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);return 0;}";
    let r = run("c", echo, "2 40").await.unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        (v["status"].as_str(), v["stdout"].as_str()),
        (Some("ok"), Some("42\n")),
        "{v}"
    );
    assert_eq!(v["compile"]["ok"], true);
    let v: Value = run("python", "import sys\nsys.exit(4)", "")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (v["status"].as_str(), v["exit_code"].as_i64()),
        (Some("runtime_error"), Some(4)),
        "{v}"
    );
    let v: Value = run("c", "int main( {", "")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["status"], "compile_error", "{v}");
    assert!(v["compile"]["log"].as_str().unwrap().contains("error"));
    assert_eq!(
        error_of(run("cobol", "x", "").await.unwrap(), 422).await,
        "unknown_language"
    );
    let big_stdin = "1".repeat(1024 * 1024 + 1);
    assert_eq!(
        error_of(run("c", echo, &big_stdin).await.unwrap(), 413).await,
        "too_large"
    );
}
