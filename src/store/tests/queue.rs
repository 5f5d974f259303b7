//! Store tests, each run on a SQLite file and on a PostgreSQL database (see `backends.rs`).

use super::backends::{both, Backend};
use super::sample::contestants;
use super::sample::{complete, report, submission as new};
use super::upgrade::old_sqlite;
use crate::judge::Verdict;
use crate::store::*;

both!(
    creates_the_store_and_claims_oldest_first_exactly_once,
    concurrent_claims_never_hand_out_a_submission_twice,
    complete_stores_results_and_stale_attempts_are_ignored,
    rejudge_replaces_old_results,
    released_submissions_keep_their_place_in_the_queue,
    list_is_newest_first_with_filters,
    data_survives_reopening,
    a_submission_the_daemon_dies_on_every_time_ends_as_se_after_the_bound,
    a_full_queue_stores_nothing,
    one_users_queue_is_bounded_and_an_admin_cancels_it,
    depths_count_each_status,
);

async fn depths_count_each_status(b: &Backend) {
    let s = b.open().await;
    for _ in 0..3 {
        s.enqueue(new("p")).await.unwrap();
    }
    s.claim("w").await.unwrap().unwrap();
    let claimed = s.claim("w").await.unwrap().unwrap();
    s.mark_running(claimed.id, claimed.attempt).await.unwrap();
    assert_eq!(
        s.depth_by_status().await.unwrap(),
        vec![
            (Status::Queued, 1),
            (Status::Compiling, 1),
            (Status::Running, 1)
        ]
    );
}

async fn a_full_queue_stores_nothing(b: &Backend) {
    let s = b.open().await;
    let three = QueueBounds::global(3);
    let mut outcomes = Vec::new();
    for _ in 0..4 {
        outcomes.push(s.enqueue_bounded(new("sudoku"), three).await.unwrap());
    }
    assert!(
        outcomes[..3].iter().all(|e| e.id().is_some()),
        "{outcomes:?}"
    );
    assert_eq!(outcomes[3], Enqueued::QueueFull);
    assert_eq!(s.depth().await.unwrap(), 3);
    // A claim makes room.
    s.claim("w0").await.unwrap().unwrap();
    let again = s.enqueue_bounded(new("sudoku"), three).await.unwrap();
    assert!(again.id().is_some(), "{again:?}");
    assert_eq!(s.list(None, 10, None).await.unwrap().len(), 4);
}

/// Whether `s` stores `new` under `bounds`.
async fn stores(s: &Store, new: NewSubmission, bounds: QueueBounds) -> bool {
    s.enqueue_bounded(new, bounds).await.unwrap().id().is_some()
}

fn owned(problem: &str, owner: i64) -> NewSubmission {
    NewSubmission {
        owner: Some(owner),
        ..new(problem)
    }
}

