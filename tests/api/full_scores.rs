//! A scoring problem whose maximum is not 100, solved (found while closing issues 29/30): in
//! an ioi contest with `negsum` (maximum 15) and `groupsum` (maximum 100), alice's 15 on
//! `negsum` is a full score and shows as solved on every route that shows "solved": the
//! board's JSON (the cell's and the row's `solved`) and the Contest API (the problem's
//! `max_score`, the scoreboard's `solved` and `num_solved`); her 50 of 100 on `groupsum` and
//! bob's -5 on `negsum` do not. (The web board's colours: `tests/web/web_full_scores.rs`.)

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::fixtures::accounts::{add_user, login};
use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;
use crate::fixtures::web::PW;

fn source(package: &str, file: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis");
    std::fs::read_to_string(root.join(package).join("submissions").join(file)).unwrap()
}

async fn get(c: &reqwest::Client, url: String, token: &str) -> Value {
    let r = c.get(&url).bearer_auth(token).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200, "{url}");
    r.json().await.unwrap()
}

fn row<'a>(rows: &'a Value, key: &str, user: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r[key] == user)
        .unwrap_or_else(|| panic!("no row of {user}: {rows:#}"))
}

#[tokio::test]
async fn a_full_score_below_100_is_solved_on_the_board_and_in_the_contest_api() {
    let contest = fixed_five_hours("Full", "ioi", &[], &[("A", "negsum"), ("B", "groupsum")]);
    let k = kattis::contest(&["negsum", "groupsum"], &[], ("full", &contest), 2, "").await;
    let (c, d) = (&k.client, &k.daemon);
    add_user(
        &k.dir.path().join("config.toml"),
        &k.dir.path().join("judge.db"),
        "bob",
        false,
        PW,
    );
    let bob = login(c, &d.base, "bob", PW).await;
    let plan = [
        (&k.alice, "A", source("negsum", "accepted/sum.py")),
        (
            &k.alice,
            "B",
            source("groupsum", "partially_accepted/int32.py"),
        ),
        (&bob, "A", source("negsum", "wrong_answer/absolute.py")),
    ];
    let mut ids = Vec::new();
    for (token, label, source) in &plan {
        let r = c
            .post(d.url("/api/contests/full/submissions"))
            .bearer_auth(token)
            .json(&json!({"problem": label, "language": "python", "source": source}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 202, "{label}");
        ids.push(r.json::<Value>().await.unwrap()["id"].as_i64().unwrap());
    }
    let done = wait_done_as(c, d, Some(&k.boss), &ids, Duration::from_secs(120)).await;
    let scores: Vec<&Value> = done.iter().map(|s| &s["score"]).collect();
    assert_eq!(scores, [&json!(15), &json!(50), &json!(-5)], "{done:#?}");

    // The board's JSON, as a contestant reads it.
    let board = get(c, d.url("/api/contests/full/scoreboard"), &k.alice).await;
    let alice = row(&board["rows"], "user", "alice");
    assert_eq!(alice["cells"][0]["score"], 15, "{board:#}");
    assert_eq!(alice["cells"][0]["solved"], true, "15 of 15: {board:#}");
    assert_eq!(alice["cells"][1]["solved"], false, "50 of 100: {board:#}");
    assert_eq!(alice["solved"], 1, "{board:#}");
    let bob_row = row(&board["rows"], "user", "bob");
    assert_eq!(bob_row["cells"][0]["solved"], false, "-5 of 15: {board:#}");
    assert_eq!(bob_row["solved"], 0, "{board:#}");

    // The Contest API: the problems' maximum, and the same cells solved.
    let problems = get(c, d.url("/clics/contests/full/problems"), &k.alice).await;
    let max: Vec<(&Value, &Value)> = problems
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (&p["id"], &p["max_score"]))
        .collect();
    assert_eq!(
        max,
        [(&json!("A"), &json!(15)), (&json!("B"), &json!(100))],
        "{problems:#}"
    );
    for token in [&k.alice, &k.boss] {
        let clics = get(c, d.url("/clics/contests/full/scoreboard"), token).await;
        let alice = row(&clics["rows"], "team_id", "alice");
        let cells: Vec<(&Value, &Value)> = alice["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (&p["score"], &p["solved"]))
            .collect();
        assert_eq!(
            cells,
            [(&json!(15), &json!(true)), (&json!(50), &json!(false))],
            "{clics:#}"
        );
        assert_eq!(alice["score"]["num_solved"], 1, "{clics:#}");
        let bob_row = row(&clics["rows"], "team_id", "bob");
        assert_eq!(bob_row["problems"][0]["solved"], false, "{clics:#}");
        assert_eq!(bob_row["score"]["num_solved"], 0, "{clics:#}");
    }
}
