//! The compilers of the originals' era (issue 24): `GET /api/languages` lists every C and
//! C++ standard with its compiler's version, an alias submission records the id it was
//! compiled as, and a contest's `languages = [...]` refuses the others with the reason, on
//! the API and on the web form alike.

use crate::fixtures::contests::{fixed_five_hours, message};
use crate::fixtures::{contests, daemon, web};

use contests::{at, code, start};
use daemon::fixture;
use serde_json::json;

/// fixed from T0 for 5 hours, anyone, C++98 and C (C17) only, as a contest of the era would.
fn era() -> String {
    fixed_five_hours(
        "Era",
        "icpc",
        &[r#"languages = ["cpp98", "c"]"#],
        &[("A", "sudoku")],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn languages_are_listed_with_their_compilers_and_aliases_record_the_standard() {
    let j = start(&[("era", &era())], &at(10)).await;
    let (s, list) = j.get("/api/languages", None).await;
    assert_eq!(s, 200, "{list}");
    let list = list.as_array().expect("a list");
    for id in [
        "c99", "c11", "c17", "cpp98", "cpp11", "cpp14", "cpp17", "cpp20",
    ] {
        let l = list
            .iter()
            .find(|l| l["id"] == id)
            .unwrap_or_else(|| panic!("{id} listed: {list:?}"));
        assert!(l["name"].as_str().unwrap_or("").contains("GNU"), "{l}");
        let version = l["compiler_version"].as_str().unwrap_or("");
        assert!(
            version.contains("gcc") || version.contains("g++") || version.contains("GCC"),
            "{l}"
        );
    }
    let cpp17 = list.iter().find(|l| l["id"] == "cpp17").unwrap();
    assert_eq!(cpp17["aliases"], json!(["cpp"]));

    // A plain submission in the alias is stored as the standard it is compiled with.
    let ce = fixture("binary-sudoku", "ce.c");
    let (s, v) = j
        .post(
            "/api/submissions",
            Some(&j.alice),
            Some(json!({"problem": "binary-sudoku", "language": "cpp", "source": ce})),
        )
        .await;
    assert_eq!(s, 202, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (done, _) = j.wait_done(id).await;
    assert_eq!(done["language"], "cpp17", "{done}");
    let (s, v) = j
        .post(
            "/api/submissions",
            Some(&j.alice),
            Some(json!({"problem": "binary-sudoku", "language": "cpp03", "source": ce})),
        )
        .await;
    assert_eq!(s, 422, "{v}");
    assert!(
        message(&v).contains("cpp98"),
        "the known ids are named: {v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contest_refuses_a_language_it_does_not_allow_on_the_api_and_the_web_form() {
    let j = start(&[("era", &era())], &at(10)).await;
    let source = std::fs::read_to_string(
        daemon::root().join("problems/sudoku/submissions/accepted/poj_gets.cpp98.cpp"),
    )
    .expect("the era's solution");
    let before = j
        .get("/api/submissions?limit=500", Some(&j.boss))
        .await
        .1
        .as_array()
        .map_or(0, Vec::len);

    // API: C++17 (by its alias and by its id) and Python are refused, naming the list.
    for language in ["cpp", "cpp17", "python"] {
        let (s, v, _) = j.submit("era", &j.alice, "A", language, &source).await;
        assert_eq!(
            (s, code(&v)),
            (403, "language_not_allowed"),
            "{language}: {v}"
        );
        let message = v["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.contains("cpp98, c") && message.contains("is not one of them"),
            "{message}"
        );
    }
    // The jury is held to the list too.
    let (s, v, _) = j.submit("era", &j.boss, "A", "cpp20", &source).await;
    assert_eq!((s, code(&v)), (403, "language_not_allowed"), "{v}");

    // The web form of the contest's problem: refused with the reason on the page.
    let alice_web = web::web_login(&j.d, "alice").await;
    let page = alice_web
        .get(j.d.url("/contests/era/problems/A"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let form = reqwest::multipart::Form::new()
        .text("csrf", web::csrf_of(&page))
        .text("language", "cpp17")
        .text("source", source.clone());
    let r = alice_web
        .post(j.d.url("/contests/era/problems/A/submit"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let text = r.text().await.unwrap();
    assert!(
        text.contains("this contest accepts only cpp98, c"),
        "{text}"
    );

    // Nothing refused was stored.
    let after = j
        .get("/api/submissions?limit=500", Some(&j.boss))
        .await
        .1
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(before, after);

    // The allowed standard is taken and judged as POJ judged it: gets() under C++98, AC.
    let id = j.submit_ok("era", &j.alice, "A", "cpp98", &source).await;
    let (done, _) = j.wait_done(id).await;
    assert_eq!(
        (done["language"].as_str(), done["verdict"].as_str()),
        (Some("cpp98"), Some("AC")),
        "{done}"
    );
    // And on the web form, by the alias the list names (`c` is C17).
    let c_source = fixture("sudoku", "ac.c");
    let form = reqwest::multipart::Form::new()
        .text("csrf", web::csrf_of(&page))
        .text("language", "c")
        .text("source", c_source);
    let r = alice_web
        .post(j.d.url("/contests/era/problems/A/submit"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert!(
        r.status().is_success() || r.status().is_redirection(),
        "{}",
        r.status()
    );
}
