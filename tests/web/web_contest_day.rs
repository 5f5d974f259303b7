//! A contest day in a real headless Chromium (WebDriver), on the contest clock file: a
//! spectator (never signed in) opens the front page and the public board, and watches it
//! freeze without reloading (the clock bar's title keeps them on the board); a contestant sees the contest clock on the problem page, the
//! board and the submissions lists; the jury's board says the public one is frozen; the jury
//! marks a balloon delivered and resets a contestant's password on the admin page (shown
//! once; the old session ends). A
//! screenshot of each new page goes to `target/screenshots/` (`front`, `public-board`,
//! `public-board-frozen`, `problem-clock`, `board-clock`, `submissions-clock`,
//! `contest-submissions`, `jury-board`, `balloons`, `admin-reset`). Live notices: alice's
//! problem page shows a banner when the jury answers her question, the jury's board one when
//! bob asks (`notice-answer`, `notice-question`), each on the same document.

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::{browser, contests, daemon};

use std::time::Duration;

use serde_json::json;

use browser::Browser;
use contests::{at, start, T0};
use daemon::fixture;

const PW: &str = "correct horse battery";
const SOON: Duration = Duration::from_secs(60);

/// icpc from T0 for 5 hours, frozen for the last hour (from T0 + 4 h), board public.
fn day() -> String {
    fixed_five_hours(
        "Contest day",
        "icpc",
        &["freeze_minutes = 60", "public_board = true"],
        &[("A", "binary-sudoku"), ("B", "sudoku")],
    )
}

