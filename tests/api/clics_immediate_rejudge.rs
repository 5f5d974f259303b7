//! An immediate rejudge in the Contest API (found while closing issues 29/30): CLICS gives
//! each judging of a submission a judgement of its own, and a judgement a client has seen
//! stays. After a data fix, the jury rejudges one submission at once
//! (`POST /api/submissions/{id}/rejudge`), then the whole problem
//! (`POST /api/contests/cup/rejudge`). A client that read the feed before keeps every event
//! it read at its place and, resuming with `since_token`, gets exactly the new events: each
//! old judgement again with `current: false`, then a new judgement `<submission>-j<n>` at the
//! rejudge's instant, in progress (no verdict, `end_time` null: a reader polling while the
//! new judging runs sees it so), then the same judgement again when judged, with its verdict
//! and an `end_time` not before its `start_time` (issue 37's brief, as DOMjudge serves it).
//! `/judgements` keeps the old ones and has exactly one current judgement per submission,
//! whose verdict is the stored one.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fixtures::accounts::{get_as, post_as};
use crate::fixtures::data_fix::{self, feed, judgements, tokens, verdicts};

#[tokio::test]
async fn an_immediate_rejudge_keeps_the_old_judgement_and_makes_a_new_one() {
    // Three submissions judged, then the data fix, and the daemon started again on it at
    // 10:05 on the contest clock.
    let (ids, _, fix) = data_fix::judged_then_fixed(Some("2026-03-01T10:05:00Z")).await;
    let [right, fixed, zero] = ids;
    let data_fix::Fixed {
        dir,
        daemon: d,
        client: c,
        boss,
        alice,
    } = fix;
    let clock = dir.path().join("clock.txt");

    // What the clients read before any rejudge: one current judgement each.
    let s = |x: i64| x.to_string();
    let t = |x: &str| x.to_string();
    let mut seen = BTreeMap::new();
    for (who, token) in [("boss", &boss), ("alice", &alice)] {
        let events = feed(&c, &d, token, None).await;
        assert_eq!(
            judgements(&events),
            vec![
                (s(right), s(right), t("AC"), true),
                (s(fixed), s(fixed), t("WA"), true),
                (s(zero), s(zero), t("WA"), true),
            ],
            "{who}"
        );
        seen.insert(who, events);
    }

    // One submission rejudged at once at 10:06, then the whole problem at 10:08.
    std::fs::write(&clock, "2026-03-01T10:06:00Z").unwrap();
    let (st, v) = post_as(
        &c,
        &d,
        &format!("/api/submissions/{fixed}/rejudge"),
        Some(&boss),
        None,
    )
    .await;
    assert_eq!(st, 202, "{v}");
    assert_eq!(verdicts(&c, &d, &boss, &[fixed]).await, ["AC"]);
    std::fs::write(&clock, "2026-03-01T10:08:00Z").unwrap();
    let (st, v) = post_as(
        &c,
        &d,
        "/api/contests/cup/rejudge",
        Some(&boss),
        Some(json!({"problem": "A"})),
    )
    .await;
    assert_eq!((st, &v["requeued"]), (202, &json!(3)), "{v}");
    // Past the feed's grace while the three are judged again (one worker): a reader polling
    // meanwhile sees a new judgement started, with no verdict and no end.
    std::fs::write(&clock, "2026-03-01T10:09:00Z").unwrap();
    let news = [right, fixed, zero].map(s);
    let (during, running) = poll_while_judged(&c, &d, &boss, &news).await;
    let after = verdicts(&c, &d, &boss, &ids).await;
    assert_eq!(after, ["WA", "AC", "WA"]);
    let all = feed(&c, &d, &boss, None).await;
    assert_eq!(tokens(&all[..during.len()]), tokens(&during), "a prefix");
    // Then the same judgement with its verdict, ended not before it started.
    let ended = all
        .iter()
        .rev()
        .find(|e| e["id"] == running["id"])
        .map(|e| e["data"].clone())
        .unwrap();
    assert_eq!(ended["start_time"], running["start_time"], "{ended}");
    assert!(ended["judgement_type_id"].is_string(), "{ended}");
    let time = |v: &Value| v.as_str().unwrap().parse::<jiff::Timestamp>().unwrap();
    assert!(
        time(&ended["end_time"]) >= time(&ended["start_time"]),
        "{ended}"
    );
    assert!(ended["end_contest_time"].is_string(), "{ended}");

    let kept = |j: i64| (s(j), s(j), t(if j == right { "AC" } else { "WA" }), false);
    let (one, two, three, four) = (
        format!("{fixed}-j1"),
        format!("{right}-j2"),
        format!("{fixed}-j3"),
        format!("{zero}-j4"),
    );
    let new_events = vec![
        // 10:06: fixed's WA kept, its new judging started, then judged AC.
        kept(fixed),
        (one.clone(), s(fixed), t(""), true),
        (one.clone(), s(fixed), t("AC"), true),
        // 10:08: every submission's current judgement kept, a new one each started, then
        // each judged.
        kept(right),
        (two.clone(), s(right), t(""), true),
        (one, s(fixed), t("AC"), false),
        (three.clone(), s(fixed), t(""), true),
        kept(zero),
        (four.clone(), s(zero), t(""), true),
        (two, s(right), t("WA"), true),
        (three, s(fixed), t("AC"), true),
        (four.clone(), s(zero), t("WA"), true),
    ];
    for (who, token) in [("boss", &boss), ("alice", &alice)] {
        let before = &seen[who];
        let all = feed(&c, &d, token, None).await;
        // Every event read before is still at its place; only new ones follow.
        assert_eq!(tokens(&all[..before.len()]), tokens(before), "{who}");
        let last = before.last().unwrap()["token"].as_str().unwrap();
        let resumed = feed(&c, &d, token, Some(last)).await;
        assert_eq!(tokens(&resumed), tokens(&all[before.len()..]), "{who}");
        assert_eq!(judgements(&resumed), new_events, "{who}");
        // The first judgements stay in the whole feed, no longer current.
        assert_eq!(
            judgements(&all[..before.len()]),
            vec![kept(right), kept(fixed), kept(zero)],
            "{who}"
        );
    }

    // The collection: 3 old and 4 new, one current per submission, the stored verdict.
    let (list, current) = data_fix::current_judgements(&c, &d, &boss).await;
    assert_eq!(list.len(), 7, "{list:?}");
    let stored: BTreeMap<String, String> = ids.iter().map(|i| i.to_string()).zip(after).collect();
    assert_eq!(current, stored);
    let (st, one) = get_as(
        &c,
        &d,
        &format!("/clics/contests/cup/judgements/{four}"),
        Some(&boss),
    )
    .await;
    assert_eq!(st, 200, "{one}");
    assert_eq!(
        (
            one["submission_id"].clone(),
            one["current"].clone(),
            one["start_time"]
                .as_str()
                .map(|x| x.starts_with("2026-03-01T10:08:00"))
        ),
        (json!(s(zero)), json!(true), Some(true)),
        "{one}"
    );
}

