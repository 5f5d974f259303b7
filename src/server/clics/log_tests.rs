//! The event log's promises: tokens read back, the same records give the same log, and a
//! new fact (a judgement, an unfreeze) only adds events at places not yet shown.

use std::collections::HashMap;

use jiff::Timestamp;

use super::*;
use crate::judge::Verdict;

fn contest() -> Contest {
    let text =
        "title = \"t\"\nformat = \"icpc\"\nfreeze_minutes = 60\n[timing]\nkind = \"fixed\"\n\
                start = 2026-03-01T09:00:00Z\nduration = \"5h\"\n\
                [[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n";
    Contest::parse(std::path::Path::new("contests/t.toml"), text).unwrap()
}

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn entry(id: i64, user: &str, at: &str, verdict: Option<Verdict>) -> BoardEntry {
    BoardEntry {
        id,
        user: user.into(),
        label: "A".into(),
        at: t(at),
        status: if verdict.is_some() {
            Status::Done
        } else {
            Status::Running
        },
        verdict,
        score: verdict.map(|v| if v == Verdict::AC { 100 } else { 0 }),
    }
}

fn log(subs: &[BoardEntry], unfrozen: bool, audience: Audience) -> Log {
    log_rejudged(subs, &HashMap::new(), unfrozen, audience)
}

fn log_rejudged(
    subs: &[BoardEntry],
    rejudged: &HashMap<i64, Vec<Change>>,
    unfrozen: bool,
    audience: Audience,
) -> Log {
    let c = contest();
    let participants: Vec<Participant> = ["alice", "bob"]
        .iter()
        .map(|u| Participant {
            user: u.to_string(),
            started_at: t("2026-03-01T09:01:00Z"),
        })
        .collect();
    let languages: HashMap<i64, String> = subs.iter().map(|s| (s.id, "c".to_string())).collect();
    build(&Inputs {
        contest: &c,
        problems: &[ProblemInfo {
            label: "A".into(),
            name: "Sudoku".into(),
            ordinal: 1,
            time_limit_ms: 1000,
            tests: 3,
            max_score: 100,
        }],
        languages: &[LanguageInfo {
            id: "c".into(),
            name: "C".into(),
            extensions: vec!["c".into()],
        }],
        participants: &participants,
        members: &[],
        submissions: subs,
        language_of: &languages,
        rejudged,
        unfrozen,
        audience,
    })
}

fn tokens(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.key.token()).collect()
}

