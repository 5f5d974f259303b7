//! Issue 21, finding 2, against the real daemon: the login limit is a race no more, and a
//! burst of guesses cannot lock the admin out.

use crate::fixtures::{accounts, daemon};

use accounts::{add_user, client_from, get_as, login, metric, start_judge, Judge, PASSWORD_CHECKS};
use daemon::client;
use serde_json::json;

const PW: &str = "correct horse battery";

/// Issue 21, finding 2: the login limit was checked before the password check and counted
/// after it, so every guess in flight passed (200 parallel guesses were all checked against a
/// limit of 5), and the burst locked the real admin out for everyone. Now each attempt is
/// counted before its check, and the lock-out is per client network and name.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_guesses_are_limited_and_cannot_lock_the_admin_out() {
    const TOKEN: &str = "scrape-21-guesses";
    let Judge {
        d,
        db,
        config,
        dir: _dir,
    } = start_judge(0, &format!("[metrics]\ntoken = \"{TOKEN}\"\n"));
    add_user(&config, &db, "boss", true, PW);
    let scraper = client();
    let before = metric(&scraper, &d, Some(TOKEN), PASSWORD_CHECKS).await;

    // 100 wrong passwords for the admin's name at once, from one address.
    let attacker = client_from("127.0.0.1");
    let guesses: Vec<_> = (0..100)
        .map(|i| {
            let (c, url) = (attacker.clone(), d.url("/api/login"));
            tokio::spawn(async move {
                let r = c
                    .post(url)
                    .json(&json!({"name": "boss", "password": format!("guess number {i}")}))
                    .send()
                    .await
                    .unwrap();
                let retry = r.headers().contains_key("retry-after");
                (r.status().as_u16(), retry)
            })
        })
        .collect();
    let mut answers = Vec::new();
    for g in guesses {
        answers.push(g.await.unwrap());
    }
    let checked = answers.iter().filter(|(s, _)| *s == 401).count();
    let limited = answers.iter().filter(|(s, r)| *s == 429 && *r).count();
    let after = metric(&scraper, &d, Some(TOKEN), PASSWORD_CHECKS).await;
    assert_eq!(
        checked + limited,
        100,
        "only 401 and 429 with Retry-After: {answers:?}"
    );
    assert!(
        checked <= 5,
        "{checked} guesses were checked against a limit of 5"
    );
    assert_eq!(
        after - before,
        checked as f64,
        "the counter counts every password checked, and only those"
    );
    assert!(after - before <= 10.0);

    // The attacker's network is locked out of that name, even with the right password...
    let r = attacker
        .post(d.url("/api/login"))
        .json(&json!({"name": "boss", "password": PW}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    // ...and the admin, from a clean network, signs in at once.
    let admin = client_from("127.0.9.1");
    let token = login(&admin, &d.base, "boss", PW).await;
    let (s, me) = get_as(&admin, &d, "/api/me", Some(&token)).await;
    assert_eq!((s, me["name"].as_str()), (200, Some("boss")));
    eprintln!(
        "100 parallel wrong passwords: {checked} checked (counter +{}), {limited} got 429; \
         the right password from a clean network signed in",
        after - before
    );
}