/// Reads `token`'s feed until every submission of `subs` has a judged judgement made after
/// the rejudge; returns the feed read while one of them was still being judged and that
/// judgement (the latest event of its id: in progress), failing if no read caught one.
async fn poll_while_judged(
    c: &reqwest::Client,
    d: &crate::fixtures::daemon::Daemon,
    token: &str,
    subs: &[String],
) -> (Vec<Value>, Value) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut caught: Option<(Vec<Value>, Value)> = None;
    loop {
        let events = feed(c, d, token, None).await;
        // The latest event of each new judgement (`<sub>-j<n>`) made by the problem's rejudge.
        let mut latest: BTreeMap<String, Value> = BTreeMap::new();
        for e in events.iter().filter(|e| e["type"] == "judgements") {
            let data = &e["data"];
            let id = data["id"].as_str().unwrap_or_default();
            if id.contains("-j") && data["start_time"].as_str().unwrap().contains("T10:08:00") {
                latest.insert(id.to_string(), data.clone());
            }
        }
        if let Some(running) = latest.values().find(|j| j["judgement_type_id"].is_null()) {
            assert_eq!(running["end_time"], Value::Null, "{running}");
            assert_eq!(running["end_contest_time"], Value::Null, "{running}");
            assert_eq!(running["current"], true, "{running}");
            if caught.is_none() {
                caught = Some((events.clone(), running.clone()));
            }
        }
        let judged = latest
            .values()
            .filter(|j| j["judgement_type_id"].is_string())
            .count();
        if judged == subs.len() {
            return caught.expect("a read while the new judging ran saw its judgement");
        }
        assert!(Instant::now() < deadline, "not judged again: {latest:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
