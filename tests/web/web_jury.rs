//! The jury's and the host's small tools on the pages, against the real daemon: a password
//! reset on the admin page (shown once, the user's sessions end, the new one signs in), and
//! the open mode's contest problem page giving the API's real reason instead of "not a
//! participant".

use crate::fixtures::{daemon, web};

use daemon::{trimmed_problems, Daemon};
use web::{browser_like, csrf_of, fixed_contest, start_with_contests, web_login, web_login_with};

async fn text(c: &reqwest::Client, d: &Daemon, path: &str) -> (u16, String) {
    let r = c.get(d.url(path)).send().await.unwrap();
    let status = r.status().as_u16();
    let body = r.text().await.unwrap();
    assert!(body.len() < 100_000, "{path}: {} bytes", body.len());
    (status, body)
}

/// The first line of the `#passwords` block after its header: `name,display,password`.
fn shown_password(html: &str) -> Vec<String> {
    let at = html
        .find("<pre id=\"passwords\">")
        .expect("the passwords card");
    let block = &html[at..];
    let line = block.lines().nth(1).expect("a row");
    line.split(',').map(str::to_string).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_resets_a_password_and_the_users_sessions_end() {
    let contest = fixed_contest("Cup", "icpc", 10, 300, "", &["binary-sudoku"]);
    let j = start_with_contests(1, 1, &[("cup", contest)]);
    let d = &j.d;
    let alice = web_login(d, "alice").await;
    assert_eq!(text(&alice, d, "/submissions").await.0, 200);
    let boss = web_login(d, "boss").await;
    let (_, admin) = text(&boss, d, "/admin").await;
    assert!(admin.contains("/admin/users/alice/password"), "{admin}");
    assert!(
        !admin.contains("/admin/users/boss/password"),
        "no reset button on the admin's own row"
    );

    // A contestant cannot reset anyone's password (the form's CSRF token is valid: only the
    // right is missing).
    let (_, page) = text(&alice, d, "/submissions").await;
    let refused = alice
        .post(d.url("/admin/users/bob/password"))
        .form(&[("csrf", csrf_of(&page))])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
    web_login(d, "bob").await;

    // Without the form's token: refused by the CSRF guard, nothing changed.
    let no_token = boss
        .post(d.url("/admin/users/alice/password"))
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), 403);
    assert_eq!(text(&alice, d, "/submissions").await.0, 200);

    let r = boss
        .post(d.url("/admin/users/alice/password"))
        .form(&[("csrf", csrf_of(&admin))])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let html = r.text().await.unwrap();
    assert!(html.contains("every session of theirs has ended"), "{html}");
    let row = shown_password(&html);
    assert_eq!(row[0], "alice");
    assert_eq!(row[2].len(), 16, "{row:?}");
    // Shown once: the admin page does not show it again.
    assert!(!text(&boss, d, "/admin").await.1.contains(&row[2]));

    // Her session ended: the pages send her to sign in; the new password signs her in.
    let r = alice.get(d.url("/submissions")).send().await.unwrap();
    assert_eq!(r.status(), 303);
    let again = web_login_with(d, "alice", &row[2]).await;
    assert_eq!(text(&again, d, "/submissions").await.0, 200);
    // A user who does not exist: 404, worded as such.
    let (_, admin) = text(&boss, d, "/admin").await;
    let r = boss
        .post(d.url("/admin/users/nobody/password"))
        .form(&[("csrf", csrf_of(&admin))])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert!(r.text().await.unwrap().contains("no user"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_modes_problem_page_gives_the_apis_reason() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 1);
    let folder = dir.path().join("contests");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("cup.toml"),
        fixed_contest("Cup", "icpc", 10, 300, "", &["binary-sudoku"]),
    )
    .unwrap();
    let d = Daemon::start_with(dir.path(), &dir.path().join("judge.db"), &problems, 1, "");
    let c = browser_like();
    let (status, html) = text(&c, &d, "/contests/cup/problems/A").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("contests need accounts: create one with `sudojudge user add`"),
        "{html}"
    );
    assert!(!html.contains("not a participant"), "{html}");
}
