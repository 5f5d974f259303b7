//! No contestant gets around a contest's rules (issue 22, findings 1-2; findings 3-7 are in
//! `contest_views.rs`), against the real daemon, its contest clock driven through
//! `[contests] clock_file`: two contestants (alice, bob) and the jury (boss). One test per
//! finding, each asserting the contained outcome:
//!
//! 1. a problem a contest holds is refused outside it (plain API, the problem page's form,
//!    another contest), for its contestants only, while it runs;
//! 2. one contestant's flood of plain submissions cannot keep another's contest submission
//!    out of the queue, and the jury cancels the flood.

use crate::fixtures::{contests, daemon, web};

use contests::{at, code, start, Contest, CLUB, NOIP, SHORT};
use daemon::fixture;
use serde_json::{json, Value};

/// Practice: open, ioi, anyone, sharing sudoku with NOIP and target-sudoku with the club.
const PRACTICE: &str = r#"
title = "Practice"
format = "ioi"
[timing]
kind = "open"
[[problems]]
label = "A"
problem = "sudoku"
[[problems]]
label = "B"
problem = "binary-sudoku"
[[problems]]
label = "C"
problem = "target-sudoku"
"#;

/// A plain submission (`POST /api/submissions`) as `token`: status and body.
async fn plain(j: &Contest, token: &str, problem: &str, source: &str) -> (u16, Value) {
    j.post(
        "/api/submissions",
        Some(token),
        Some(json!({"problem": problem, "language": "c", "source": source})),
    )
    .await
}

