//! A full score below 100 coloured as solved on the web board, in a real headless Chromium
//! (found while closing issues 29/30): in an ioi contest with `negsum` (maximum 15) and
//! `groupsum` (maximum 100), alice's 15 on A has the `solved` class and counts in A's
//! "Solved / tried" total, her 50 of 100 on B (an AC: a partially accepted solution) is
//! `partial` and solved by nobody; the jury's balloon page lists A's solve, not B's AC.
//! Screenshot: `full-score-board`.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::fixtures::browser::Browser;
use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;
use crate::fixtures::web::PW;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_score_below_100_is_coloured_and_counted_as_solved() {
    let Some(b) = Browser::start().await else {
        return;
    };
    let contest = fixed_five_hours("Full", "ioi", &[], &[("A", "negsum"), ("B", "groupsum")]);
    let k = kattis::contest(&["negsum", "groupsum"], &[], ("full", &contest), 2, "").await;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis");
    let mut ids = Vec::new();
    for (label, file) in [
        ("A", "negsum/submissions/accepted/sum.py"),
        ("B", "groupsum/submissions/partially_accepted/int32.py"),
    ] {
        let source = std::fs::read_to_string(root.join(file)).unwrap();
        let r = k
            .client
            .post(k.daemon.url("/api/contests/full/submissions"))
            .bearer_auth(&k.alice)
            .json(&json!({"problem": label, "language": "python", "source": source}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 202);
        ids.push(r.json::<Value>().await.unwrap()["id"].as_i64().unwrap());
    }
    let done = wait_done_as(
        &k.client,
        &k.daemon,
        Some(&k.alice),
        &ids,
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(
        (&done[0]["score"], &done[1]["score"]),
        (&json!(15), &json!(50))
    );

    let base = k.daemon.base.clone();
    b.open(&format!("{base}/login?next=/contests/full/scoreboard"))
        .await;
    b.fill("input[name=name]", "alice").await;
    b.fill("input[name=password]", PW).await;
    b.click_and_load("form.stack button[type=submit]").await;
    assert_eq!(b.path().await, "/contests/full/scoreboard");
    let row = b.text("table.board tbody tr").await;
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells, ["1", "alice", "65", "15", "50"], "{row}");
    // Column 4 is A, column 5 is B.
    assert_eq!(
        b.text("table.board tbody tr td:nth-child(4).solved").await,
        "15"
    );
    assert_eq!(
        b.text("table.board tbody tr td:nth-child(5).partial").await,
        "50"
    );
    let totals = b.text("table.board tfoot tr.totals").await;
    let totals = totals.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(totals, "Solved / tried 1 / 1 0 / 1");
    b.screenshot("full-score-board").await;
    b.close().await;

    // The jury's balloons: a solve is the board's, not any AC.
    assert_eq!(done[1]["verdict"], "AC", "{}", done[1]);
    let boss = crate::fixtures::web::web_login(&k.daemon, "boss").await;
    let r = boss
        .get(k.daemon.url("/contests/full/balloons"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let html = r.text().await.unwrap();
    let rows: Vec<&str> = html.split("<tr").skip(2).collect();
    assert_eq!(rows.len(), 1, "alice's A only: {html}");
    assert!(
        rows[0].contains(&format!("/submissions/{}\"", ids[0])),
        "{}",
        rows[0]
    );
}
