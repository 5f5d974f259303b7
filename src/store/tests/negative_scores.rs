//! A scoring problem's score below 0 (a package's range may go there) is stored and read back
//! as it is, on both backends: on the submission, on the board's rows and on a rejudging's
//! runs, old and new, and applied.

use jiff::Timestamp;

use super::backends::{both, Backend};
use super::sample::report;
use crate::accounts::{Role, UserName};
use crate::judge::{JudgeReport, Points, Verdict};
use crate::store::rejudgings::*;
use crate::store::*;

both!(negative_scores_round_trip);

fn scored(verdict: Verdict, points: f64) -> JudgeReport {
    let mut r = report(verdict, 2);
    r.points = Some(Points(points));
    r.score = Points(points).whole();
    r
}

async fn negative_scores_round_trip(b: &Backend) {
    let s = b.open().await;
    let alice = s
        .add_users(&[NewUser {
            name: UserName::parse("alice").unwrap(),
            display_name: String::new(),
            role: Role::Contestant,
            password_hash: "$argon2id$stub".into(),
        }])
        .await
        .unwrap()[0];
    let new = NewContestSubmission::registered(
        NewSubmission {
            problem: "negsum".into(),
            language: "python".into(),
            source: "print(0)".into(),
            owner: Some(alice),
            data_hash: None,
        },
        "below",
        "A",
        "2026-03-01T09:00:00Z".parse::<Timestamp>().unwrap(),
    );
    let ContestEnqueue::Stored(id) = s.enqueue_contest(new).await.unwrap() else {
        panic!("not stored")
    };
    let c = s.claim("w").await.unwrap().unwrap();
    assert!(s
        .complete(c.id, c.attempt, &scored(Verdict::WA, -7.0))
        .await
        .unwrap());
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!((got.verdict, got.score), (Some(Verdict::WA), Some(-7)));
    let board = s.board_data("below").await.unwrap();
    assert_eq!(board.submissions[0].score, Some(-7), "{board:?}");

    // A rejudging keeps both scores below 0, and applying it stores the new one.
    let RejudgingCreated::Created { id: rj, .. } = s
        .create_rejudging(&NewRejudging {
            contest: "below".into(),
            label: None,
            chosen: None,
            created_by: "boss".into(),
            max_open: 4,
        })
        .await
        .unwrap()
    else {
        panic!("not started")
    };
    let run = s.claim_run("w").await.unwrap().unwrap();
    assert!(s
        .complete_run(run.run, run.attempt, &scored(Verdict::WA, -12.4))
        .await
        .unwrap());
    let runs = s.rejudging_runs(rj).await.unwrap();
    assert_eq!(
        (runs[0].old_score, runs[0].new_score),
        (Some(-7), Some(-12))
    );
    assert!(matches!(
        s.apply_rejudging(rj, "boss", Timestamp::UNIX_EPOCH)
            .await
            .unwrap(),
        Closed::Done { applied: 1, .. }
    ));
    assert_eq!(s.get(id).await.unwrap().unwrap().score, Some(-12));
    assert_eq!(
        s.board_data("below").await.unwrap().submissions[0].score,
        Some(-12)
    );
}
