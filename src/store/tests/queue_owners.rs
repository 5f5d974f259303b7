//! The per-owner counts the fair claim reads (`queue_owners`, kept by triggers): after any mix
//! of the queue's writes (enqueue, bounded and contest enqueue, claim, running, completion,
//! release, rejudge, contest rejudge, cancel, start-up sweep, lease expiry with
//! `max_attempts`), they equal a recount of the rows, on both backends; and a database made
//! before the counts existed gets them from its rows when it upgrades.

use proptest::prelude::*;

use super::backends::Backend;
use super::sample::{numbered_contestants, runtime};
use super::sample::{owned, report};
use super::upgrade::{old_postgres, old_sqlite};
use crate::judge::Verdict;
use crate::store::*;

/// The counts as stored, and as recounted from the rows: (owner, queued, in flight), owners
/// with neither left out.
const STORED: &str = "SELECT owner, queued, in_flight FROM queue_owners
                      WHERE queued <> 0 OR in_flight <> 0 ORDER BY owner";
const RECOUNT: &str = "SELECT COALESCE(user_id, 0),
         CAST(SUM(CASE WHEN status = 'queued' THEN 1 ELSE 0 END) AS BIGINT),
         CAST(SUM(CASE WHEN status IN ('compiling', 'running') THEN 1 ELSE 0 END) AS BIGINT)
     FROM submissions WHERE status IN ('queued', 'compiling', 'running')
     GROUP BY COALESCE(user_id, 0) ORDER BY 1";

type Counts = Vec<(i64, i64, i64)>;

/// (stored, recounted).
async fn counts(s: &Store) -> (Counts, Counts) {
    match s {
        Store::Sqlite(db) => (
            sqlx::query_as(STORED).fetch_all(&db.writer).await.unwrap(),
            sqlx::query_as(RECOUNT).fetch_all(&db.writer).await.unwrap(),
        ),
        Store::Postgres(db) => (
            sqlx::query_as(STORED).fetch_all(&db.pool).await.unwrap(),
            sqlx::query_as(RECOUNT).fetch_all(&db.pool).await.unwrap(),
        ),
    }
}

/// One write of a random run; `usize`s pick a user (`users` is no owner) or a submission.
#[derive(Debug, Clone)]
enum Op {
    Submit(usize),
    SubmitBounded(usize),
    SubmitToContest(usize),
    Claim,
    Running(usize),
    Finish(usize),
    Release(usize),
    Rejudge(usize),
    RejudgeContest,
    Cancel(usize),
    Sweep,
    Expire,
}

fn ops(users: usize) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        3 => (0..=users).prop_map(Op::Submit),
        1 => (0..=users).prop_map(Op::SubmitBounded),
        2 => (0..=users).prop_map(Op::SubmitToContest),
        4 => Just(Op::Claim),
        1 => any::<usize>().prop_map(Op::Running),
        2 => any::<usize>().prop_map(Op::Finish),
        1 => any::<usize>().prop_map(Op::Release),
        1 => any::<usize>().prop_map(Op::Rejudge),
        1 => Just(Op::RejudgeContest),
        1 => (0..users).prop_map(Op::Cancel),
        1 => Just(Op::Sweep),
        1 => Just(Op::Expire),
    ];
    prop::collection::vec(op, 1..50)
}

