//! Roster groups and every listed participant on the board (issue 26, point 3), against the
//! real daemon: a roster's `group` column (imported by `sudojudge user import` and on the
//! admin page) links its users to a contest whose file lists `participants =
//! ["group:class-7b", "alice", "zed"]`; the board lists every one of them from the start,
//! those who never submitted with zero; a member may submit, a user outside the list and its
//! groups may not; a listed user added mid-contest with a display name, and a member imported
//! mid-contest, are on the board at once (no submission moved its version).

use crate::fixtures::{accounts, daemon, web};

use accounts::{login, user_cmd};
use daemon::fixture;
use serde_json::{json, Value};
use web::{csrf_of, fixed_contest, start_with_contests, web_login, PW};

/// The rows' users of the board as `token` reads it, and its display names.
async fn board(c: &reqwest::Client, base: &str, token: &str) -> (Vec<String>, Value) {
    let v: Value = c
        .get(format!("{base}/api/contests/class/scoreboard"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let users = v["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .map(|r| r["user"].as_str().unwrap().to_string())
        .collect();
    (users, v["display_names"].clone())
}

/// Imports `roster` with the CLI; the password of each user.
fn import(j: &accounts::Judge, roster: &str) -> Vec<(String, String)> {
    let file = j.dir.path().join("roster.csv");
    std::fs::write(&file, roster).unwrap();
    let out_file = j.dir.path().join("roster.passwords.csv");
    let _ = std::fs::remove_file(&out_file);
    let file_arg = file.to_str().unwrap();
    let out = user_cmd(&j.config, &j.db, &["import", file_arg], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&out_file)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[2].to_string())
        })
        .collect()
}

async fn submit(c: &reqwest::Client, base: &str, token: &str) -> (u16, Value) {
    let r = c
        .post(format!("{base}/api/contests/class/submissions"))
        .bearer_auth(token)
        .json(&json!({"problem": "A", "language": "c", "source": fixture("binary-sudoku", "ac.c")}))
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roster_group_puts_its_members_on_the_board_and_in_the_contest() {
    let class = fixed_contest(
        "Class 7B",
        "icpc",
        10,
        300,
        "participants = [\"group:class-7b\", \"alice\", \"zed\"]",
        &["binary-sudoku"],
    );
    let j = start_with_contests(1, 1, &[("class", class)]);
    let base = j.d.base.clone();
    let c = daemon::client();
    let boss = login(&c, &base, "boss", PW).await;

    // Before the roster: alice and zed (no account yet), listed by name, with zero.
    let (users, _) = board(&c, &base, &boss).await;
    assert_eq!(users, ["alice", "zed"]);

    // The roster: ann and bo in class-7b, cy in class-7a; on the board at once.
    let passwords = import(
        &j,
        "name,display_name,group\nann,Ann Lee,class-7b\nbo,Bo Chen,class-7b\ncy,Cy,class-7a\n",
    );
    let (mut users, names) = board(&c, &base, &boss).await;
    users.sort();
    assert_eq!(users, ["alice", "ann", "bo", "zed"]);
    assert_eq!(names["ann"], "Ann Lee");
    let alice = web_login(&j.d, "alice").await;
    let page = alice
        .get(j.d.url("/contests/class/scoreboard"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(">Ann Lee</td>") && page.contains(">Bo Chen</td>"),
        "{page}"
    );

    // zed's account is made mid-contest with a display name: the board says it at once.
    let out = user_cmd(
        &j.config,
        &j.db,
        &[
            "add",
            "zed",
            "--display-name",
            "Zed Quinn",
            "--password-stdin",
        ],
        &format!("{PW}\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(board(&c, &base, &boss).await.1["zed"], "Zed Quinn");

    // A member may submit; a user of another group, or of none, may not.
    let pw = |name: &str| passwords.iter().find(|(n, _)| n == name).unwrap().1.clone();
    let ann = login(&c, &base, "ann", &pw("ann")).await;
    let (s, v) = submit(&c, &base, &ann).await;
    assert_eq!(s, 202, "{v}");
    let cy = login(&c, &base, "cy", &pw("cy")).await;
    let (s, v) = submit(&c, &base, &cy).await;
    assert_eq!(s, 403, "{v}");
    let bob = login(&c, &base, "bob", PW).await;
    assert_eq!(submit(&c, &base, &bob).await.0, 403);

    // The admin page's roster import stores the group too: eve is on the board at once.
    let admin = web_login(&j.d, "boss").await;
    let token = csrf_of(
        &admin
            .get(j.d.url("/admin"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
    );
    let r = admin
        .post(j.d.url("/admin/users/import"))
        .multipart(
            reqwest::multipart::Form::new()
                .text("csrf", token)
                .text("roster", "eve,Eve,class-7b\n"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let (users, _) = board(&c, &base, &boss).await;
    assert!(users.contains(&"eve".to_string()), "{users:?}");
    assert_eq!(users.len(), 5, "{users:?}");
    // A bad group in a roster is refused with its line, nothing written.
    let file = j.dir.path().join("bad.csv");
    std::fs::write(&file, "fay,Fay,class-7b\ngus,Gus,Class 7B\n").unwrap();
    let out = user_cmd(&j.config, &j.db, &["import", file.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2: group \"Class 7B\""), "{err}");
    assert_eq!(board(&c, &base, &boss).await.0.len(), 5);
}