#[test]
fn tokens_read_back_and_nothing_else_does() {
    for key in [
        Key::at(i64::MIN, K_STATE, 0),
        Key {
            t: 1_772_355_600_000,
            kind: K_SUBMISSIONS,
            id: 42,
            sub: 1,
        },
        Key::at(-5, K_TEAMS, i64::MAX),
    ] {
        assert_eq!(Key::parse(&key.token()), Some(key));
    }
    for bad in [
        "",
        "x",
        "1-2-3",
        "1-2-3-4-5",
        "0-100-0-0",
        "-1-0-0",
        "0-0-0-0 ",
        "00-0-0-0",
    ] {
        assert_eq!(Key::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn a_judgement_only_adds_events_after_what_was_shown() {
    let end = t("2026-03-01T14:30:00Z");
    let before = [
        entry(1, "alice", "2026-03-01T09:10:00Z", Some(Verdict::WA)),
        entry(2, "bob", "2026-03-01T09:20:00Z", None),
        entry(3, "alice", "2026-03-01T09:30:00Z", Some(Verdict::AC)),
    ];
    let l1 = log(&before, false, Audience::Admin);
    // The same records give the same log (a restart, another node).
    assert_eq!(
        tokens(&l1.events),
        tokens(&log(&before, false, Audience::Admin).events)
    );
    // Bob's pending submission is shown, nothing after it: alice's AC waits.
    let shown = l1.visible(end);
    assert_eq!(
        shown.last().map(|e| (e.kind, e.id.clone())),
        Some(("submissions", Some("2".into())))
    );
    let mut after = before.clone();
    after[1] = entry(2, "bob", "2026-03-01T09:20:00Z", Some(Verdict::AC));
    let l2 = log(&after, false, Audience::Admin);
    let all = l2.visible(end);
    assert_eq!(
        tokens(&all[..shown.len()]),
        tokens(shown),
        "what was shown stays in place"
    );
    let last = shown.last().map(|e| e.key);
    let rest: Vec<(&str, Option<String>)> = l2
        .since(end, last)
        .iter()
        .map(|e| (e.kind, e.id.clone()))
        .take(3)
        .collect();
    assert_eq!(
        rest,
        vec![
            ("judgements", Some("2".into())),
            ("submissions", Some("3".into())),
            ("judgements", Some("3".into())),
        ]
    );
    // Nothing later than GRACE before now is shown.
    assert!(l2
        .visible(t("2026-03-01T09:30:04Z"))
        .iter()
        .all(|e| e.key.t < t("2026-03-01T09:30:00Z").as_millisecond()));
}

#[test]
fn the_public_gets_frozen_judgements_after_the_finalized_state_once_unfrozen() {
    let subs = [
        entry(1, "alice", "2026-03-01T10:00:00Z", Some(Verdict::AC)),
        entry(2, "bob", "2026-03-01T13:10:00Z", Some(Verdict::AC)),
    ];
    let after_end = t("2026-03-01T15:00:00Z");
    let frozen = log(&subs, false, Audience::Public);
    let shown = frozen.visible(after_end);
    let judged: Vec<_> = shown.iter().filter(|e| e.kind == "judgements").collect();
    assert_eq!(judged.len(), 1, "bob's in-freeze AC is hidden");
    assert_eq!(
        shown.last().map(|e| e.data["finalized"].is_string()),
        Some(true)
    );
    let thawed = log(&subs, true, Audience::Public);
    let rest: Vec<_> = thawed
        .since(after_end, shown.last().map(|e| e.key))
        .to_vec();
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(
        (rest[0].kind, rest[0].id.as_deref()),
        ("judgements", Some("2"))
    );
    assert!(rest[1].data["thawed"].is_string());
    // The jury's log has it in place all along.
    let jury = log(&subs, false, Audience::Admin);
    assert_eq!(
        jury.visible(after_end)
            .iter()
            .filter(|e| e.kind == "judgements")
            .count(),
        2
    );
}

/// One change of submission `id`'s result by rejudging `rejudging` applied at `at`.
fn change(rejudging: i64, at: &str, old: Verdict, new: Verdict) -> Change {
    let score = |v| if v == Verdict::AC { 100 } else { 0 };
    Change {
        rejudging,
        kind: super::rejudged::Kind::Rejudging,
        at: t(at),
        old: (old, score(old)),
        new: (new, score(new)),
        judging: None,
    }
}

fn judgements(events: &[Event]) -> Vec<(String, String, String, bool)> {
    events
        .iter()
        .filter(|e| e.kind == "judgements")
        .map(|e| {
            (
                e.id.clone().unwrap(),
                e.data["submission_id"].as_str().unwrap().to_string(),
                // "" for a judgement in progress (no type yet).
                e.data["judgement_type_id"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                e.data["current"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn an_applied_rejudging_makes_new_judgements_that_supersede_the_old() {
    // Alice's WA became AC by rejudging 4 at 12:00; bob's AC (in the freeze) became WA by
    // rejudging 5 at 15:00, after the end; 3 was not changed.
    let subs = [
        entry(1, "alice", "2026-03-01T10:00:00Z", Some(Verdict::AC)),
        entry(2, "bob", "2026-03-01T13:40:00Z", Some(Verdict::WA)),
        entry(3, "bob", "2026-03-01T13:50:00Z", Some(Verdict::WA)),
    ];
    let rejudged = HashMap::from([
        (
            1,
            vec![change(4, "2026-03-01T12:00:00Z", Verdict::WA, Verdict::AC)],
        ),
        (
            2,
            vec![change(5, "2026-03-01T15:00:00Z", Verdict::AC, Verdict::WA)],
        ),
    ]);
    let later = t("2026-03-01T16:00:00Z");
    let s = |x: &str| x.to_string();
    let jury = log_rejudged(&subs, &rejudged, false, Audience::Admin);
    assert_eq!(
        judgements(jury.visible(later)),
        vec![
            (s("1"), s("1"), s("WA"), false),
            (s("1"), s("1"), s("WA"), false),
            (s("1-r4"), s("1"), s("AC"), true),
            (s("2"), s("2"), s("AC"), false),
            (s("3"), s("3"), s("WA"), true),
            (s("2"), s("2"), s("AC"), false),
            (s("2-r5"), s("2"), s("WA"), true),
        ]
    );
    // The REST view: the old judgements kept, not current; one current per submission.
    let objects = jury.objects(later, "judgements");
    let current: Vec<&str> = objects
        .iter()
        .filter(|o| o["current"] == true)
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(current, ["1-r4", "3", "2-r5"]);
    assert_eq!(objects.len(), 5);
    let made = objects.iter().find(|o| o["id"] == "1-r4").unwrap();
    assert_eq!(made["start_time"], made["end_time"]);
    assert!(made["start_time"]
        .as_str()
        .unwrap()
        .starts_with("2026-03-01T12:00:00"));
    // Before the apply instant's grace is over, nothing of it is shown.
    assert!(judgements(jury.visible(t("2026-03-01T12:00:04Z")))
        .iter()
        .all(|j| j.0 != "1-r4"));

    // The public, frozen: alice's change (before the end) is shown; bob's in-freeze
    // submissions are hidden, their judgements and changes with them.
    let frozen = log_rejudged(&subs, &rejudged, false, Audience::Public);
    let shown = frozen.visible(later);
    assert_eq!(
        judgements(shown),
        vec![
            (s("1"), s("1"), s("WA"), false),
            (s("1"), s("1"), s("WA"), false),
            (s("1-r4"), s("1"), s("AC"), true),
        ]
    );
    // Unfrozen: only additions after what the frozen feed showed: the revealed judgements,
    // the thaw, then bob's change at its apply instant.
    let thawed = log_rejudged(&subs, &rejudged, true, Audience::Public);
    let all = thawed.visible(later);
    assert_eq!(tokens(&all[..shown.len()]), tokens(shown));
    let rest: Vec<(String, String, bool)> = all[shown.len()..]
        .iter()
        .map(|e| {
            (
                e.kind.to_string(),
                e.id.clone().unwrap_or_default(),
                e.data["current"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        rest,
        vec![
            (s("judgements"), s("2"), false),
            (s("judgements"), s("3"), true),
            (s("state"), s(""), false),
            (s("judgements"), s("2"), false),
            (s("judgements"), s("2-r5"), true),
        ]
    );
}

#[test]
fn an_immediate_rejudge_kept_without_times_holds_the_feed_at_its_instant() {
    // A record kept before sqlite 0020 (no times): shown as before, one judgement, judged.
    // Alice's WA at 10:00 was queued again at 11:00 (record 7); bob submitted at 11:30.
    let rejudged = HashMap::from([(
        1,
        vec![Change {
            rejudging: 7,
            kind: super::rejudged::Kind::Immediate,
            at: t("2026-03-01T11:00:00Z"),
            old: (Verdict::WA, 0),
            new: (Verdict::WA, 0),
            judging: None,
        }],
    )]);
    let bob = entry(2, "bob", "2026-03-01T11:30:00Z", Some(Verdict::WA));
    let judging = [entry(1, "alice", "2026-03-01T10:00:00Z", None), bob.clone()];
    let later = t("2026-03-01T12:00:00Z");
    let s = |x: &str| x.to_string();
    let pending = log_rejudged(&judging, &rejudged, false, Audience::Admin);
    let shown = pending.visible(later);
    // The judgement read before stays; nothing from the rejudge's instant on is shown yet.
    assert_eq!(judgements(shown), vec![(s("1"), s("1"), s("WA"), false)]);
    assert!(shown
        .iter()
        .all(|e| e.key.t < t("2026-03-01T11:00:00Z").as_millisecond()));
    // Judged again (AC): the old judgement again, not current, then the new one; only
    // after what was shown.
    let judged = [
        entry(1, "alice", "2026-03-01T10:00:00Z", Some(Verdict::AC)),
        bob,
    ];
    let done = log_rejudged(&judged, &rejudged, false, Audience::Admin);
    let all = done.visible(later);
    assert_eq!(tokens(&all[..shown.len()]), tokens(shown));
    assert_eq!(
        judgements(&all[shown.len()..]),
        vec![
            (s("1"), s("1"), s("WA"), false),
            (s("1-j7"), s("1"), s("AC"), true),
            (s("2"), s("2"), s("WA"), true),
        ]
    );
}

/// An immediate rejudge (record `record`) at `at` of a WA, kept with its times: its new
/// judging took `took` (`None`: still running).
fn immediate(record: i64, at: &str, took: Option<i64>) -> Change {
    Change {
        rejudging: record,
        kind: super::rejudged::Kind::Immediate,
        at: t(at),
        old: (Verdict::WA, 0),
        new: (Verdict::WA, 0),
        judging: Some(took.map(jiff::SignedDuration::from_secs)),
    }
}

#[test]
fn an_immediate_rejudges_judgement_starts_at_its_instant_and_ends_when_judged() {
    // Alice's WA at 10:00 queued again at 11:00 (record 7); bob submitted at 11:30.
    let bob = entry(2, "bob", "2026-03-01T11:30:00Z", Some(Verdict::WA));
    let later = t("2026-03-01T12:00:00Z");
    let s = |x: &str| x.to_string();
    let running = HashMap::from([(1, vec![immediate(7, "2026-03-01T11:00:00Z", None)])]);
    let judging = [entry(1, "alice", "2026-03-01T10:00:00Z", None), bob.clone()];
    let pending = log_rejudged(&judging, &running, false, Audience::Admin);
    let shown = pending.visible(later);
    // While it runs: the old judgement no longer current, the new one started, no end, no
    // verdict; the feed holds after it (bob's submission waits).
    assert_eq!(
        judgements(shown),
        vec![
            // The first judgement's own event no longer current either (as for a
            // rejudging), at the place a reader read it.
            (s("1"), s("1"), s("WA"), false),
            (s("1"), s("1"), s("WA"), false),
            (s("1-j7"), s("1"), s(""), true),
        ]
    );
    let new = shown.last().unwrap();
    assert_eq!(new.data["start_time"], "2026-03-01T11:00:00.000Z");
    assert_eq!(new.data["end_time"], Value::Null);
    assert_eq!(new.data["end_contest_time"], Value::Null);
    assert!(shown
        .iter()
        .all(|e| e.kind != "submissions" || e.id != Some(s("2"))));

    // Judged again (AC) in 3 s: the same judgement with its end and verdict, only after
    // what was shown, then bob.
    let done = HashMap::from([(1, vec![immediate(7, "2026-03-01T11:00:00Z", Some(3))])]);
    let judged = [
        entry(1, "alice", "2026-03-01T10:00:00Z", Some(Verdict::AC)),
        bob,
    ];
    let all = log_rejudged(&judged, &done, false, Audience::Admin);
    let all = all.visible(later);
    assert_eq!(tokens(&all[..shown.len()]), tokens(shown));
    assert_eq!(
        judgements(&all[shown.len()..]),
        vec![
            (s("1-j7"), s("1"), s("AC"), true),
            (s("2"), s("2"), s("WA"), true),
        ]
    );
    let end = &all[shown.len()];
    assert_eq!(end.data["start_time"], "2026-03-01T11:00:00.000Z");
    assert_eq!(end.data["end_time"], "2026-03-01T11:00:03.000Z");
    assert_eq!(end.data["end_contest_time"], "2:00:03.000");
}

#[test]
fn a_second_immediate_rejudge_at_the_same_instant_follows_the_first_ones_end() {
    // A contest clock that stood still: two rejudges of alice's submission at 11:00.
    let changes = vec![
        immediate(7, "2026-03-01T11:00:00Z", Some(2)),
        immediate(8, "2026-03-01T11:00:00Z", Some(1)),
    ];
    let judged = [entry(1, "alice", "2026-03-01T10:00:00Z", Some(Verdict::AC))];
    let log = log_rejudged(
        &judged,
        &HashMap::from([(1, changes)]),
        false,
        Audience::Admin,
    );
    let events = log.visible(t("2026-03-01T12:00:00Z"));
    let s = |x: &str| x.to_string();
    assert_eq!(
        judgements(events),
        vec![
            (s("1"), s("1"), s("WA"), false),
            (s("1"), s("1"), s("WA"), false),
            (s("1-j7"), s("1"), s(""), true),
            (s("1-j7"), s("1"), s("WA"), true),
            (s("1-j7"), s("1"), s("WA"), false),
            (s("1-j8"), s("1"), s(""), true),
            (s("1-j8"), s("1"), s("AC"), true),
        ]
    );
    let keys: Vec<Key> = events.iter().map(|e| e.key).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
}
