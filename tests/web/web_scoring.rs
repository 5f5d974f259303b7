//! A scoring problem on the pages, in a real headless Chromium (issue 29): the repository's
//! `groupsum` in an ioi contest; alice's submission solving the first two of its three
//! groups scores 50, and the board renders 50 in her cell and her total; her submission's
//! page lists each group's name and score, the tests of a secret group by number only.
//! Screenshots: `scoring-board`, `scoring-submission`.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::fixtures::browser::Browser;
use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;
use crate::fixtures::web::PW;

fn contest() -> String {
    fixed_five_hours("Subtasks", "ioi", &[], &[("A", "groupsum")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_and_the_submission_page_show_partial_scores() {
    let Some(b) = Browser::start().await else {
        return;
    };
    let k = kattis::contest(&["groupsum"], &[], ("subtasks", &contest()), 1, "").await;
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/kattis/groupsum/submissions/partially_accepted/int32.py"),
    )
    .unwrap();
    let r = k
        .client
        .post(k.daemon.url("/api/contests/subtasks/submissions"))
        .bearer_auth(&k.alice)
        .json(&json!({"problem": "A", "language": "python", "source": source}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 202);
    let id = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = wait_done_as(
        &k.client,
        &k.daemon,
        Some(&k.alice),
        &[id],
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(done[0]["score"], 50, "{}", done[0]);

    let base = k.daemon.base.clone();
    b.open(&format!("{base}/login?next=/contests/subtasks/scoreboard"))
        .await;
    b.fill("input[name=name]", "alice").await;
    b.fill("input[name=password]", PW).await;
    b.click_and_load("form.stack button[type=submit]").await;
    assert_eq!(b.path().await, "/contests/subtasks/scoreboard");
    let row = b.text("table.board tbody tr").await;
    // rank, user, total, then A's cell: 50 and 50.
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells, ["1", "alice", "50", "50"], "{row}");
    b.screenshot("scoring-board").await;

    b.open(&format!("{base}/submissions/{id}")).await;
    let groups = b.text("table#groups").await;
    let groups = groups.split_whitespace().collect::<Vec<_>>().join(" ");
    for line in [
        "secret/group1 AC 20 / 20",
        "secret/group2 AC 30 / 30",
        "secret/group3 WA 0 / 50",
    ] {
        assert!(groups.contains(line), "{line} not in {groups}");
    }
    let tests = b.text("table.tests").await;
    assert!(tests.contains("secret/group3/1"), "{tests}");
    assert!(!tests.contains("group1/01"), "a file name shown: {tests}");
    b.screenshot("scoring-submission").await;
    b.close().await;
}
