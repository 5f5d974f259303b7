//! Rejudgings ([`RejudgingStore`], [`RejudgeQueue`]) on both backends: started under the
//! bounds (one open per contest, `max_open` over all, nothing in scope refused), their runs
//! claimed after the submissions' queue and judged aside without touching the submissions,
//! a lapsed lease claimed again (the stale attempt dropped), applied (the results and test
//! rows become the submissions') or dropped (nothing changes).

use std::time::Duration;

use jiff::Timestamp;

use super::backends::{both, Backend};
use super::sample::{owned, report};
use crate::accounts::{Role, UserName};
use crate::judge::Verdict;
use crate::store::rejudgings::*;
use crate::store::*;

both!(a_rejudging_runs_aside_and_is_applied_or_dropped);

async fn contest_submission(s: &Store, owner: i64, contest: &str, label: &str) -> i64 {
    let new = NewContestSubmission::registered(
        owned(Some(owner)),
        contest,
        label,
        "2026-03-01T09:00:00Z".parse::<Timestamp>().unwrap(),
    );
    match s.enqueue_contest(new).await.unwrap() {
        ContestEnqueue::Stored(id) => id,
        other => panic!("not stored: {other:?}"),
    }
}

fn scope(contest: &str, label: Option<&str>, max_open: u32) -> NewRejudging {
    NewRejudging {
        contest: contest.into(),
        label: label.map(str::to_string),
        chosen: None,
        created_by: "boss".into(),
        max_open,
    }
}

async fn a_rejudging_runs_aside_and_is_applied_or_dropped(b: &Backend) {
    let s = b.node("n1", 300).await;
    let alice = s
        .add_users(&[NewUser {
            name: UserName::parse("alice").unwrap(),
            display_name: String::new(),
            role: Role::Contestant,
            password_hash: "$argon2id$stub".into(),
        }])
        .await
        .unwrap()[0];
    let a = contest_submission(&s, alice, "spring", "A").await;
    let b2 = contest_submission(&s, alice, "spring", "B").await;
    for _ in 0..2 {
        let c = s.claim("w").await.unwrap().unwrap();
        assert!(s
            .complete(c.id, c.attempt, &report(Verdict::AC, 2))
            .await
            .unwrap());
    }
    // Nothing judged in scope: nothing started.
    assert_eq!(
        s.create_rejudging(&scope("autumn", None, 4)).await.unwrap(),
        RejudgingCreated::Nothing
    );
    assert!(s.rejudgings(10).await.unwrap().is_empty());
    let RejudgingCreated::Created { id, runs } = s
        .create_rejudging(&scope("spring", Some("A"), 4))
        .await
        .unwrap()
    else {
        panic!("not started")
    };
    assert_eq!(runs, 1);
    assert_eq!(
        s.create_rejudging(&scope("spring", None, 4)).await.unwrap(),
        RejudgingCreated::Busy(id)
    );
    assert_eq!(
        s.create_rejudging(&scope("other", None, 1)).await.unwrap(),
        RejudgingCreated::TooMany(1)
    );

    // Claimed under a lease, aside from the submissions' queue.
    let first = s.claim_run("w").await.unwrap().unwrap();
    assert_eq!((first.submission, first.attempt), (a, 1));
    assert_eq!(s.claim("w").await.unwrap().map(|c| c.id), None);
    // The lease lapses: claimed again, and the first attempt's result is dropped.
    assert_eq!(
        s.claim_run("w").await.unwrap(),
        None,
        "its lease still runs"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let again = s.claim_run("w2").await.unwrap().unwrap();
    assert_eq!((again.submission, again.attempt), (a, 2));
    assert_eq!(again.contest.as_deref(), Some("spring"));
    assert!(!s
        .complete_run(again.run, 1, &report(Verdict::WA, 2))
        .await
        .unwrap());
    let r = s.rejudging(id).await.unwrap().unwrap();
    assert_eq!((r.state, r.total, r.judged), (RejudgingState::Open, 1, 0));
    assert_eq!(
        s.apply_rejudging(id, "boss", jiff::Timestamp::UNIX_EPOCH)
            .await
            .unwrap(),
        Closed::Unfinished(1)
    );
    assert!(s
        .complete_run(again.run, 2, &report(Verdict::WA, 3))
        .await
        .unwrap());

    // Judged aside: the submission keeps its result; the run shows both.
    let stored = s.get(a).await.unwrap().unwrap();
    assert_eq!((stored.verdict, stored.tests.len()), (Some(Verdict::AC), 2));
    let runs = s.rejudging_runs(id).await.unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(
        (runs[0].user.as_deref(), runs[0].label.as_deref()),
        (Some("alice"), Some("A"))
    );
    assert_eq!(
        (runs[0].old_verdict, runs[0].new_verdict, runs[0].judged),
        (Some(Verdict::AC), Some(Verdict::WA), true)
    );

    let version = s.contest_state("spring").await.unwrap().version;
    assert_eq!(
        s.apply_rejudging(id, "boss", jiff::Timestamp::UNIX_EPOCH)
            .await
            .unwrap(),
        Closed::Done {
            applied: 1,
            skipped: 0
        }
    );
    let applied = s.get(a).await.unwrap().unwrap();
    assert_eq!(
        (applied.verdict, applied.tests.len()),
        (Some(Verdict::WA), 3)
    );
    assert!(s.contest_state("spring").await.unwrap().version > version);
    assert_eq!(
        s.apply_rejudging(id, "boss", jiff::Timestamp::UNIX_EPOCH)
            .await
            .unwrap(),
        Closed::NotOpen(RejudgingState::Applied)
    );

    // Dropped: nothing changes, its waiting run is never claimed.
    let RejudgingCreated::Created { id: dropped, .. } = s
        .create_rejudging(&scope("spring", Some("B"), 4))
        .await
        .unwrap()
    else {
        panic!("not started")
    };
    assert_eq!(
        s.cancel_rejudging(dropped, "boss").await.unwrap(),
        Closed::Done {
            applied: 0,
            skipped: 0
        }
    );
    assert_eq!(s.claim_run("w").await.unwrap(), None);
    assert_eq!(s.get(b2).await.unwrap().unwrap().verdict, Some(Verdict::AC));
    let list = s.rejudgings(10).await.unwrap();
    assert_eq!(
        list.iter().map(|r| (r.id, r.state)).collect::<Vec<_>>(),
        [
            (dropped, RejudgingState::Cancelled),
            (id, RejudgingState::Applied)
        ]
    );
    assert_eq!(list[0].closed_by.as_deref(), Some("boss"));
    assert_eq!(
        s.cancel_rejudging(999, "boss").await.unwrap(),
        Closed::NotFound
    );
}