async fn one_users_queue_is_bounded_and_an_admin_cancels_it(b: &Backend) {
    let s = b.open().await;
    let ids = contestants(&s, &["mallory", "alice"]).await;
    let (mallory, alice) = (ids[0], ids[1]);
    let bounds = QueueBounds {
        max_queued: 6,
        per_user: Some(3),
    };
    // Ten at once from one user: exactly three stored (counted in the insert's transaction).
    let tries: Vec<_> = (0..10)
        .map(|_| {
            let s = s.clone();
            tokio::spawn(async move { s.enqueue_bounded(owned("sudoku", mallory), bounds).await })
        })
        .collect();
    let mut answers = Vec::new();
    for t in tries {
        answers.push(t.await.unwrap().unwrap());
    }
    let flood: Vec<i64> = answers.iter().filter_map(|a| a.id()).collect();
    assert_eq!(flood.len(), 3, "{answers:?}");
    assert!(answers
        .iter()
        .all(|a| a.id().is_some() || *a == Enqueued::OwnerFull));
    // Another user still gets in; the global bound still holds (the owner's first).
    for _ in 0..3 {
        assert!(stores(&s, owned("sudoku", alice), bounds).await);
    }
    assert_eq!(
        s.enqueue_bounded(owned("sudoku", alice), bounds)
            .await
            .unwrap(),
        Enqueued::OwnerFull
    );
    let unbounded = QueueBounds::global(6);
    assert_eq!(
        s.enqueue_bounded(owned("sudoku", alice), unbounded)
            .await
            .unwrap(),
        Enqueued::QueueFull
    );
    assert_eq!(
        s.queued_by_owner(10).await.unwrap(),
        vec![("alice".to_string(), 3), ("mallory".to_string(), 3)]
    );

    // One of mallory's is being judged; the admin cancels her queue.
    // (The fair claim takes the oldest of the owners with nothing in flight: mallory's.)
    let judging = s.claim("w0").await.unwrap().unwrap();
    assert!(flood.contains(&judging.id));
    assert_eq!(s.cancel_queued(mallory).await.unwrap(), 2);
    assert_eq!(
        s.cancel_queued(mallory).await.unwrap(),
        0,
        "nothing left to cancel"
    );
    for id in &flood {
        let got = s.get(*id).await.unwrap().unwrap();
        if *id == judging.id {
            assert_eq!(
                got.status,
                Status::Compiling,
                "the one being judged finishes"
            );
        } else {
            assert_eq!(
                (got.status, got.verdict, got.tests.len()),
                (Status::Cancelled, None, 0)
            );
            assert!(got.finished_at.is_some(), "{got:?}");
            assert!(got.status.is_final());
            // Final: never queued again, not even by a rejudge.
            assert_eq!(s.rejudge(*id).await.unwrap(), RejudgeOutcome::Cancelled);
        }
    }
    assert!(complete(&s, (judging.id, judging.attempt), Verdict::AC, 1).await);
    // The workers never claim a cancelled one: only alice's are left.
    let mut claimed = Vec::new();
    while let Some(c) = s.claim("w1").await.unwrap() {
        claimed.push(c.id);
    }
    assert_eq!(claimed.len(), 3);
    assert!(claimed.iter().all(|id| !flood.contains(id)));
    assert_eq!(s.depth().await.unwrap(), 0);
    assert_eq!(s.queued_by_owner(10).await.unwrap(), vec![]);
    // Mallory's bound counts queued submissions only: she may submit again.
    assert!(stores(&s, owned("sudoku", mallory), bounds).await);
}

async fn creates_the_store_and_claims_oldest_first_exactly_once(b: &Backend) {
    let s = b.open().await;
    if let Backend::Sqlite(_, path) = b {
        assert!(path.exists());
    }
    let a = s.enqueue(new("sudoku")).await.unwrap();
    let b = s.enqueue(new("sudoku")).await.unwrap();
    assert_eq!(s.depth().await.unwrap(), 2);
    assert_eq!(s.claim("w0").await.unwrap().unwrap().id, a);
    assert_eq!(s.claim("w1").await.unwrap().unwrap().id, b);
    assert!(s.claim("w0").await.unwrap().is_none());
    assert_eq!(s.get(a).await.unwrap().unwrap().status, Status::Compiling);
}

