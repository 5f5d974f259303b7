//! A package folder dropped into the problems folder of a running daemon (not uploaded):
//! checked as an upload is (its input validator run over its data in the sandbox), then
//! served and judged without a restart; a broken one is never served, and its reason is on
//! the admin page (where an upload's refusal is shown), naming the folder and the failing
//! test, and in the daemon's log.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::fixtures::accounts::{add_user, login, post_as};
use crate::fixtures::daemon::{client, start_fresh, wait_done_as, Daemon};
use crate::fixtures::kattis::copy_package;
use crate::fixtures::web::{web_login, PW};

async fn status_of(c: &reqwest::Client, d: &Daemon, problem: &str) -> u16 {
    c.get(d.url(&format!("/api/problems/{problem}")))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Copies the `sum` fixture in as a hidden folder, lets `change` break it or not, then
/// renames it to `name` in one step, as docs/problems.md tells hosts to.
fn drop_in(problems: &Path, name: &str, change: impl FnOnce(&Path)) {
    let hidden = copy_package(problems, "sum");
    let staging = problems.join(format!(".{name}"));
    std::fs::rename(&hidden, &staging).unwrap();
    std::fs::write(staging.join(".timelimit"), "1\n").unwrap();
    change(&staging);
    std::fs::rename(&staging, problems.join(name)).unwrap();
}

#[tokio::test]
async fn a_dropped_package_folder_is_checked_and_served_and_a_broken_one_is_not() {
    let (dir, d) = start_fresh(1, 1, "rescan_ms = 200\n");
    let settings = dir.path().join("config.toml");
    let db = dir.path().join("judge.db");
    add_user(&settings, &db, "alice", false, PW);
    add_user(&settings, &db, "boss", true, PW);
    let c = client();
    let alice = login(&c, &d.base, "alice", PW).await;
    let problems = dir.path().join("problems");

    // A broken folder first: its input validator rejects a test.
    drop_in(&problems, "broken", |p| {
        std::fs::write(p.join("data/secret/05.in"), "1 2 3\n").unwrap();
        std::fs::write(p.join("data/secret/05.ans"), "6\n").unwrap();
    });
    // A good one beside it: served within a few passes.
    assert_eq!(status_of(&c, &d, "sum").await, 404);
    drop_in(&problems, "sum", |_| {});
    let started = Instant::now();
    while status_of(&c, &d, "sum").await != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the dropped folder is not served: {}",
            d.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/kattis/sum/submissions/accepted/sum.py"),
    )
    .unwrap();
    let body = json!({"problem": "sum", "language": "python", "source": source});
    let (status, v) = post_as(&c, &d, "/api/submissions", Some(&alice), Some(body)).await;
    assert_eq!(status, 202, "{v}");
    let id = v["id"].as_i64().unwrap();
    let done = wait_done_as(&c, &d, Some(&alice), &[id], Duration::from_secs(120)).await;
    assert_eq!(done[0]["verdict"], "AC", "{}", done[0]);

    // The broken one had as many passes as the good one and more: never served, and the
    // log says which folder and which test.
    assert_eq!(status_of(&c, &d, "broken").await, 404, "{}", d.log());
    let body = json!({"problem": "broken", "language": "python", "source": "print(1)"});
    let (status, v) = post_as(&c, &d, "/api/submissions", Some(&alice), Some(body)).await;
    assert!(status == 404 || status == 422, "{status} {v}");
    let admin = web_login(&d, "boss").await;
    let page = admin
        .get(d.url("/admin"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let shown = page
        .lines()
        .find(|l| l.contains("Package folder not served: broken: "))
        .unwrap_or_else(|| panic!("the admin page does not say why: {page}"));
    assert!(shown.contains("05"), "{shown}");
    assert!(!page.contains("not served: sum"), "{page}");
    let log = d.log();
    let line = log
        .lines()
        .find(|l| l.contains("package folder not served") && l.contains("broken"))
        .unwrap_or_else(|| panic!("no reason logged for the broken folder: {log}"));
    assert!(line.contains("secret/05"), "{line}");
}
