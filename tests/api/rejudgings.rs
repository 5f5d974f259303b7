//! Rejudgings run aside (issue 30, point 3): after a data fix (one answer file changed, the
//! daemon started again on it), a contest's rejudging judges every judged submission again
//! without touching the stored verdicts or the board; its preview lists exactly the
//! submissions whose verdict changes and the contestants whose standing changes; dropping it
//! changes nothing, and applying a second one changes the board exactly as it previewed.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fixtures::accounts::{get_as, post_as};
use crate::fixtures::daemon::{wait_done_as, Daemon};
use crate::fixtures::data_fix;

/// The rejudging once every run is judged.
async fn judged(c: &reqwest::Client, d: &Daemon, boss: &str, id: i64) -> Value {
    let started = Instant::now();
    loop {
        let (s, v) = get_as(c, d, &format!("/api/rejudgings/{id}"), Some(boss)).await;
        assert_eq!(s, 200, "{v}");
        if v["judged"] == v["total"] {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "rejudging {id} not judged in 2 min: {v}\n{}",
            d.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Each contestant's standing (rank, solved, penalty, score) on the jury's board.
async fn standings(c: &reqwest::Client, d: &Daemon, boss: &str) -> BTreeMap<String, Value> {
    let (s, v) = get_as(c, d, "/api/contests/cup/scoreboard", Some(boss)).await;
    assert_eq!(s, 200, "{v}");
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let standing = json!({"rank": r["rank"], "solved": r["solved"],
                                  "penalty": r["penalty"], "score": r["score"]});
            (r["user"].as_str().unwrap().to_string(), standing)
        })
        .collect()
}

/// The submissions once judged: (verdict, score) each.
async fn results(c: &reqwest::Client, d: &Daemon, boss: &str, ids: &[i64]) -> Vec<(Value, Value)> {
    wait_done_as(c, d, Some(boss), ids, Duration::from_secs(120))
        .await
        .iter()
        .map(|s| (s["verdict"].clone(), s["score"].clone()))
        .collect()
}

/// The verdicts of `results`.
fn verdicts(results: &[(Value, Value)]) -> Vec<&str> {
    results.iter().map(|(v, _)| v.as_str().unwrap()).collect()
}

/// The preview's changes, from the stored (verdict, score) before and after.
fn changes(
    ids: &[i64; 2],
    users: [&str; 2],
    old: &[(Value, Value)],
    new: &[(Value, Value)],
) -> Value {
    Value::Array(
        (0..2)
            .map(|i| {
                json!({"submission": ids[i], "user": users[i], "problem": "A",
                       "old_verdict": old[i].0, "old_score": old[i].1,
                       "new_verdict": new[i].0, "new_score": new[i].1})
            })
            .collect(),
    )
}

async fn post(
    c: &reqwest::Client,
    d: &Daemon,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    post_as(c, d, path, Some(token), body).await
}

#[tokio::test]
async fn a_rejudging_previews_the_data_fix_drops_without_change_and_applies_as_previewed() {
    // Three submissions judged, then the data fix: test 03's answer was wrong; the daemon is
    // started again on the new data.
    let (ids, first_judged, fix) = data_fix::judged_then_fixed(None).await;
    let [right, fixed, _] = ids;
    let before: Vec<(Value, Value)> = first_judged
        .iter()
        .map(|s| (s["verdict"].clone(), s["score"].clone()))
        .collect();
    assert_eq!(verdicts(&before), ["AC", "WA", "WA"]);
    let data_fix::Fixed {
        dir: _dir,
        daemon: d,
        client: c,
        boss,
        alice,
    } = fix;
    let board = standings(&c, &d, &boss).await;
    assert_eq!(
        (
            board["alice"]["solved"].clone(),
            board["bob"]["solved"].clone()
        ),
        (json!(1), json!(0)),
        "{board:?}"
    );

    // The jury only; a scope that names nothing is refused.
    let body = json!({"contest": "cup", "problem": "A"});
    let (s, _) = post(&c, &d, "/api/rejudgings", &alice, Some(body.clone())).await;
    assert_eq!(s, 403);
    let (s, _) = get_as(&c, &d, "/api/rejudgings", Some(&alice)).await;
    assert_eq!(s, 403);
    let z = json!({"contest": "cup", "problem": "Z"});
    let (s, v) = post(&c, &d, "/api/rejudgings", &boss, Some(z)).await;
    assert_eq!(s, 422, "{v}");
    let none = json!({"contest": "cup", "submissions": [999_999]});
    let (s, v) = post(&c, &d, "/api/rejudgings", &boss, Some(none)).await;
    assert_eq!(s, 422, "{v}");
    let (s, v) = get_as(&c, &d, "/api/rejudgings", Some(&boss)).await;
    assert_eq!((s, v), (200, json!([])), "nothing was started");

    // The first rejudging: previewed, then dropped.
    let (s, v) = post(&c, &d, "/api/rejudgings", &boss, Some(body.clone())).await;
    assert_eq!(s, 202, "{v}");
    assert_eq!(
        (
            v["state"].clone(),
            v["total"].clone(),
            v["created_by"].clone()
        ),
        (json!("open"), json!(3), json!("boss"))
    );
    let first = v["id"].as_i64().unwrap();
    let (s, v) = post(&c, &d, "/api/rejudgings", &boss, Some(body.clone())).await;
    assert_eq!(s, 409, "one open rejudging per contest: {v}");
    let preview = judged(&c, &d, &boss, first).await;
    // Exactly the two whose verdict the fix changes: alice's AC fails 03, bob's WA passes.
    let changed = preview["changes"].as_array().unwrap();
    let listed: Vec<(i64, &str, &str)> = changed
        .iter()
        .map(|c| {
            (
                c["submission"].as_i64().unwrap(),
                c["old_verdict"].as_str().unwrap(),
                c["new_verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [(right, "AC", "WA"), (fixed, "WA", "AC")],
        "{preview}"
    );
    // The board's changes: bob above alice, each standing before as the board shows it now.
    let moved: Vec<&str> = preview["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["user"].as_str().unwrap())
        .collect();
    assert_eq!(moved, ["bob", "alice"], "{preview}");
    for b in preview["board"].as_array().unwrap() {
        assert_eq!(b["before"], board[b["user"].as_str().unwrap()], "{preview}");
    }
    assert_eq!(preview["board"][0]["after"]["solved"], 1);
    assert_eq!(preview["board"][1]["after"]["solved"], 0);
    // Judged aside: the stored verdicts and the board are as they were.
    assert_eq!(results(&c, &d, &boss, &ids).await, before);
    assert_eq!(standings(&c, &d, &boss).await, board);
    let cancel = format!("/api/rejudgings/{first}/cancel");
    let (s, v) = post(&c, &d, &cancel, &alice, None).await;
    assert_eq!(s, 403, "{v}");
    let (s, v) = post(&c, &d, &cancel, &boss, None).await;
    assert_eq!((s, v["state"].clone()), (200, json!("cancelled")), "{v}");
    let (s, v) = post(
        &c,
        &d,
        &format!("/api/rejudgings/{first}/apply"),
        &boss,
        None,
    )
    .await;
    assert_eq!(s, 409, "a dropped rejudging is never applied: {v}");
    assert_eq!(results(&c, &d, &boss, &ids).await, before);
    assert_eq!(
        standings(&c, &d, &boss).await,
        board,
        "dropped: nothing changed"
    );

    // The second: the same preview, applied; the board becomes what it previewed.
    let (s, v) = post(&c, &d, "/api/rejudgings", &boss, Some(body)).await;
    assert_eq!(s, 202, "{v}");
    let second = v["id"].as_i64().unwrap();
    let again = judged(&c, &d, &boss, second).await;
    assert_eq!(
        (&again["changes"], &again["board"]),
        (&preview["changes"], &preview["board"])
    );
    let apply = format!("/api/rejudgings/{second}/apply");
    let (s, v) = post(&c, &d, &apply, &boss, None).await;
    assert_eq!((s, v["state"].clone()), (200, json!("applied")), "{v}");
    assert_eq!(v["closed_by"], "boss");
    let after = results(&c, &d, &boss, &ids).await;
    assert_eq!(verdicts(&after), ["WA", "AC", "WA"]);
    assert_eq!(
        after[2], before[2],
        "the unchanged submission is not listed, nor changed"
    );
    assert_eq!(
        preview["changes"],
        changes(&[right, fixed], ["alice", "bob"], &before, &after),
        "the preview's old and new results are the stored ones before and after"
    );
    let mut expected = board.clone();
    for b in preview["board"].as_array().unwrap() {
        expected.insert(b["user"].as_str().unwrap().to_string(), b["after"].clone());
    }
    assert_eq!(
        standings(&c, &d, &boss).await,
        expected,
        "the board as previewed"
    );
    // The applied results are the submission's, test by test.
    let (_, s) = get_as(&c, &d, &format!("/api/submissions/{right}"), Some(&boss)).await;
    let tests = s["tests"].as_array().unwrap();
    let at = |name: &str| {
        tests
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| &t["verdict"])
    };
    assert_eq!(
        (at("secret/02"), at("secret/03")),
        (Some(&json!("AC")), Some(&json!("WA"))),
        "{s}"
    );
    let (s, v) = post(&c, &d, &apply, &boss, None).await;
    assert_eq!(s, 409, "applied once: {v}");
    let (_, list) = get_as(&c, &d, "/api/rejudgings", Some(&boss)).await;
    let states: Vec<(i64, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_i64().unwrap(), r["state"].as_str().unwrap()))
        .collect();
    assert_eq!(states, [(second, "applied"), (first, "cancelled")]);
}
