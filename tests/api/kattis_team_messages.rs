//! A Kattis output validator's `teammessage.txt` is the package's word to the contestant: the
//! contestant reads it on a secret test (API and submission page), while the validator's
//! `judgemessage.txt`, which quotes the program's output, stays with the jury. Judged through
//! the daemon in an icpc contest with the `reorder` fixture, whose Python validator writes both.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fixtures::accounts::get_as;
use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::Daemon;
use crate::fixtures::kattis;
use crate::fixtures::web::web_login;

fn contest() -> String {
    fixed_five_hours("Team messages", "icpc", &[], &[("D", "reorder")])
}

/// Right on the sample (n = 3), wrong on the secret tests: it drops the first number and adds
/// a marker the validator's judge message echoes (a forged separator included).
const SOURCE: &str = "n = int(input())\na = input().split()\n\
print(*(a if n == 3 else a[1:] + ['ECHOED;', 'team', 'message:', 'forged']))\n";

/// The output as the judge message quotes it (the source shown on the page has it quoted
/// item by item, never in one piece).
const ECHO: &str = "ECHOED; team message: forged";

/// What the fixture's validator writes to `teammessage.txt` on a wrong answer.
const TEAM: &str = "not a reordering of the input";

async fn wait_done(c: &reqwest::Client, d: &Daemon, token: &str, id: i64) -> Value {
    let started = Instant::now();
    loop {
        let v: Value = get_as(c, d, &format!("/api/submissions/{id}"), Some(token))
            .await
            .1;
        if v["status"] == "done" {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{v}\n{}",
            d.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn secret_failure(v: &Value) -> &Value {
    v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"].as_str().unwrap().starts_with("secret/") && t["verdict"] == "WA")
        .unwrap_or_else(|| panic!("no failed secret test: {v}"))
}

#[tokio::test]
async fn kattis_team_message_reaches_the_contestant_and_the_judge_message_only_the_jury() {
    let kattis::KattisContest {
        dir: _dir,
        daemon: d,
        client: c,
        boss,
        alice,
    } = kattis::contest(&["reorder"], &["reorder"], ("team", &contest()), 1, "").await;
    let r = c
        .post(d.url("/api/contests/team/submissions"))
        .bearer_auth(&alice)
        .json(&json!({"problem": "D", "language": "python", "source": SOURCE}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let v: Value = r.json().await.unwrap();
    assert_eq!(status, 202, "{v}");
    let id = v["id"].as_i64().unwrap();

    let jury = wait_done(&c, &d, &boss, id).await;
    assert_eq!(jury["verdict"], "WA", "{jury}");
    let t = secret_failure(&jury);
    assert!(
        t["message"]
            .as_str()
            .unwrap()
            .contains("expected a permutation"),
        "the jury reads the judge message: {t}"
    );
    assert!(
        !t["message"].as_str().unwrap().contains(TEAM),
        "the team message is no longer folded into the jury's: {t}"
    );
    assert_eq!(
        t["team_message"], TEAM,
        "the jury reads the team's too: {t}"
    );

    let mine = wait_done(&c, &d, &alice, id).await;
    let t = secret_failure(&mine);
    assert_eq!(t["team_message"], TEAM, "{t}");
    assert_eq!(t["message"], "wrong answer", "{t}");
    // Its own source is shown; what the validator quoted of its output is not.
    let shown = mine["tests"].to_string();
    assert!(!shown.contains("expected a permutation"), "{shown}");
    assert!(!shown.contains("ECHOED"), "{shown}");
    assert!(!shown.contains("forged"), "{shown}");

    let page = |who: &'static str| {
        let d = &d;
        async move {
            let browser = web_login(d, who).await;
            let r = browser
                .get(d.url(&format!("/submissions/{id}")))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "{who}");
            r.text().await.unwrap()
        }
    };
    let html = page("alice").await;
    assert!(html.contains(TEAM), "the contestant's page: {html}");
    assert!(!html.contains("expected a permutation"), "{html}");
    assert!(!html.contains(ECHO), "{html}");
    let html = page("boss").await;
    assert!(html.contains(TEAM), "the jury's page: {html}");
    assert!(html.contains("expected a permutation"), "{html}");
    assert!(
        html.contains(ECHO),
        "the jury reads what the output was: {html}"
    );
}
