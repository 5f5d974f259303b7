//! Contests made and edited while the judge runs (issue 30, point 2), against the real
//! daemon: `POST /api/contests` and `PATCH /api/contests/{id}` with every refusal (fields at
//! fault listed one by one, an id a file or another contest has, a file's contest, edits
//! that would rewrite history), contest files read again when they change on disk (a broken
//! or history-rewriting change refused, its last sound version kept; a file whose id a
//! database contest has refused), and the Contest API's teams listing a roster group's
//! members from the start, as the board does (point 5).

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};

use crate::fixtures::accounts::{call, user_cmd};
use crate::fixtures::contests::{at, code, message, row, start, SHORT, SPRING, T0};

/// The fields named by a refusal.
fn fields(v: &Value) -> Vec<String> {
    v["error"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("no fields in {v}"))
        .iter()
        .map(|f| f["field"].as_str().unwrap().to_string())
        .collect()
}

fn round(start: &str) -> Value {
    json!({
        "id": "round-1",
        "title": "Round 1",
        "format": "icpc",
        "timing": {"kind": "fixed", "start": start, "duration": "5h"},
        "freeze_minutes": 60,
        "problems": [{"label": "A", "problem": "sudoku"}, {"label": "B", "problem": "binary-sudoku"}],
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contests_are_made_and_edited_through_the_api_and_history_is_kept() {
    let j = start(&[("spring", SPRING)], &at(-60)).await;
    let patch = |id: &str, token: &str, body: Value| {
        let path = format!("/api/contests/{id}");
        let token = token.to_string();
        let (c, d) = (j.c.clone(), &j.d);
        async move { call(&c, d, Method::PATCH, &path, Some(&token), Some(body)).await }
    };

    // Only the jury makes contests.
    let (s, v) = j
        .post("/api/contests", Some(&j.alice), Some(round(T0)))
        .await;
    assert_eq!(s, 403, "{v}");
    let (s, _) = j.post("/api/contests", None, Some(round(T0))).await;
    assert_eq!(s, 401);

    // Every field at fault is named, not only the first; nothing is stored.
    let bad = json!({
        "id": "Bad Id",
        "title": "",
        "format": "acm",
        "timing": {"kind": "fixed", "start": "tomorrow", "duration": "5h"},
        "problems": [{"label": "A", "problem": "chess"}],
        "languages": ["cobol"],
    });
    let (s, v) = j.post("/api/contests", Some(&j.boss), Some(bad)).await;
    assert_eq!((s, code(&v)), (422, "invalid_contest"), "{v}");
    let named = fields(&v);
    for f in [
        "id",
        "title",
        "format",
        "timing.start",
        "problems[0].problem",
        "languages",
    ] {
        assert!(named.iter().any(|n| n == f), "{f} not in {named:?}: {v}");
    }
    assert!(message(&v).contains("\"acm\" is not a format"), "{v}");
    let (_, list) = j.get("/api/contests", Some(&j.boss)).await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");

    // A file's id is taken, and says which file.
    let mut spring = round(T0);
    spring["id"] = json!("spring");
    let (s, v) = j.post("/api/contests", Some(&j.boss), Some(spring)).await;
    assert_eq!((s, code(&v)), (409, "id_taken"), "{v}");
    assert!(message(&v).contains("spring.toml"), "{v}");

    // Made: served at once, with its origin and revision.
    let (s, v) = j
        .post("/api/contests", Some(&j.boss), Some(round(T0)))
        .await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(
        (v["origin"].as_str(), v["revision"].as_u64()),
        (Some("database"), Some(1))
    );
    let (s, v) = j.get("/api/contests/round-1", Some(&j.alice)).await;
    assert_eq!((s, v["title"].as_str()), (200, Some("Round 1")), "{v}");
    let (s, v) = j
        .post("/api/contests", Some(&j.boss), Some(round(T0)))
        .await;
    assert_eq!((s, code(&v)), (409, "id_taken"), "{v}");

    // A file's contest is not edited here: the file wins.
    let (s, v) = patch("spring", &j.boss, json!({"title": "x"})).await;
    assert_eq!((s, code(&v)), (409, "file_contest"), "{v}");
    assert!(message(&v).contains("spring.toml"), "{v}");
    let (s, _) = patch("round-1", &j.alice, json!({"title": "x"})).await;
    assert_eq!(s, 403);

    // Before the start anything goes.
    let (s, v) = patch(
        "round-1",
        &j.boss,
        json!({"title": "Round One", "format": "ioi", "freeze_minutes": 0}),
    )
    .await;
    assert_eq!((s, v["revision"].as_u64()), (200, Some(2)), "{v}");
    let (s, v) = patch(
        "round-1",
        &j.boss,
        json!({"format": "icpc", "freeze_minutes": 60}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = j.get("/api/contests/round-1", Some(&j.alice)).await;
    assert_eq!(
        (v["title"].as_str(), v["format"].as_str()),
        (Some("Round One"), Some("icpc")),
        "{v}"
    );

    // Running, with a submission to B.
    j.set_clock(&at(30));
    let id = j.submit_binary_sudoku_ac("round-1", &j.alice, "B").await;
    j.wait_done(id).await;
    let refusals = [
        (
            json!({"format": "ioi", "freeze_minutes": 0}),
            "format",
            "running",
        ),
        (
            json!({"timing": {"start": at(60)}}),
            "timing.start",
            "in the future",
        ),
        (
            json!({"problems": [{"label": "A", "problem": "sudoku"}]}),
            "problems",
            "has submissions",
        ),
        (
            json!({"problems": [{"label": "A", "problem": "sudoku"}, {"label": "B", "problem": "sudoku-hard"}]}),
            "problems[1].problem",
            "cannot become",
        ),
        (
            json!({"timing": {"duration": "20m"}, "freeze_minutes": 0}),
            "timing.duration",
            "already past",
        ),
        (
            json!({"freeze_minutes": 290}),
            "freeze_minutes",
            "in the past",
        ),
    ];
    for (body, field, why) in refusals {
        let (s, v) = patch("round-1", &j.boss, body.clone()).await;
        assert_eq!((s, code(&v)), (409, "rewrites_history"), "{body}: {v}");
        let got = &v["error"]["fields"][0];
        assert_eq!(got["field"], field, "{body}: {v}");
        assert!(
            got["message"].as_str().unwrap().contains(why),
            "{body}: {v}"
        );
    }
    // Nothing of those was stored.
    let (_, v) = j
        .get("/api/contests/round-1/definition", Some(&j.boss))
        .await;
    assert_eq!(v["revision"], 3, "{v}");
    assert_eq!(
        v["definition"]["problems"][1]["problem"], "binary-sudoku",
        "{v}"
    );
    let (s, v) = j
        .get("/api/contests/round-1/definition", Some(&j.alice))
        .await;
    assert_eq!(s, 403, "{v}");

    // What does not rewrite history is stored: a later end, a new problem, a new title.
    let (s, v) = patch(
        "round-1",
        &j.boss,
        json!({"title": "Round 1 (extended)", "timing": {"duration": "6h"},
               "problems": [{"label": "A", "problem": "sudoku"}, {"label": "B", "problem": "binary-sudoku"},
                            {"label": "C", "problem": "target-sudoku"}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // Unknown keys are refused by name.
    let (s, v) = patch("round-1", &j.boss, json!({"titel": "x"})).await;
    assert_eq!((s, code(&v)), (422, "invalid_contest"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("titel"),
        "{v}"
    );

    // The board follows the edit: three columns, alice solved B.
    let board = j.board("round-1", &j.boss).await;
    assert_eq!(board["problems"].as_array().unwrap().len(), 3, "{board}");
    assert_eq!(row(&board, "alice")["solved"], 1, "{board}");
    let (_, v) = j
        .get("/api/contests/round-1/definition", Some(&j.boss))
        .await;
    assert_eq!(v["definition"]["timing"]["duration"], "6h", "{v}");
    assert_eq!(v["definition"]["title"], "Round 1 (extended)", "{v}");
}

/// Waits until `check` holds (the folder is looked at every second).
async fn eventually<F, Fut>(what: &str, log: impl Fn() -> String, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !check().await {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what}: not seen in 20 s\n{}",
            log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contest_files_are_read_again_when_they_change_and_clashes_are_refused() {
    let j = start(&[("short", SHORT)], &at(-10)).await;
    let folder = j.dir.path().join("contests");
    let title = |id: &'static str| {
        let (c, d, boss) = (j.c.clone(), &j.d, j.boss.clone());
        async move {
            let (_, v) = call(
                &c,
                d,
                Method::GET,
                &format!("/api/contests/{id}"),
                Some(&boss),
                None,
            )
            .await;
            v["title"].as_str().unwrap_or("").to_string()
        }
    };
    // A new file is served without a restart; an edited one too.
    std::fs::write(
        folder.join("late.toml"),
        SHORT.replace("\"Short\"", "\"Late\""),
    )
    .unwrap();
    eventually(
        "late.toml",
        || j.d.log(),
        || async { title("late").await == "Late" },
    )
    .await;
    std::fs::write(
        folder.join("short.toml"),
        SHORT.replace("\"Short\"", "\"Short v2\""),
    )
    .unwrap();
    eventually(
        "short.toml edited",
        || j.d.log(),
        || async { title("short").await == "Short v2" },
    )
    .await;

    // A database contest's id in a new file: the file is refused, the contest stays.
    let mut made = round(T0);
    made["id"] = json!("dbc");
    let (s, v) = j.post("/api/contests", Some(&j.boss), Some(made)).await;
    assert_eq!(s, 201, "{v}");
    std::fs::write(
        folder.join("dbc.toml"),
        SHORT.replace("\"Short\"", "\"Clash\""),
    )
    .unwrap();
    // A broken file keeps its last sound version; a change rewriting history is refused.
    j.set_clock(&at(30));
    let id = j.submit_binary_sudoku_ac("short", &j.alice, "A").await;
    j.wait_done(id).await;
    std::fs::write(
        folder.join("short.toml"),
        SHORT
            .replace("\"Short\"", "\"Short v3\"")
            .replace("format = \"icpc\"", "format = \"ioi\""),
    )
    .unwrap();
    std::fs::write(folder.join("late.toml"), "title = [broken").unwrap();
    std::fs::write(
        folder.join("marker.toml"),
        SHORT.replace("\"Short\"", "\"Marker\""),
    )
    .unwrap();
    eventually(
        "marker.toml",
        || j.d.log(),
        || async { title("marker").await == "Marker" },
    )
    .await;
    assert_eq!(
        title("short").await,
        "Short v2",
        "the refused change is not served"
    );
    assert_eq!(
        title("late").await,
        "Late",
        "the broken file's last version is served"
    );
    assert_eq!(
        title("dbc").await,
        "Round 1",
        "the clash keeps the database's contest"
    );
    let log = j.d.log();
    assert!(log.contains("would rewrite the contest's history"), "{log}");
    assert!(
        log.contains("dbc.toml: the id \\\"dbc\\\" is taken")
            || log.contains("the id \"dbc\" is taken"),
        "{log}"
    );
    let (_, v) = j.get("/api/contests/dbc/definition", Some(&j.boss)).await;
    assert_eq!(v["origin"], "database", "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clics_teams_list_a_groups_members_from_the_start_as_the_board_does() {
    let class = SPRING.replace(
        "rate = { submissions = 3, per_minutes = 1 }",
        "participants = [\"group:class-7b\", \"bob\"]",
    );
    let j = start(&[("class", &class)], &at(-10)).await;
    let config = j.dir.path().join("config.toml");
    let db = j.dir.path().join("judge.db");
    let roster = j.dir.path().join("roster.csv");
    std::fs::write(
        &roster,
        "name,display_name,group\nann,Ann Lee,class-7b\ncy,Cy,class-7a\n",
    )
    .unwrap();
    let out = user_cmd(&config, &db, &["import", roster.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Nobody took part yet: the board lists ann (the group) and bob (by name)...
    let board = j.board("class", &j.boss).await;
    let mut users: Vec<&str> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["user"].as_str().unwrap())
        .collect();
    users.sort();
    assert_eq!(users, ["ann", "bob"], "{board}");
    // ... and so do the Contest API's teams, for the jury and the public.
    for token in [&j.boss, &j.alice] {
        let (s, v) = j.get("/clics/contests/class/teams", Some(token)).await;
        assert_eq!(s, 200, "{v}");
        let mut teams: Vec<&str> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap())
            .collect();
        teams.sort();
        assert_eq!(teams, ["ann", "bob"], "{v}");
    }
}
