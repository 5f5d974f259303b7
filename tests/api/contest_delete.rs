//! Deleting a contest made at runtime (issue 37's brief, point 3), against the real daemon:
//! `DELETE /api/contests/{id}` for admins. A contest nobody used is deleted (its announcement
//! goes with it), unknown from then on, and its id may be used again; one with a submission
//! is refused (409) and kept with its submission; a contest file's is refused (403: the file
//! wins); a non-admin is refused (403), a stranger too (401).

use reqwest::Method;
use serde_json::{json, Value};

use crate::fixtures::accounts::call;
use crate::fixtures::contests::{at, code, message, start, SPRING, T0};

fn round(id: &str) -> Value {
    json!({
        "id": id,
        "title": format!("Round {id}"),
        "format": "icpc",
        "timing": {"kind": "fixed", "start": T0, "duration": "5h"},
        "problems": [{"label": "A", "problem": "binary-sudoku"}],
    })
}

/// The contests' ids in a list, sorted.
fn ids(list: &Value) -> Vec<String> {
    let mut ids: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contest_made_at_runtime_is_deleted_until_someone_used_it() {
    let j = start(&[("spring", SPRING)], &at(-60)).await;
    let delete = |id: &str, token: Option<&str>| {
        let (c, d) = (j.c.clone(), &j.d);
        let (path, token) = (format!("/api/contests/{id}"), token.map(str::to_string));
        async move { call(&c, d, Method::DELETE, &path, token.as_deref(), None).await }
    };
    for id in ["mistake", "used"] {
        let (s, v) = j
            .post("/api/contests", Some(&j.boss), Some(round(id)))
            .await;
        assert_eq!(s, 201, "{v}");
    }
    let (s, v) = j
        .post(
            "/api/contests/mistake/clarifications",
            Some(&j.boss),
            Some(json!({"text": "Welcome."})),
        )
        .await;
    assert_eq!(s, 201, "{v}");
    let submission = j.submit_binary_sudoku_ac("used", &j.boss, "A").await;
    j.wait_done(submission).await;

    // Only the jury deletes.
    let (s, v) = delete("mistake", Some(&j.alice)).await;
    assert_eq!(s, 403, "{v}");
    let (s, _) = delete("mistake", None).await;
    assert_eq!(s, 401);
    // A file's contest: the file wins; an unknown one: 404.
    let (s, v) = delete("spring", Some(&j.boss)).await;
    assert_eq!((s, code(&v)), (403, "forbidden"), "{v}");
    assert!(message(&v).contains("spring.toml"), "{v}");
    let (s, v) = delete("nowhere", Some(&j.boss)).await;
    assert_eq!((s, code(&v)), (404, "not_found"), "{v}");
    // One with a submission is kept, and says what to do instead.
    let (s, v) = delete("used", Some(&j.boss)).await;
    assert_eq!((s, code(&v)), (409, "conflict"), "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("1 submission") && message.contains("end it sooner"),
        "{v}"
    );
    let (_, list) = j.get("/api/contests", Some(&j.boss)).await;
    assert_eq!(ids(&list), ["mistake", "spring", "used"], "{list}");
    let (s, v) = j
        .get(&format!("/api/submissions/{submission}"), Some(&j.boss))
        .await;
    assert_eq!((s, v["status"].as_str()), (200, Some("done")), "{v}");
    let (s, v) = j.get("/api/contests/used/definition", Some(&j.boss)).await;
    assert_eq!((s, v["revision"].as_u64()), (200, Some(1)), "{v}");

    // Nobody used it: deleted, unknown from the next request on.
    let (s, v) = delete("mistake", Some(&j.boss)).await;
    assert_eq!((s, v), (204, Value::Null));
    let (s, _) = j.get("/api/contests/mistake", Some(&j.alice)).await;
    assert_eq!(s, 404);
    let (s, _) = j
        .get("/api/contests/mistake/definition", Some(&j.boss))
        .await;
    assert_eq!(s, 404);
    let (_, list) = j.get("/api/contests", Some(&j.alice)).await;
    assert_eq!(ids(&list), ["spring", "used"], "{list}");
    let (s, _) = delete("mistake", Some(&j.boss)).await;
    assert_eq!(s, 404, "deleted once");

    // Its id may be used again: a new contest, without the old one's announcement, at a
    // revision past the deleted one's (the definitions' version never goes back).
    let (s, v) = j
        .post("/api/contests", Some(&j.boss), Some(round("mistake")))
        .await;
    assert_eq!((s, v["revision"].as_u64()), (201, Some(3)), "{v}");
    let (s, v) = j
        .get("/api/contests/mistake/definition", Some(&j.boss))
        .await;
    assert_eq!((s, v["revision"].as_u64()), (200, Some(3)), "{v}");
    let (s, v) = j
        .get("/api/contests/mistake/clarifications", Some(&j.boss))
        .await;
    assert_eq!((s, v), (200, json!([])));
    let (_, list) = j.get("/api/contests", Some(&j.alice)).await;
    assert_eq!(ids(&list), ["mistake", "spring", "used"], "{list}");
}
