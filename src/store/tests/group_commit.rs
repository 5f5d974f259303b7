//! Concurrent bounded inserts (PostgreSQL: batched by the group commit, `sql/group_commit.rs`;
//! SQLite: one by one): each request gets its own id, or its own error when its row fails,
//! and the bounds hold inside a batch.

use std::sync::Arc;

use super::backends::{both, Backend};
use super::sample::contestants;
use crate::store::*;

both!(
    concurrent_submissions_each_get_their_own_id_or_their_own_error,
    an_owners_bound_holds_among_concurrent_submissions,
    several_owners_submissions_each_keep_their_own_id_and_owner,
    the_queues_bound_holds_among_concurrent_submissions,
);

fn submission(owner: Option<i64>, i: usize) -> NewSubmission {
    NewSubmission {
        data_hash: None,
        problem: "sudoku".into(),
        language: "c".into(),
        source: format!("int main(){{return {i};}}"),
        owner,
    }
}

async fn one_user(s: &Store) -> i64 {
    contestants(s, &["alice"]).await[0]
}

/// Forty at once, one of them owned by a user who does not exist (its row breaks the foreign
/// key): that one fails alone, the others are stored, each under an id of its own that
/// holds its own source.
async fn concurrent_submissions_each_get_their_own_id_or_their_own_error(b: &Backend) {
    let s = Arc::new(b.open().await);
    let alice = one_user(&s).await;
    let mut tasks = Vec::new();
    for i in 0..40 {
        let s = s.clone();
        let owner = if i == 17 { Some(424_242) } else { Some(alice) };
        tasks.push(tokio::spawn(async move {
            let bounds = QueueBounds::global(1000);
            (i, s.enqueue_bounded(submission(owner, i), bounds).await)
        }));
    }
    let mut ids = Vec::new();
    for task in tasks {
        let (i, outcome) = task.await.unwrap();
        if i == 17 {
            assert!(outcome.is_err(), "the broken row: {outcome:?}");
            continue;
        }
        let Ok(Enqueued::Stored(id)) = outcome else {
            panic!("submission {i}: {outcome:?}");
        };
        let stored = s.get(id).await.unwrap().unwrap();
        assert_eq!(stored.source, Some(format!("int main(){{return {i};}}")));
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 39);
    assert_eq!(s.depth().await.unwrap(), 39);
}

/// Thirty of one owner's at once under a bound of 3: three stored, the rest refused as the
/// owner's, whichever batches they share.
async fn an_owners_bound_holds_among_concurrent_submissions(b: &Backend) {
    let s = Arc::new(b.open().await);
    let alice = one_user(&s).await;
    let mut tasks = Vec::new();
    for i in 0..30 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let bounds = QueueBounds {
                max_queued: 1000,
                per_user: Some(3),
            };
            s.enqueue_bounded(submission(Some(alice), i), bounds).await
        }));
    }
    let (mut stored, mut refused) = (0, 0);
    for task in tasks {
        match task.await.unwrap().unwrap() {
            Enqueued::Stored(_) => stored += 1,
            Enqueued::OwnerFull => refused += 1,
            Enqueued::QueueFull => panic!("the queue is not full"),
        }
    }
    assert_eq!((stored, refused), (3, 27));
    assert_eq!(s.depth().await.unwrap(), 3);
}

/// Forty at once from three owners (two users, some bounded, and the open mode's none), as a
/// batch sorted by owner stores them: each id holds its own source and owner.
async fn several_owners_submissions_each_keep_their_own_id_and_owner(b: &Backend) {
    let s = Arc::new(b.open().await);
    let owners = contestants(&s, &["alice", "bob"]).await;
    let mut tasks = Vec::new();
    for i in 0..40 {
        let s = s.clone();
        let owner = [Some(owners[1]), None, Some(owners[0])][i % 3];
        tasks.push(tokio::spawn(async move {
            let bounds = QueueBounds {
                max_queued: 1000,
                per_user: (i % 2 == 0).then_some(100),
            };
            (
                i,
                owner,
                s.enqueue_bounded(submission(owner, i), bounds).await,
            )
        }));
    }
    for task in tasks {
        let (i, owner, outcome) = task.await.unwrap();
        let Ok(Enqueued::Stored(id)) = outcome else {
            panic!("submission {i}: {outcome:?}");
        };
        let stored = s.get(id).await.unwrap().unwrap();
        assert_eq!(
            (stored.source, stored.owner),
            (Some(format!("int main(){{return {i};}}")), owner),
            "submission {i}, id {id}"
        );
    }
    assert_eq!(s.depth().await.unwrap(), 40);
}

/// Forty at once under a queue bound of 25 (nothing queued before): 25 stored, 15 refused as
/// the queue's, whichever batches they share.
async fn the_queues_bound_holds_among_concurrent_submissions(b: &Backend) {
    let s = Arc::new(b.open().await);
    let alice = one_user(&s).await;
    let mut tasks = Vec::new();
    for i in 0..40 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let bounds = QueueBounds {
                max_queued: 25,
                per_user: Some(100),
            };
            s.enqueue_bounded(submission(Some(alice), i), bounds).await
        }));
    }
    let (mut stored, mut refused) = (0, 0);
    for task in tasks {
        match task.await.unwrap().unwrap() {
            Enqueued::Stored(_) => stored += 1,
            Enqueued::QueueFull => refused += 1,
            Enqueued::OwnerFull => panic!("the owner's bound is 100"),
        }
    }
    assert_eq!((stored, refused), (25, 15));
    assert_eq!(s.depth().await.unwrap(), 25);
}
