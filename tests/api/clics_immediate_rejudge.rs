//! An immediate rejudge in the Contest API (found while closing issues 29/30): CLICS gives
//! each judging of a submission a judgement of its own, and a judgement a client has seen
//! stays. After a data fix, the jury rejudges one submission at once
//! (`POST /api/submissions/{id}/rejudge`), then the whole problem
//! (`POST /api/contests/cup/rejudge`). A client that read the feed before keeps every event
//! it read at its place and, resuming with `since_token`, gets exactly the new events: each
//! old judgement again with `current: false`, then a new judgement `<submission>-j<n>` at the
//! rejudge's instant. `/judgements` keeps the old ones and has exactly one current judgement
//! per submission, whose verdict is the stored one.

use std::collections::BTreeMap;

use serde_json::json;

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
    let after = verdicts(&c, &d, &boss, &ids).await;
    assert_eq!(after, ["WA", "AC", "WA"]);

    // Past the feed's grace after the last rejudge.
    std::fs::write(&clock, "2026-03-01T10:09:00Z").unwrap();
    let kept = |j: i64| (s(j), s(j), t(if j == right { "AC" } else { "WA" }), false);
    let (one, two, three, four) = (
        format!("{fixed}-j1"),
        format!("{right}-j2"),
        format!("{fixed}-j3"),
        format!("{zero}-j4"),
    );
    let new_events = vec![
        // 10:06: fixed's WA kept, its new judging AC.
        kept(fixed),
        (one.clone(), s(fixed), t("AC"), true),
        // 10:08: every submission's current judgement kept, a new one each.
        kept(right),
        (two, s(right), t("WA"), true),
        (one, s(fixed), t("AC"), false),
        (three, s(fixed), t("AC"), true),
        kept(zero),
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
    let (st, list) = get_as(&c, &d, "/clics/contests/cup/judgements", Some(&boss)).await;
    assert_eq!(st, 200, "{list}");
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 7, "{list:?}");
    let mut current: BTreeMap<String, String> = BTreeMap::new();
    for j in list.iter().filter(|j| j["current"] == true) {
        let sub = j["submission_id"].as_str().unwrap().to_string();
        let kind = j["judgement_type_id"].as_str().unwrap().to_string();
        assert!(current.insert(sub, kind).is_none(), "two current: {list:?}");
    }
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
