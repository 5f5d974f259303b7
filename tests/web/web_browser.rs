//! The web pages in a real headless Chromium (WebDriver): a contestant signs in, opens a
//! problem, uploads an accepted solution and sees AC appear without a reload, submits a
//! wrong one and sees WA with the failing test; an admin rejudges it and sees the result; a
//! source holding `</textarea><script>alert(1)</script>` is shown as text (no alert); a form
//! sent without its CSRF token is refused and changes nothing. A screenshot of each page goes
//! to `target/screenshots/` (laptop and phone widths).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them): without them
//! the test says SKIPPED, except with `CI=true`, where it fails.

use crate::fixtures::{accounts, browser, daemon, web};

use std::time::Duration;

use accounts::{get_as, login, Judge};
use browser::Browser;
use daemon::{client, root};
use web::{fixed_contest, start_with_contests, PW};
const JUDGED: Duration = Duration::from_secs(120);
const XSS: &str = "</textarea><script>alert(1)</script>";

async fn sign_in(b: &Browser, base: &str, name: &str, next: &str) {
    b.open(&format!("{base}/login?next={next}")).await;
    b.fill("input[name=name]", name).await;
    b.fill("input[name=password]", PW).await;
    b.click_and_load("form.stack button[type=submit]").await;
    let at = b.path().await;
    assert_eq!(
        at,
        next,
        "signed in as {name}, back at {next}: {}",
        b.body().await
    );
}

async fn sign_out(b: &Browser) {
    b.click_and_load("header form button").await;
    assert_eq!(b.path().await, "/login");
}

