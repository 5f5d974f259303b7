//! The repository's interactive package (`tests/fixtures/kattis/guessing`) judged through
//! the daemon in an icpc contest: the submission and the validator talk through pipes, each
//! in a box of its own; an accepted search, an early exit, a flood and a deadlock get the
//! Kattis format's verdicts, and once the daemon stops nothing of theirs is left.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::fixtures::accounts::get_as;
use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::daemon::wait_done_as;
use crate::fixtures::kattis;
use crate::fixtures::sandbox_support::{leftovers_of, processes_of};

fn contest() -> String {
    fixed_five_hours("Interactive", "icpc", &[], &[("A", "guessing")])
}

/// This test's own uid range (see `tests/cli/kattis_interactive.rs`'s, 16 slots above it).
const UID_BASE: u32 = 1_879_048_192 + 70_016;

#[tokio::test]
async fn the_guessing_game_is_judged_through_the_daemon() {
    let kattis::KattisContest {
        dir: _dir,
        daemon: mut d,
        client: c,
        boss,
        alice,
    } = kattis::contest(
        &["guessing"],
        &[],
        ("interactive", &contest()),
        2,
        &format!("[sandbox]\nuid_base = {UID_BASE}\n"),
    )
    .await;
    let listed: Value = get_as(&c, &d, "/api/problems/guessing", Some(boss.as_str()))
        .await
        .1;
    assert_eq!(listed["checker"], "interactive", "{listed}");
    assert!(
        listed["statement"]
            .as_str()
            .unwrap()
            .contains("Sample interaction 1"),
        "{listed}"
    );
    let submissions =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis/guessing/submissions");
    let cases = [
        ("accepted/binary_search.py", "python", "AC"),
        ("accepted/binary_search.c", "c", "AC"),
        ("wrong_answer/exits_early.py", "python", "WA"),
        ("wrong_answer/floods.c", "c", "WA"),
        ("time_limit_exceeded/no_flush.c", "c", "TLE"),
    ];
    let mut ids = Vec::new();
    for (file, language, _) in cases {
        let source = std::fs::read_to_string(submissions.join(file)).unwrap();
        let r = c
            .post(d.url("/api/contests/interactive/submissions"))
            .bearer_auth(&alice)
            .json(&json!({"problem": "A", "language": language, "source": source}))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let v: Value = r.json().await.unwrap();
        assert_eq!(status, 202, "{file}: {v}");
        ids.push(v["id"].as_i64().unwrap());
    }
    for ((file, _, verdict), id) in cases.iter().zip(ids) {
        let v = wait_done_as(&c, &d, Some(&boss), &[id], Duration::from_secs(120))
            .await
            .remove(0);
        assert_eq!(v["verdict"], *verdict, "{file}: {v}");
        if file.contains("exits_early") {
            // The jury reads the validator's own message.
            let messages: Vec<&str> = v["tests"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|t| t["message"].as_str())
                .collect();
            assert!(
                messages.iter().any(|m| m.contains("guess 2: end of input")),
                "{messages:?}"
            );
        }
    }
    let pid = d.pid();
    assert!(
        d.terminate(Duration::from_secs(30)).success(),
        "{}",
        d.log()
    );
    assert!(leftovers_of(pid).is_empty(), "{:?}", leftovers_of(pid));
    for uid in UID_BASE..UID_BASE + 16 {
        assert!(
            processes_of(uid).is_empty(),
            "uid {uid}: {:?}",
            processes_of(uid)
        );
    }
}
