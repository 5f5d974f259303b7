//! Accounts and access control against the real daemon: two contestants and an admin, every
//! endpoint with every role and anonymously, logout and disable revoking tokens, rate limits,
//! the open mode, `auth = "required"` and the non-loopback refusal.

use crate::fixtures::{accounts, daemon};

use std::process::{Command, Stdio};
use std::time::Duration;

use accounts::{
    add_user, call, code, get_as, login, post_as, start_judge, succeeded, try_login, user_cmd,
    with_token, Judge,
};
use daemon::{client, fixture, trimmed_problems, wait_done, wait_done_as, write_config, Daemon};
use reqwest::Method;
use serde_json::{json, Value};

const PW: &str = "correct horse battery";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_endpoint_with_every_role() {
    let Judge {
        d,
        db,
        config,
        dir: _dir,
    } = start_judge(1, "");
    let c = client();

    // No user yet: the open mode.
    let (s, me) = get_as(&c, &d, "/api/me", None).await;
    assert_eq!((s, me["open_mode"].clone()), (200, json!(true)));

    // Users made by the CLI while the daemon runs; accounts are in force at once.
    add_user(&config, &db, "boss", true, PW);
    add_user(&config, &db, "alice", false, PW);
    add_user(&config, &db, "bob", false, PW);
    let (admin, alice, bob) = (
        login(&c, &d.base, "boss", PW).await,
        login(&c, &d.base, "alice", PW).await,
        login(&c, &d.base, "bob", PW).await,
    );
    let (admin, alice, bob) = (
        Some(admin.as_str()),
        Some(alice.as_str()),
        Some(bob.as_str()),
    );
    let (s, me) = get_as(&c, &d, "/api/me", alice).await;
    assert_eq!(s, 200);
    assert_eq!(
        (me["name"].as_str(), me["role"].as_str()),
        (Some("alice"), Some("contestant"))
    );
    assert_eq!(me["open_mode"], false);

    // Public endpoints: anyone.
    for path in [
        "/api/health",
        "/api/problems",
        "/api/problems/sudoku",
        "/api/openapi.json",
    ] {
        for who in [None, alice, admin] {
            let (s, _) = get_as(&c, &d, path, who).await;
            assert_eq!(s, 200, "GET {path} as {who:?}");
        }
    }

    // Contestants submit; the submission is theirs.
    let submit = |src: String| json!({"problem": "sudoku", "language": "c", "source": src});
    let (s, a) = post_as(
        &c,
        &d,
        "/api/submissions",
        alice,
        Some(submit(fixture("sudoku", "wa.c"))),
    )
    .await;
    assert_eq!(s, 202, "{a}");
    let a_id = a["id"].as_i64().unwrap();
    let (s, b) = post_as(
        &c,
        &d,
        "/api/submissions",
        bob,
        Some(submit(fixture("sudoku", "ac.c"))),
    )
    .await;
    assert_eq!(s, 202, "{b}");
    let b_id = b["id"].as_i64().unwrap();

    // Anonymous: everything but the public endpoints is 401, and nothing is stored.
    let anon: [(Method, String, Option<Value>); 8] = [
        (Method::GET, "/api/submissions".into(), None),
        (
            Method::POST,
            "/api/submissions".into(),
            Some(submit("int main(){}".into())),
        ),
        (Method::GET, format!("/api/submissions/{a_id}"), None),
        (Method::GET, "/api/submissions/999999".into(), None),
        (
            Method::POST,
            format!("/api/submissions/{a_id}/rejudge"),
            None,
        ),
        (
            Method::POST,
            "/api/runs".into(),
            Some(json!({"language": "c", "source": "int main(){}"})),
        ),
        (Method::GET, "/api/me".into(), None),
        (Method::POST, "/api/logout".into(), None),
    ];
    for (m, path, body) in anon.iter().cloned() {
        let (s, v) = call(&c, &d, m.clone(), &path, None, body.clone()).await;
        assert_eq!(
            (s, code(&v)),
            (401, "unauthenticated"),
            "{m} {path} anonymously"
        );
        // A made-up or malformed token is no better.
        let (s, _) = call(&c, &d, m.clone(), &path, Some("sj_0000"), body).await;
        assert_eq!(s, 401, "{m} {path} with a bad token");
    }

    let done = wait_done_as(&c, &d, admin, &[a_id, b_id], Duration::from_secs(120)).await;
    assert_eq!(done[0]["verdict"], "WA");
    assert_eq!(done[1]["verdict"], "AC");

    // Alice reads her own, with source; Bob's is a 404 worded like a missing one.
    let (s, mine) = get_as(&c, &d, &format!("/api/submissions/{a_id}"), alice).await;
    assert_eq!(s, 200);
    assert_eq!(mine["user"], "alice");
    assert!(mine["source"].as_str().is_some_and(|s| s.contains("puts")));
    let (s, theirs) = get_as(&c, &d, &format!("/api/submissions/{b_id}"), alice).await;
    let (s2, missing) = get_as(&c, &d, "/api/submissions/999999", alice).await;
    assert_eq!((s, s2), (404, 404));
    assert_eq!(theirs["error"]["message"], format!("no submission {b_id}"));
    assert_eq!(missing["error"]["message"], "no submission 999999");

    // Secret tests: a contestant sees verdict, time and memory; the admin the full messages.
    let secret = |v: &Value| -> Value {
        v["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"].as_str().unwrap().starts_with("secret/"))
            .cloned()
            .expect("a secret test")
    };
    let (_, full) = get_as(&c, &d, &format!("/api/submissions/{a_id}"), admin).await;
    assert_eq!(secret(&full)["verdict"], "WA");
    assert!(
        secret(&full)["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{full}"
    );
    assert_eq!(secret(&mine)["verdict"], "WA");
    // The contestant reads the verdict's fixed phrase, never the checker's message.
    assert_eq!(secret(&mine)["message"], "wrong answer", "{mine}");
    assert_ne!(secret(&mine)["message"], secret(&full)["message"]);
    assert!(secret(&mine)["exit_code"].is_null(), "{mine}");
    assert!(secret(&mine)["time_ms"].is_u64() && secret(&mine)["memory_kib"].is_u64());

    // Lists: a contestant's own only; the admin's everyone's.
    let ids = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect()
    };
    let (_, l) = get_as(&c, &d, "/api/submissions", alice).await;
    assert_eq!(ids(&l), [a_id]);
    let (_, l) = get_as(&c, &d, "/api/submissions", bob).await;
    assert_eq!(ids(&l), [b_id]);
    let (_, l) = get_as(&c, &d, "/api/submissions", admin).await;
    assert_eq!(ids(&l), [b_id, a_id]);
    assert_eq!(l[0]["user"], "bob");

    // Rejudge: never a contestant (own 403, another's 404); the admin anything.
    let rejudge = |id: i64| format!("/api/submissions/{id}/rejudge");
    let (s, v) = post_as(&c, &d, &rejudge(a_id), alice, None).await;
    assert_eq!((s, code(&v)), (403, "forbidden"));
    let (s, v) = post_as(&c, &d, &rejudge(b_id), alice, None).await;
    assert_eq!(
        (s, v["error"]["message"].as_str()),
        (404, Some(format!("no submission {b_id}").as_str()))
    );
    let (s, _) = post_as(&c, &d, &rejudge(999999), alice, None).await;
    assert_eq!(s, 404);
    let (s, v) = post_as(&c, &d, &rejudge(b_id), admin, None).await;
    assert_eq!((s, v["status"].as_str()), (202, Some("queued")));
    let (s, _) = post_as(&c, &d, &rejudge(999999), admin, None).await;
    assert_eq!(s, 404);
    wait_done_as(&c, &d, admin, &[b_id], Duration::from_secs(120)).await;

    // Custom runs: a user's, counted against them (the limit itself: the next test).
    let (s, run) = post_as(
        &c,
        &d,
        "/api/runs",
        bob,
        Some(json!({"language": "python", "source": "print(6*7)"})),
    )
    .await;
    assert_eq!(
        (s, run["status"].as_str(), run["stdout"].as_str()),
        (200, Some("ok"), Some("42\n"))
    );

    // Logout revokes that token at once, and only that one.
    let alice2 = login(&c, &d.base, "alice", PW).await;
    let (s, _) = post_as(&c, &d, "/api/logout", alice, None).await;
    assert_eq!(s, 204);
    let (s, _) = get_as(&c, &d, "/api/me", alice).await;
    assert_eq!(s, 401);
    let (s, _) = get_as(&c, &d, "/api/me", Some(&alice2)).await;
    assert_eq!(s, 200);

    // An API token from the CLI works like a login token.
    let out = user_cmd(&config, &db, &["token", "bob"], "");
    succeeded(&out);
    let api_token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let (s, me) = get_as(&c, &d, "/api/me", Some(&api_token)).await;
    assert_eq!((s, me["name"].as_str()), (200, Some("bob")));

    // Disabling Bob stops both his tokens at once, and his login fails like a wrong password.
    let out = user_cmd(&config, &db, &["disable", "bob"], "");
    succeeded(&out);
    for t in [bob, Some(api_token.as_str())] {
        let (s, _) = get_as(&c, &d, "/api/submissions", t).await;
        assert_eq!(s, 401);
    }
    let (s1, disabled) = try_login(&c, &d, "bob", PW).await;
    let (s2, wrong) = try_login(&c, &d, "alice", "not it at all").await;
    let (s3, nobody) = try_login(&c, &d, "nobody", PW).await;
    assert_eq!((s1, s2, s3), (401, 401, 401));
    assert_eq!(
        disabled, wrong,
        "errors never tell whether an account exists"
    );
    assert_eq!(wrong, nobody);
    assert_eq!(code(&wrong), "bad_credentials");
    let list = user_cmd(&config, &db, &["list", "--json"], "");
    let users: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(users.as_array().unwrap().len(), 3);
    assert_eq!(users[1]["name"], "bob");
    assert_eq!(users[1]["disabled"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_and_runs_are_rate_limited() {
    let Judge {
        d,
        db,
        config,
        dir: _dir,
    } = start_judge(
        0,
        "[accounts]\nlogin_failures_per_account = 3\nlogin_failures_per_address = 7\nruns_per_minute = 2\n",
    );
    add_user(&config, &db, "alice", false, PW);
    add_user(&config, &db, "bob", false, PW);
    let c = client();

    // Per account: three failures lock the account, even for the right password.
    for _ in 0..3 {
        let (s, _) = try_login(&c, &d, "alice", "wrong password").await;
        assert_eq!(s, 401);
    }
    let r = c
        .post(d.url("/api/login"))
        .json(&json!({"name": "alice", "password": PW}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=300).contains(&retry), "{retry}");
    let v: Value = r.json().await.unwrap();
    assert_eq!(code(&v), "rate_limited");
    // A name that does not exist is limited the same way (the limit reveals nothing).
    for _ in 0..3 {
        let (s, _) = try_login(&c, &d, "ghost", "wrong password").await;
        assert_eq!(s, 401);
    }
    let (s, _) = try_login(&c, &d, "ghost", "wrong password").await;
    assert_eq!(s, 429);
    // Bob is not locked by the others' failures yet (6 from this address so far)...
    let bob = login(&c, &d.base, "bob", PW).await;
    // ...but one more failure from this address locks every name at it.
    let (s, _) = try_login(&c, &d, "carol", "x").await;
    assert_eq!(s, 401);
    let (s, _) = try_login(&c, &d, "bob", PW).await;
    assert_eq!(s, 429);

    // Runs: two a minute for Bob, then 429 with Retry-After; tokens still work elsewhere.
    for _ in 0..2 {
        let (s, v) = post_as(
            &c,
            &d,
            "/api/runs",
            Some(&bob),
            Some(json!({"language": "cobol", "source": "x"})),
        )
        .await;
        assert_eq!((s, code(&v)), (422, "unknown_language"));
    }
    let r = with_token(c.post(d.url("/api/runs")), Some(&bob))
        .json(&json!({"language": "python", "source": "print(1)"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    let (s, _) = get_as(&c, &d, "/api/submissions", Some(&bob)).await;
    assert_eq!(s, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_mode_required_mode_and_the_loopback_rule() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);

    // Open mode: no users, loopback, everything without a token, as before accounts.
    let db = dir.path().join("open.db");
    let d = Daemon::start(dir.path(), &db, &problems, 1);
    let c = client();
    let (s, v) = post_as(
        &c,
        &d,
        "/api/submissions",
        None,
        Some(json!({"problem": "sudoku", "language": "c", "source": fixture("sudoku", "ac.c")})),
    )
    .await;
    assert_eq!(s, 202);
    let id = v["id"].as_i64().unwrap();
    let done = wait_done(&c, &d, &[id], Duration::from_secs(120)).await;
    assert_eq!(done[0]["verdict"], "AC");
    assert!(done[0]["user"].is_null());
    assert!(done[0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["verdict"] == "AC"));
    let (s, _) = post_as(
        &c,
        &d,
        &format!("/api/submissions/{id}/rejudge"),
        None,
        None,
    )
    .await;
    assert_eq!(s, 202);
    drop(d);

    // Open mode on a non-loopback address: refused, saying how to fix it.
    let config = write_config(dir.path(), &problems, "");
    let serve = |db: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_sudojudge"))
            .arg("--config")
            .arg(&config)
            .args([
                "serve",
                "--listen",
                "0.0.0.0:0",
                "--workers",
                "1",
                "--database",
            ])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let out = serve(&db).wait_with_output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("open mode") && err.contains("sudojudge user add NAME --admin"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "it never listened");

    // With an admin, the same address is served (and asks for tokens).
    add_user(&config, &db, "host", true, PW);
    let mut child = serve(&db);
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("listening on http://0.0.0.0:"), "{line}");

    // auth = "required": tokens even with no user at all.
    let d = Daemon::start_with(
        dir.path(),
        &dir.path().join("req.db"),
        &problems,
        1,
        "[accounts]\nauth = \"required\"\n",
    );
    let (s, _) = get_as(&c, &d, "/api/submissions", None).await;
    assert_eq!(s, 401);
    let (s, _) = get_as(&c, &d, "/api/problems", None).await;
    assert_eq!(s, 200);
}
