//! The jury's balloon list against the real daemon: each contestant's first AC per problem
//! (not a second AC, not a WA), oldest first, the first solve of each problem marked, through
//! the freeze; "Delivered" stored (kept across a restart of the page, undone); contestants
//! refused; a balloon not on the list refused.

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::{contests, daemon};

use contests::{at, start};
use daemon::fixture;

fn cup() -> String {
    fixed_five_hours(
        "Balloon cup",
        "icpc",
        &["freeze_minutes = 60"],
        &[("A", "binary-sudoku"), ("B", "sudoku")],
    )
}

fn csrf_of(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("a form");
    let rest = &html[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_lists_first_acs_and_marks_balloons_delivered() {
    let j = start(&[("cup", &cup())], &at(10)).await;
    let ac_a = fixture("binary-sudoku", "ac.c");
    let ac_b = fixture("sudoku", "ac.c");
    let wa = fixture("binary-sudoku", "wa.py");
    // bob solves A at minute 10 (first), alice WA then AC on A at 20, AC on A again, bob B
    // at 250 (in the freeze).
    let mut ids = Vec::new();
    for (when, token, label, language, source) in [
        (10, &j.bob, "A", "c", &ac_a),
        (15, &j.alice, "A", "python", &wa),
        (20, &j.alice, "A", "c", &ac_a),
        (30, &j.alice, "A", "c", &ac_a),
        (250, &j.bob, "B", "c", &ac_b),
    ] {
        j.set_clock(&at(when));
        let id = j.submit_ok("cup", token, label, language, source).await;
        j.wait_done(id).await;
        ids.push(id);
    }
    let boss = crate::fixtures::web::web_login(&j.d, "boss").await;
    let page = |c: &reqwest::Client| {
        let c = c.clone();
        let url = j.d.url("/contests/cup/balloons");
        async move {
            let r = c.get(url).send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (status, html) = page(&boss).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.len() < 100_000);
    let rows: Vec<&str> = html.split("<tr").skip(2).collect();
    assert_eq!(rows.len(), 3, "bob A, alice A, bob B: {html}");
    assert!(
        rows[0].contains(&format!("/submissions/{}\"", ids[0])) && rows[0].contains("first solve"),
        "{}",
        rows[0]
    );
    assert!(
        rows[1].contains(&format!("/submissions/{}\"", ids[2])) && !rows[1].contains("first solve"),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].contains(&format!("/submissions/{}\"", ids[4])) && rows[2].contains("first solve"),
        "through the freeze: {}",
        rows[2]
    );
    assert!(html.contains("<b>3</b> to deliver"));

    // Delivered: stored, shown, undone.
    let mark = |user: &str, label: &str, delivered: &str, csrf: String| {
        let c = boss.clone();
        let url = j.d.url(&format!("/contests/cup/balloons/{user}/{label}"));
        let delivered = delivered.to_string();
        async move {
            c.post(url)
                .form(&[("csrf", csrf), ("delivered", delivered)])
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(mark("alice", "A", "1", csrf_of(&html)).await, 303);
    let (_, html) = page(&boss).await;
    assert!(html.contains("<b>2</b> to deliver"), "{html}");
    assert!(html.contains("class=\"done\""));
    // A fresh session (the mark is stored, not the page's).
    let again = crate::fixtures::web::web_login(&j.d, "boss").await;
    let (_, fresh) = page(&again).await;
    assert!(fresh.contains("<b>2</b> to deliver"));
    assert_eq!(mark("alice", "A", "0", csrf_of(&html)).await, 303);
    assert!(page(&boss).await.1.contains("<b>3</b> to deliver"));
    // Not on the list: alice never solved B; nobody is nobody.
    assert_eq!(mark("alice", "B", "1", csrf_of(&html)).await, 404);
    assert_eq!(mark("nobody", "A", "1", csrf_of(&html)).await, 404);
    // Contestants: refused, the page and the form.
    let alice = crate::fixtures::web::web_login(&j.d, "alice").await;
    assert_eq!(page(&alice).await.0, 403);
    let (_, contest_page) = {
        let r = alice.get(j.d.url("/contests/cup")).send().await.unwrap();
        (r.status(), r.text().await.unwrap())
    };
    assert!(!contest_page.contains("/balloons"));
    let refused = alice
        .post(j.d.url("/contests/cup/balloons/bob/A"))
        .form(&[("csrf", csrf_of(&contest_page)), ("delivered", "1".into())])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
}
