//! Live notices (issue 26, point 5) against the real daemon on the contest clock file: the
//! strip a contest page carries (`#notices`, with the instant it counts from) and the route
//! the page's script asks, `/contests/{id}/notices?since=...`: a contestant hears of the
//! jury's answer to their own question (not of another's private one), of announcements and
//! of answers to everyone; the jury of questions waiting; at most five banners; an anonymous
//! caller is sent to sign in (no strip on the public board they read), a bad instant is 400.
//! Also the spectator's ways in: the clock bar's title leads to the public board,
//! `/contests` and a public contest's page redirect to what they may read.

use crate::fixtures::contests;
use crate::fixtures::contests::fixed_five_hours;

use serde_json::json;

use contests::{at, start};

/// icpc from T0 for 5 hours, board public.
fn day() -> String {
    fixed_five_hours(
        "Notice day",
        "icpc",
        &["public_board = true"],
        &[("A", "binary-sudoku")],
    )
}

/// GET `path` as `token` (none: anonymous): status, `Location`, body.
async fn page(j: &contests::Contest, path: &str, token: Option<&str>) -> (u16, String, String) {
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut r = c.get(j.d.url(path));
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.unwrap();
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

/// The banners of a strip (the text of each `<p class="banner">`).
fn banners(html: &str) -> Vec<String> {
    html.split("<p class=\"banner\">")
        .skip(1)
        .map(|b| b[..b.find("</p>").unwrap()].to_string())
        .collect()
}

/// The strip's own address on a page (`data-src`), unescaped.
fn strip_of(html: &str) -> String {
    let at = html.find("data-src=\"").expect("a notice strip") + "data-src=\"".len();
    let rest = &html[at..];
    rest[..rest.find('"').unwrap()]
        .replace("&#58;", ":")
        .replace("&#x3a;", ":")
        .replace("&amp;", "&")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn banners_for_answers_announcements_and_waiting_questions() {
    let j = start(&[("day", &day())], &at(60)).await;

    // The strips count from the instant each page was made.
    let (s, _, alice_page) = page(&j, "/contests/day/problems/A", Some(&j.alice)).await;
    assert_eq!(s, 200);
    let alice = strip_of(&alice_page);
    assert!(
        alice.starts_with("/contests/day/notices?since=2026-03-01T10:00:00"),
        "{alice}"
    );
    let (_, _, bob_page) = page(&j, "/contests/day/submissions", Some(&j.bob)).await;
    let bob = strip_of(&bob_page);
    let (_, _, boss_page) = page(&j, "/contests/day", Some(&j.boss)).await;
    let boss = strip_of(&boss_page);
    for strip in [&alice, &bob, &boss] {
        let (s, _, html) = page(&j, strip, Some(&j.alice)).await;
        assert_eq!(s, 200, "{html}");
        assert!(html.contains("id=\"notices\""), "{html}");
        assert!(banners(&html).is_empty(), "{html}");
    }

    // alice asks about A: the jury's strip announces it; nobody else's does.
    j.set_clock(&at(61));
    let (s, q) = j
        .post(
            "/api/contests/day/clarifications",
            Some(&j.alice),
            Some(json!({"text": "Is a blank line allowed?", "problem": "A"})),
        )
        .await;
    assert_eq!(s, 201, "{q}");
    let q = q["id"].as_i64().unwrap();
    let (_, _, html) = page(&j, &boss, Some(&j.boss)).await;
    assert_eq!(
        banners(&html),
        [format!(
            "New question from alice (problem A). <a href=\"/contests/day#c{q}\">Answer it</a>"
        )]
    );
    assert!(banners(&page(&j, &alice, Some(&j.alice)).await.2).is_empty());
    assert!(banners(&page(&j, &bob, Some(&j.bob)).await.2).is_empty());

    // Answered privately: alice's strip says so, bob's does not; the jury's question is no
    // longer waiting.
    j.set_clock(&at(62));
    let (s, _) = j
        .post(
            &format!("/api/contests/day/clarifications/{q}/answer"),
            Some(&j.boss),
            Some(json!({"answer": "Yes."})),
        )
        .await;
    assert_eq!(s, 204);
    let hers = banners(&page(&j, &alice, Some(&j.alice)).await.2);
    assert_eq!(hers.len(), 1, "{hers:?}");
    assert!(
        hers[0].starts_with("The jury answered your question (problem A)."),
        "{hers:?}"
    );
    assert!(banners(&page(&j, &bob, Some(&j.bob)).await.2).is_empty());
    assert!(banners(&page(&j, &boss, Some(&j.boss)).await.2).is_empty());
    // The contest page has the answer under the banner's anchor.
    let (_, _, contest) = page(&j, "/contests/day", Some(&j.alice)).await;
    assert!(contest.contains(&format!("id=\"c{q}\"")), "{contest}");

    // Announcements reach everyone; a page shows five banners at most.
    j.set_clock(&at(63));
    for i in 0..7 {
        let (s, _) = j
            .post(
                "/api/contests/day/clarifications",
                Some(&j.boss),
                Some(json!({"text": format!("announcement {i}")})),
            )
            .await;
        assert_eq!(s, 201);
    }
    let his = banners(&page(&j, &bob, Some(&j.bob)).await.2);
    assert_eq!(his.len(), 5, "{his:?}");
    assert!(his
        .iter()
        .all(|b| b.starts_with("New announcement from the jury.")));
    // A strip made after them starts empty.
    j.set_clock(&at(64));
    let (_, _, later) = page(&j, "/contests/day/scoreboard", Some(&j.bob)).await;
    assert!(banners(&page(&j, &strip_of(&later), Some(&j.bob)).await.2).is_empty());

    // A bad instant is refused; an anonymous caller is sent to sign in, with no read.
    let (s, _, _) = page(&j, "/contests/day/notices?since=yesterday", Some(&j.bob)).await;
    assert_eq!(s, 400);
    let (s, _, _) = page(
        &j,
        "/contests/nope/notices?since=2026-03-01T10:00:00Z",
        Some(&j.bob),
    )
    .await;
    assert_eq!(s, 404);
    let (s, location, _) = page(&j, &alice, None).await;
    assert_eq!(s, 303);
    assert!(location.starts_with("/login?"), "{location}");

    // The spectator: the public board carries no strip, and its clock bar's title leads to
    // the board (the contest page needs sign-in); `/contests` and the contest page send
    // them to what they may read.
    let (s, _, board) = page(&j, "/contests/day/scoreboard", None).await;
    assert_eq!(s, 200);
    assert!(!board.contains("id=\"notices\""), "{board}");
    assert!(
        board.contains("<p class=\"clockbar\"><a href=\"/contests/day/scoreboard\">Notice day</a>"),
        "{board}"
    );
    let (_, _, mine) = page(&j, "/contests/day/scoreboard", Some(&j.alice)).await;
    assert!(
        mine.contains("<p class=\"clockbar\"><a href=\"/contests/day\">Notice day</a>"),
        "{mine}"
    );
    assert_eq!(page(&j, "/contests", None).await.1, "/");
    assert_eq!(
        page(&j, "/contests/day", None).await.1,
        "/contests/day/scoreboard"
    );
    assert_eq!(page(&j, "/contests", Some(&j.alice)).await.0, 200);
}
