//! `sudojudge user password NAME` against the real daemon: a new password (generated and
//! printed once, or read from stdin) ends every session and token of the user; bad input
//! changes nothing. And a roster naming a user twice is refused with both lines.

use crate::fixtures::{accounts, daemon};

use accounts::{add_user, get_as, login, succeeded, user_cmd};
use daemon::{client, trimmed_problems, write_config, Daemon};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_password_ends_every_session_and_bad_input_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let db = dir.path().join("judge.db");
    let config = write_config(dir.path(), &problems, "");
    add_user(&config, &db, "root", true, "root-password-1");
    add_user(&config, &db, "ann", false, "ann-password-1");
    let d = Daemon::start(dir.path(), &db, &problems, 1);
    let c = client();
    let session = login(&c, &d.base, "ann", "ann-password-1").await;
    let api_token = user_cmd(&config, &db, &["token", "ann"], "");
    succeeded(&api_token);
    let api_token = String::from_utf8(api_token.stdout)
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(get_as(&c, &d, "/api/me", Some(&session)).await.0, 200);

    // Refused, nothing changed: the old password and tokens still work.
    for (args, stdin, says) in [
        (vec!["password", "nobody"], "", "no user"),
        (vec!["password", "Ann"], "", "lowercase"),
        (
            vec!["password", "ann", "--password-stdin"],
            "short\n",
            "too short",
        ),
        (vec!["password", "ann", "--password-stdin"], "\n", "empty"),
    ] {
        let out = user_cmd(&config, &db, &args, stdin);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(get_as(&c, &d, "/api/me", Some(&session)).await.0, 200);
    assert_eq!(get_as(&c, &d, "/api/me", Some(&api_token)).await.0, 200);

    // Generated: printed once on stdout; the session and the API token stop at once.
    let out = user_cmd(&config, &db, &["password", "ann"], "");
    succeeded(&out);
    let new = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(new.len(), 16);
    assert!(String::from_utf8_lossy(&out.stderr).contains("revoked"));
    assert_eq!(get_as(&c, &d, "/api/me", Some(&session)).await.0, 401);
    assert_eq!(get_as(&c, &d, "/api/me", Some(&api_token)).await.0, 401);
    let old = c
        .post(format!("{}/api/login", d.base))
        .json(&json!({"name": "ann", "password": "ann-password-1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), 401, "the old password no longer signs in");
    let fresh = login(&c, &d.base, "ann", &new).await;
    assert_eq!(get_as(&c, &d, "/api/me", Some(&fresh)).await.0, 200);

    // Chosen on stdin: never printed; the generated one's session ends in turn.
    let out = user_cmd(
        &config,
        &db,
        &["password", "ann", "--password-stdin"],
        "ann-chosen-password\n",
    );
    succeeded(&out);
    assert!(out.stdout.is_empty());
    assert_eq!(get_as(&c, &d, "/api/me", Some(&fresh)).await.0, 401);
    login(&c, &d.base, "ann", "ann-chosen-password").await;
    // The admin was not touched.
    login(&c, &d.base, "root", "root-password-1").await;
}

#[test]
fn a_roster_naming_a_user_twice_names_both_lines() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("judge.db");
    let config = write_config(dir.path(), &dir.path().join("problems"), "");
    let roster = dir.path().join("class.csv");
    std::fs::write(
        &roster,
        "name,display name\nzed,Zed\nann,Ann\n\nzed,Zed Again\n",
    )
    .unwrap();
    let out = user_cmd(&config, &db, &["import", roster.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 5: user \"zed\" is given twice (first on line 2)")
            && err.contains("nothing was written"),
        "{err}"
    );
    let list = user_cmd(&config, &db, &["list", "--json"], "");
    assert_eq!(String::from_utf8_lossy(&list.stdout).trim(), "[]");
    assert!(!dir.path().join("class.passwords.csv").exists());
}
