//! Deleting a contest made at runtime (`ContestRemovalStore`), on a SQLite file and on a
//! PostgreSQL database (`both!`): the tombstone keeps the definitions' version growing, the
//! id is free again, what belongs to the contest goes with it, a contest with a submission
//! stays whole.

use jiff::{SignedDuration, Timestamp};

use super::backends::{both, Backend};
use super::sample::{contestants, owned};
use crate::store::*;

both!(a_contest_nobody_used_is_deleted_and_the_version_keeps_growing,);

fn at(secs: i64) -> Timestamp {
    "2026-03-01T09:00:00Z".parse::<Timestamp>().unwrap() + SignedDuration::from_secs(secs)
}

const TEXT: &str = "title = \"t\"\nformat = \"icpc\"\n";

async fn a_contest_nobody_used_is_deleted_and_the_version_keeps_growing(b: &Backend) {
    let s = b.open().await;
    let alice = contestants(&s, &["alice"]).await[0];
    for id in ["a", "b"] {
        let made = s.create_contest_def(id, TEXT, at(0), 10).await.unwrap();
        assert_eq!(made, Some(DefWrite::Stored(1)));
    }
    s.start_participation("b", alice, at(10)).await.unwrap();
    s.add_clarification(
        NewClarification {
            contest: "b".into(),
            author: None,
            label: None,
            question: None,
            answer: Some("Welcome.".into()),
            public: true,
            at: at(10),
        },
        None,
    )
    .await
    .unwrap();
    let board = s.contest_state("b").await.unwrap().version;
    assert_eq!(s.defs_version().await.unwrap(), 2);

    // b deleted: its tombstone at revision 2, the version at 3 (not 1); what it had gone.
    assert_eq!(
        s.delete_contest_def("b", at(20)).await.unwrap(),
        DefDelete::Deleted(2)
    );
    assert_eq!(s.defs_version().await.unwrap(), 3);
    let stored = s.contest_defs().await.unwrap();
    let b_row = stored.iter().find(|c| c.id == "b").unwrap();
    assert_eq!((b_row.definition.as_str(), b_row.revision), ("", 2));
    assert_eq!(s.participation("b", alice).await.unwrap(), None);
    let page = ClarificationPage {
        after: None,
        before: None,
        limit: 10,
        newest_first: false,
    };
    assert!(s.clarifications("b", None, page).await.unwrap().is_empty());
    assert!(s.contest_state("b").await.unwrap().version > board);
    // Once only; an unknown id neither.
    assert_eq!(
        s.delete_contest_def("b", at(30)).await.unwrap(),
        DefDelete::Missing
    );
    assert_eq!(
        s.delete_contest_def("zz", at(30)).await.unwrap(),
        DefDelete::Missing
    );
    // An edit of the tombstone is refused as missing; the tombstone counts for no maximum.
    assert_eq!(
        s.update_contest_def("b", TEXT, 2, at(30)).await.unwrap(),
        DefWrite::Missing
    );
    assert_eq!(
        s.create_contest_def("c", TEXT, at(30), 2).await.unwrap(),
        Some(DefWrite::Stored(1))
    );
    assert_eq!(
        s.create_contest_def("d", TEXT, at(30), 2).await.unwrap(),
        None
    );
    // Made again over its tombstone: revision 3, the version still growing.
    assert_eq!(
        s.create_contest_def("b", TEXT, at(40), 10).await.unwrap(),
        Some(DefWrite::Stored(3))
    );
    assert_eq!(s.defs_version().await.unwrap(), 5);
    assert_eq!(
        s.create_contest_def("b", TEXT, at(40), 10).await.unwrap(),
        Some(DefWrite::Missing),
        "a live contest's id stays taken"
    );

    // A contest with a submission stays whole.
    let enqueued = s
        .enqueue_contest(NewContestSubmission::registered(
            owned(Some(alice)),
            "a",
            "A",
            at(50),
        ))
        .await
        .unwrap();
    assert!(
        matches!(enqueued, ContestEnqueue::Stored(_)),
        "{enqueued:?}"
    );
    assert_eq!(
        s.delete_contest_def("a", at(60)).await.unwrap(),
        DefDelete::HasSubmissions(1)
    );
    assert_eq!(s.defs_version().await.unwrap(), 5);
    assert!(s.participation("a", alice).await.unwrap().is_some());
}
