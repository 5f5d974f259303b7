//! Contests against the real daemon on port 0, its contest clock driven through `[contests]
//! clock_file` (no sleeps): two contestants (alice, bob) and an admin (boss). Every refusal
//! with its status and reason (too early, timer not started, personal time over, too late,
//! not a participant, hidden problem, the rate, oi results before the end); an icpc contest
//! run with its freeze and unfreeze and its lazy judging, an ioi window contest, an oi contest
//! hidden then published; a verdict on the board at the first read after its judging; every
//! accepted submission on the board exactly once.

use crate::fixtures::{contests, daemon};

use contests::{at, code, row, start, CLUB, NOIP, SPRING};
use daemon::fixture;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_with_its_status_and_reason() {
    let j = start(
        &[("spring", SPRING), ("club", CLUB), ("noip", NOIP)],
        &at(-60),
    )
    .await;
    let (boss, alice, bob) = (
        Some(j.boss.as_str()),
        Some(j.alice.as_str()),
        Some(j.bob.as_str()),
    );
    let ce = fixture("sudoku", "ce.c");

    // Anonymous: the list (what the front page shows), else sign in first (spring's board
    // is not public).
    let (s, list) = j.get("/api/contests", None).await;
    assert_eq!(s, 200);
    assert_eq!(list[0]["public_board"], false, "{list}");
    for path in ["/api/contests/spring", "/api/contests/spring/scoreboard"] {
        assert_eq!(j.get(path, None).await.0, 401, "{path}");
    }
    let (s, v) = j
        .post(
            "/api/contests/spring/submissions",
            None,
            Some(json!({"problem": "A", "language": "c", "source": ce})),
        )
        .await;
    assert_eq!((s, code(&v)), (401, "unauthenticated"));

    // An hour before the start.
    let (s, list) = j.get("/api/contests", alice).await;
    assert_eq!(s, 200);
    assert_eq!(list.as_array().unwrap().len(), 3, "{list}");
    let (_, spring) = j.get("/api/contests/spring", alice).await;
    assert_eq!(spring["you"]["phase"], "not_started", "{spring}");
    assert_eq!(spring["you"]["starts_in_s"], 3600);
    assert_eq!(spring["problems_visible"], false);
    assert_eq!(spring["problems"], json!([]));
    let (s, v) = j.get("/api/contests/spring/problems/A", alice).await;
    assert_eq!((s, code(&v)), (403, "problems_hidden"));
    let (s, v, _) = j.submit("spring", &j.alice, "A", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "not_started"), "{v}");
    // The jury sees the problems and submits at any time (never on the board).
    let (_, spring) = j.get("/api/contests/spring", boss).await;
    assert_eq!(spring["problems"].as_array().unwrap().len(), 2);
    j.submit_ok("spring", &j.boss, "A", "c", &ce).await;

    // target-sudoku is only in the club's window: hidden from contestants until it ends.
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, problems) = j.get("/api/problems", alice).await;
    assert!(
        !ids(&problems).contains(&"target-sudoku".to_string()),
        "{problems}"
    );
    assert!(
        ids(&problems).contains(&"sudoku-hard".to_string()),
        "a problem in no contest"
    );
    let (_, problems) = j.get("/api/problems", None).await;
    assert!(!ids(&problems).contains(&"target-sudoku".to_string()));
    let (_, problems) = j.get("/api/problems", boss).await;
    assert!(ids(&problems).contains(&"target-sudoku".to_string()));
    assert_eq!(j.get("/api/problems/target-sudoku", alice).await.0, 404);
    // Nor does the health answer name it: strangers and contestants read `ok` and the
    // version only; the jury reads every problem's data hash.
    for who in [None, alice] {
        let (s, health) = j.get("/api/health", who).await;
        assert_eq!(s, 200, "{health}");
        let mut fields: Vec<&str> = health
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort_unstable();
        assert_eq!(fields, ["ok", "version"], "{health}");
    }
    let (s, health) = j.get("/api/health", boss).await;
    assert_eq!(s, 200, "{health}");
    let hashes = health["data_hashes"].as_object().expect("data_hashes");
    assert!(hashes.contains_key("target-sudoku"), "{health}");
    assert!(hashes.contains_key("sudoku-hard"), "{health}");
    assert_eq!(j.get("/api/problems/target-sudoku", boss).await.0, 200);
    let (s, v) = j
        .post(
            "/api/submissions",
            alice,
            Some(json!({"problem": "target-sudoku", "language": "c", "source": ce})),
        )
        .await;
    assert_eq!((s, code(&v)), (422, "unknown_problem"));

    // Ten minutes in.
    j.set_clock(&at(10));
    let (s, v, _) = j.submit("club", &j.bob, "A", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "not_a_participant"));
    let (s, v) = j.post("/api/contests/club/start", bob, None).await;
    assert_eq!((s, code(&v)), (403, "not_a_participant"));
    let (s, v) = j
        .post(
            "/api/contests/club/clarifications",
            bob,
            Some(json!({"text": "hi"})),
        )
        .await;
    assert_eq!((s, code(&v)), (403, "not_a_participant"));
    let (s, v, _) = j.submit("club", &j.alice, "A", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "timer_not_started"));
    let (_, club) = j.get("/api/contests/club", alice).await;
    assert_eq!(
        (
            club["you"]["phase"].clone(),
            club["problems_visible"].clone()
        ),
        (json!("ready"), json!(false))
    );
    let (s, club) = j.post("/api/contests/club/start", alice, None).await;
    assert_eq!(s, 200, "{club}");
    assert_eq!(club["you"]["phase"], "running");
    assert_eq!(club["you"]["remaining_s"], 4 * 3600);
    assert_eq!(club["you"]["started_at"], "2026-03-01T09:10:00.000Z");
    assert_eq!(club["problems"][0]["problem"], "target-sudoku");
    // Starting again later does not restart the timer.
    j.set_clock(&at(20));
    let (_, club) = j.post("/api/contests/club/start", alice, None).await;
    assert_eq!(club["you"]["started_at"], "2026-03-01T09:10:00.000Z");
    assert_eq!(club["you"]["remaining_s"], 4 * 3600 - 600);
    assert_eq!(j.get("/api/contests/club/problems/A", alice).await.0, 200);

    // The rate: 3 a minute. Six at once: exactly three stored (checked in the store's
    // transaction), three told when to retry.
    let one = || j.submit("spring", &j.alice, "B", "c", &ce);
    let (a, b, c, d, e, f) = tokio::join!(one(), one(), one(), one(), one(), one());
    let answers = [a, b, c, d, e, f];
    let stored: Vec<i64> = answers
        .iter()
        .filter(|a| a.0 == 202)
        .map(|a| a.1["id"].as_i64().unwrap())
        .collect();
    assert_eq!(stored.len(), 3, "{answers:?}");
    for (s, v, retry) in answers.iter().filter(|a| a.0 != 202) {
        assert_eq!((*s, code(v)), (429, "rate_limited"), "{v}");
        assert_eq!(*retry, Some(60));
    }
    j.set_clock(&at(21));
    let fourth = j.submit_ok("spring", &j.alice, "B", "c", &ce).await;
    for id in stored.iter().chain([&fourth]) {
        assert_eq!(j.wait_done(*id).await.0["verdict"], "CE");
    }

    // An oi contest: bob sees "judged", no verdict, until the end.
    let oi = j
        .submit_ok("noip", &j.bob, "A", "c", &fixture("sudoku", "ac.c"))
        .await;
    let (full, _) = j.wait_done(oi).await;
    assert_eq!(full["verdict"], "AC");
    let (_, mine) = j.get(&format!("/api/submissions/{oi}"), bob).await;
    assert_eq!(
        (mine["status"].clone(), mine["results_hidden"].clone()),
        (json!("done"), json!(true))
    );
    for field in ["verdict", "score", "time_ms", "compile"] {
        assert!(mine[field].is_null(), "{field}: {mine}");
    }
    assert_eq!(mine["tests"], json!([]));
    let (_, listed) = j.get("/api/submissions", bob).await;
    assert_eq!(listed[0]["id"], oi);
    assert!(listed[0]["verdict"].is_null(), "{listed}");
    let board = j.board("noip", &j.bob).await;
    assert_eq!(
        (
            board["hidden"].clone(),
            row(&board, "bob")["cells"][0]["state"].clone()
        ),
        (json!(true), json!("judged"))
    );
    assert!(row(&board, "bob")["cells"][0]["score"].is_null());
    let board = j.board("noip", &j.boss).await;
    assert_eq!(row(&board, "bob")["cells"][0]["score"], 100);

    // Contestants cannot do the jury's work.
    let (s, _) = j
        .get("/api/contests/spring/scoreboard?format=csv", alice)
        .await;
    assert_eq!(s, 403);
    assert_eq!(
        j.post("/api/contests/spring/unfreeze", alice, None).await.0,
        403
    );
    let (s, _) = j
        .post(
            "/api/contests/spring/rejudge",
            alice,
            Some(json!({"problem": "A"})),
        )
        .await;
    assert_eq!(s, 403);

    // Alice's timer ends at 13:10: her time is over, the window is not.
    j.set_clock(&at(4 * 60 + 30));
    let (s, v, _) = j.submit("club", &j.alice, "A", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "time_over"));
    // The oi contest is over: bob's result is published.
    let (_, mine) = j.get(&format!("/api/submissions/{oi}"), bob).await;
    assert_eq!(
        (mine["verdict"].clone(), mine["results_hidden"].clone()),
        (json!("AC"), json!(false))
    );
    let board = j.board("noip", &j.bob).await;
    assert_eq!(row(&board, "bob")["cells"][0]["score"], 100);

    // Spring is over at 14:00.
    j.set_clock(&at(5 * 60));
    let (s, v, _) = j.submit("spring", &j.alice, "A", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "contest_over"));
    let (s, v) = j.post("/api/contests/spring/start", alice, None).await;
    assert_eq!((s, code(&v)), (403, "contest_over"));

    // After the window: over for everyone, and target-sudoku is public.
    j.set_clock(&at(3 * 24 * 60));
    let (s, v, _) = j.submit("club", &j.alice, "A", "c", &ce).await;
    assert_eq!((s, code(&v)), (403, "contest_over"));
    let (_, problems) = j.get("/api/problems", alice).await;
    assert!(ids(&problems).contains(&"target-sudoku".to_string()));
    // Nothing refused was stored: alice has her 4 spring submissions, bob his 1.
    let board = j.board("spring", &j.boss).await;
    let b = &row(&board, "alice")["cells"][1];
    assert_eq!(
        b["attempts"].as_u64().unwrap() + b["pending"].as_u64().unwrap(),
        0,
        "CE never counts: {b}"
    );
    let (_, all) = j.get("/api/submissions?limit=500", boss).await;
    let count = |user: &str, contest: &str| {
        all.as_array()
            .unwrap()
            .iter()
            .filter(|s| s["user"] == user && s["contest"] == contest)
            .count()
    };
    assert_eq!(
        (
            count("alice", "spring"),
            count("bob", "noip"),
            count("alice", "club")
        ),
        (4, 1, 0)
    );
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_icpc_contest_with_its_freeze_and_an_ioi_window_end_to_end() {
    let j = start(&[("spring", SPRING), ("club", CLUB)], &at(10)).await;
    let (boss, alice) = (Some(j.boss.as_str()), Some(j.alice.as_str()));
    let (ac, wa, ce) = (
        fixture("sudoku", "ac.c"),
        fixture("sudoku", "wa.c"),
        fixture("sudoku", "ce.c"),
    );

    // icpc judges lazily: the WA stops at its first failing test.
    let (_, sudoku) = j.get("/api/problems/sudoku", boss).await;
    assert!(sudoku["tests"].as_u64().unwrap() >= 2, "{sudoku}");
    let wrong = j.submit_ok("spring", &j.alice, "A", "c", &wa).await;
    let (done, _) = j.wait_done(wrong).await;
    assert_eq!(
        (
            done["verdict"].clone(),
            done["tests"].as_array().unwrap().len()
        ),
        (json!("WA"), 1)
    );
    assert_eq!(
        (done["contest"].clone(), done["label"].clone()),
        (json!("spring"), json!("A"))
    );
    j.set_clock(&at(15));
    let compile_error = j.submit_ok("spring", &j.alice, "sudoku", "c", &ce).await;
    j.wait_done(compile_error).await;

    // A verdict is on the board at the first read after it is stored.
    j.set_clock(&at(25));
    let accepted = j.submit_ok("spring", &j.alice, "A", "c", &ac).await;
    let (_, judged_at) = j.wait_done(accepted).await;
    let board = j.board("spring", &j.alice).await;
    let shown_after = judged_at.elapsed();
    let a = &row(&board, "alice")["cells"][0];
    assert_eq!(
        (
            a["state"].clone(),
            a["attempts"].clone(),
            a["minutes"].clone()
        ),
        (json!("solved"), json!(2), json!(25)),
        "{board}"
    );
    assert_eq!(
        row(&board, "alice")["penalty"],
        45,
        "25 + 20 for the WA; the CE is free"
    );
    println!(
        "the AC was on the board {} ms after the submission was seen done",
        shown_after.as_millis()
    );

    j.set_clock(&at(45));
    let bobs_a = j.submit_ok("spring", &j.bob, "A", "c", &ac).await;
    j.wait_done(bobs_a).await;
    let board = j.board("spring", &j.bob).await;
    assert_eq!(
        (
            row(&board, "alice")["rank"].clone(),
            row(&board, "bob")["rank"].clone()
        ),
        (json!(1), json!(1)),
        "a tie: {board}"
    );
    assert_eq!(row(&board, "alice")["cells"][0]["first_solve"], true);

    // Bob solves B in the freeze (4:10): the public board shows a pending try, the admin's
    // the solve; an unfreeze shows it to all.
    j.set_clock(&at(4 * 60 + 10));
    let bobs_b = j.submit_binary_sudoku_ac("spring", &j.bob, "B").await;
    assert_eq!(j.wait_done(bobs_b).await.0["verdict"], "AC");
    let public = j.board("spring", &j.alice).await;
    let b = &row(&public, "bob")["cells"][1];
    assert_eq!(
        (
            public["frozen"].clone(),
            b["state"].clone(),
            b["pending"].clone()
        ),
        (json!(true), json!("pending"), json!(1)),
        "{public}"
    );
    assert_eq!(row(&public, "bob")["solved"], 1);
    let whole = j.board("spring", &j.boss).await;
    assert_eq!(
        (
            whole["frozen"].clone(),
            row(&whole, "bob")["solved"].clone()
        ),
        (json!(false), json!(2))
    );
    assert_eq!(
        (
            row(&whole, "bob")["rank"].clone(),
            row(&whole, "alice")["rank"].clone()
        ),
        (json!(1), json!(2))
    );
    let r =
        j.c.get(j.d.url("/api/contests/spring/scoreboard?format=csv"))
            .bearer_auth(&j.boss)
            .send()
            .await
            .unwrap();
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/csv"));
    let csv = r.text().await.unwrap();
    assert!(
        csv.starts_with("rank,user,display_name,solved,penalty,A,B\n"),
        "icpc has no score column: {csv}"
    );
    assert!(csv.contains("1,bob,,2,295,+1@45,+1@250 *\n"), "{csv}");
    assert!(csv.contains("2,alice,,1,45,+2@25 *,\n"), "{csv}");
    let (s, v) = j.post("/api/contests/spring/unfreeze", boss, None).await;
    assert_eq!((s, v["unfrozen"].clone()), (200, json!(true)));
    let public = j.board("spring", &j.alice).await;
    assert_eq!(public["frozen"], false);
    assert_eq!(row(&public, "bob")["solved"], 2);
    let (_, spring) = j.get("/api/contests/spring", alice).await;
    assert_eq!(spring["unfrozen"], true);

    // A contest-wide rejudge of A: the four judged submissions again, the board the same.
    let before = j.board("spring", &j.boss).await;
    let (s, v) = j
        .post(
            "/api/contests/spring/rejudge",
            boss,
            Some(json!({"problem": "A"})),
        )
        .await;
    assert_eq!((s, v), (202, json!({"requeued": 4, "pending": 0})));
    for id in [wrong, compile_error, accepted, bobs_a] {
        j.wait_done(id).await;
    }
    let after = j.board("spring", &j.boss).await;
    assert_eq!(
        before["rows"], after["rows"],
        "nothing lost or counted twice"
    );
    assert!(after["version"].as_u64() > before["version"].as_u64());

    // The ioi window contest: alice starts her timer, her best score counts.
    let (s, _) = j.post("/api/contests/club/start", alice, None).await;
    assert_eq!(s, 200);
    let mut ids = Vec::new();
    for source in [
        fixture("target-sudoku", "wa.c"),
        fixture("target-sudoku", "ac.c"),
    ] {
        ids.push(j.submit_ok("club", &j.alice, "A", "c", &source).await);
    }
    for id in &ids {
        j.wait_done(*id).await;
    }
    let club = j.board("club", &j.alice).await;
    let a = &row(&club, "alice")["cells"][0];
    assert_eq!(
        (
            a["score"].clone(),
            a["attempts"].clone(),
            row(&club, "alice")["score"].clone()
        ),
        (json!(100), json!(2), json!(100)),
        "{club}"
    );
    // A question, answered to all; an announcement.
    let (s, q) = j
        .post(
            "/api/contests/club/clarifications",
            alice,
            Some(json!({"text": "Is -1 a valid answer?", "problem": "A"})),
        )
        .await;
    assert_eq!(s, 201, "{q}");
    let (_, seen) = j
        .get("/api/contests/club/clarifications", Some(j.bob.as_str()))
        .await;
    assert_eq!(seen, json!([]), "private until answered to all");
    let answer = format!("/api/contests/club/clarifications/{}/answer", q["id"]);
    let (s, _) = j
        .post(
            &answer,
            boss,
            Some(json!({"answer": "Yes, when no grid fits.", "public": true})),
        )
        .await;
    assert_eq!(s, 204);
    let (s, _) = j
        .post(
            "/api/contests/club/clarifications",
            boss,
            Some(json!({"text": "Ten minutes left."})),
        )
        .await;
    assert_eq!(s, 201);
    let (_, seen) = j
        .get("/api/contests/club/clarifications", Some(j.bob.as_str()))
        .await;
    assert_eq!(seen.as_array().unwrap().len(), 2, "{seen}");
    assert_eq!(
        (seen[0]["problem"].clone(), seen[0]["answer"].clone()),
        (json!("A"), json!("Yes, when no grid fits."))
    );
    assert_eq!(
        (seen[1]["question"].clone(), seen[1]["public"].clone()),
        (json!(null), json!(true))
    );
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}
