//! The web pages without a browser, against the real daemon: every page's access rule for an
//! anonymous visitor, a contestant, another contestant and an admin; CSRF refusals (forms and
//! cookie-authenticated JSON); cookies' flags; sign-out revoking the session; escaping of
//! what users typed; every page under 100 KB; the contest pages' rules (hidden problems,
//! frozen cells, own row); the admin's user forms.

use crate::fixtures::{accounts, daemon, web};

use accounts::{login, Judge};
use daemon::{client, fixture, Daemon};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use web::{browser_like, csrf_of, fixed_contest, start_with_contests, wait_judged, web_login, PW};

const LIMIT: usize = 100_000;

/// An answer's status, `Location` and body.
async fn answer(r: reqwest::Response) -> (u16, String, String) {
    let status = r.status().as_u16();
    let location = r
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, location, r.text().await.unwrap())
}

/// GETs a page; returns its status, its `Location` and its body (asserted under 100 KB).
async fn page(c: &Client, d: &Daemon, path: &str) -> (u16, String, String) {
    let (status, location, body) = answer(c.get(d.url(path)).send().await.unwrap()).await;
    assert!(body.len() < LIMIT, "{path}: {} bytes", body.len());
    (status, location, body)
}

/// POSTs a form with the CSRF token of `form_page` (a page of the same browser).
async fn post_form(
    c: &Client,
    d: &Daemon,
    form_page: &str,
    path: &str,
    fields: &[(&str, &str)],
) -> (u16, String, String) {
    let (_, _, html) = page(c, d, form_page).await;
    let csrf = csrf_of(&html);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    answer(c.post(d.url(path)).form(&all).send().await.unwrap()).await
}

/// The submit form: an optional CSRF token, a language and a pasted source.
fn source_form(csrf: Option<&str>, language: &str, source: &str) -> reqwest::multipart::Form {
    let mut f = reqwest::multipart::Form::new();
    if let Some(t) = csrf {
        f = f.text("csrf", t.to_string());
    }
    f.text("language", language.to_string())
        .text("source", source.to_string())
}

/// Posts a submit form to `{problem}/submit`; returns the status, the `Location` and the body.
async fn send_form(
    c: &Client,
    d: &Daemon,
    problem: &str,
    form: reqwest::multipart::Form,
) -> (u16, String, String) {
    let url = d.url(&format!("{problem}/submit"));
    answer(c.post(url).multipart(form).send().await.unwrap()).await
}

fn signs_in(status: u16, location: &str, path: &str) {
    assert_eq!(status, 303, "{path}: anonymous goes to sign in");
    assert!(location.starts_with("/login?next="), "{path}: {location}");
}

struct People {
    anon: Client,
    alice: Client,
    bob: Client,
    boss: Client,
}

async fn people(d: &Daemon) -> People {
    People {
        anon: browser_like(),
        alice: web_login(d, "alice").await,
        bob: web_login(d, "bob").await,
        boss: web_login(d, "boss").await,
    }
}

