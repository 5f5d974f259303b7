//! Immediate rejudges that keep what they replace (`JudgingStore`), on a SQLite file and on
//! a PostgreSQL database (`both!`).

use jiff::{SignedDuration, Timestamp};

use super::backends::{both, Backend};
use super::sample::{contestants, owned, report};
use crate::judge::Verdict;
use crate::store::contests::db_time;
use crate::store::*;

both!(an_immediate_rejudge_keeps_a_judged_contest_submissions_result,);

fn at(secs: i64) -> Timestamp {
    "2026-03-01T09:00:00Z".parse::<Timestamp>().unwrap() + SignedDuration::from_secs(secs)
}

/// Claims the next submission, which must be `id`, and stores `verdict` for it.
async fn judge(s: &Store, id: i64, verdict: Verdict) {
    let claimed = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(claimed.id, id);
    assert!(s
        .complete(id, claimed.attempt, &report(verdict, 0))
        .await
        .unwrap());
}

fn kept(r: &ImmediateRejudge) -> (i64, &str, &str) {
    (r.submission_id, r.old_verdict.as_str(), r.clock.as_str())
}

/// Alice and her submission to contest `spring` at 09:01, judged WA.
async fn judged_wa(s: &Store) -> (i64, i64) {
    let alice = contestants(s, &["alice"]).await[0];
    let new = NewContestSubmission::registered(owned(Some(alice)), "spring", "A", at(60));
    let enqueued = s.enqueue_contest(new).await.unwrap();
    let ContestEnqueue::Stored(id) = enqueued else {
        panic!("{enqueued:?}")
    };
    judge(s, id, Verdict::WA).await;
    (alice, id)
}

async fn an_immediate_rejudge_keeps_a_judged_contest_submissions_result(b: &Backend) {
    let s = b.open().await;
    let (alice, id) = judged_wa(&s).await;
    let plain = s.enqueue(owned(Some(alice))).await.unwrap();
    judge(&s, plain, Verdict::WA).await;

    // Queued again at 09:10 on the contest clock: its WA kept with that instant.
    assert_eq!(
        s.rejudge_kept(id, at(600)).await.unwrap(),
        RejudgeOutcome::Requeued
    );
    let ten = db_time(at(600));
    let rows = s.immediate_rejudges("spring").await.unwrap();
    assert_eq!(
        rows.iter().map(kept).collect::<Vec<_>>(),
        [(id, "WA", ten.as_str())]
    );
    // Nothing kept for a submission that has no result (still queued), nor outside contests.
    assert_eq!(
        s.rejudge_kept(id, at(700)).await.unwrap(),
        RejudgeOutcome::AlreadyQueued
    );
    judge(&s, id, Verdict::AC).await;
    assert_eq!(
        s.rejudge_kept(plain, at(700)).await.unwrap(),
        RejudgeOutcome::Requeued
    );
    judge(&s, plain, Verdict::AC).await;
    assert_eq!(s.immediate_rejudges("spring").await.unwrap().len(), 1);

    // The problem queued again at 09:15: its AC kept, after the first.
    let count = s.rejudge_label_kept("spring", "A", at(900)).await.unwrap();
    assert_eq!(count.requeued, 1);
    let fifteen = db_time(at(900));
    let rows = s.immediate_rejudges("spring").await.unwrap();
    assert_eq!(
        rows.iter().map(kept).collect::<Vec<_>>(),
        [(id, "WA", ten.as_str()), (id, "AC", fifteen.as_str())]
    );
    assert!(rows[0].id < rows[1].id);
    assert_eq!(rows[1].old_score, Some(report(Verdict::AC, 0).score));
    // The plain rejudges keep nothing, and another contest has none.
    judge(&s, id, Verdict::AC).await;
    s.rejudge(id).await.unwrap();
    assert_eq!(s.immediate_rejudges("spring").await.unwrap().len(), 2);
    assert!(s.immediate_rejudges("autumn").await.unwrap().is_empty());
}

both!(an_immediate_rejudge_keeps_when_its_new_judging_started_and_ended,);

async fn an_immediate_rejudge_keeps_when_its_new_judging_started_and_ended(b: &Backend) {
    let s = b.open().await;
    let (_, id) = judged_wa(&s).await;
    let wall = |w: &Option<String>| w.as_deref().map(|w| w.parse::<Timestamp>().unwrap());
    s.rejudge_kept(id, at(600)).await.unwrap();
    let rows = s.immediate_rejudges("spring").await.unwrap();
    let queued = wall(&rows[0].queued_wall).expect("the rejudge's instant");
    assert_eq!(rows[0].ended_wall, None, "judging again");
    // A claim and a release (shutdown) do not end it; the stored result does.
    let claimed = s.claim("w0").await.unwrap().unwrap();
    s.release(id, claimed.attempt).await.unwrap();
    assert_eq!(
        s.immediate_rejudges("spring").await.unwrap()[0].ended_wall,
        None
    );
    judge(&s, id, Verdict::AC).await;
    let rows = s.immediate_rejudges("spring").await.unwrap();
    let ended = wall(&rows[0].ended_wall).expect("the end of the new judging");
    assert!(ended >= queued, "{ended} before {queued}");

    // A second rejudge: the first keeps its end, the second runs.
    s.rejudge_label_kept("spring", "A", at(900)).await.unwrap();
    let rows = s.immediate_rejudges("spring").await.unwrap();
    assert_eq!(wall(&rows[0].ended_wall), Some(ended));
    assert!(wall(&rows[1].queued_wall).unwrap() >= ended);
    assert_eq!(rows[1].ended_wall, None);
    judge(&s, id, Verdict::WA).await;
    let rows = s.immediate_rejudges("spring").await.unwrap();
    assert_eq!(wall(&rows[0].ended_wall), Some(ended));
    assert!(wall(&rows[1].ended_wall).is_some());
}
