//! A scoring package whose scores go below 0 judged through the daemon in an ioi contest
//! (issue 29: a score's range comes from the package): `negsum` (each secret test 5 points,
//! -5 when rejected) keeps a submission's negative score, and the board shows the best of
//! the contestant's scores even when every one is negative; a problem never tried shows no
//! score at all.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;

#[tokio::test]
async fn negative_scores_are_kept_on_the_submission_and_the_board() {
    let contest = fixed_five_hours(
        "Below zero",
        "ioi",
        &[],
        &[("A", "negsum"), ("B", "groupsum")],
    );
    let kattis::KattisContest {
        dir: _dir,
        daemon: d,
        client: c,
        boss: _boss,
        alice,
    } = kattis::contest(&["negsum", "groupsum"], &[], ("below", &contest), 2, "").await;
    let absolute = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/kattis/negsum/submissions/wrong_answer/absolute.py"),
    )
    .unwrap();
    let mut ids = Vec::new();
    // Wrong on every secret test (-15), then on two of three (-5).
    for source in ["print(0)\n", absolute.as_str()] {
        let r = c
            .post(d.url("/api/contests/below/submissions"))
            .bearer_auth(&alice)
            .json(&json!({"problem": "A", "language": "python", "source": source}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 202, "{source}");
        let v: Value = r.json().await.unwrap();
        ids.push(v["id"].as_i64().unwrap());
    }
    let done = wait_done_as(&c, &d, Some(&alice), &ids, Duration::from_secs(120)).await;
    assert_eq!(
        (&done[0]["verdict"], &done[0]["score"]),
        (&json!("WA"), &json!(-15)),
        "{:#}",
        done[0]
    );
    assert_eq!(
        (&done[1]["verdict"], &done[1]["score"]),
        (&json!("WA"), &json!(-5)),
        "{:#}",
        done[1]
    );

    let board: Value = c
        .get(d.url("/api/contests/below/scoreboard"))
        .bearer_auth(&alice)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let row = &board["rows"][0];
    assert_eq!(row["user"], "alice", "{board:#}");
    assert_eq!(
        row["cells"][0]["score"], -5,
        "the best, below zero: {board:#}"
    );
    assert_eq!(row["cells"][0]["attempts"], 2, "{board:#}");
    assert_eq!(row["cells"][1]["state"], "empty", "{board:#}");
    assert_eq!(
        row["cells"][1]["score"],
        Value::Null,
        "never tried: {board:#}"
    );
    assert_eq!(row["score"], -5, "{board:#}");
}
