//! Issue 21, findings 4 to 6, against the real daemon: what a stranger can no longer do.
//!
//! - 4: the open single-user mode answered any `Host`, so a web page using DNS rebinding
//!   acted as the host (read submissions, submitted one with `Host: rebind.attacker.example`).
//!   Now it answers 421 `host_not_allowed` to a non-loopback `Host` and stores nothing;
//!   `localhost`, `127.0.0.1` and `[::1]`, with a port, still work.
//! - 5: private pages were cacheable (a submission page, the admin page that shows a new
//!   user's password once). Now every answer that depends on the caller says
//!   `Cache-Control: no-store`.
//! - 6: anonymous `/api/health` named the host, its queue, its sandbox profile, its nodes and
//!   its packages' data hashes. Now strangers and contestants read `ok` and the version; an
//!   admin, the metrics token and the open mode's host read every field.

use crate::fixtures::{accounts, daemon, web};

use accounts::{add_user, login, start_judge, with_token, Judge};
use daemon::{client, fixture, start_fresh};
use reqwest::header::{CACHE_CONTROL, HOST};
use serde_json::{json, Value};
use web::{csrf_of, web_login, PW};

/// The health fields only the host reads.
const HOST_FIELDS: [&str; 6] = [
    "queue_depth",
    "workers",
    "sandbox",
    "node",
    "data_hashes",
    "nodes",
];

fn fields(v: &Value) -> Vec<String> {
    let mut f: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
    f.sort();
    f
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_mode_answers_loopback_hosts_only() {
    let (_dir, d) = start_fresh(0, 1, "");
    let port = d.base.rsplit(':').next().unwrap().to_string();
    let c = client();
    let submission =
        json!({"problem": "sudoku", "language": "c", "source": fixture("sudoku", "ac.c")});

    // A page whose name was rebound to 127.0.0.1 reads nothing and submits nothing.
    for host in [
        format!("rebind.attacker.example:{port}"),
        "rebind.attacker.example".to_string(),
        format!("localhost.attacker.example:{port}"),
        format!("10.0.0.1:{port}"),
    ] {
        for path in ["/api/submissions", "/submissions", "/api/me", "/metrics"] {
            let r = c.get(d.url(path)).header(HOST, &host).send().await.unwrap();
            assert_eq!(r.status(), 421, "GET {path} with Host {host}");
            if path.starts_with("/api") {
                let v: Value = r.json().await.unwrap();
                assert_eq!(v["error"]["code"], "host_not_allowed", "{v}");
            }
        }
        let r = c
            .post(d.url("/api/submissions"))
            .header(HOST, &host)
            .json(&submission)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 421, "POST with Host {host}");
    }
    // Loopback names and addresses, with a port, still work; nothing was stored above.
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        "localhost".to_string(),
    ] {
        let r = c
            .get(d.url("/api/submissions"))
            .header(HOST, &host)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "Host {host}");
        let list: Value = r.json().await.unwrap();
        assert_eq!(list, json!([]), "the refused submissions were not stored");
    }
    let r = c
        .post(d.url("/api/submissions"))
        .header(HOST, format!("localhost:{port}"))
        .json(&submission)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_answers_are_never_stored_and_strangers_read_little_health() {
    const TOKEN: &str = "scrape-21-strangers";
    let Judge {
        d,
        db,
        config,
        dir: _dir,
    } = start_judge(0, &format!("[metrics]\ntoken = \"{TOKEN}\"\n"));
    add_user(&config, &db, "boss", true, PW);
    add_user(&config, &db, "alice", false, PW);
    let c = client();
    let alice = login(&c, &d.base, "alice", PW).await;
    let boss = login(&c, &d.base, "boss", PW).await;

    // Finding 6: health.
    for (who, token) in [("anonymous", None), ("a contestant", Some(alice.as_str()))] {
        let r = with_token(c.get(d.url("/api/health")), token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let v: Value = r.json().await.unwrap();
        assert_eq!(fields(&v), ["ok", "version"], "{who}: {v}");
        assert_eq!(v["ok"], true);
    }
    for (who, token) in [("the admin", boss.as_str()), ("the metrics token", TOKEN)] {
        let r = c
            .get(d.url("/api/health"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let v: Value = r.json().await.unwrap();
        for field in HOST_FIELDS {
            assert!(v.get(field).is_some(), "{who} reads {field}: {v}");
        }
        assert!(
            v["data_hashes"].as_object().is_some_and(|h| !h.is_empty()),
            "{v}"
        );
    }

    // Finding 5: a submission, its page, the admin page showing a new password.
    let r = c
        .post(d.url("/api/submissions"))
        .bearer_auth(&alice)
        .json(&json!({"problem": "sudoku", "language": "c", "source": fixture("sudoku", "wa.c")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    assert_eq!(r.headers()[CACHE_CONTROL], "no-store");
    let id = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    for (path, token) in [
        (format!("/api/submissions/{id}"), &alice),
        ("/api/submissions".to_string(), &alice),
        ("/api/me".to_string(), &alice),
        ("/api/nodes".to_string(), &boss),
    ] {
        let r = c.get(d.url(&path)).bearer_auth(token).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "{path}");
    }
    let r = c
        .post(d.url("/api/login"))
        .json(&json!({"name": "alice", "password": PW}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "a new token");

    let alice_web = web_login(&d, "alice").await;
    for path in [format!("/submissions/{id}"), "/submissions".to_string()] {
        let r = alice_web.get(d.url(&path)).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "{path}");
    }
    let boss_web = web_login(&d, "boss").await;
    let admin = boss_web.get(d.url("/admin")).send().await.unwrap();
    assert_eq!(admin.status(), 200);
    assert_eq!(admin.headers()[CACHE_CONTROL], "no-store");
    let page = admin.text().await.unwrap();
    let added = boss_web
        .post(d.url("/admin/users"))
        .form(&[("csrf", csrf_of(&page).as_str()), ("name", "carol")])
        .send()
        .await
        .unwrap();
    assert_eq!(added.headers()[CACHE_CONTROL], "no-store");
    let shown = added.text().await.unwrap();
    assert!(
        shown.contains("carol"),
        "the new user's password is shown: {shown}"
    );
    // The stylesheet, the same for everyone, stays cacheable.
    let css = c.get(d.url("/static/style.css")).send().await.unwrap();
    assert_eq!(css.headers()[CACHE_CONTROL], "public, max-age=3600");
}

/// The public board stays revalidated by its ETag (`private, no-cache`); the jury's board,
/// which shows what a freeze hides, is `no-store`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_board_is_never_stored() {
    let contest = web::fixed_contest("Spring", "icpc", 10, 120, "", &["sudoku"]);
    let j = web::start_with_contests(0, 1, &[("spring", contest)]);
    let c = client();
    let alice = login(&c, &j.d.base, "alice", PW).await;
    let boss = login(&c, &j.d.base, "boss", PW).await;
    for (token, cache) in [(&alice, "private, no-cache"), (&boss, "no-store")] {
        let r = c
            .get(j.d.url("/api/contests/spring/scoreboard"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()[CACHE_CONTROL], cache);
    }
}