async fn concurrent_claims_never_hand_out_a_submission_twice(b: &Backend) {
    let s = b.open().await;
    for _ in 0..40 {
        s.enqueue(new("sudoku")).await.unwrap();
    }
    // Eight claimers on three nodes (stores of their own, as on three machines).
    let mut tasks = Vec::new();
    for w in 0..8 {
        let s = b.node(&format!("n{}", w % 3), 30_000).await;
        tasks.push(tokio::spawn(async move {
            let mut got = Vec::new();
            while let Some(c) = s.claim(&format!("w{w}")).await.unwrap() {
                got.push(c.id);
            }
            got
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    assert_eq!(all.len(), 40, "every claim is of a different submission");
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 40);
    assert_eq!(s.depth().await.unwrap(), 0);
}

async fn complete_stores_results_and_stale_attempts_are_ignored(b: &Backend) {
    let s = b.open().await;
    let id = s.enqueue(new("sudoku")).await.unwrap();
    let first = s.claim("w0").await.unwrap().unwrap();
    s.mark_running(id, first.attempt).await.unwrap();
    assert_eq!(s.get(id).await.unwrap().unwrap().status, Status::Running);
    // A crash: the daemon starts again (a new instance of the node), its old claim goes
    // stale and the submission is claimed again.
    let s = b.open().await;
    assert_eq!(
        s.requeue_stale(3).await.unwrap(),
        StaleOutcome {
            requeued: 1,
            failed: 0
        }
    );
    let second = s.claim("w1").await.unwrap().unwrap();
    assert!(second.attempt > first.attempt);
    assert!(!complete(&s, (id, first.attempt), Verdict::WA, 2).await);
    assert!(complete(&s, (id, second.attempt), Verdict::AC, 3).await);
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(got.status, Status::Done);
    assert_eq!(got.verdict, Some(Verdict::AC));
    assert_eq!(got.score, Some(100));
    assert_eq!(got.tests.len(), 3);
    assert_eq!(got.tests[2].name, "secret/2");
    assert_eq!(got.time_ms, Some(2));
    assert_eq!(got.source.as_deref(), Some("int main(){}"));
}

async fn rejudge_replaces_old_results(b: &Backend) {
    let s = b.open().await;
    let id = s.enqueue(new("sudoku")).await.unwrap();
    assert_eq!(s.rejudge(id).await.unwrap(), RejudgeOutcome::AlreadyQueued);
    let c = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(s.rejudge(id).await.unwrap(), RejudgeOutcome::InProgress);
    s.complete(id, c.attempt, &report(Verdict::WA, 4))
        .await
        .unwrap();
    assert_eq!(s.rejudge(id).await.unwrap(), RejudgeOutcome::Requeued);
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(
        (got.status, got.verdict, got.tests.len()),
        (Status::Queued, None, 0)
    );
    let c = s.claim("w0").await.unwrap().unwrap();
    s.complete(id, c.attempt, &report(Verdict::AC, 2))
        .await
        .unwrap();
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!((got.verdict, got.tests.len()), (Some(Verdict::AC), 2));
    assert_eq!(s.rejudge(999).await.unwrap(), RejudgeOutcome::NotFound);
}

async fn released_submissions_keep_their_place_in_the_queue(b: &Backend) {
    let s = b.open().await;
    let a = s.enqueue(new("sudoku")).await.unwrap();
    let c = s.claim("w0").await.unwrap().unwrap();
    let _b = s.enqueue(new("sudoku")).await.unwrap();
    s.release(a, c.attempt).await.unwrap();
    assert_eq!(s.claim("w0").await.unwrap().unwrap().id, a);
}

async fn list_is_newest_first_with_filters(b: &Backend) {
    let s = b.open().await;
    let mut ids = Vec::new();
    for p in ["sudoku", "binary-sudoku", "sudoku", "sudoku"] {
        ids.push(s.enqueue(new(p)).await.unwrap());
    }
    let all = s.list(None, 10, None).await.unwrap();
    assert_eq!(
        all.iter().map(|x| x.id).collect::<Vec<_>>(),
        [ids[3], ids[2], ids[1], ids[0]]
    );
    assert!(all[0].source.is_none());
    let sudoku = s.list(Some("sudoku"), 2, None).await.unwrap();
    assert_eq!(
        sudoku.iter().map(|x| x.id).collect::<Vec<_>>(),
        [ids[3], ids[2]]
    );
    let older = s.list(Some("sudoku"), 10, Some(ids[2])).await.unwrap();
    assert_eq!(older.iter().map(|x| x.id).collect::<Vec<_>>(), [ids[0]]);
}

async fn data_survives_reopening(b: &Backend) {
    let id = {
        let s = b.open().await;
        s.enqueue(new("sudoku")).await.unwrap()
    };
    let s = b.open().await;
    assert_eq!(s.get(id).await.unwrap().unwrap().status, Status::Queued);
}

async fn a_submission_the_daemon_dies_on_every_time_ends_as_se_after_the_bound(b: &Backend) {
    let mut s = b.open().await;
    let id = s.enqueue(new("sudoku")).await.unwrap();
    // Claimed, then the daemon dies (the submission stays `running`), three times.
    for attempt in 1..=3 {
        let claimed = s.claim("w0").await.unwrap().unwrap();
        assert_eq!((claimed.id, claimed.attempt), (id, attempt));
        s.mark_running(id, claimed.attempt).await.unwrap();
        // The daemon dies and starts again: a new instance of the same node.
        s = b.open().await;
        let outcome = s.requeue_stale(3).await.unwrap();
        let expected = match attempt {
            3 => StaleOutcome {
                requeued: 0,
                failed: 1,
            },
            _ => StaleOutcome {
                requeued: 1,
                failed: 0,
            },
        };
        assert_eq!(outcome, expected, "attempt {attempt}");
    }
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(got.status, Status::Done);
    assert_eq!(got.verdict, Some(Verdict::SE));
    assert!(got.message.unwrap().contains("3 times"));
    assert!(s.claim("w0").await.unwrap().is_none());
}

/// Migration 0008 rebuilds the SQLite submissions table (a new status, `cancelled`): a
/// database made by migrations 0001-0007, with submissions and test results, keeps every row,
/// every result, its id sequence and its contest triggers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cancelled_status_migration_keeps_every_row_and_result() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let mut rows = Vec::new();
    for i in 1..=3 {
        rows.push(format!(
            "INSERT INTO submissions (problem, language, source, status, verdict, score,
                                      contest, label, submitted_at)
             VALUES ('sudoku', 'c', 'int main(){{return {i};}}', 'done', 'WA', 0, 'spring', 'A',
                     '2026-03-01T09:00:00.000Z')"
        ));
        rows.push(format!(
            "INSERT INTO test_results (submission_id, ordinal, name, verdict, time_ms,
                                       wall_ms, memory_kib)
             VALUES ({i}, 0, 'secret/1', 'WA', 1, 2, 3)"
        ));
    }
    // The last one is gone: ids must not be reused after the rebuild.
    rows.push("DELETE FROM submissions WHERE id = 3".to_string());
    old_sqlite(&path, 7, &rows).await;
    let sqlite = SqliteStore::open(&path).await.unwrap();
    let writer = sqlite.writer.clone();
    let s = Store::Sqlite(sqlite);
    for id in [1, 2] {
        let got = s.get(id).await.unwrap().unwrap();
        assert_eq!(
            (
                got.status,
                got.verdict,
                got.tests.len(),
                got.contest.as_deref()
            ),
            (Status::Done, Some(Verdict::WA), 1, Some("spring"))
        );
        assert_eq!(got.tests[0].name, "secret/1");
    }
    assert!(s.get(3).await.unwrap().is_none());
    assert_eq!(
        s.enqueue(new("sudoku")).await.unwrap(),
        4,
        "the id sequence goes on"
    );
    // The contest triggers are back: a contest submission bumps the board's version.
    let before = s.contest_state("spring").await.unwrap().version;
    sqlx::query("UPDATE submissions SET score = 100 WHERE id = 1")
        .execute(&writer)
        .await
        .unwrap();
    assert_eq!(s.contest_state("spring").await.unwrap().version, before + 1);
    // Results still go with their submission.
    sqlx::query("DELETE FROM submissions WHERE id = 2")
        .execute(&writer)
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM test_results")
        .fetch_one(&writer)
        .await
        .unwrap();
    assert_eq!(left, 1);
}