/// The number of submissions stored (as the jury sees them).
async fn stored(j: &Contest) -> usize {
    let (s, all) = j.get("/api/submissions?limit=500", Some(&j.boss)).await;
    assert_eq!(s, 200, "{all}");
    all.as_array().unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_1_a_problem_a_contest_holds_is_refused_outside_it_on_every_route() {
    let j = start(
        &[("noip", NOIP), ("practice", PRACTICE), ("club", CLUB)],
        &at(-60),
    )
    .await;
    let ce = fixture("sudoku", "ce.c");

    // Before NOIP starts nothing is held: sudoku is public through the practice contest.
    let (s, v) = plain(&j, &j.alice, "sudoku", &ce).await;
    assert_eq!(s, 202, "{v}");
    let before = stored(&j).await;

    // NOIP runs: every contestant it admits (anyone) is held on sudoku, on every route.
    j.set_clock(&at(10));
    for token in [&j.alice, &j.bob] {
        let (s, v) = plain(&j, token, "sudoku", &ce).await;
        assert_eq!((s, code(&v)), (403, "in_contest"), "{v}");
        assert_eq!(v["error"]["contest"], "noip", "{v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains("\"noip\""),
            "{v}"
        );
        // Through the open practice contest that shares it: held by NOIP too.
        let (s, v, _) = j.submit("practice", token, "A", "c", &ce).await;
        assert_eq!((s, code(&v)), (403, "in_contest"), "{v}");
        assert_eq!(v["error"]["contest"], "noip", "{v}");
    }
    // The page's form: the reason instead of the form, and a form sent anyway is refused.
    let alice_web = web::web_login(&j.d, "alice").await;
    let page = alice_web
        .get(j.d.url("/problems/sudoku"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("belongs to contest"), "{page}");
    assert!(!page.contains("<textarea"), "no submit form: {page}");
    let csrf = web::csrf_of(&page);
    let form = reqwest::multipart::Form::new()
        .text("csrf", csrf)
        .text("language", "c")
        .text("source", ce.clone());
    let r = alice_web
        .post(j.d.url("/problems/sudoku/submit"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert!(r.text().await.unwrap().contains("noip"));
    // Through the contest itself: accepted. The jury is never held.
    j.submit_ok("noip", &j.alice, "A", "c", &ce).await;
    let (s, v) = plain(&j, &j.boss, "sudoku", &ce).await;
    assert_eq!(s, 202, "{v}");
    let (s, v, _) = j.submit("practice", &j.boss, "A", "c", &ce).await;
    assert_eq!(s, 202, "{v}");

    // A window contest holds its problem for the contestants it admits while the window is
    // open, timer started or not (alice has not started hers); bob is not admitted.
    let (s, v) = plain(&j, &j.alice, "target-sudoku", &ce).await;
    assert_eq!((s, code(&v)), (403, "in_contest"), "{v}");
    assert_eq!(v["error"]["contest"], "club");
    let (s, v, _) = j.submit("practice", &j.alice, "C", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "in_contest"), "{v}");
    let (s, v) = plain(&j, &j.bob, "target-sudoku", &ce).await;
    assert_eq!(s, 202, "{v}");

    // An open contest holds its problems on the plain route for those who take part in it:
    // bob submits binary-sudoku to practice, then cannot submit it plain; alice, who never
    // took part in practice, can.
    j.submit_ok("practice", &j.bob, "B", "c", &ce).await;
    let (s, v) = plain(&j, &j.bob, "binary-sudoku", &ce).await;
    assert_eq!((s, code(&v)), (403, "in_contest"), "{v}");
    assert_eq!(v["error"]["contest"], "practice");
    let (s, v) = plain(&j, &j.alice, "binary-sudoku", &ce).await;
    assert_eq!(s, 202, "{v}");

    // Only the accepted ones were stored: alice's noip one, the jury's two, bob's practice one,
    // alice's plain binary-sudoku, bob's plain target-sudoku.
    assert_eq!(stored(&j).await, before + 6);

    // NOIP is over: sudoku is free again for alice (she never took part in practice).
    j.set_clock(&at(3 * 60));
    let (s, v) = plain(&j, &j.alice, "sudoku", &ce).await;
    assert_eq!(s, 202, "{v}");
    // The club's window ends: target-sudoku is free too.
    j.set_clock(&at(3 * 24 * 60));
    let (s, v) = plain(&j, &j.alice, "target-sudoku", &ce).await;
    assert_eq!(s, 202, "{v}");
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}

/// A program that sleeps a second per test: the queue fills faster than one worker drains it.
const SLEEPER: &str = "#include <unistd.h>\nint main(void) { sleep(1); return 0; }\n";

/// `n` plain submissions of sudoku-hard (in no contest) as `token`, eight at a time: the
/// count of each status answered, and the `Retry-After` of every refusal.
async fn flood(j: &Contest, token: &str, n: usize) -> std::collections::BTreeMap<u16, usize> {
    let body = json!({"problem": "sudoku-hard", "language": "c", "source": SLEEPER});
    let mut statuses = std::collections::BTreeMap::new();
    let mut sent = 0;
    while sent < n {
        let batch: Vec<_> = (sent..n.min(sent + 8))
            .map(|_| {
                let request =
                    j.c.post(j.d.url("/api/submissions"))
                        .bearer_auth(token)
                        .json(&body);
                tokio::spawn(request.send())
            })
            .collect();
        sent += batch.len();
        for r in batch {
            let r = r.await.unwrap().unwrap();
            let status = r.status().as_u16();
            if status != 202 {
                assert!(
                    daemon::retry_after(&r).is_some_and(|s| s > 0),
                    "Retry-After on a {status}"
                );
                let v: Value = r.json().await.unwrap();
                let expected = if status == 429 {
                    "too_many_queued"
                } else {
                    "busy"
                };
                assert_eq!(code(&v), expected, "{v}");
            }
            *statuses.entry(status).or_default() += 1;
        }
    }
    statuses
}

/// Queued submissions now (everyone's), from `/metrics` as the jury.
async fn queued(j: &Contest) -> u64 {
    let text =
        j.c.get(j.d.url("/metrics"))
            .bearer_auth(&j.boss)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
    text.lines()
        .find(|l| l.starts_with("sudojudge_queue_depth") && l.contains("status=\"queued\""))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse::<f64>().ok())
        .map(|n| n as u64)
        .unwrap_or_else(|| panic!("no queued depth in\n{text}"))
}

/// The ids and statuses of `token`'s submissions (newest first, all pages).
async fn mine(j: &Contest, token: &str) -> Vec<(i64, String, Value)> {
    let mut all = Vec::new();
    let mut before = String::new();
    loop {
        let (s, page) = j
            .get(&format!("/api/submissions?limit=500{before}"), Some(token))
            .await;
        assert_eq!(s, 200, "{page}");
        let page = page.as_array().unwrap().clone();
        for v in &page {
            all.push((
                v["id"].as_i64().unwrap(),
                v["status"].as_str().unwrap().to_string(),
                v["verdict"].clone(),
            ));
        }
        match page.last() {
            Some(last) if page.len() == 500 => before = format!("&before={}", last["id"]),
            _ => return all,
        }
    }
}

/// After a flood of bob's, alice's contest submission is accepted and judged; the jury
/// cancels bob's queue (`how`: through the API or the admin page's button) and none of the
/// cancelled ones is ever judged.
async fn the_flood_is_contained(j: &Contest, stored_at_most: usize, by_page: bool) {
    let began = std::time::Instant::now();
    let statuses = flood(j, &j.bob, 1_100).await;
    let flooded = began.elapsed();
    let stored = statuses.get(&202).copied().unwrap_or(0);
    // The worker takes one or two off the queue meanwhile, making room for as many more.
    assert!(
        (stored_at_most..=stored_at_most + 2).contains(&stored),
        "{statuses:?}"
    );
    assert_eq!(statuses.values().sum::<usize>(), 1_100);

    // Alice's contest submission goes in at once and is judged next (the fair claim).
    let hers = j.submit_binary_sudoku_ac("short", &j.alice, "A").await;
    let sent = std::time::Instant::now();
    let (done, judged) = j.wait_done(hers).await;
    assert_eq!(done["verdict"], "AC", "{done}");
    // The baseline: how long the worker took per flood submission (its log's `took_ms`).
    let took: Vec<u64> =
        j.d.log()
            .lines()
            .filter(|l| l.contains("problem=sudoku-hard"))
            .filter_map(|l| l.split("took_ms=").nth(1)?.split(' ').next()?.parse().ok())
            .collect();
    println!(
        "1,100 plain submissions in {} ms: {statuses:?}; the contest submission judged {} ms \
         after its 202; one flood submission took {:?} ms to judge",
        flooded.as_millis(),
        judged.duration_since(sent).as_millis(),
        took
    );

    // The jury cancels bob's queue.
    let cancelled = if by_page {
        let boss = web::web_login(&j.d, "boss").await;
        let admin = boss.get(j.d.url("/admin")).send().await.unwrap();
        let html = admin.text().await.unwrap();
        assert!(html.contains("/admin/users/bob/cancel"), "{html}");
        let r = boss
            .post(j.d.url("/admin/users/bob/cancel"))
            .form(&[("csrf", web::csrf_of(&html))])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let html = r.text().await.unwrap();
        let at = html.find("cancelled ").expect("the notice") + "cancelled ".len();
        html[at..]
            .split(' ')
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    } else {
        // Only the jury may.
        let (s, v) = j.post("/api/users/bob/cancel", Some(&j.alice), None).await;
        assert_eq!((s, code(&v)), (403, "forbidden"), "{v}");
        let (s, v) = j
            .post("/api/users/nobody/cancel", Some(&j.boss), None)
            .await;
        assert_eq!(s, 404, "{v}");
        let (s, v) = j.post("/api/users/bob/cancel", Some(&j.boss), None).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["user"], "bob");
        v["cancelled"].as_u64().unwrap()
    };
    assert!(cancelled + 5 >= stored as u64, "{cancelled} of {stored}");
    assert_eq!(queued(j).await, 0, "bob's queue is empty");

    // Cancelled ones keep their record, final, and no worker takes them: after the one or
    // two in flight finish, nothing of bob's is judged any more.
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    let after = mine(j, &j.bob).await;
    assert_eq!(after.len(), stored, "every record kept");
    let count = |status: &str| after.iter().filter(|s| s.1 == status).count();
    assert_eq!(count("cancelled") as u64, cancelled);
    assert_eq!(count("queued") + count("compiling") + count("running"), 0);
    assert!(after
        .iter()
        .filter(|s| s.1 == "cancelled")
        .all(|s| s.2.is_null()));
    let (some, _, _) = after.iter().find(|s| s.1 == "cancelled").unwrap();
    let (s, v) = j
        .post(
            &format!("/api/submissions/{some}/rejudge"),
            Some(&j.boss),
            None,
        )
        .await;
    assert_eq!((s, code(&v)), (409, "conflict"), "{v}");
    // Bob may submit again: the bound counts what waits.
    let (s, v) = plain(j, &j.bob, "sudoku-hard", SLEEPER).await;
    assert_eq!(s, 202, "{v}");
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_2_one_contestants_flood_leaves_room_for_anothers_contest_submission() {
    // Defaults: 50 queued per user, max_queued 1000. One worker.
    let j = contests::start_with(&[("short", SHORT)], &at(10), 1, 1, "").await;
    the_flood_is_contained(&j, 50, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_2_the_contest_reserve_keeps_a_place_when_the_plain_queue_is_full() {
    // No per-user bound: bob's plain flood fills the queue to max_queued less the contest
    // reserve (a fifth: 800 of 1000), and then gets 503; alice's contest submission still fits.
    let j = contests::start_with(
        &[("short", SHORT)],
        &at(10),
        1,
        1,
        "[server]\nmax_queued_per_user = 0\n",
    )
    .await;
    the_flood_is_contained(&j, 800, true).await;
}
