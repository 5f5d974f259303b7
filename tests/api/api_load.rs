//! 50 submissions posted at once are all stored and all judged.

use crate::fixtures::daemon;

use std::time::Duration;

use daemon::{client, fixture, get_json, submit, trimmed_problems, wait_done, Daemon};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_submissions_are_all_judged() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 2);
    let d = Daemon::start(dir.path(), &dir.path().join("judge.db"), &problems, 2);
    let c = client();
    let wa = fixture("binary-sudoku", "wa.py");
    let ac = fixture("binary-sudoku", "ac.c");
    let posts = (0..50).map(|i| {
        let (c, d, src, lang) = (
            &c,
            &d,
            if i % 10 == 0 { &ac } else { &wa },
            if i % 10 == 0 { "c" } else { "python" },
        );
        async move { submit(c, d, "binary-sudoku", lang, src).await }
    });
    let mut ids = futures_join_all(posts).await;
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 50, "50 distinct ids");
    let done = wait_done(&c, &d, &ids, Duration::from_secs(180)).await;
    for s in &done {
        let expected = if s["language"] == "c17" { "AC" } else { "WA" };
        assert_eq!(s["verdict"], expected, "{s}");
        assert!(!s["tests"].as_array().unwrap().is_empty());
    }
    let h = get_json(&c, d.url("/api/health")).await;
    assert_eq!(h["queue_depth"], 0);
}

/// Runs futures concurrently (no `futures` crate in the dependencies).
async fn futures_join_all<F: std::future::Future<Output = i64>>(
    futs: impl Iterator<Item = F>,
) -> Vec<i64> {
    let mut set = Vec::new();
    for f in futs {
        set.push(f);
    }
    let mut out = Vec::with_capacity(set.len());
    let mut pinned: Vec<std::pin::Pin<Box<F>>> = set.into_iter().map(Box::pin).collect();
    std::future::poll_fn(|cx| {
        let mut i = 0;
        while i < pinned.len() {
            if let std::task::Poll::Ready(v) = pinned[i].as_mut().poll(cx) {
                out.push(v);
                drop(pinned.swap_remove(i));
            } else {
                i += 1;
            }
        }
        if pinned.is_empty() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    out
}
