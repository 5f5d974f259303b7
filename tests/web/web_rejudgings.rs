//! The jury's rejudging pages against the real daemon: after a data fix, the jury starts a
//! rejudging from `/rejudgings` (the form, its CSRF token), its page shows the progress, the
//! changed verdict old beside new and the board's change, with "Apply" and "Drop"; a form
//! without the CSRF token is refused; applying it from the page changes the verdict; a
//! contestant is refused the pages.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixtures::accounts::{get_as, login};
use crate::fixtures::daemon::{wait_done_as, Daemon};
use crate::fixtures::web::{csrf_of, web_login, PW};
use crate::fixtures::{data_fix, kattis};

async fn page(c: &reqwest::Client, d: &Daemon, path: &str) -> (u16, String) {
    let r = c.get(d.url(path)).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_previews_a_rejudging_on_its_page_and_applies_it() {
    let kattis::KattisContest {
        dir,
        daemon,
        client: c,
        boss,
        alice,
    } = data_fix::start().await;
    let id = data_fix::submit(&c, &daemon, &alice, data_fix::RIGHT).await;
    let done = wait_done_as(&c, &daemon, Some(&boss), &[id], Duration::from_secs(120)).await;
    assert_eq!(done[0]["verdict"], "AC");

    // The data fix, and the daemon started again on it.
    drop(daemon);
    let d = data_fix::fix_and_restart(dir.path());
    let contestant = web_login(&d, "alice").await;
    let (status, _) = page(&contestant, &d, "/rejudgings").await;
    assert_eq!(status, 403);

    let jury = web_login(&d, "boss").await;
    let (status, list) = page(&jury, &d, "/rejudgings").await;
    assert_eq!(status, 200, "{list}");
    assert!(list.contains("<option value=\"cup\">"), "{list}");
    let csrf = csrf_of(&list);
    let start = [("contest", "cup"), ("problem", "A"), ("submissions", "")];
    let r = jury
        .post(d.url("/rejudgings"))
        .form(&start)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403, "no CSRF token: refused");
    let mut form = start.to_vec();
    form.push(("csrf", &csrf));
    let r = jury
        .post(d.url("/rejudgings"))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    let here = r.headers()["location"].to_str().unwrap().to_string();
    assert!(here.starts_with("/rejudgings/"), "{here}");

    // The preview, once its one submission is judged again.
    let started = Instant::now();
    let html = loop {
        let (status, html) = page(&jury, &d, &here).await;
        assert_eq!(status, 200, "{html}");
        if html.contains("Judged <b>1</b> of <b>1</b>") {
            break html;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{html}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let changes = &html[html.find("<table class=\"changes\">").expect(&html)..];
    let row = &changes[changes.find("<tbody>").unwrap()..changes.find("</tbody>").unwrap()];
    assert!(
        row.contains(&format!("#{id}"))
            && row.contains("alice")
            && row.contains("<td class=\"old\">AC (100)</td>")
            && row.contains("<td class=\"new\">WA"),
        "{row}"
    );
    let board = &html[html.find("<table class=\"board-diff\">").expect(&html)..];
    assert!(
        board.contains("<td>alice</td><td>1 &rarr; 1</td><td>1 &rarr; 0</td>"),
        "{board}"
    );
    assert!(
        html.contains("id=\"apply\"") && html.contains("id=\"drop\""),
        "{html}"
    );
    assert!(!html[html.find("id=\"apply\"").unwrap()..].starts_with("id=\"apply\" disabled"));
    // Still the stored verdict until applied.
    let boss = login(&c, &d.base, "boss", PW).await;
    let (_, v) = get_as(&c, &d, &format!("/api/submissions/{id}"), Some(&boss)).await;
    assert_eq!(v["verdict"], "AC");

    let apply = format!("{here}/apply");
    let r = jury
        .post(d.url(&apply))
        .form(&[("csrf", csrf_of(&html))])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    let (_, html) = page(&jury, &d, &here).await;
    assert!(
        html.contains("<b id=\"state\">applied</b> by boss"),
        "{html}"
    );
    assert!(
        !html.contains("id=\"apply\""),
        "no buttons once applied: {html}"
    );
    let (_, v): (u16, Value) = get_as(&c, &d, &format!("/api/submissions/{id}"), Some(&boss)).await;
    assert_eq!(v["verdict"], "WA");
    let (_, list) = page(&jury, &d, "/rejudgings").await;
    assert!(list.contains("<td>1 / 1</td><td>applied</td>"), "{list}");
}