/// Runs `ops` on a node whose leases last 1 ms (so a lease-expiry sweep takes back every
/// claim on PostgreSQL), checking the counts after each.
async fn counts_follow_the_rows(b: &Backend, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let s = b.node("n", 1).await;
    let ids = numbered_contestants(&s, 3).await;
    let mut all: Vec<i64> = Vec::new();
    let mut flight: Vec<(i64, i64)> = Vec::new();
    for op in ops {
        match op {
            Op::Submit(u) => all.push(s.enqueue(owned(ids.get(u).copied())).await.unwrap()),
            Op::SubmitBounded(u) => {
                let bounds = QueueBounds {
                    max_queued: 12,
                    per_user: Some(2),
                };
                let new = owned(ids.get(u).copied());
                if let Enqueued::Stored(id) = s.enqueue_bounded(new, bounds).await.unwrap() {
                    all.push(id);
                }
            }
            Op::SubmitToContest(u) => {
                let new = NewContestSubmission {
                    submission: owned(ids.get(u).copied()),
                    contest: "spring".into(),
                    label: "A".into(),
                    at: "2026-03-01T09:00:00Z".parse().unwrap(),
                    rate: None,
                    max_queued: u64::MAX,
                    max_per_user: None,
                    register: false,
                };
                if let ContestEnqueue::Stored(id) = s.enqueue_contest(new).await.unwrap() {
                    all.push(id);
                }
            }
            Op::Claim => {
                if let Some(c) = s.claim("w").await.unwrap() {
                    flight.push((c.id, c.attempt));
                }
            }
            Op::Running(k) if !flight.is_empty() => {
                let (id, attempt) = flight[k % flight.len()];
                s.mark_running(id, attempt).await.unwrap();
            }
            Op::Finish(k) if !flight.is_empty() => {
                let (id, attempt) = flight.remove(k % flight.len());
                s.complete(id, attempt, &report(Verdict::WA, 1))
                    .await
                    .unwrap();
            }
            Op::Release(k) if !flight.is_empty() => {
                let (id, attempt) = flight.remove(k % flight.len());
                s.release(id, attempt).await.unwrap();
            }
            Op::Rejudge(k) if !all.is_empty() => {
                s.rejudge(all[k % all.len()]).await.unwrap();
            }
            Op::RejudgeContest => {
                s.rejudge_label("spring", "A").await.unwrap();
            }
            Op::Cancel(u) => {
                s.cancel_queued(ids[u]).await.unwrap();
            }
            Op::Sweep => {
                s.requeue_stale(2).await.unwrap();
            }
            Op::Expire => {
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                s.requeue_expired(2).await.unwrap();
            }
            Op::Running(_) | Op::Finish(_) | Op::Release(_) | Op::Rejudge(_) => {}
        }
        let (stored, recounted) = counts(&s).await;
        prop_assert_eq!(stored, recounted, "after {:?}", op);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn the_sqlite_owner_counts_equal_a_recount(ops in ops(3)) {
        runtime().block_on(counts_follow_the_rows(&Backend::sqlite(), ops))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn the_postgres_owner_counts_equal_a_recount(ops in ops(3)) {
        if let Some(backend) = Backend::postgres() {
            runtime().block_on(counts_follow_the_rows(&backend, ops))?;
        }
    }
}

/// Rows of every status, for owners 1 and 2 and none, as a database made before the counts
/// holds them: owner 1 has two queued and one compiling, owner 2 one queued (a contest's),
/// nobody's one queued and one running.
const OLD_ROWS: &str =
    "INSERT INTO submissions (problem, language, source, status, user_id, contest)
    VALUES ('sudoku', 'c', 'x', 'done', 1, NULL), ('sudoku', 'c', 'x', 'queued', 1, NULL),
           ('sudoku', 'c', 'x', 'compiling', 1, NULL), ('sudoku', 'c', 'x', 'queued', 1, NULL),
           ('sudoku', 'c', 'x', 'queued', 2, 'spring'), ('sudoku', 'c', 'x', 'cancelled', 2, NULL),
           ('sudoku', 'c', 'x', 'queued', NULL, NULL), ('sudoku', 'c', 'x', 'running', NULL, NULL)";
const OLD_USERS: &str = "INSERT INTO users (name, role, password_hash)
    VALUES ('one', 'contestant', 'x'), ('two', 'contestant', 'x')";

/// After the upgrade the counts are the rows', and the claims follow the fair order with them:
/// the contest submission (5) first; then owner 1 and nobody tie with one in flight each, and
/// owner 1's first (2) is older than nobody's (7); then nobody's (one in flight) before owner
/// 1's next (4; two in flight).
async fn upgraded_counts_are_right(s: &Store) {
    let (stored, recounted) = counts(s).await;
    assert_eq!(stored, vec![(0, 1, 1), (1, 2, 1), (2, 1, 0)]);
    assert_eq!(stored, recounted);
    assert_eq!(s.depth().await.unwrap(), 4);
    let mut got = Vec::new();
    while let Some(c) = s.claim("w").await.unwrap() {
        got.push(c.id);
    }
    assert_eq!(got, vec![5, 2, 7, 4]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_from_before_the_counts_gets_them_from_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    old_sqlite(&path, 12, &[OLD_USERS, OLD_ROWS]).await;
    let s = Store::Sqlite(SqliteStore::open(&path).await.unwrap());
    upgraded_counts_are_right(&s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_from_before_the_counts_gets_them_from_its_rows() {
    let Some((_server, url)) = old_postgres(6, &[OLD_USERS, OLD_ROWS]).await else {
        return;
    };
    let s = Store::Postgres(PgStore::open(&url, Lease::default()).await.unwrap());
    upgraded_counts_are_right(&s).await;
}
