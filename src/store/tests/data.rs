//! The claim's data filter and the rejudge's hash stamp ([`NodeData`]), on both backends: a
//! node refuses submissions made against other package data or to problems it lacks, keeps
//! the fair order among the rest, and a rejudge through a node makes them judgeable by it.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::backends::{both, Backend};
use super::sample::report;
use crate::judge::{JudgeReport, Verdict};
use crate::store::*;

both!(
    a_node_claims_only_what_was_submitted_against_its_data,
    a_rejudge_records_the_rejudging_nodes_hash,
    a_contest_rejudge_records_the_rejudging_nodes_hash,
    sqlite_judges_with_its_current_data_postgres_refuses,
);

fn hashes(pairs: &[(&str, &str)]) -> NodeData {
    NodeData::new(
        pairs
            .iter()
            .map(|(p, h)| (p.to_string(), h.to_string()))
            .collect::<BTreeMap<_, _>>(),
    )
}

/// The store of `b` whose claims refuse other data (on either backend, unlike
/// [`Store::with_data`], whose SQLite daemon claims anything).
async fn refusing(b: &Backend, data: NodeData) -> Store {
    match b.open().await {
        Store::Sqlite(s) => Store::Sqlite(s.with_data(data)),
        Store::Postgres(s) => Store::Postgres(s.with_data(data)),
    }
}

fn sub(problem: &str, hash: Option<&str>) -> NewSubmission {
    NewSubmission {
        problem: problem.into(),
        language: "c".into(),
        source: "int main(){}".into(),
        owner: None,
        data_hash: hash.map(str::to_string),
    }
}

fn done() -> JudgeReport {
    report(Verdict::SE, 0)
}

async fn claim_all(s: &Store) -> Vec<i64> {
    let mut ids = Vec::new();
    while let Some(c) = s.claim("w0").await.unwrap() {
        ids.push(c.id);
    }
    ids
}

async fn a_node_claims_only_what_was_submitted_against_its_data(b: &Backend) {
    let s = refusing(b, hashes(&[("sudoku", "aa"), ("killer", "bb")])).await;
    let other = s.enqueue(sub("sudoku", Some("ff"))).await.unwrap();
    let mine = s.enqueue(sub("sudoku", Some("aa"))).await.unwrap();
    let unknown = s.enqueue(sub("jigsaw", None)).await.unwrap();
    let legacy = s.enqueue(sub("killer", None)).await.unwrap();
    let killer = s.enqueue(sub("killer", Some("bb"))).await.unwrap();
    // What it refuses, grouped, before and after: other data and a problem it lacks.
    let refused = |s: Store| async move {
        let mut r = s.refused().await.unwrap();
        r.sort_by(|a, b| a.problem.cmp(&b.problem));
        r
    };
    let expected = vec![
        QueuedGroup {
            problem: "jigsaw".into(),
            submitted_data_hash: None,
            queued: 1,
        },
        QueuedGroup {
            problem: "sudoku".into(),
            submitted_data_hash: Some("ff".into()),
            queued: 1,
        },
    ];
    assert_eq!(refused(s.clone()).await, expected);
    // The rest in the fair (here: submission) order; the refused stay queued.
    assert_eq!(claim_all(&s).await, vec![mine, legacy, killer]);
    assert_eq!(s.get(other).await.unwrap().unwrap().status, Status::Queued);
    assert_eq!(
        s.get(unknown).await.unwrap().unwrap().status,
        Status::Queued
    );
    assert_eq!(refused(s.clone()).await, expected);
    // A node with the other data takes it; one with no filter takes anything.
    let b_node = refusing(b, hashes(&[("sudoku", "ff")])).await;
    assert!(b_node.refused().await.unwrap().len() == 1, "jigsaw only");
    assert_eq!(claim_all(&b_node).await, vec![other]);
    assert_eq!(claim_all(&b.open().await).await, vec![unknown]);
    // The queue as a whole still counts them all.
    let groups = s.queued_groups().await.unwrap();
    assert!(groups.is_empty(), "{groups:?}");
}