async fn sign_in(b: &Browser, base: &str, name: &str, password: &str, next: &str) {
    b.open(&format!("{base}/login?next={next}")).await;
    b.fill("input[name=name]", name).await;
    b.fill("input[name=password]", password).await;
    b.click_and_load("form.stack button[type=submit]").await;
    assert_eq!(
        b.path().await,
        next,
        "signed in as {name}: {}",
        b.body().await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contest_day_for_a_spectator_a_contestant_and_the_jury() {
    let Some(b) = Browser::start().await else {
        return;
    };
    assert!(T0.starts_with("2026-03-01T09:00"));
    let j = start(&[("day", &day())], &at(60)).await;
    let base = j.d.base.clone();

    // The spectator: the front page (no sign-in), the contest running with its clock and
    // when the board freezes; the public board.
    b.open(&format!("{base}/")).await;
    assert_eq!(b.path().await, "/", "no redirect to sign-in");
    let running = b.text("table.running").await;
    // 4 hours left (the script may have ticked once since the page was made).
    assert!(
        running.contains("Contest day")
            && (running.contains("4:00:00") || running.contains("3:59:5")),
        "{running}"
    );
    assert!(
        running.contains("board freezes at 2026-03-01 13:00:00"),
        "{running}"
    );
    b.screenshot("front").await;
    b.click_and_load("table.running a[href$='/scoreboard']")
        .await;
    assert_eq!(b.path().await, "/contests/day/scoreboard");
    let clock = b.text(".clockbar").await;
    assert!(
        clock.contains("Time left") && clock.contains("freezes at"),
        "{clock}"
    );

    // alice solves A at minute 60: the spectator's board shows it without a reload.
    let ac = j.submit_binary_sudoku_ac("day", &j.alice, "A").await;
    j.wait_done(ac).await;
    b.client
        .execute("window.__same_document = 7", vec![])
        .await
        .unwrap();
    b.wait_text("table.board", SOON, |t| t.contains("+1@60"))
        .await;
    assert!(!b.text("#live").await.contains("frozen"));
    b.screenshot("public-board").await;

    // The clock moves into the freeze; bob's wrong answer then is a frozen pending cell,
    // and the page says so, all on the same document.
    j.set_clock(&at(250));
    let wa = j
        .submit_ok(
            "day",
            &j.bob,
            "A",
            "python",
            &fixture("binary-sudoku", "wa.py"),
        )
        .await;
    j.wait_done(wa).await;
    let live = b
        .wait_text("#live", SOON, |t| {
            t.contains("frozen since 2026-03-01 13:00:00")
        })
        .await;
    assert!(live.contains("pending (frozen)"), "{live}");
    assert!(b.text("table.board td.frozen").await.contains("?1"));
    let same = b
        .client
        .execute("return window.__same_document", vec![])
        .await
        .unwrap();
    assert_eq!(same, 7, "the spectator watched the freeze without a reload");
    b.screenshot("public-board-frozen").await;
    // The clock bar's title leads the spectator to what they may read: the board, not a
    // sign-in form.
    b.click_and_load(".clockbar a").await;
    assert_eq!(b.path().await, "/contests/day/scoreboard");

    // alice: the clock on the problem page, the board and the submissions list (50 minutes
    // left at 4:10 elapsed).
    sign_in(&b, &base, "alice", PW, "/contests/day/problems/B").await;
    for (path, shot) in [
        ("/contests/day/problems/B", "problem-clock"),
        ("/contests/day/scoreboard", "board-clock"),
        ("/submissions", "submissions-clock"),
        ("/contests/day/submissions", "contest-submissions"),
    ] {
        b.open(&format!("{base}{path}")).await;
        let clock = b.text(".clockbar").await;
        assert!(
            (clock.contains("Time left 0:50:00") || clock.contains("Time left 0:49:5"))
                && clock.contains("board frozen"),
            "{path}: {clock}"
        );
        b.screenshot(shot).await;
    }

    // alice asks about B from the problem page; the jury answers: a banner on the same
    // document, linking to the answer on the contest page.
    b.open(&format!("{base}/contests/day/problems/B")).await;
    b.client
        .execute("window.__same_document = 8", vec![])
        .await
        .unwrap();
    let asked = json!({"text": "May the output end with a blank line?", "problem": "B"});
    let (s, q) = j
        .post(
            "/api/contests/day/clarifications",
            Some(&j.alice),
            Some(asked),
        )
        .await;
    assert_eq!(s, 201, "{q}");
    let q = q["id"].as_i64().unwrap();
    tokio::time::sleep(Duration::from_millis(5500)).await;
    assert_eq!(
        b.text("#notices").await,
        "",
        "her own question is no notice for her"
    );
    let (s, v) = j
        .post(
            &format!("/api/contests/day/clarifications/{q}/answer"),
            Some(&j.boss),
            Some(json!({"answer": "Yes."})),
        )
        .await;
    assert_eq!(s, 204, "{v}");
    let banner = b
        .wait_text("#notices", SOON, |t| {
            t.contains("The jury answered your question (problem B).")
        })
        .await;
    assert!(banner.contains("Read it"), "{banner}");
    let same = b
        .client
        .execute("return window.__same_document", vec![])
        .await
        .unwrap();
    assert_eq!(same, 8, "the banner came without a reload");
    b.screenshot("notice-answer").await;
    b.click_and_load("#notices a").await;
    assert_eq!(b.path().await, "/contests/day");
    assert!(b.text(&format!("#c{q}")).await.contains("Yes."));
    b.click_and_load("header form button").await;

    // The jury: told the public board is frozen, sees bob's WA; resets bob's password.
    sign_in(&b, &base, "boss", PW, "/contests/day/scoreboard").await;
    assert!(b.text(".clockbar").await.contains("public board frozen"));

    // bob asks a question: the jury's board page shows a banner without a reload.
    b.client
        .execute("window.__same_document = 9", vec![])
        .await
        .unwrap();
    let asked = json!({"text": "Is the checker strict about spaces?"});
    let (s, v) = j
        .post(
            "/api/contests/day/clarifications",
            Some(&j.bob),
            Some(asked),
        )
        .await;
    assert_eq!(s, 201, "{v}");
    let banner = b
        .wait_text("#notices", SOON, |t| t.contains("New question from bob."))
        .await;
    assert!(banner.contains("Answer it"), "{banner}");
    let same = b
        .client
        .execute("return window.__same_document", vec![])
        .await
        .unwrap();
    assert_eq!(same, 9, "the jury's banner came without a reload");
    b.screenshot("notice-question").await;
    assert!(b.text("table.board td.failed").await.contains("-1"));
    b.screenshot("jury-board").await;

    // The balloon list: alice's A (the first solve) waiting; the jury marks it delivered.
    b.open(&format!("{base}/contests/day/balloons")).await;
    let row = b.text("table.balloons tbody tr").await;
    assert!(
        row.contains("alice") && row.contains("first solve"),
        "{row}"
    );
    assert!(b.text("#live p").await.contains("1 to deliver"));
    b.click_and_load("table.balloons form button").await;
    assert_eq!(b.path().await, "/contests/day/balloons");
    assert!(b
        .text("table.balloons tbody tr")
        .await
        .contains("delivered"));
    assert!(b.text("#live p").await.contains("0 to deliver"));
    b.screenshot("balloons").await;
    b.open(&format!("{base}/admin")).await;
    b.click_and_load("form[action='/admin/users/bob/password'] button")
        .await;
    let shown = b.text("#passwords").await;
    let line = shown
        .lines()
        .find(|l| l.starts_with("bob,"))
        .unwrap_or_else(|| panic!("{shown}"))
        .to_string();
    let password = line.rsplit(',').next().unwrap().to_string();
    assert_eq!(password.len(), 16, "{line}");
    b.screenshot("admin-reset").await;
    let (s, _) = j.get("/api/me", Some(&j.bob)).await;
    assert_eq!(s, 401, "bob's old session ended with the reset");
    let fresh = crate::fixtures::accounts::login(&j.c, &base, "bob", &password).await;
    assert_eq!(j.get("/api/me", Some(&fresh)).await.0, 200);

    let marker = b.marker();
    b.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        browser::marked(&marker),
        Vec::<i32>::new(),
        "no browser process left"
    );
}
