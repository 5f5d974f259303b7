//! A contest's submissions page against the real daemon: a contestant's own only (none of
//! another's, none outside the contest), the jury's all with filters (user, label,
//! verdict), the contest's clock; the submission page names the contest by its title,
//! linked, and the language by its name.

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

fn has(html: &str, id: i64) -> bool {
    html.contains(&format!("href=\"/submissions/{id}\""))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contests_submissions_own_for_contestants_all_for_the_jury() {
    let cup = fixed_contest(
        "Spring Cup",
        "icpc",
        10,
        300,
        "",
        &["binary-sudoku", "target-sudoku"],
    );
    let j = start_with_contests(1, 1, &[("cup", cup)]);
    let d = &j.d;
    let api = client();
    let alice_token = login(&api, &d.base, "alice", PW).await;
    let bob_token = login(&api, &d.base, "bob", PW).await;
    let boss_token = login(&api, &d.base, "boss", PW).await;
    let mut send = Vec::new();
    for (token, path, body) in [
        (
            &alice_token,
            "/api/contests/cup/submissions",
            json!({"problem": "A", "language": "python", "source": fixture("binary-sudoku", "wa.py")}),
        ),
        (
            &bob_token,
            "/api/contests/cup/submissions",
            json!({"problem": "A", "language": "c", "source": fixture("binary-sudoku", "ac.c")}),
        ),
        // Outside the contest: never on its list.
        (
            &alice_token,
            "/api/submissions",
            json!({"problem": "sudoku", "language": "c", "source": fixture("sudoku", "ac.c")}),
        ),
    ] {
        let r = api
            .post(d.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 202, "{path}");
        let id = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
        wait_judged(&api, d, &boss_token, id).await;
        send.push(id);
    }
    let (alice_wa, bob_ac, alice_plain) = (send[0], send[1], send[2]);

    let alice = web_login(d, "alice").await;
    let (status, _, mine) = get(&alice, d, "/contests/cup/submissions").await;
    assert_eq!(status, 200);
    assert!(
        has(&mine, alice_wa) && !has(&mine, bob_ac) && !has(&mine, alice_plain),
        "{mine}"
    );
    assert!(mine.contains("class=\"clockbar\"") && mine.contains("My submissions"));
    assert!(
        !mine.contains("name=\"user\""),
        "no user filter for a contestant"
    );
    // A contestant's user filter never widens the scope.
    let (_, _, widened) = get(&alice, d, "/contests/cup/submissions?user=bob").await;
    assert!(!has(&widened, bob_ac));

    let boss = web_login(d, "boss").await;
    let (_, _, all) = get(&boss, d, "/contests/cup/submissions").await;
    assert!(
        has(&all, alice_wa) && has(&all, bob_ac) && !has(&all, alice_plain),
        "{all}"
    );
    let (_, _, bobs) = get(&boss, d, "/contests/cup/submissions?user=bob").await;
    assert!(has(&bobs, bob_ac) && !has(&bobs, alice_wa));
    let (_, _, wa) = get(&boss, d, "/contests/cup/submissions?label=A&verdict=WA").await;
    assert!(has(&wa, alice_wa) && !has(&wa, bob_ac));
    let (_, _, b) = get(&boss, d, "/contests/cup/submissions?label=B").await;
    assert!(!has(&b, alice_wa) && !has(&b, bob_ac));
    assert_eq!(
        get(&boss, d, "/contests/cup/submissions?label=Z").await.0,
        400
    );
    assert_eq!(get(&boss, d, "/contests/nope/submissions").await.0, 404);
    let (status, location, _) = get(&browser_like(), d, "/contests/cup/submissions").await;
    assert_eq!(status, 303);
    assert!(location.starts_with("/login?next="), "{location}");

    // The submission page: the contest's title linked, the label, the language's name.
    let (_, _, page) = get(&alice, d, &format!("/submissions/{alice_wa}")).await;
    assert!(
        page.contains("<a href=\"/contests/cup\">Spring Cup</a>, problem A"),
        "{page}"
    );
    let (_, _, page) = get(&boss, d, &format!("/submissions/{bob_ac}")).await;
    assert!(page.contains("<dd>C17 (gcc, GNU C17)</dd>"), "{page}");
}
