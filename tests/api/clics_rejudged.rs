//! An applied rejudging in the Contest API (issue 30's leftover): CLICS gives each
//! submission the rejudging changed a new judgement that supersedes the old one, which stays
//! with `current: false`. After a data fix and an applied rejudging, the event feed (the
//! jury's and a contestant's) has each changed submission's old judgement again, now not
//! current, then the new one under an id of its own, at the apply instant; the unchanged
//! submission keeps its one judgement; `/judgements` lists old and new with exactly one
//! current judgement per submission, whose verdict is the stored one.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::fixtures::accounts::{get_as, post_as};
use crate::fixtures::data_fix::{self, feed, judgements, verdicts};

#[tokio::test]
async fn an_applied_rejudging_makes_new_judgements_in_the_contest_api() {
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
    let (s, v) = post_as(
        &c,
        &d,
        "/api/rejudgings",
        Some(&boss),
        Some(json!({"contest": "cup", "problem": "A"})),
    )
    .await;
    assert_eq!(s, 202, "{v}");
    let rj = v["id"].as_i64().unwrap();
    let started = Instant::now();
    loop {
        let (_, v) = get_as(&c, &d, &format!("/api/rejudgings/{rj}"), Some(&boss)).await;
        if v["judged"] == v["total"] {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Before the apply: one judgement each, all current.
    std::fs::write(&clock, "2026-03-01T10:06:00Z").unwrap();
    let s = |x: i64| x.to_string();
    let t = |x: &str| x.to_string();
    let before = judgements(&feed(&c, &d, &boss, None).await);
    assert_eq!(
        before,
        vec![
            (s(right), s(right), t("AC"), true),
            (s(fixed), s(fixed), t("WA"), true),
            (s(zero), s(zero), t("WA"), true),
        ]
    );
    let (st, v) = post_as(
        &c,
        &d,
        &format!("/api/rejudgings/{rj}/apply"),
        Some(&boss),
        None,
    )
    .await;
    assert_eq!((st, v["state"].clone()), (200, json!("applied")), "{v}");
    let after = verdicts(&c, &d, &boss, &ids).await;
    assert_eq!(after, ["WA", "AC", "WA"]);

    // Past the feed's grace after the apply instant (10:06).
    std::fs::write(&clock, "2026-03-01T10:07:00Z").unwrap();
    let new = |sub: i64| format!("{sub}-r{rj}");
    let expected = vec![
        (s(right), s(right), t("AC"), false),
        (s(fixed), s(fixed), t("WA"), false),
        (s(zero), s(zero), t("WA"), true),
        (s(right), s(right), t("AC"), false),
        (new(right), s(right), t("WA"), true),
        (s(fixed), s(fixed), t("WA"), false),
        (new(fixed), s(fixed), t("AC"), true),
    ];
    for token in [&boss, &alice] {
        assert_eq!(judgements(&feed(&c, &d, token, None).await), expected);
    }

    // The collection: old and new, one current per submission, the stored verdict.
    let (list, current) = data_fix::current_judgements(&c, &d, &boss).await;
    assert_eq!(list.len(), 5, "{list:?}");
    let stored: BTreeMap<String, String> = ids.iter().map(|i| i.to_string()).zip(after).collect();
    assert_eq!(current, stored);
    let (st, one) = get_as(
        &c,
        &d,
        &format!("/clics/contests/cup/judgements/{}", new(fixed)),
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
                .map(|x| x.starts_with("2026-03-01T10:06:00"))
        ),
        (json!(s(fixed)), json!(true), Some(true)),
        "{one}"
    );
}
