//! The queued counts by problem and submitted hash that `/metrics` and a node's refusal log
//! read (`queue_groups`, kept by triggers): after any mix of the queue's writes (enqueue to
//! several problems with and without hashes, claim, completion, release, a rejudge that
//! stamps the node's hash, cancel, lease expiry), [`Gauges::queued_groups`] and
//! [`Gauges::refused`] equal a grouping of the rows themselves, on both backends; and a
//! database made before the counts gets them from its rows when it upgrades.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::backends::Backend;
use super::sample::report;
use super::sample::{numbered_contestants, runtime};
use super::upgrade::{old_postgres, old_sqlite};
use crate::judge::Verdict;
use crate::store::*;

const PROBLEMS: [&str; 3] = ["sudoku", "jigsaw", "killer"];
const HASHES: [Option<&str>; 3] = [None, Some("aa"), Some("bb")];

/// The queued rows grouped as the counts were before `queue_groups`.
const RECOUNT: &str = "SELECT problem, submitted_data_hash, COUNT(*) AS queued FROM submissions
     WHERE status = 'queued' GROUP BY problem, submitted_data_hash";

type Groups = Vec<(String, Option<String>, i64)>;

fn sorted(groups: Vec<QueuedGroup>) -> Groups {
    let mut v: Groups = groups
        .into_iter()
        .map(|g| (g.problem, g.submitted_data_hash, g.queued))
        .collect();
    v.sort();
    v
}

async fn recount(s: &Store) -> Groups {
    let rows: Vec<QueuedGroup> = match s {
        Store::Sqlite(db) => sqlx::query_as(RECOUNT).fetch_all(&db.writer).await.unwrap(),
        Store::Postgres(db) => sqlx::query_as(RECOUNT).fetch_all(&db.pool).await.unwrap(),
    };
    sorted(rows)
}

/// What the node with `sudoku` at `aa` and `jigsaw` at `bb` refuses, from the recount.
fn refused_by_the_node(all: &Groups) -> Groups {
    all.iter()
        .filter(|(problem, hash, _)| {
            let own = match problem.as_str() {
                "sudoku" => Some("aa"),
                "jigsaw" => Some("bb"),
                _ => None,
            };
            !matches!((own, hash.as_deref()), (Some(_), None))
                && !matches!((own, hash.as_deref()), (Some(o), Some(h)) if o == h)
        })
        .cloned()
        .collect()
}

#[derive(Debug, Clone)]
enum Op {
    Submit(usize, usize, usize),
    Claim,
    Finish(usize),
    Release(usize),
    Rejudge(usize),
    Cancel(usize),
    Expire,
}

fn ops(users: usize) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        4 => (0..=users, 0..PROBLEMS.len(), 0..HASHES.len())
            .prop_map(|(u, p, h)| Op::Submit(u, p, h)),
        3 => Just(Op::Claim),
        2 => any::<usize>().prop_map(Op::Finish),
        1 => any::<usize>().prop_map(Op::Release),
        2 => any::<usize>().prop_map(Op::Rejudge),
        1 => (0..users).prop_map(Op::Cancel),
        1 => Just(Op::Expire),
    ];
    prop::collection::vec(op, 1..50)
}

/// A node with data (so its claims refuse and its rejudges stamp) whose leases last 1 ms.
async fn node(b: &Backend) -> Store {
    let data = NodeData::new(BTreeMap::from([
        ("sudoku".to_string(), "aa".to_string()),
        ("jigsaw".to_string(), "bb".to_string()),
    ]));
    match b.node("n", 1).await {
        Store::Sqlite(s) => Store::Sqlite(s.with_data(data)),
        Store::Postgres(s) => Store::Postgres(s.with_data(data)),
    }
}

async fn groups_follow_the_rows(b: &Backend, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let s = node(b).await;
    let ids = numbered_contestants(&s, 3).await;
    let mut all: Vec<i64> = Vec::new();
    let mut flight: Vec<(i64, i64)> = Vec::new();
    for op in ops {
        match op {
            Op::Submit(u, p, h) => {
                let new = NewSubmission {
                    problem: PROBLEMS[p].into(),
                    language: "c".into(),
                    source: "int main(){}".into(),
                    owner: ids.get(u).copied(),
                    data_hash: HASHES[h].map(str::to_string),
                };
                all.push(s.enqueue(new).await.unwrap());
            }
            Op::Claim => {
                if let Some(c) = s.claim("w").await.unwrap() {
                    flight.push((c.id, c.attempt));
                }
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
            Op::Cancel(u) => {
                s.cancel_queued(ids[u]).await.unwrap();
            }
            Op::Expire => {
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                s.requeue_expired(2).await.unwrap();
            }
            Op::Finish(_) | Op::Release(_) | Op::Rejudge(_) => {}
        }
        let rows = recount(&s).await;
        prop_assert_eq!(
            sorted(s.queued_groups().await.unwrap()),
            rows.clone(),
            "after {:?}",
            op
        );
        prop_assert_eq!(
            sorted(s.refused().await.unwrap()),
            refused_by_the_node(&rows),
            "refused, after {:?}",
            op
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn the_sqlite_group_counts_equal_a_recount(ops in ops(3)) {
        runtime().block_on(groups_follow_the_rows(&Backend::sqlite(), ops))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn the_postgres_group_counts_equal_a_recount(ops in ops(3)) {
        if let Some(backend) = Backend::postgres() {
            runtime().block_on(groups_follow_the_rows(&backend, ops))?;
        }
    }
}

/// Queued rows of two owners and none, two problems, with and without hashes, and rows of
/// other statuses, as a database made before the counts holds them.
const OLD_ROWS: &str =
    "INSERT INTO submissions (problem, language, source, status, user_id, submitted_data_hash)
    VALUES ('sudoku', 'c', 'x', 'queued', 1, 'aa'), ('sudoku', 'c', 'x', 'queued', 2, 'aa'),
           ('sudoku', 'c', 'x', 'done', 1, 'aa'), ('sudoku', 'c', 'x', 'queued', NULL, NULL),
           ('jigsaw', 'c', 'x', 'queued', 1, 'zz'), ('jigsaw', 'c', 'x', 'running', 2, 'zz')";
const OLD_USERS: &str = "INSERT INTO users (name, role, password_hash)
    VALUES ('one', 'contestant', 'x'), ('two', 'contestant', 'x')";

async fn upgraded_groups_are_right(s: &Store) {
    let expected: Groups = vec![
        ("jigsaw".into(), Some("zz".into()), 1),
        ("sudoku".into(), None, 1),
        ("sudoku".into(), Some("aa".into()), 2),
    ];
    assert_eq!(sorted(s.queued_groups().await.unwrap()), expected);
    assert_eq!(recount(s).await, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_from_before_the_groups_gets_them_from_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    old_sqlite(&path, 17, &[OLD_USERS, OLD_ROWS]).await;
    let s = Store::Sqlite(SqliteStore::open(&path).await.unwrap());
    upgraded_groups_are_right(&s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_from_before_the_groups_gets_them_from_its_rows() {
    let Some((_server, url)) = old_postgres(11, &[OLD_USERS, OLD_ROWS]).await else {
        return;
    };
    let s = Store::Postgres(PgStore::open(&url, Lease::default()).await.unwrap());
    upgraded_groups_are_right(&s).await;
}
