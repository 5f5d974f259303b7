//! The front page and the public board against the real daemon: an anonymous visitor sees
//! the contests running, upcoming and past with their clocks (no redirect to sign-in), and a
//! contest's board when its file says `public_board = true` (the contestants' board, frozen
//! included, page and JSON alike); other boards still send them to sign in.

use crate::fixtures::{accounts, daemon, web};

use accounts::login;
use daemon::{client, fixture, Daemon};
use serde_json::{json, Value};
use web::{browser_like, fixed_contest, start_with_contests, wait_judged, web_login, PW};

async fn get(c: &reqwest::Client, d: &Daemon, path: &str) -> (u16, String, String) {
    let r = c.get(d.url(path)).send().await.unwrap();
    let status = r.status().as_u16();
    let location = r
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = r.text().await.unwrap();
    assert!(body.len() < 100_000, "{path}: {} bytes", body.len());
    (status, location, body)
}

/// The text between `from` and the next `</table>`.
fn section<'a>(html: &'a str, from: &str) -> &'a str {
    let at = html
        .find(from)
        .unwrap_or_else(|| panic!("{from} in {html}"));
    let rest = &html[at..];
    &rest[..rest.find("</table>").unwrap_or(rest.len())]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_see_the_front_page_and_public_boards_frozen_as_contestants_do() {
    let contests = vec![
        // In its freeze (the last 60 of 120 minutes, 100 minutes in), board public.
        (
            "open-cup",
            fixed_contest(
                "Open Cup",
                "icpc",
                100,
                120,
                "freeze_minutes = 60\npublic_board = true",
                &["binary-sudoku"],
            ),
        ),
        // Running, board for signed-in callers only.
        (
            "closed",
            fixed_contest("Closed Cup", "icpc", 10, 300, "", &["binary-sudoku"]),
        ),
        (
            "later",
            fixed_contest("Later Cup", "ioi", -60, 120, "", &["sudoku"]),
        ),
        (
            "old",
            fixed_contest(
                "Old Cup",
                "ioi",
                600,
                120,
                "public_board = true",
                &["sudoku"],
            ),
        ),
    ];
    let j = start_with_contests(1, 1, &contests);
    let d = &j.d;
    let anon = browser_like();

    // The front page: no redirect; three sections with their clocks.
    let (status, location, home) = get(&anon, d, "/").await;
    assert_eq!((status, location.as_str()), (200, ""), "{home}");
    let running = section(&home, "<h2>Running</h2>");
    assert!(
        running.contains("Open Cup") && running.contains("Closed Cup"),
        "{running}"
    );
    assert!(
        running.contains("data-countdown=\""),
        "a ticking clock: {running}"
    );
    assert!(
        running.contains("board frozen"),
        "the freeze is said: {running}"
    );
    assert!(
        running.contains("href=\"/contests/open-cup/scoreboard\"")
            && !running.contains("href=\"/contests/closed/scoreboard\""),
        "only the public board is linked for a spectator: {running}"
    );
    let upcoming = section(&home, "<h2>Upcoming</h2>");
    assert!(
        upcoming.contains("Later Cup") && upcoming.contains("data-countdown=\"3"),
        "{upcoming}"
    );
    let past = section(&home, "<h2>Past</h2>");
    assert!(
        past.contains("Old Cup") && past.contains("final board"),
        "{past}"
    );
    // Signed in, the same page links every contest and board.
    let alice = web_login(d, "alice").await;
    let (_, _, mine) = get(&alice, d, "/").await;
    assert!(
        mine.contains("href=\"/contests/closed/scoreboard\""),
        "{mine}"
    );
    assert!(mine.contains("href=\"/contests/closed\""), "{mine}");

    // alice submits in the freeze: the spectator's board shows a frozen pending cell, as
    // bob's does; the jury's shows it judged.
    let api = client();
    let alice_token = login(&api, &d.base, "alice", PW).await;
    let boss_token = login(&api, &d.base, "boss", PW).await;
    let r = api
        .post(d.url("/api/contests/open-cup/submissions"))
        .bearer_auth(&alice_token)
        .json(&json!({"problem": "A", "language": "python", "source": fixture("binary-sudoku", "wa.py")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let id = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    wait_judged(&api, d, &boss_token, id).await;
    let (status, _, spectator) = get(&anon, d, "/contests/open-cup/scoreboard").await;
    assert_eq!(status, 200);
    assert!(spectator.contains("class=\"frozen\""), "{spectator}");
    assert!(!spectator.contains("class=\"failed\""), "{spectator}");
    let bob = web_login(d, "bob").await;
    let (_, _, contestant) = get(&bob, d, "/contests/open-cup/scoreboard").await;
    assert!(contestant.contains("class=\"frozen\""));
    let (_, _, jury) = get(
        &web_login(d, "boss").await,
        d,
        "/contests/open-cup/scoreboard",
    )
    .await;
    assert!(jury.contains("class=\"failed\"") && !jury.contains("class=\"frozen\""));
    // The JSON board too, with the same frozen cell.
    let (status, _, json) = get(&anon, d, "/api/contests/open-cup/scoreboard").await;
    assert_eq!(status, 200);
    let board: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(board["frozen"], true);
    assert_eq!(board["rows"][0]["cells"][0]["pending"], 1, "{board}");

    // Not public: sign in first (page and JSON); the contest itself stays closed.
    let (status, location, _) = get(&anon, d, "/contests/closed/scoreboard").await;
    assert_eq!(status, 303);
    assert!(location.starts_with("/login?next="), "{location}");
    assert_eq!(
        get(&anon, d, "/api/contests/closed/scoreboard").await.0,
        401
    );
    assert_eq!(get(&anon, d, "/api/contests/open-cup").await.0, 401);
    assert_eq!(get(&anon, d, "/contests/open-cup").await.0, 303);
    // The CSV stays the jury's.
    assert_eq!(
        get(&anon, d, "/api/contests/open-cup/scoreboard?format=csv")
            .await
            .0,
        401
    );
    assert_eq!(get(&anon, d, "/api/contests/nope/scoreboard").await.0, 404);
}