async fn a_rejudge_records_the_rejudging_nodes_hash(b: &Backend) {
    let old = refusing(b, hashes(&[("sudoku", "aa")])).await;
    let new = refusing(b, hashes(&[("sudoku", "bb")])).await;
    // Judged on the old data, then every node got new data: a rejudge through a node with
    // the new data stamps its hash, and that node can claim it.
    let id = old.enqueue(sub("sudoku", Some("aa"))).await.unwrap();
    let c = old.claim("w0").await.unwrap().unwrap();
    assert!(old.complete(id, c.attempt, &done()).await.unwrap());
    assert_eq!(new.rejudge(id).await.unwrap(), RejudgeOutcome::Requeued);
    let got = new.get(id).await.unwrap().unwrap();
    assert_eq!(got.submitted_data_hash.as_deref(), Some("bb"));
    assert!(
        old.claim("w0").await.unwrap().is_none(),
        "old data refuses it now"
    );
    assert_eq!(new.claim("w0").await.unwrap().unwrap().id, id);
    // Stranded while queued: a rejudge of a queued submission stamps it too.
    let stranded = old.enqueue(sub("sudoku", Some("aa"))).await.unwrap();
    assert!(new.claim("w0").await.unwrap().is_none());
    assert_eq!(
        new.rejudge(stranded).await.unwrap(),
        RejudgeOutcome::AlreadyQueued
    );
    assert_eq!(new.claim("w0").await.unwrap().unwrap().id, stranded);
    // A store without data (the CLI) keeps the stored hash; a node lacking the problem too.
    let kept = old.enqueue(sub("jigsaw", Some("cc"))).await.unwrap();
    b.open().await.rejudge(kept).await.unwrap();
    new.rejudge(kept).await.unwrap();
    let got = new.get(kept).await.unwrap().unwrap();
    assert_eq!(got.submitted_data_hash.as_deref(), Some("cc"));
}

async fn a_contest_rejudge_records_the_rejudging_nodes_hash(b: &Backend) {
    let old = refusing(b, hashes(&[("sudoku", "aa")])).await;
    let new = refusing(b, hashes(&[("sudoku", "bb")])).await;
    let at: Timestamp = "2026-03-01T09:00:00Z".parse().unwrap();
    let entered = old
        .enqueue_contest(NewContestSubmission {
            submission: sub("sudoku", Some("aa")),
            contest: "spring".into(),
            label: "A".into(),
            at,
            rate: None,
            max_queued: 100,
            max_per_user: None,
            register: false,
        })
        .await
        .unwrap();
    let ContestEnqueue::Stored(id) = entered else {
        panic!("not stored: {entered:?}");
    };
    let c = old.claim("w0").await.unwrap().unwrap();
    assert!(old.complete(id, c.attempt, &done()).await.unwrap());
    assert_eq!(new.rejudge_label("spring", "A").await.unwrap().requeued, 1);
    let got = new.get(id).await.unwrap().unwrap();
    assert_eq!(got.submitted_data_hash.as_deref(), Some("bb"));
    assert_eq!(new.claim("w0").await.unwrap().unwrap().id, id);
}

async fn sqlite_judges_with_its_current_data_postgres_refuses(b: &Backend) {
    // A node restarted with changed data: SQLite's one daemon takes its own queue, a node of
    // a shared database leaves it to nodes with the submission's data.
    let s = b.open().await.with_data(hashes(&[("sudoku", "bb")]));
    let id = s.enqueue(sub("sudoku", Some("aa"))).await.unwrap();
    let claimed = s.claim("w0").await.unwrap().map(|c| c.id);
    if s.is_shared() {
        assert_eq!(claimed, None);
        assert_eq!(s.refused().await.unwrap().len(), 1);
    } else {
        assert_eq!(claimed, Some(id));
        assert!(s.refused().await.unwrap().is_empty());
    }
}
