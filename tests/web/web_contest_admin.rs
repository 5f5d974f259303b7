//! The jury makes a contest on the admin page while the judge runs (issue 30, point 2), in
//! real Chromium: the form refuses what is wrong field by field, beside each input, and
//! stores nothing; once made, a contestant in another browser session sees it on the
//! contests list and opens it without a restart; a contest read from a file shows its path
//! and no form (the file wins). The jury then deletes the contest it made, nobody having
//! submitted to it (issue 37's brief, point 3): back on the admin page, and the contestant's
//! list no longer has it. Screenshots in `target/screenshots/contest-admin-*.png`.

use std::time::Duration;

use crate::fixtures::browser::Browser;
use crate::fixtures::web::{fixed_contest, start_with_contests, PW};

async fn sign_in(b: &Browser, base: &str, name: &str, next: &str) {
    b.open(&format!("{base}/login?next={next}")).await;
    b.fill("input[name=name]", name).await;
    b.fill("input[name=password]", PW).await;
    b.click_and_load("form.stack button[type=submit]").await;
    assert_eq!(b.path().await, next, "{}", b.body().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_makes_a_contest_on_the_admin_page_and_a_contestant_sees_it_at_once() {
    let Some(jury) = Browser::start().await else {
        return;
    };
    let Some(contestant) = Browser::start().await else {
        return;
    };
    let cup = fixed_contest("Autumn cup", "icpc", 10, 300, "", &["binary-sudoku"]);
    let j = start_with_contests(1, 1, &[("cup", cup)]);
    let base = j.d.base.clone();

    // The contestant's session: one contest so far.
    sign_in(&contestant, &base, "alice", "/contests").await;
    let list = contestant.body().await;
    assert!(
        list.contains("Autumn cup") && !list.contains("Night cup"),
        "{list}"
    );

    // The jury: the file's contest shows its path and no form.
    sign_in(&jury, &base, "boss", "/admin").await;
    jury.open(&format!("{base}/admin/contests/cup/edit")).await;
    let notice = jury.text("#file-wins").await;
    assert!(
        notice.contains("cup.toml") && notice.contains("the file wins"),
        "{notice}"
    );
    for absent in ["#save", "#delete"] {
        assert!(
            jury.client
                .find(fantoccini::Locator::Css(absent))
                .await
                .is_err(),
            "{absent}"
        );
    }
    jury.screenshot("contest-admin-file").await;

    // A form with faults: each is shown beside its field, nothing stored.
    jury.open(&format!("{base}/admin")).await;
    jury.click_and_load("#new-contest").await;
    assert_eq!(jury.path().await, "/admin/contests/new");
    let start = (jiff::Timestamp::now() - jiff::SignedDuration::from_mins(5))
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    jury.fill("input[name=id]", "night").await;
    jury.fill("input[name=title]", "Night cup").await;
    jury.choose("select[name=format]", "icpc").await;
    jury.choose("select[name=timing_kind]", "fixed").await;
    jury.fill("input[name=start]", "tonight").await;
    jury.fill("input[name=duration]", "3h").await;
    jury.fill("input[name=freeze_minutes]", "30").await;
    jury.fill("textarea[name=problems]", "A binary-sudoku\nB chess")
        .await;
    jury.fill("textarea[name=participants]", "alice, group:night-owls")
        .await;
    jury.fill("input[name=languages]", "c, cpp").await;
    jury.click_and_load("#save").await;
    let start_error = jury.text("#error-start").await;
    assert!(
        start_error.contains("\"tonight\" is not a date and time"),
        "{start_error}"
    );
    let problems_error = jury.text("#error-problems").await;
    assert!(
        problems_error.contains("unknown problem \"chess\""),
        "{problems_error}"
    );
    assert!(jury.text("#errors").await.contains("Nothing was saved"));
    jury.screenshot("contest-admin-refused").await;
    contestant.open(&format!("{base}/contests")).await;
    assert!(!contestant.body().await.contains("Night cup"));

    // Fixed: made, and the jury lands on its page.
    jury.fill("input[name=start]", &start).await;
    jury.fill("textarea[name=problems]", "A binary-sudoku")
        .await;
    jury.click_and_load("#save").await;
    assert_eq!(
        jury.path().await,
        "/contests/night",
        "{}",
        jury.body().await
    );
    jury.screenshot("contest-admin-made").await;

    // The contestant, in the other session, sees it without a restart and opens it.
    contestant.open(&format!("{base}/contests")).await;
    contestant
        .wait_text("body", Duration::from_secs(5), |t| t.contains("Night cup"))
        .await;
    contestant.screenshot("contest-admin-contestant-list").await;
    contestant.open(&format!("{base}/contests/night")).await;
    let page = contestant.body().await;
    assert!(
        page.contains("Night cup") && page.contains("Binary"),
        "{page}"
    );
    contestant
        .screenshot("contest-admin-contestant-contest")
        .await;

    // The admin page lists it as the database's, editable; its form comes back filled.
    jury.open(&format!("{base}/admin/contests/night/edit"))
        .await;
    let title = jury
        .client
        .find(fantoccini::Locator::Css("input[name=title]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(title.as_deref(), Some("Night cup"));

    // Nobody submitted to it: the jury deletes it, and the contestant no longer sees it.
    jury.click_and_load("#delete").await;
    assert_eq!(jury.path().await, "/admin", "{}", jury.body().await);
    contestant.open(&format!("{base}/contests")).await;
    let list = contestant.body().await;
    assert!(
        list.contains("Autumn cup") && !list.contains("Night cup"),
        "{list}"
    );
    jury.open(&format!("{base}/admin/contests/night/edit"))
        .await;
    assert!(jury.body().await.contains("no contest"), "gone");
    jury.close().await;
    contestant.close().await;
}
