//! A scoring package judged through the daemon in an ioi contest (issue 29): the repository's
//! `groupsum` (groups worth 20, 30 and 50), a submission solving the first two groups
//! scores 50 on the board, the best of the contestant's submissions; the contestant reads
//! each group's name and score and the tests inside a secret group by number only, the jury
//! reads every name.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;

fn contest() -> String {
    fixed_five_hours("Subtasks", "ioi", &[], &[("A", "groupsum")])
}

async fn get(c: &reqwest::Client, url: String, token: &str) -> Value {
    c.get(url)
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

fn group<'a>(s: &'a Value, name: &str) -> &'a Value {
    s["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("no groups: {s:#}"))
        .iter()
        .find(|g| g["name"] == name)
        .unwrap_or_else(|| panic!("no group {name}: {s:#}"))
}

#[tokio::test]
async fn a_scoring_package_scores_its_groups_on_an_ioi_board() {
    let kattis::KattisContest {
        dir: _dir,
        daemon: d,
        client: c,
        boss,
        alice,
    } = kattis::contest(&["groupsum"], &[], ("subtasks", &contest()), 2, "").await;
    let submissions =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis/groupsum/submissions");
    let mut ids = Vec::new();
    for file in ["wrong_answer/absolute.py", "partially_accepted/int32.py"] {
        let source = std::fs::read_to_string(submissions.join(file)).unwrap();
        let r = c
            .post(d.url("/api/contests/subtasks/submissions"))
            .bearer_auth(&alice)
            .json(&json!({"problem": "A", "language": "python", "source": source}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 202, "{file}");
        let v: Value = r.json().await.unwrap();
        ids.push(v["id"].as_i64().unwrap());
    }
    let done = wait_done_as(&c, &d, Some(&alice), &ids, Duration::from_secs(120)).await;
    let (wrong, partial) = (&done[0], &done[1]);
    assert_eq!(
        (&wrong["verdict"], &wrong["score"]),
        (&json!("WA"), &json!(0))
    );
    assert_eq!(
        (&partial["verdict"], &partial["score"]),
        (&json!("AC"), &json!(50)),
        "{partial:#}"
    );

    // The contestant: each group's name and score; a secret test by its number in its group.
    let mine = get(&c, d.url(&format!("/api/submissions/{}", ids[1])), &alice).await;
    for (name, verdict, score) in [
        ("secret/group1", "AC", 20.0),
        ("secret/group2", "AC", 30.0),
        ("secret/group3", "WA", 0.0),
        ("secret", "AC", 50.0),
    ] {
        let g = group(&mine, name);
        assert_eq!(g["verdict"], verdict, "{name}: {g}");
        assert_eq!(g["score"].as_f64(), Some(score), "{name}: {g}");
    }
    assert_eq!(group(&mine, "secret/group3")["max"].as_f64(), Some(50.0));
    let names: Vec<&str> = mine["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "sample/1",
            "secret/group1/1",
            "secret/group1/2",
            "secret/group1/3",
            "secret/group2/1",
            "secret/group2/2",
            "secret/group3/1"
        ],
        "{mine:#}"
    );
    // The jury: the file names.
    let jury = get(&c, d.url(&format!("/api/submissions/{}", ids[1])), &boss).await;
    assert_eq!(jury["tests"][1]["name"], "secret/group1/01", "{jury:#}");
    assert_eq!(group(&jury, "secret/group2")["score"].as_f64(), Some(30.0));

    // The board: the best submission's score.
    let board = get(&c, d.url("/api/contests/subtasks/scoreboard"), &alice).await;
    let row = &board["rows"][0];
    assert_eq!(row["user"], "alice", "{board:#}");
    assert_eq!(row["score"], 50, "{board:#}");
    assert_eq!(row["cells"][0]["score"], 50, "{board:#}");
    assert_eq!(row["cells"][0]["attempts"], 2, "{board:#}");
}