/// The number of submissions an admin's API listing shows.
async fn count_submissions(c: &reqwest::Client, d: &daemon::Daemon, admin: &str) -> usize {
    let (s, v) = get_as(c, d, "/api/submissions?limit=500", Some(admin)).await;
    assert_eq!(s, 200);
    v.as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contestant_and_an_admin_in_chromium() {
    let Some(b) = Browser::start().await else {
        return;
    };
    // An ICPC contest that started 10 minutes ago: A is solved, B gets a wrong answer.
    let cup = fixed_contest(
        "Autumn cup",
        "icpc",
        10,
        300,
        "",
        &["binary-sudoku", "target-sudoku"],
    );
    let Judge { d, dir: _dir, .. } = start_with_contests(2, 2, &[("cup", cup)]);
    let c = client();
    let admin_token = login(&c, &d.base, "boss", PW).await;
    let base = d.base.clone();

    // Sign in, see the contests, open the contest and a problem.
    b.open(&format!("{base}/login")).await;
    b.screenshot("login").await;
    sign_in(&b, &base, "alice", "/contests").await;
    assert!(b.text("table.contests").await.contains("Autumn cup"));
    b.screenshot("contests").await;
    b.click_and_load("table.contests a").await;
    assert_eq!(b.path().await, "/contests/cup");
    let clock = b.text("#clock").await;
    assert!(clock.contains("time left"), "{clock}");
    b.screenshot("contest").await;
    b.click_and_load("table.problems a").await;
    let problem = "/contests/cup/problems/A";
    assert_eq!(b.path().await, problem);
    assert!(b.text("h1").await.contains("A. Binary Sudoku"));
    assert!(b.text(".limits").await.contains("1 s"), "limits shown");
    assert!(
        !b.text(".statement pre").await.is_empty(),
        "samples as blocks"
    );
    b.screenshot("problem").await;

    // Upload an accepted solution (language guessed from the extension) and see AC appear
    // on the same document (a marker set in the page survives: no reload).
    let accepted = root().join("problems/binary-sudoku/submissions/accepted/row_dp.c");
    b.client
        .find(fantoccini::Locator::Css("input[type=file]"))
        .await
        .unwrap()
        .send_keys(&accepted.display().to_string())
        .await
        .unwrap();
    let chosen = b
        .client
        .execute(
            "return document.querySelector('select[name=language]').value",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        chosen, "c17",
        "the script guessed the language from the file's extension (`.c` is C17)"
    );
    b.click_and_load("#submit button[type=submit]").await;
    let ac_page = b.path().await;
    assert!(
        ac_page.starts_with("/submissions/"),
        "{ac_page}: {}",
        b.body().await
    );
    b.client
        .execute("window.__same_document = 42", vec![])
        .await
        .unwrap();
    b.screenshot("submission-judging").await;
    b.wait_text("#verdict", JUDGED, |t| t == "AC").await;
    let marker = b
        .client
        .execute("return window.__same_document", vec![])
        .await
        .unwrap();
    assert_eq!(marker, 42, "AC appeared without a reload");
    assert!(b.text("table.tests").await.contains("sample/1"));
    b.screenshot("submission-ac").await;

    // A wrong one on B, pasted: WA with the failing test named.
    let problem_b = "/contests/cup/problems/B";
    b.open(&format!("{base}{problem_b}")).await;
    b.choose("select[name=language]", "python").await;
    b.fill("textarea[name=source]", "print(0)\n").await;
    b.click_and_load("#submit button[type=submit]").await;
    let wa_page = b.path().await;
    let wa_id: i64 = wa_page.trim_start_matches("/submissions/").parse().unwrap();
    b.wait_text("#verdict", JUDGED, |t| t == "WA").await;
    let tests = b.text("table.tests").await;
    assert!(tests.contains("WA"), "{tests}");
    assert!(
        tests.contains("expected") || tests.contains("wrong answer"),
        "the failing test says why: {tests}"
    );
    b.screenshot("submission-wa").await;

    // The list shows both, and so does the scoreboard: A solved first (highlighted), B
    // rejected once; alice's own row highlighted.
    b.open(&format!("{base}/submissions")).await;
    let list = b.text("table.subs").await;
    assert!(list.contains("AC") && list.contains("WA"), "{list}");
    b.screenshot("submissions").await;
    b.open(&format!("{base}/contests/cup/scoreboard")).await;
    let row = b.text("table.board tr.me").await;
    assert!(
        row.contains("alice") && row.contains("+1@") && row.contains("-1"),
        "{row}"
    );
    assert_eq!(
        b.text("table.board tr.me td.first")
            .await
            .trim_end_matches(" *")
            .get(..2),
        Some("+1")
    );
    assert!(b.text("table.board tr.me td.failed").await.contains("-1"));
    b.screenshot("scoreboard").await;

    // A source with a closing textarea and a script: refused for want of a language, the form
    // comes back with the source in its textarea, as text; then stored and shown as text.
    b.open(&format!("{base}{problem}")).await;
    b.fill("textarea[name=source]", XSS).await;
    b.click_and_load("#submit button[type=submit]").await;
    assert!(b.text(".error").await.contains("choose a language"));
    assert!(!b.alert_open().await, "no script ran");
    let kept = b
        .client
        .execute(
            "return document.querySelector('textarea[name=source]').value",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(kept, XSS, "the textarea holds the source as text");
    b.choose("select[name=language]", "python").await;
    b.click_and_load("#submit button[type=submit]").await;
    assert!(b.path().await.starts_with("/submissions/"));
    assert!(!b.alert_open().await, "no script ran");
    assert_eq!(b.text("#source").await, XSS, "the source is shown as text");
    let scripts = b
        .client
        .execute(
            "return document.querySelectorAll('main script').length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(scripts, 0);
    b.screenshot("submission-xss").await;

    // A form sent without its CSRF token is refused, and nothing is stored.
    let before = count_submissions(&c, &d, &admin_token).await;
    b.open(&format!("{base}{problem}")).await;
    b.fill("textarea[name=source]", "print(1)\n").await;
    b.client
        .execute(
            "document.querySelector('#submit input[name=csrf]').remove()",
            vec![],
        )
        .await
        .unwrap();
    b.click_and_load("#submit button[type=submit]").await;
    assert_eq!(b.text("h1").await, "Refused");
    assert!(b.body().await.contains("CSRF"));
    b.screenshot("csrf-refused").await;
    assert_eq!(count_submissions(&c, &d, &admin_token).await, before);

    // Phone width.
    b.resize(390, 844).await;
    b.open(&format!("{base}{problem}")).await;
    b.screenshot("phone-problem").await;
    b.open(&format!("{base}{wa_page}")).await;
    b.screenshot("phone-submission").await;
    b.resize(1280, 900).await;
    sign_out(&b).await;

    // The admin rejudges the WA and sees the result come back.
    sign_in(&b, &base, "boss", "/admin").await;
    assert!(b.body().await.contains("alice"));
    b.screenshot("admin").await;
    b.open(&format!("{base}/submissions?user=alice&verdict=WA"))
        .await;
    let filtered = b.text("table.subs").await;
    assert!(filtered.contains(&wa_id.to_string()), "{filtered}");
    b.screenshot("admin-submissions").await;
    b.open(&format!("{base}{wa_page}")).await;
    b.click_and_load("#rejudge").await;
    assert_eq!(b.path().await, wa_page);
    b.wait_text("#verdict", JUDGED, |t| t == "WA").await;
    let (s, v) = get_as(
        &c,
        &d,
        &format!("/api/submissions/{wa_id}"),
        Some(&admin_token),
    )
    .await;
    assert_eq!((s, v["verdict"].as_str()), (200, Some("WA")));
    assert!(
        b.text("table.tests").await.contains("expected"),
        "an admin reads the checker's message"
    );
    b.screenshot("admin-rejudged").await;
    let marker = b.marker();
    b.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        browser::marked(&marker),
        Vec::<i32>::new(),
        "no browser process left"
    );
}
