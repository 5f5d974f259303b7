//! The contest pages' clocks and the board as peers show it, against the real daemon: the
//! clock on the problem page, the board and the submissions list; the freeze announced with
//! its time (and the jury told the public board is frozen); no version number; the legend's
//! frozen swatch only when something is frozen; a solved/tried row; the print stylesheet.

use crate::fixtures::accounts::get_as;
use crate::fixtures::{accounts, daemon, web};

use accounts::login;
use daemon::{client, fixture, Daemon};
use serde_json::json;
use web::{fixed_contest, start_with_contests, wait_judged, web_login, PW};

async fn body(c: &reqwest::Client, d: &Daemon, path: &str) -> String {
    let r = c.get(d.url(path)).send().await.unwrap();
    assert_eq!(r.status(), 200, "{path}");
    let text = r.text().await.unwrap();
    assert!(text.len() < 100_000, "{path}: {} bytes", text.len());
    text
}

/// The clock bar of a page (the `<p class="clockbar">` paragraph).
fn clockbar(html: &str) -> &str {
    let at = html
        .find("class=\"clockbar\"")
        .unwrap_or_else(|| panic!("no clock: {html}"));
    let rest = &html[at..];
    &rest[..rest.find("</p>").unwrap()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_on_every_contest_page_and_the_board_as_peers_show_it() {
    let contests = vec![
        // 30 minutes in, 120 long, freezes for the last 60: not frozen yet.
        (
            "cup",
            fixed_contest(
                "Cup",
                "icpc",
                30,
                120,
                "freeze_minutes = 60",
                &["binary-sudoku", "sudoku"],
            ),
        ),
        // 100 minutes in: frozen.
        (
            "frozen",
            fixed_contest(
                "Frozen",
                "icpc",
                100,
                120,
                "freeze_minutes = 60",
                &["binary-sudoku"],
            ),
        ),
        (
            "scores",
            fixed_contest("Scores", "ioi", 10, 120, "", &["binary-sudoku"]),
        ),
    ];
    let j = start_with_contests(1, 1, &contests);
    let d = &j.d;
    // carol has a display name (as a roster gives): the board shows it, the CSV and the
    // JSON carry it.
    let out = accounts::user_cmd(
        &j.config,
        &j.db,
        &[
            "add",
            "carol",
            "--display-name",
            "Carol <Q>",
            "--password-stdin",
        ],
        &format!("{PW}\n"),
    );
    accounts::succeeded(&out);
    let carol_token = login(&client(), &d.base, "carol", PW).await;
    let alice = web_login(d, "alice").await;
    let boss = web_login(d, "boss").await;
    let api = client();
    let alice_token = login(&api, &d.base, "alice", PW).await;
    let boss_token = login(&api, &d.base, "boss", PW).await;
    for (contest, source, language, token) in [
        ("cup", fixture("binary-sudoku", "ac.c"), "c", &alice_token),
        (
            "cup",
            fixture("binary-sudoku", "wa.py"),
            "python",
            &alice_token,
        ),
        (
            "cup",
            fixture("binary-sudoku", "wa.py"),
            "python",
            &carol_token,
        ),
        (
            "scores",
            fixture("binary-sudoku", "ac.c"),
            "c",
            &alice_token,
        ),
    ] {
        let problem = "A";
        let r = api
            .post(d.url(&format!("/api/contests/{contest}/submissions")))
            .bearer_auth(token)
            .json(&json!({"problem": problem, "language": language, "source": source}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 202);
        let id = r.json::<serde_json::Value>().await.unwrap()["id"]
            .as_i64()
            .unwrap();
        wait_judged(&api, d, &boss_token, id).await;
    }

    // The clock on the problem page, the board and the submissions list; the freeze to come
    // announced with its time.
    for path in [
        "/contests/cup/problems/A",
        "/contests/cup/scoreboard",
        "/submissions",
    ] {
        let html = body(&alice, d, path).await;
        let bar = clockbar(&html);
        assert!(
            bar.contains("Time left") && bar.contains("data-countdown=\""),
            "{path}: {bar}"
        );
        assert!(bar.contains("the board freezes at "), "{path}: {bar}");
    }
    let board = body(&alice, d, "/contests/cup/scoreboard").await;
    assert!(!board.contains("version"), "no internal counter: {board}");
    assert!(
        !board.contains("pending (frozen)"),
        "nothing is frozen: {board}"
    );
    assert!(
        board.contains("Solved / tried") && board.contains("<td>1 / 2</td><td>0 / 0</td>"),
        "{board}"
    );
    assert!(
        board.contains("<td class=\"name\" title=\"carol\">Carol &#60;Q&#62;</td>"),
        "{board}"
    );
    let json: serde_json::Value = get_as(
        &api,
        d,
        "/api/contests/cup/scoreboard",
        Some(alice_token.as_str()),
    )
    .await
    .1;
    assert_eq!(
        json["display_names"],
        json!({"carol": "Carol <Q>"}),
        "{json}"
    );
    assert!(
        board.contains("href=\"/static/print.css\" media=\"print\""),
        "{board}"
    );
    let print = reqwest::get(d.url("/static/print.css")).await.unwrap();
    assert_eq!(print.status(), 200);
    assert!(print.text().await.unwrap().contains("header.top"));
    // ioi: a full score counts as solved.
    let scores = body(&alice, d, "/contests/scores/scoreboard").await;
    assert!(scores.contains("<td>1 / 1</td>"), "{scores}");

    // The frozen contest: contestants read "board frozen since", the jury "public board
    // frozen" on their board and problem page; the legend's frozen swatch only once a cell is.
    let frozen = body(&alice, d, "/contests/frozen/scoreboard").await;
    assert!(
        clockbar(&frozen).contains("board frozen</span> since "),
        "{frozen}"
    );
    assert!(frozen.contains("<b>frozen</b> since "), "{frozen}");
    assert!(
        !frozen.contains("pending (frozen)"),
        "no frozen cell yet: {frozen}"
    );
    for path in ["/contests/frozen/scoreboard", "/contests/frozen/problems/A"] {
        let jury = body(&boss, d, path).await;
        assert!(
            clockbar(&jury).contains("public board frozen"),
            "{path}: {jury}"
        );
    }
    let r = api
        .post(d.url("/api/contests/frozen/submissions"))
        .bearer_auth(&alice_token)
        .json(&json!({"problem": "A", "language": "python", "source": fixture("binary-sudoku", "wa.py")}))
        .send()
        .await
        .unwrap();
    let id = r.json::<serde_json::Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    wait_judged(&api, d, &boss_token, id).await;
    assert!(body(&alice, d, "/contests/frozen/scoreboard")
        .await
        .contains("pending (frozen)"));

    // The icpc CSV has no score column.
    let csv = api
        .get(d.url("/api/contests/cup/scoreboard?format=csv"))
        .bearer_auth(&boss_token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        csv.starts_with("rank,user,display_name,solved,penalty,A,B\n"),
        "{csv}"
    );
    assert!(csv.contains(",carol,Carol <Q>,0,0,-1,\n"), "{csv}");
}
