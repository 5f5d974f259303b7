//! `sudojudge user` and `sudojudge submit --token`: bad input refused with nothing written, and
//! the roster import round trip (import, hand out, log in, submit) against the real daemon.

use crate::fixtures::{accounts, daemon};

use std::process::Command;

use accounts::{get_as, login, succeeded, user_cmd};
use daemon::{client, trimmed_problems, write_config, Daemon};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roster_import_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let db = dir.path().join("judge.db");
    let config = write_config(dir.path(), &problems, "");
    let roster = dir.path().join("class.csv");

    // A bad roster writes nothing: no user, no passwords file.
    std::fs::write(
        &roster,
        "name,display name\nann,Ann Lee\nBad Name,X\nann,Again\n",
    )
    .unwrap();
    let out = user_cmd(&config, &db, &["import", roster.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 3") && err.contains("nothing was written"),
        "{err}"
    );
    std::fs::write(&roster, "ann,Ann Lee\nann,Again\n").unwrap();
    let out = user_cmd(&config, &db, &["import", roster.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("line 2: user \"ann\" is given twice (first on line 1)"));
    let list = user_cmd(&config, &db, &["list", "--json"], "");
    assert_eq!(
        serde_json::from_slice::<Value>(&list.stdout).unwrap(),
        json!([])
    );
    assert!(!dir.path().join("class.passwords.csv").exists());

    // A good one: every contestant can log in with the password handed out.
    std::fs::write(
        &roster,
        "name,display name\nann,Ann Lee\nbo.b,\"Bob, Jr.\"\n\ncy-3,Cy Three\n",
    )
    .unwrap();
    let out = user_cmd(&config, &db, &["import", roster.to_str().unwrap()], "");
    succeeded(&out);
    let passwords = dir.path().join("class.passwords.csv");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&passwords).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let text = std::fs::read_to_string(&passwords).unwrap();
    let mut rows = csv_rows(&text);
    assert_eq!(rows.remove(0), ["name", "display_name", "password"]);
    assert_eq!(rows.len(), 3);
    // Importing the same roster again: duplicates, nothing written.
    let out = user_cmd(
        &config,
        &db,
        &[
            "import",
            roster.to_str().unwrap(),
            "--output",
            dir.path().join("again.csv").to_str().unwrap(),
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(!dir.path().join("again.csv").exists());

    let d = Daemon::start(dir.path(), &db, &problems, 1);
    let c = client();
    for (row, display) in rows.iter().zip(["Ann Lee", "Bob, Jr.", "Cy Three"]) {
        assert_eq!(row[1], display);
        assert_eq!(row[2].len(), 16);
        let token = login(&c, &d.base, &row[0], &row[2]).await;
        let (s, me) = get_as(&c, &d, "/api/me", Some(&token)).await;
        assert_eq!(s, 200);
        assert_eq!(
            (me["name"].as_str(), me["display_name"].as_str()),
            (Some(row[0].as_str()), Some(display))
        );
        assert_eq!(me["role"], "contestant");
    }

    // `sudojudge submit` needs a token now, and with one submits and waits as its user.
    let src = root_fixture("sudoku", "ac.c");
    let submit = |token: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudojudge"));
        cmd.args(["submit", "sudoku"])
            .arg(&src)
            .args(["--server", &d.base, "--wait"])
            .env_remove("SUDOJUDGE_TOKEN");
        if let Some(t) = token {
            cmd.args(["--token", t]);
        }
        cmd.output().unwrap()
    };
    let out = submit(None);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("401"),
        "{out:?}"
    );
    let token = login(&c, &d.base, &rows[0][0], &rows[0][2]).await;
    let out = submit(Some(&token));
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("AC"),
        "{out:?}"
    );
    let (_, mine) = get_as(&c, &d, "/api/submissions", Some(&token)).await;
    assert_eq!(mine[0]["user"].as_str(), Some(rows[0][0].as_str()));
}

fn root_fixture(problem: &str, name: &str) -> std::path::PathBuf {
    daemon::root()
        .join("tests/fixtures")
        .join(problem)
        .join(name)
}

/// Splits a small CSV of our own writing (quoted fields may hold commas).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let mut fields = vec![String::new()];
            let mut quoted = false;
            for ch in line.chars() {
                match ch {
                    '"' => quoted = !quoted,
                    ',' if !quoted => fields.push(String::new()),
                    c => fields.last_mut().unwrap().push(c),
                }
            }
            fields
        })
        .collect()
}

#[test]
fn user_add_refuses_bad_input_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("judge.db");
    let config = write_config(dir.path(), &dir.path().join("problems"), "");
    // A generated password is printed once, on stdout alone.
    let out = user_cmd(&config, &db, &["add", "first"], "");
    assert!(out.status.success());
    let pw = String::from_utf8(out.stdout).unwrap();
    assert_eq!(pw.trim().len(), 16);
    for (args, stdin, says) in [
        (vec!["add", "Bad"], "", "lowercase"),
        (vec!["add", ""], "", "empty"),
        (vec!["add", "first"], "", "already exists"),
        (vec!["add", "second", "--password-stdin"], "\n", "empty"),
        (
            vec!["add", "second", "--password-stdin"],
            "short\n",
            "too short",
        ),
        (vec!["disable", "nobody"], "", "no user"),
        (vec!["token", "nobody"], "", "no user"),
    ] {
        let out = user_cmd(&config, &db, &args, stdin);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let list = user_cmd(&config, &db, &["list", "--json"], "");
    let users: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(users.as_array().unwrap().len(), 1, "{users}");
}
