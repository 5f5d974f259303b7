//! A contest made and edited while two API nodes share one PostgreSQL database (issue 30,
//! point 2): made through one node, it is served by the other at the very next request; an
//! edit through the other is served by the first; the history rules and the id clash hold
//! whichever node is asked. No restart, no wait: each node reads the database contests'
//! version before each request (see `server::services::contests::catalog`).
//!
//! Needs PostgreSQL's server binaries; skipped without them unless `CI` is set: then it fails.

use crate::fixtures::pg_contest::{PgContest, PgContestSetup};
use crate::fixtures::{accounts, daemon};
use sudojudge_testkit::postgres;

use accounts::{call, get_as, post_as};
use daemon::Daemon;
use postgres::PgServer;
use reqwest::Method;
use serde_json::json;

/// `PATCH /api/contests/night` through `node` as `token`.
async fn patch(
    c: &reqwest::Client,
    node: &Daemon,
    token: &str,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    call(
        c,
        node,
        Method::PATCH,
        "/api/contests/night",
        Some(token),
        Some(body),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contest_made_on_one_node_is_served_and_edited_on_the_other() {
    let Some(server) = PgServer::shared() else {
        return;
    };
    let k = PgContest::start(&server, PgContestSetup::RUNTIME_ONLY);
    let PgContest { one, two, c, .. } = &k;
    let boss = k.login(&k.one, "boss").await;
    let alice = k.login(&k.two, "alice").await;

    let (s, _) = get_as(c, two, "/api/contests/night", Some(&alice)).await;
    assert_eq!(s, 404);
    let made = json!({
        "id": "night", "title": "Night", "format": "icpc",
        "timing": {"kind": "fixed", "start": "2026-03-01T09:00:00Z", "duration": "5h"},
        "problems": [{"label": "A", "problem": "binary-sudoku"}],
    });
    let (s, v) = post_as(c, one, "/api/contests", Some(&boss), Some(made.clone())).await;
    assert_eq!(s, 201, "{v}");
    // The other node serves it at its next request.
    let (s, v) = get_as(c, two, "/api/contests/night", Some(&alice)).await;
    assert_eq!(
        (s, v["title"].as_str()),
        (200, Some("Night")),
        "{v}\n{}",
        two.log()
    );
    let (s, v) = post_as(c, two, "/api/contests", Some(&boss), Some(made)).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("id_taken")),
        "{v}"
    );

    // Edited through the second node, served by the first at once.
    let (s, v) = patch(
        c,
        two,
        &boss,
        json!({"title": "Night owls", "freeze_minutes": 60}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = get_as(c, one, "/api/contests/night", Some(&boss)).await;
    assert_eq!(v["title"], "Night owls", "{v}");
    let (_, board) = get_as(c, one, "/api/contests/night/scoreboard", Some(&boss)).await;
    assert_eq!(board["format"], "icpc", "{board}");

    // Running with a submission (through the first node): the second refuses what would
    // rewrite it, for the reason.
    k.set_clock("2026-03-01T09:30:00Z");
    k.submit_ac(one, "night", "alice").await;
    let (s, v) = patch(c, two, &boss, json!({"format": "ioi", "freeze_minutes": 0})).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("rewrites_history")),
        "{v}"
    );
    assert_eq!(v["error"]["fields"][0]["field"], "format", "{v}");
    let (_, v) = get_as(c, one, "/api/contests/night", Some(&boss)).await;
    assert_eq!(v["format"], "icpc", "{v}");
}
