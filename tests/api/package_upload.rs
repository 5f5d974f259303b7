//! Adding a problem to a running judge (issue 29, point 3) on SQLite, through the real
//! daemon: an admin's zip upload is checked (the input validators run in the sandbox),
//! served without a restart, judged, and a contest file names it at the next start; a
//! package that fails its checks and every hostile zip (a `../` path, an absolute path, a
//! symbolic link, a zip bomb, too many entries) is refused with the reason and nothing is
//! written, in the problems folder or anywhere in the daemon's folder; only admins may upload,
//! and an id is never replaced.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::fixtures::accounts::get_as;
use crate::fixtures::accounts::{add_user, login, post_as};
use crate::fixtures::daemon::{client, restart_fresh, start_fresh, wait_done_as, Daemon};
use crate::fixtures::web::PW;
use crate::fixtures::zips;

/// POSTs `zip` to `/api/problems` (with `query`) as `token`; the status and the JSON body.
async fn upload(
    c: &reqwest::Client,
    d: &Daemon,
    query: &str,
    token: Option<&str>,
    zip: Vec<u8>,
) -> (u16, Value) {
    let mut rb = c
        .request(Method::POST, d.url(&format!("/api/problems{query}")))
        .header("content-type", "application/zip")
        .body(zip);
    if let Some(t) = token {
        rb = rb.bearer_auth(t);
    }
    let r = rb.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// The daemon's folder as the tests compare it: everything but the database, the logs and
/// the config file (rewritten at a restart).
fn folder(dir: &std::path::Path) -> Vec<String> {
    zips::tree(dir)
        .into_iter()
        .filter(|l| {
            !l.starts_with("judge.db") && !l.starts_with("daemon-") && !l.starts_with("config.toml")
        })
        .collect()
}

fn message(v: &Value) -> String {
    v["error"]["message"].as_str().unwrap_or("").to_string()
}

async fn judged(
    c: &reqwest::Client,
    d: &Daemon,
    token: &str,
    problem: &str,
    language: &str,
    source: &str,
) -> Value {
    let body = json!({"problem": problem, "language": language, "source": source});
    let (status, v) = post_as(c, d, "/api/submissions", Some(token), Some(body)).await;
    assert_eq!(status, 202, "{v}");
    let id = v["id"].as_i64().unwrap();
    let done = wait_done_as(c, d, Some(token), &[id], Duration::from_secs(120)).await;
    done[0].clone()
}

#[tokio::test]
async fn an_uploaded_package_is_checked_served_without_a_restart_and_judged() {
    let (dir, d) = start_fresh(1, 1, "");
    let settings = dir.path().join("config.toml");
    let db = dir.path().join("judge.db");
    add_user(&settings, &db, "boss", true, PW);
    add_user(&settings, &db, "alice", false, PW);
    let c = client();
    let boss = login(&c, &d.base, "boss", PW).await;
    let alice = login(&c, &d.base, "alice", PW).await;
    let zip = zips::kattis_zip("sum", &[]);

    // Only an admin: the body is not even read for the others.
    assert_eq!(upload(&c, &d, "", None, zip.clone()).await.0, 401);
    assert_eq!(upload(&c, &d, "", Some(&alice), zip.clone()).await.0, 403);
    assert_eq!(
        c.get(d.url("/api/problems/sum"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );

    // A package whose data breaks its input validator: refused, naming the test, nothing kept.
    let before = folder(dir.path());
    let bad = zips::kattis_zip(
        "sum",
        &[
            ("data/secret/05.in", b"1 2 3\n"),
            ("data/secret/05.ans", b"6\n"),
        ],
    );
    let (status, v) = upload(&c, &d, "", Some(&boss), bad).await;
    assert_eq!(status, 422, "{v}");
    assert!(message(&v).contains("secret/05"), "{v}");
    assert_eq!(
        folder(dir.path()),
        before,
        "a refused package leaves nothing"
    );

    // The package itself: checked, then served at once.
    let (status, v) = upload(&c, &d, "", Some(&boss), zip.clone()).await;
    assert_eq!(status, 201, "{v} {}", d.log());
    assert_eq!(v["id"], "sum");
    assert_eq!(v["checker"], "default", "{v}");
    let listed: Value = c
        .get(d.url("/api/problems/sum"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["title"], "Sum of Two Numbers", "{listed}");
    let health: Value = get_as(&c, &d, "/api/health", Some(boss.as_str())).await.1;
    assert!(health["data_hashes"]["sum"].is_string(), "{health}");

    // An id is never replaced, uploaded or not.
    let (status, v) = upload(&c, &d, "", Some(&boss), zip.clone()).await;
    assert_eq!(status, 409, "{v}");
    let (status, v) = upload(&c, &d, "?id=sudoku", Some(&boss), zip.clone()).await;
    assert_eq!(status, 409, "{v}");

    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kattis/sum/submissions");
    let right = std::fs::read_to_string(fixtures.join("accepted/sum.py")).unwrap();
    let wrong = std::fs::read_to_string(fixtures.join("wrong_answer/int32.c")).unwrap();
    let ac = judged(&c, &d, &alice, "sum", "python", &right).await;
    assert_eq!(ac["verdict"], "AC", "{ac}");
    assert_eq!(ac["judged_data_hash"], health["data_hashes"]["sum"]);
    let wa = judged(&c, &d, &alice, "sum", "c", &wrong).await;
    assert_eq!(wa["verdict"], "WA", "{wa}");

    // Kept: at the next start it is in the problems folder, and a contest file names it.
    drop(d);
    std::fs::create_dir_all(dir.path().join("contests")).unwrap();
    std::fs::write(
        dir.path().join("contests/up.toml"),
        "title = \"Uploaded\"\nformat = \"icpc\"\n[timing]\nkind = \"fixed\"\n\
         start = 2026-01-01T09:00:00Z\nduration = \"5h\"\n\
         [[problems]]\nlabel = \"A\"\nproblem = \"sum\"\n",
    )
    .unwrap();
    let d = restart_fresh(dir.path(), 1, "");
    let contest: Value = get_as(&c, &d, "/api/contests/up", Some(boss.as_str()))
        .await
        .1;
    assert_eq!(contest["problems"][0]["problem"], "sum", "{contest}");
}

#[tokio::test]
async fn hostile_zips_are_refused_and_write_nothing() {
    let (dir, d) = start_fresh(1, 0, "");
    let settings = dir.path().join("config.toml");
    let db = dir.path().join("judge.db");
    add_user(&settings, &db, "boss", true, PW);
    let c = client();
    let boss = login(&c, &d.base, "boss", PW).await;
    // Staging folders live in the daemon's problems folder (`.upload-*`), which `folder`
    // compares after every case: the machine's temp folder, shared with every other test,
    // is not looked at.
    let before = folder(dir.path());
    let yaml: &[u8] = b"name: X\nlimits:\n  time_limit: 1\n";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a path leaving the folder",
            zips::raw(&[("top/problem.yaml", yaml), ("top/../../escaped.txt", b"x")]),
            "`..`",
        ),
        (
            "an absolute path",
            zips::raw(&[("top/problem.yaml", yaml), ("/tmp/escaped.txt", b"x")]),
            "absolute",
        ),
        (
            "a symbolic link",
            zips::with_symlink("/etc/passwd"),
            "symbolic link",
        ),
        ("a zip bomb", zips::bomb(64), "zip bomb"),
        ("too many entries", zips::many(2001), "entries"),
        (
            "not a zip",
            b"PK\x03\x04 but no zip".to_vec(),
            "not a readable zip",
        ),
        (
            "no package in it",
            zips::raw(&[("top/readme.txt", b"hello")]),
            "no problem.toml or problem.yaml",
        ),
    ];
    for (what, zip, needle) in cases {
        let (status, v) = upload(&c, &d, "?id=evil", Some(&boss), zip).await;
        assert_eq!(status, 422, "{what}: {v}");
        assert!(
            message(&v).contains(needle),
            "{what}: `{needle}` not in {v}"
        );
        assert_eq!(folder(dir.path()), before, "{what} wrote something");
    }
    assert!(!std::path::Path::new("/tmp/escaped.txt").exists());
    // A zip past `[problems] max_upload_kib`: 413, nothing kept either.
    drop(d);
    let d = restart_fresh(dir.path(), 0, "max_upload_kib = 64\n");
    // Bytes that do not compress (xorshift), so the zip itself is past the limit.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let noise: Vec<u8> = (0..200 << 10)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let big = zips::raw(&[("top/blob", &noise)]);
    let (status, v) = upload(&c, &d, "?id=big", Some(&boss), big).await;
    assert_eq!(status, 413, "{v}");
    assert_eq!(folder(dir.path()), before);
    let (status, _) = upload(&c, &d, "", Some(&boss), Vec::new()).await;
    assert_eq!(status, 422);
}
