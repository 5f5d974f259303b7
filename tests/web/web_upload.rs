//! The admin page's "Add a problem" form (issue 29, point 3): a package zip uploaded through
//! the page (CSRF as every admin form) is checked and served at once; a failing one is
//! refused on the page with the file at fault and nothing kept; a contestant's upload and
//! one without the CSRF token are refused.

use reqwest::multipart::{Form, Part};
use reqwest::Client;

use crate::fixtures::daemon::Daemon;
use crate::fixtures::web::{csrf_of, start_with_contests, web_login};
use crate::fixtures::zips;

async fn text(c: &Client, d: &Daemon, path: &str) -> (u16, String) {
    let r = c.get(d.url(path)).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

fn form(csrf: Option<&str>, id: &str, zip: Vec<u8>) -> Form {
    let mut f = Form::new();
    if let Some(t) = csrf {
        f = f.text("csrf", t.to_string());
    }
    f.text("id", id.to_string()).part(
        "file",
        Part::bytes(zip)
            .file_name("package.zip")
            .mime_str("application/zip")
            .unwrap(),
    )
}

async fn send(c: &Client, d: &Daemon, f: Form) -> (u16, String) {
    let r = c
        .post(d.url("/admin/problems"))
        .multipart(f)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

#[tokio::test]
async fn the_admin_page_adds_a_checked_package_and_refuses_a_bad_one() {
    let j = start_with_contests(1, 1, &[]);
    let problems = j.dir.path().join("problems");
    let boss = web_login(&j.d, "boss").await;
    let alice = web_login(&j.d, "alice").await;
    let (status, admin) = text(&boss, &j.d, "/admin").await;
    assert_eq!(status, 200);
    assert!(admin.contains("action=\"/admin/problems\""), "{admin}");
    assert!(admin.contains("type=\"file\" name=\"file\""), "{admin}");
    let token = csrf_of(&admin);
    let before = zips::tree(&problems);

    // Without the CSRF token, or as a contestant: refused, nothing kept.
    let (status, _) = send(&boss, &j.d, form(None, "sum", zips::kattis_zip("sum", &[]))).await;
    assert_eq!(status, 403);
    let alice_token = csrf_of(&text(&alice, &j.d, "/problems").await.1);
    let (status, _) = send(
        &alice,
        &j.d,
        form(Some(&alice_token), "sum", zips::kattis_zip("sum", &[])),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(zips::tree(&problems), before);

    // A package with an input the validators refuse: the page names the test, nothing kept.
    let bad = zips::kattis_zip(
        "sum",
        &[
            ("data/secret/05.in", b"x y\n"),
            ("data/secret/05.ans", b"0\n"),
        ],
    );
    let (status, html) = send(&boss, &j.d, form(Some(&token), "sum", bad)).await;
    assert_eq!(status, 422, "{html}");
    assert!(
        html.contains("nothing was kept") && html.contains("secret/05"),
        "{html}"
    );
    assert_eq!(zips::tree(&problems), before);

    // The package under another id: served at once, on the problems page.
    let (status, html) = send(
        &boss,
        &j.d,
        form(Some(&token), "plus", zips::kattis_zip("sum", &[])),
    )
    .await;
    assert_eq!(status, 200, "{html}\n{}", j.d.log());
    assert!(
        html.contains("problem plus (Sum of Two Numbers) added"),
        "{html}"
    );
    let (status, page) = text(&alice, &j.d, "/problems/plus").await;
    assert_eq!(status, 200);
    assert!(page.contains("Sum of Two Numbers"), "{page}");
    assert!(problems.join("plus/problem.yaml").is_file());
}