fn contests() -> Vec<(&'static str, String)> {
    vec![
        // Running, anyone may take part.
        (
            "cup",
            fixed_contest("Cup", "icpc", 10, 300, "", &["binary-sudoku", "sudoku"]),
        ),
        // Starts in an hour: its problems are hidden from contestants.
        (
            "later",
            fixed_contest("Later", "ioi", -60, 120, "", &["target-sudoku"]),
        ),
        // In its freeze (the last 60 of 120 minutes, 100 minutes in).
        (
            "frozen",
            fixed_contest(
                "Frozen",
                "icpc",
                100,
                120,
                "freeze_minutes = 60",
                &["binary-sudoku"],
            ),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_for_every_role() {
    let Judge { d, dir: _dir, .. } = start_with_contests(1, 1, &contests());
    let p = people(&d).await;
    let api = client();
    let alice_token = login(&api, &d.base, "alice", PW).await;
    let boss_token = login(&api, &d.base, "boss", PW).await;

    // alice submits to the cup through the API; the pages show it by the same rules.
    let src = fixture("binary-sudoku", "wa.py");
    let r = api
        .post(d.url("/api/contests/cup/submissions"))
        .bearer_auth(&alice_token)
        .json(&json!({"problem": "A", "language": "python", "source": src}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let sid = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    wait_judged(&api, &d, &boss_token, sid).await;
    let mine = format!("/submissions/{sid}");

    // Public to everyone: the sign-in page, the assets.
    for c in [&p.anon, &p.alice, &p.bob, &p.boss] {
        for path in ["/login", "/static/style.css", "/static/app.js"] {
            assert_eq!(page(c, &d, path).await.0, 200, "{path}");
        }
    }

    // The contest list: anonymous is sent to the front page (which lists the contests for
    // anyone), the others see the page.
    let (s, at, _) = page(&p.anon, &d, "/contests").await;
    assert_eq!((s, at.as_str()), (303, "/"), "/contests");
    for c in [&p.alice, &p.bob, &p.boss] {
        assert_eq!(page(c, &d, "/contests").await.0, 200, "/contests");
    }

    // Signed in: anonymous is sent to sign in, the others see the page.
    for path in [
        "/contests/cup",
        "/contests/cup/problems/A",
        "/contests/cup/scoreboard",
        "/submissions",
    ] {
        let (s, at, _) = page(&p.anon, &d, path).await;
        signs_in(s, &at, path);
        for c in [&p.alice, &p.bob, &p.boss] {
            assert_eq!(page(c, &d, path).await.0, 200, "{path}");
        }
    }

    // A submission: its owner and the admin; another contestant gets the very 404 of a
    // missing one; the rejudge button is the admin's.
    for path in [mine.clone(), format!("{mine}/source")] {
        let (s, at, _) = page(&p.anon, &d, &path).await;
        signs_in(s, &at, &path);
        assert_eq!(page(&p.alice, &d, &path).await.0, 200, "{path}");
        assert_eq!(page(&p.boss, &d, &path).await.0, 200, "{path}");
        let (s, _, other) = page(&p.bob, &d, &path).await;
        let (s2, _, missing) = page(&p.bob, &d, "/submissions/999999").await;
        assert_eq!((s, s2), (404, 404));
        let main = |html: &str| html[html.find("<main>").unwrap()..].to_string();
        assert_eq!(
            main(&other).replace(&format!("submission {sid}"), "submission N"),
            main(&missing).replace("submission 999999", "submission N"),
            "another's submission reads exactly like a missing one"
        );
    }
    assert!(!page(&p.alice, &d, &mine).await.2.contains("id=\"rejudge\""));
    assert!(page(&p.boss, &d, &mine).await.2.contains("id=\"rejudge\""));

    // Lists: alice sees hers, bob none of hers, the admin everyone's with filters.
    let row = format!("href=\"/submissions/{sid}\"");
    assert!(page(&p.alice, &d, "/submissions").await.2.contains(&row));
    assert!(!page(&p.bob, &d, "/submissions").await.2.contains(&row));
    assert!(page(&p.boss, &d, "/submissions?user=alice&verdict=WA")
        .await
        .2
        .contains(&row));
    assert!(!page(&p.boss, &d, "/submissions?user=bob")
        .await
        .2
        .contains(&row));
    assert!(!page(&p.boss, &d, "/submissions?verdict=AC")
        .await
        .2
        .contains(&row));
    assert!(
        !page(&p.bob, &d, "/submissions?user=alice")
            .await
            .2
            .contains(&row),
        "a contestant's user filter never widens the scope"
    );

    // Rejudge: anonymous signs in, alice 403, bob 404, the admin 303 back to the page.
    let rejudge = format!("{mine}/rejudge");
    let (s, at, _) = post_form(&p.anon, &d, "/login", &rejudge, &[]).await;
    signs_in(s, &at, &rejudge);
    assert_eq!(post_form(&p.alice, &d, &mine, &rejudge, &[]).await.0, 403);
    assert_eq!(
        post_form(&p.bob, &d, "/submissions", &rejudge, &[]).await.0,
        404
    );
    let (s, at, _) = post_form(&p.boss, &d, &mine, &rejudge, &[]).await;
    assert_eq!((s, at.as_str()), (303, mine.as_str()));
    wait_judged(&api, &d, &boss_token, sid).await;

    // Admin: anonymous signs in, contestants 403.
    let (s, at, _) = page(&p.anon, &d, "/admin").await;
    signs_in(s, &at, "/admin");
    assert_eq!(page(&p.alice, &d, "/admin").await.0, 403);
    assert_eq!(page(&p.bob, &d, "/admin").await.0, 403);
    let (s, _, admin) = page(&p.boss, &d, "/admin").await;
    assert_eq!(s, 200);
    assert!(admin.contains("/api/contests/cup/scoreboard?format=csv"));
    assert_eq!(
        post_form(
            &p.alice,
            &d,
            "/contests",
            "/admin/users",
            &[("name", "eve")]
        )
        .await
        .0,
        403
    );

    // A contest that has not started: its problems are the jury's only.
    assert_eq!(
        page(&p.alice, &d, "/contests/later/problems/A").await.0,
        403
    );
    assert!(!page(&p.alice, &d, "/contests/later")
        .await
        .2
        .contains("/contests/later/problems/A"));
    assert_eq!(page(&p.boss, &d, "/contests/later/problems/A").await.0, 200);
    assert_eq!(
        page(&p.alice, &d, "/problems/target-sudoku").await.0,
        404,
        "hidden outside the contest too"
    );
    assert_eq!(page(&p.alice, &d, "/contests/nope").await.0, 404);

    // The scoreboard: alice's row is hers on her board only.
    let board = page(&p.alice, &d, "/contests/cup/scoreboard").await.2;
    assert!(
        board.contains("<tr class=\"me\"><td>1</td><td class=\"name\">alice</td>"),
        "{board}"
    );
    assert!(!page(&p.bob, &d, "/contests/cup/scoreboard")
        .await
        .2
        .contains("class=\"me\""));

    // The frozen contest: alice's attempt in the freeze is a marked pending cell on the public
    // board, and judged on the jury's.
    let r = api
        .post(d.url("/api/contests/frozen/submissions"))
        .bearer_auth(&alice_token)
        .json(&json!({"problem": "A", "language": "python", "source": fixture("binary-sudoku", "wa.py")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let fid = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    wait_judged(&api, &d, &boss_token, fid).await;
    let public = page(&p.bob, &d, "/contests/frozen/scoreboard").await.2;
    assert!(
        public.contains("<b>frozen</b>") && public.contains("class=\"frozen\""),
        "{public}"
    );
    let jury = page(&p.boss, &d, "/contests/frozen/scoreboard").await.2;
    assert!(
        !jury.contains("class=\"frozen\"") && jury.contains("class=\"failed\""),
        "{jury}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csrf_cookies_sign_out_and_escaping() {
    let Judge { d, dir: _dir, .. } = start_with_contests(1, 1, &contests());
    let api = client();
    let boss_token = login(&api, &d.base, "boss", PW).await;
    let count = || async {
        let r = api
            .get(d.url("/api/submissions?limit=500"))
            .bearer_auth(&boss_token)
            .send()
            .await
            .unwrap();
        r.json::<Value>().await.unwrap().as_array().unwrap().len()
    };

    // Cookies: HttpOnly and SameSite, not Secure unless configured.
    let c = browser_like();
    let r = c.get(d.url("/login")).send().await.unwrap();
    let visitor = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        visitor.contains("HttpOnly") && visitor.contains("SameSite=Strict"),
        "{visitor}"
    );
    let form = r.text().await.unwrap();
    // Sign-in without the token, or with another browser's: refused.
    for token in ["", "0000"] {
        let r = c
            .post(d.url("/login"))
            .form(&[("csrf", token), ("name", "alice"), ("password", PW)])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
    }
    let r = c
        .post(d.url("/login"))
        .form(&[
            ("csrf", csrf_of(&form).as_str()),
            ("name", "alice"),
            ("password", PW),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    let session = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(session.starts_with("sj_session=sj_"), "{session}");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(!session.contains("Secure"));
    let cookie_value = session.split(';').next().unwrap().to_string();

    // A wrong password comes back as the form with a message, 401.
    let anon = browser_like();
    let html = page(&anon, &d, "/login").await.2;
    let r = anon
        .post(d.url("/login"))
        .form(&[
            ("csrf", csrf_of(&html).as_str()),
            ("name", "alice"),
            ("password", "wrong wrong"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    assert!(r.text().await.unwrap().contains("wrong name or password"));

    // The submit form without its token, or with a token of another browser: 403, nothing
    // stored. With it: stored.
    let before = count().await;
    let problem = "/contests/cup/problems/A";
    let html = c
        .get(d.url(problem))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let token = csrf_of(&html);
    let other = csrf_of(
        &anon
            .get(d.url("/login"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
    );
    for t in [None, Some(other.as_str())] {
        let (s, _, body) = send_form(&c, &d, problem, source_form(t, "python", "print(1)")).await;
        assert_eq!(s, 403);
        assert!(body.contains("CSRF"));
    }
    assert_eq!(count().await, before, "nothing stored");
    let xss = "</textarea><script>alert(1)</script>";
    let (s, at, _) = send_form(&c, &d, problem, source_form(Some(&token), "python", xss)).await;
    assert_eq!(s, 303);
    let html = page(&c, &d, &at).await.2;
    assert!(html.contains("&#60;/textarea&#62;&#60;script&#62;alert(1)&#60;/script&#62;"));
    assert!(!html.contains(xss));

    // Uploaded file: the extension chooses the language.
    let f = reqwest::multipart::Form::new()
        .text("csrf", token.clone())
        .text("language", "auto")
        .part(
            "file",
            reqwest::multipart::Part::text(fixture("binary-sudoku", "ac.c")).file_name("sol.c"),
        );
    let (s, at, _) = send_form(&c, &d, problem, f).await;
    assert_eq!(s, 303);
    let id: i64 = at.trim_start_matches("/submissions/").parse().unwrap();
    let v = wait_judged(&api, &d, &boss_token, id).await;
    assert_eq!(
        (v["language"].as_str(), v["verdict"].as_str()),
        (Some("c17"), Some("AC"))
    );

    // A 200 KB source: its page stays under 100 KB and links the whole source.
    let big = format!("# {}\nprint(0)\n", "x".repeat(200_000));
    let (s, at, _) = send_form(&c, &d, problem, source_form(Some(&token), "python", &big)).await;
    assert_eq!(s, 303);
    let (s, _, html) = page(&c, &d, &at).await;
    assert_eq!(s, 200);
    assert!(html.contains(&format!("{at}/source")));
    assert_eq!(
        c.get(d.url(&format!("{at}/source")))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        big
    );

    // JSON with the session cookie: state changes need the token in X-CSRF-Token; reads
    // do not; Bearer clients never need it. (sudoku-hard: the cup holds binary-sudoku for
    // its contestants while it runs.)
    let body = json!({"problem": "sudoku-hard", "language": "python", "source": "print(0)"});
    let r = c
        .post(d.url("/api/submissions"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(r.json::<Value>().await.unwrap()["error"]["code"], "csrf");
    let r = c
        .post(d.url("/api/submissions"))
        .header("x-csrf-token", &token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    assert_eq!(c.get(d.url("/api/me")).send().await.unwrap().status(), 200);
    let r = api
        .post(d.url("/api/submissions"))
        .bearer_auth(&boss_token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);

    // Admin forms: a display name with markup is shown as text; the generated password
    // signs in; a bad roster writes nothing; a good one creates everyone.
    let boss = web_login(&d, "boss").await;
    let (s, _, html) = post_form(
        &boss,
        &d,
        "/admin",
        "/admin/users",
        &[("name", "eve"), ("display_name", "<b>Eve</b>")],
    )
    .await;
    assert_eq!(s, 200);
    assert!(html.contains("&#60;b&#62;Eve&#60;/b&#62;") && !html.contains("<b>Eve</b>"));
    let pw_line = html
        .lines()
        .find(|l| l.starts_with("eve,"))
        .expect("the password line");
    let password = pw_line.rsplit(',').next().unwrap();
    login(&api, &d.base, "eve", password).await;
    let token = csrf_of(&page(&boss, &d, "/admin").await.2);
    let roster = |text: &str| {
        reqwest::multipart::Form::new()
            .text("csrf", token.clone())
            .text("roster", text.to_string())
    };
    let r = boss
        .post(d.url("/admin/users/import"))
        .multipart(roster("name\nzed,Zed\nBad Name,x\n"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("line 3"));
    assert!(
        !page(&boss, &d, "/admin").await.2.contains(">zed<"),
        "nothing written"
    );
    let r = boss
        .post(d.url("/admin/users/import"))
        .multipart(roster("zed,Zed\nyan,Yan\n"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let html = r.text().await.unwrap();
    assert!(html.contains("zed,Zed,") && html.contains("yan,Yan,"));
    // Disabling signs a user out at once.
    let eve = web::web_login_with(&d, "eve", password).await;
    assert_eq!(page(&eve, &d, "/submissions").await.0, 200);
    let (s, at, _) = post_form(&boss, &d, "/admin", "/admin/users/eve/disable", &[]).await;
    assert_eq!((s, at.as_str()), (303, "/admin"));
    assert_eq!(page(&eve, &d, "/submissions").await.0, 303);

    // Sign-out revokes the session: the old cookie value no longer works anywhere.
    let (s, at, _) = post_form(&c, &d, "/contests", "/logout", &[]).await;
    assert_eq!((s, at.as_str()), (303, "/login"));
    let replay = browser_like();
    let r = replay
        .get(d.url("/submissions"))
        .header("cookie", &cookie_value)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
    let r = replay
        .get(d.url("/api/me"))
        .header("cookie", &cookie_value)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_mode_serves_the_pages_with_csrf() {
    let (_dir, d) = daemon::start_fresh(1, 1, "");
    let c = browser_like();
    for path in [
        "/problems",
        "/problems/binary-sudoku",
        "/submissions",
        "/admin",
    ] {
        assert_eq!(page(&c, &d, path).await.0, 200, "{path}");
    }
    let problem = "/problems/binary-sudoku";
    let token = csrf_of(&page(&c, &d, problem).await.2);
    let without = send_form(&c, &d, problem, source_form(None, "python", "print(0)")).await;
    assert_eq!(without.0, 403, "no token, even in the open mode");
    let with = send_form(
        &c,
        &d,
        problem,
        source_form(Some(&token), "python", "print(0)"),
    )
    .await;
    assert_eq!(with.0, 303);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contest_forms_start_ask_answer_announce_unfreeze() {
    let now = jiff::Timestamp::now();
    let at = |mins: i64| {
        (now + jiff::SignedDuration::from_mins(mins))
            .strftime("%Y-%m-%dT%H:%M:%SZ")
            .to_string()
    };
    let window = format!(
        "title = \"Window\"\nformat = \"ioi\"\n[timing]\nkind = \"window\"\n\
         window_start = {:?}\nwindow_end = {:?}\nduration = \"2h\"\n\
         [[problems]]\nlabel = \"A\"\nproblem = \"binary-sudoku\"\n",
        at(-60),
        at(600)
    );
    let mut list = contests();
    list.push(("window", window));
    let Judge { d, dir: _dir, .. } = start_with_contests(1, 1, &list);
    let p = people(&d).await;

    // Window timing: the problems wait for alice's own timer; Start starts it.
    let (_, _, html) = page(&p.alice, &d, "/contests/window").await;
    assert!(
        html.contains("id=\"start\"") && html.contains("Start my timer"),
        "{html}"
    );
    assert!(!html.contains("/contests/window/problems/A"));
    assert_eq!(
        page(&p.alice, &d, "/contests/window/problems/A").await.0,
        403
    );
    let (s, at_, _) = post_form(
        &p.alice,
        &d,
        "/contests/window",
        "/contests/window/start",
        &[],
    )
    .await;
    assert_eq!((s, at_.as_str()), (303, "/contests/window"));
    let (_, _, html) = page(&p.alice, &d, "/contests/window").await;
    assert!(html.contains("/contests/window/problems/A") && html.contains("data-countdown"));
    assert!(!html.contains("id=\"start\""));
    assert_eq!(
        page(&p.alice, &d, "/contests/window/problems/A").await.0,
        200
    );
    // bob has not started: still hidden for him.
    assert_eq!(page(&p.bob, &d, "/contests/window/problems/A").await.0, 403);

    // alice asks; bob does not see her question; the jury answers it to everyone.
    let (s, _, _) = post_form(
        &p.alice,
        &d,
        "/contests/cup",
        "/contests/cup/clarifications",
        &[("problem", "A"), ("text", "Is <0> a digit?")],
    )
    .await;
    assert_eq!(s, 303);
    assert!(page(&p.alice, &d, "/contests/cup")
        .await
        .2
        .contains("Is &#60;0&#62; a digit?"));
    assert!(!page(&p.bob, &d, "/contests/cup")
        .await
        .2
        .contains("a digit?"));
    let jury = page(&p.boss, &d, "/contests/cup").await.2;
    let form = jury.find("/clarifications/").expect("an answer form");
    let id: String = jury[form + "/clarifications/".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let answer = format!("/contests/cup/clarifications/{id}/answer");
    assert_eq!(
        post_form(&p.alice, &d, "/contests/cup", &answer, &[("answer", "no")])
            .await
            .0,
        403,
        "contestants do not answer"
    );
    let (s, _, _) = post_form(
        &p.boss,
        &d,
        "/contests/cup",
        &answer,
        &[("answer", "Yes, it is."), ("public", "1")],
    )
    .await;
    assert_eq!(s, 303);
    assert!(page(&p.bob, &d, "/contests/cup")
        .await
        .2
        .contains("Yes, it is."));
    // The jury announces; a contestant's empty question is refused with the reason.
    let (s, _, _) = post_form(
        &p.boss,
        &d,
        "/contests/cup",
        "/contests/cup/clarifications",
        &[("text", "Clarified statement of A.")],
    )
    .await;
    assert_eq!(s, 303);
    assert!(page(&p.alice, &d, "/contests/cup")
        .await
        .2
        .contains("Clarified statement of A."));
    let (s, _, html) = post_form(
        &p.alice,
        &d,
        "/contests/cup",
        "/contests/cup/clarifications",
        &[("text", "   ")],
    )
    .await;
    assert_eq!(s, 422, "{html}");
    assert!(html.contains("class=\"error\""));

    // Unfreeze: the jury's button on a frozen icpc contest, refused to contestants.
    assert!(!page(&p.alice, &d, "/contests/frozen")
        .await
        .2
        .contains("/unfreeze"));
    assert!(page(&p.boss, &d, "/contests/frozen")
        .await
        .2
        .contains("/unfreeze"));
    assert_eq!(
        post_form(
            &p.alice,
            &d,
            "/contests/frozen",
            "/contests/frozen/unfreeze",
            &[]
        )
        .await
        .0,
        403
    );
    // The jury confirms first: without the box ticked, the page again with the reason.
    let (s, _, html) = post_form(
        &p.boss,
        &d,
        "/contests/frozen",
        "/contests/frozen/unfreeze",
        &[],
    )
    .await;
    assert_eq!(s, 422, "{html}");
    assert!(html.contains("tick the box to confirm"), "{html}");
    assert!(page(&p.bob, &d, "/contests/frozen/scoreboard")
        .await
        .2
        .contains("<b>frozen</b>"));
    let (s, at_, _) = post_form(
        &p.boss,
        &d,
        "/contests/frozen",
        "/contests/frozen/unfreeze",
        &[("confirm", "1")],
    )
    .await;
    assert_eq!((s, at_.as_str()), (303, "/contests/frozen/scoreboard"));
    assert!(!page(&p.boss, &d, "/contests/frozen")
        .await
        .2
        .contains("/unfreeze"));
    assert!(!page(&p.bob, &d, "/contests/frozen/scoreboard")
        .await
        .2
        .contains("<b>frozen</b>"));
}
