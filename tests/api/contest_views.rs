//! No contestant gets around a contest's rules (issue 22, findings 3-7; findings 1-2 are in
//! `contest_rules.rs`), against the real daemon, its contest clock driven through
//! `[contests] clock_file`: two contestants (alice, bob) and the jury (boss).
//!
//! 3. questions are bounded in length and rate, the jury's list is paged;
//! 4. contestants see secret tests by number, never by file name;
//! 5. no unfreeze before the freeze, and the page asks for confirmation;
//! 6. the frozen board moves only when what it shows moves;
//! 7. hidden problems are not listed nor told apart from made-up ones.

use crate::fixtures::contests::{fixed_five_hours, message};
use crate::fixtures::{contests, daemon, web};

use contests::{at, code, start, Contest, CLUB, NOIP, SHORT};
use daemon::fixture;
use serde_json::{json, Value};

/// `n` questions of `chars` characters from `token` to `contest`, eight at a time: the count
/// of each status answered.
async fn ask_many(
    j: &Contest,
    contest: &str,
    token: &str,
    n: usize,
    chars: usize,
) -> std::collections::BTreeMap<u16, usize> {
    let body = json!({"text": "?".repeat(chars)});
    let url = j.d.url(&format!("/api/contests/{contest}/clarifications"));
    let mut statuses = std::collections::BTreeMap::new();
    let mut sent = 0;
    while sent < n {
        let batch: Vec<_> = (sent..n.min(sent + 8))
            .map(|_| tokio::spawn(j.c.post(&url).bearer_auth(token).json(&body).send()))
            .collect();
        sent += batch.len();
        for r in batch {
            let r = r.await.unwrap().unwrap();
            *statuses.entry(r.status().as_u16()).or_default() += 1;
        }
    }
    statuses
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_3_questions_are_bounded_in_length_and_rate_and_the_jurys_list_is_paged() {
    let j = start(&[("short", SHORT)], &at(10)).await;
    let path = "/api/contests/short/clarifications";

    // 4 KB questions: 422 too_long, with the limit in words; nothing stored.
    let (s, v) = j
        .post(
            path,
            Some(&j.alice),
            Some(json!({"text": "x".repeat(4096)})),
        )
        .await;
    assert_eq!((s, code(&v)), (422, "too_long"), "{v}");
    assert!(
        message(&v).contains("4096 characters; the limit is 1000"),
        "{v}"
    );
    // 3,000 questions of 1,000 characters at once: five stored (5 in any 10 minutes), the
    // rest 429.
    let statuses = ask_many(&j, "short", &j.alice, 3_000, 1_000).await;
    assert_eq!(statuses.get(&201), Some(&5), "{statuses:?}");
    assert_eq!(statuses.get(&429), Some(&2_995), "{statuses:?}");
    let r =
        j.c.post(j.d.url(path))
            .bearer_auth(&j.alice)
            .json(&json!({"text": "one more?"}))
            .send()
            .await
            .unwrap();
    assert_eq!(r.status(), 429);
    assert_eq!(daemon::retry_after(&r), Some(600));
    // Bob's questions are his own count; ten minutes later alice may ask again.
    let (s, _) = j
        .post(path, Some(&j.bob), Some(json!({"text": "bob's"})))
        .await;
    assert_eq!(s, 201);
    j.set_clock(&at(20));
    let (s, _) = j
        .post(path, Some(&j.alice), Some(json!({"text": "again"})))
        .await;
    assert_eq!(s, 201);

    // Enough questions for pages (five every ten minutes, from alice and bob).
    for step in 0..25 {
        j.set_clock(&at(30 + 10 * step));
        for token in [&j.alice, &j.bob] {
            let statuses = ask_many(&j, "short", token, 5, 1_000).await;
            assert_eq!(statuses.get(&201), Some(&5), "{statuses:?}");
        }
    }
    let total = 5 + 1 + 1 + 250;
    // The API: oldest first, 200 a page at most; `after` the last id gives the rest.
    let (s, first) = j.get(path, Some(&j.boss)).await;
    assert_eq!(s, 200);
    let first = first.as_array().unwrap().clone();
    assert_eq!(first.len(), 200);
    let last = first.last().unwrap()["id"].as_i64().unwrap();
    let (_, rest) = j.get(&format!("{path}?after={last}"), Some(&j.boss)).await;
    assert_eq!(rest.as_array().unwrap().len(), total - 200);
    assert_eq!(
        j.get(&format!("{path}?limit=201"), Some(&j.boss)).await.0,
        400
    );
    let (_, some) = j.get(&format!("{path}?limit=10"), Some(&j.alice)).await;
    assert_eq!(some.as_array().unwrap().len(), 10);
    // The jury's contest page: the newest 50, and a link to the older ones; each page small.
    let boss = web::web_login(&j.d, "boss").await;
    let mut href = "/contests/short".to_string();
    let mut pages = 0;
    let mut seen = 0;
    loop {
        let html = boss
            .get(j.d.url(&href))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(html.len() < 100 * 1024, "{href}: {} bytes", html.len());
        seen += html.matches("<b>Q:</b>").count();
        pages += 1;
        match html.find("id=\"older\"") {
            None => break,
            Some(_) => {
                let at = html.find("href=\"/contests/short?before=").unwrap() + 6;
                href = html[at..at + html[at..].find('"').unwrap()].to_string();
            }
        }
    }
    assert_eq!((seen, pages), (total, total.div_ceil(50)));
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_4_contestants_read_secret_tests_by_number_and_the_jury_by_name() {
    // Five secret tests of binary-sudoku: 01-all-zeros ... 05-answer-1.
    let j = contests::start_with(&[("short", SHORT)], &at(10), 2, 5, "").await;
    let id = j.submit_binary_sudoku_ac("short", &j.alice, "A").await;
    let (jury, _) = j.wait_done(id).await;
    let names = |v: &Value| -> Vec<String> {
        v["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    let secret_files: Vec<String> = names(&jury)
        .into_iter()
        .filter(|n| n.starts_with("secret/"))
        .collect();
    assert_eq!(secret_files.len(), 5, "{jury}");
    assert!(
        secret_files.contains(&"secret/04-answer-1".to_string()),
        "{jury}"
    );
    // The contestant's API view: by number; samples by name.
    let (s, mine) = j
        .get(&format!("/api/submissions/{id}"), Some(&j.alice))
        .await;
    assert_eq!(s, 200);
    let shown: Vec<String> = names(&mine)
        .into_iter()
        .filter(|n| n.starts_with("secret/"))
        .collect();
    assert_eq!(
        shown,
        ["secret/1", "secret/2", "secret/3", "secret/4", "secret/5"]
    );
    assert!(names(&mine).iter().any(|n| n.starts_with("sample/")));
    // The submission page (which the live refresh fetches again) and the lists: no file name.
    let alice = web::web_login(&j.d, "alice").await;
    for page in [
        format!("/submissions/{id}"),
        "/submissions".to_string(),
        "/contests/short".to_string(),
        "/contests/short/scoreboard".to_string(),
    ] {
        let html = alice
            .get(j.d.url(&page))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        for file in &secret_files {
            let stem = file.trim_start_matches("secret/");
            assert!(!html.contains(stem), "{page} shows {stem}");
        }
    }
    let (_, listed) = j.get("/api/submissions", Some(&j.alice)).await;
    for file in &secret_files {
        assert!(!listed.to_string().contains(file.as_str()));
    }
    // The jury's page keeps the file names.
    let boss = web::web_login(&j.d, "boss").await;
    let html = boss
        .get(j.d.url(&format!("/submissions/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("secret/04-answer-1"), "{html}");
}

/// icpc, fixed from T0 for 5 h, frozen for the last hour, anyone: sudoku, binary-sudoku.
fn frozen() -> String {
    fixed_five_hours(
        "Frozen",
        "icpc",
        &["freeze_minutes = 60"],
        &[("A", "sudoku"), ("B", "binary-sudoku")],
    )
}

/// ioi, fixed from T0 for 5 h (no freeze): sudoku-hard.
fn hard() -> String {
    fixed_five_hours("Hard", "ioi", &[], &[("A", "sudoku-hard")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_5_no_unfreeze_before_the_freeze_and_the_page_asks_first() {
    let j = start(&[("frozen", &frozen()), ("hard", &hard())], &at(10)).await;
    // Before the freeze: 409, saying when it begins; a contest without a freeze: 409 too.
    let (s, v) = j
        .post("/api/contests/frozen/unfreeze", Some(&j.boss), None)
        .await;
    assert_eq!((s, code(&v)), (409, "conflict"), "{v}");
    assert!(message(&v).contains("2026-03-01T13:00:00.000Z"), "{v}");
    let (s, v) = j
        .post("/api/contests/hard/unfreeze", Some(&j.boss), None)
        .await;
    assert_eq!((s, code(&v)), (409, "conflict"), "{v}");
    let (_, frozen) = j.get("/api/contests/frozen", Some(&j.boss)).await;
    assert_eq!(frozen["unfrozen"], false);
    // The jury's page offers no unfreeze yet, only when the freeze begins.
    let boss = web::web_login(&j.d, "boss").await;
    let html = boss
        .get(j.d.url("/contests/frozen"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!html.contains("/unfreeze"), "{html}");
    assert!(
        html.contains("The board freezes at 2026-03-01 13:00:00 UTC"),
        "{html}"
    );

    // In the freeze, bob's AC is a pending try on the public board (the refused unfreeze
    // cancelled nothing).
    j.set_clock(&at(4 * 60 + 10));
    let b = j.submit_binary_sudoku_ac("frozen", &j.bob, "B").await;
    j.wait_done(b).await;
    let public = j.board("frozen", &j.alice).await;
    assert_eq!(public["frozen"], true);
    assert_eq!(contests::row(&public, "bob")["solved"], 0, "{public}");
    // Now the page offers it, with a box to tick; unticked, nothing is published.
    let html = boss
        .get(j.d.url("/contests/frozen"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("name=\"confirm\""), "{html}");
    let csrf = web::csrf_of(&html);
    let r = boss
        .post(j.d.url("/contests/frozen/unfreeze"))
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("tick the box to confirm"));
    assert_eq!(j.board("frozen", &j.alice).await["frozen"], true);
    let r = boss
        .post(j.d.url("/contests/frozen/unfreeze"))
        .form(&[("csrf", csrf.as_str()), ("confirm", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    let public = j.board("frozen", &j.alice).await;
    assert_eq!(public["frozen"], false);
    assert_eq!(contests::row(&public, "bob")["solved"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_the_frozen_board_moves_only_when_what_it_shows_moves() {
    let j = start(&[("frozen", &frozen())], &at(4 * 60 + 10)).await;
    let board = "/api/contests/frozen/scoreboard";
    // Version, tag and body of the public board as alice reads it.
    let read = || async {
        let r =
            j.c.get(j.d.url(board))
                .bearer_auth(&j.alice)
                .send()
                .await
                .unwrap();
        let tag = r.headers()["etag"].to_str().unwrap().to_string();
        let body = r.text().await.unwrap();
        let v: Value = serde_json::from_str(&body).unwrap();
        (v["version"].clone(), tag, body)
    };
    let admin_version = || async {
        j.board("frozen", &j.boss).await["version"]
            .as_u64()
            .unwrap()
    };
    let before = read().await;
    for source in [fixture("sudoku", "wa.c"), fixture("sudoku", "ac.c")] {
        // A rival's submission in the freeze: one more pending try, shown at once.
        let id = j.submit_ok("frozen", &j.bob, "A", "c", &source).await;
        let queued = read().await;
        assert_ne!(queued.0, before.0);
        assert_ne!(queued.1, before.1);
        let admin_queued = admin_version().await;
        // Judged (WA or AC): the jury's board moves, the public one not at all.
        let (done, _) = j.wait_done(id).await;
        let judged = read().await;
        assert!(admin_version().await > admin_queued, "{done}");
        assert_eq!(
            judged, queued,
            "the public board moved when {} was judged",
            done["verdict"]
        );
        let r =
            j.c.get(j.d.url(board))
                .bearer_auth(&j.alice)
                .header("if-none-match", &queued.1)
                .send()
                .await
                .unwrap();
        assert_eq!(r.status(), 304);
    }
    let public: Value = serde_json::from_str(&read().await.2).unwrap();
    let a = &contests::row(&public, "bob")["cells"][0];
    assert_eq!(
        (a["state"].clone(), a["pending"].clone()),
        (json!("pending"), json!(2))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_7_hidden_problems_are_neither_listed_nor_told_apart() {
    // Before NOIP (sudoku) and the club (target-sudoku) start: both hidden from contestants.
    let j = start(&[("noip", NOIP), ("club", CLUB)], &at(-60)).await;
    let options = |html: &str| -> Vec<String> {
        let select = &html[html.find("name=\"problem\"").expect("the problem filter")..];
        let select = &select[..select.find("</select>").unwrap()];
        select
            .split("<option")
            .skip(1)
            .filter_map(|o| o.split('>').nth(1))
            .map(|t| t.trim_end_matches("</option").trim().to_string())
            .filter(|t| !t.is_empty())
            .collect()
    };
    let alice = web::web_login(&j.d, "alice").await;
    let url = j.d.url("/submissions");
    let page = |c: reqwest::Client| {
        let url = url.clone();
        async move { c.get(url).send().await.unwrap().text().await.unwrap() }
    };
    let hers = options(&page(alice.clone()).await);
    assert!(hers.contains(&"binary-sudoku".to_string()), "{hers:?}");
    assert!(hers.contains(&"sudoku-hard".to_string()), "{hers:?}");
    for hidden in ["sudoku", "target-sudoku"] {
        assert!(!hers.contains(&hidden.to_string()), "{hidden} in {hers:?}");
    }
    let boss = web::web_login(&j.d, "boss").await;
    let jurys = options(&page(boss).await);
    assert!(jurys.contains(&"target-sudoku".to_string()), "{jurys:?}");

    // A question about a problem before the problems are shown: the same answer for a real
    // one (its label, its id) and a made-up one.
    let ask = |problem: &'static str| {
        j.post(
            "/api/contests/noip/clarifications",
            Some(&j.alice),
            Some(json!({"text": "Is this one hard?", "problem": problem})),
        )
    };
    let real = ask("A").await;
    for other in [ask("sudoku").await, ask("Z").await, ask("chess").await] {
        assert_eq!(other, real);
    }
    assert_eq!(real.0, 422, "{real:?}");
    // About the contest as a whole: fine. Once it runs, a real problem is fine too.
    let (s, _) = j
        .post(
            "/api/contests/noip/clarifications",
            Some(&j.alice),
            Some(json!({"text": "When does it start?"})),
        )
        .await;
    assert_eq!(s, 201);
    j.set_clock(&at(10));
    assert_eq!(ask("A").await.0, 201);
    assert_eq!(ask("Z").await.0, 422);
    // The problem filter follows: sudoku is shown now.
    let alice = web::web_login(&j.d, "alice").await;
    assert!(options(&page(alice).await).contains(&"sudoku".to_string()));
}
