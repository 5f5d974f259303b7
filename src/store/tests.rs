//! Store tests against real SQLite files in a temporary folder.

use super::*;
use crate::judge::{CompileInfo, JudgeReport, TestResult, Verdict};

fn new(problem: &str) -> NewSubmission {
    NewSubmission {
        data_hash: None,
        problem: problem.into(),
        language: "c".into(),
        source: "int main(){}".into(),
        owner: None,
    }
}

fn report(verdict: Verdict, tests: usize) -> JudgeReport {
    let tests = (0..tests)
        .map(|i| TestResult {
            name: format!("secret/{i}"),
            verdict,
            time_ms: i as u64,
            wall_ms: 1,
            memory_kib: 10,
            exit_code: Some(0),
            signal: None,
            message: None,
        })
        .collect();
    JudgeReport::from_tests(
        "sudoku",
        "c",
        CompileInfo {
            ok: true,
            log: String::new(),
        },
        tests,
        false,
    )
}

async fn store(dir: &tempfile::TempDir) -> SqliteStore {
    SqliteStore::open(&dir.path().join("nested/folder/db.sqlite"))
        .await
        .unwrap()
}

#[tokio::test]
async fn creates_the_file_and_claims_oldest_first_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    assert!(dir.path().join("nested/folder/db.sqlite").exists());
    let a = s.enqueue(new("sudoku")).await.unwrap();
    let b = s.enqueue(new("sudoku")).await.unwrap();
    assert_eq!(s.depth().await.unwrap(), 2);
    assert_eq!(s.claim("w0").await.unwrap().unwrap().id, a);
    assert_eq!(s.claim("w1").await.unwrap().unwrap().id, b);
    assert!(s.claim("w0").await.unwrap().is_none());
    assert_eq!(s.get(a).await.unwrap().unwrap().status, Status::Compiling);
}

#[tokio::test]
async fn concurrent_claims_never_hand_out_a_submission_twice() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    for _ in 0..40 {
        s.enqueue(new("sudoku")).await.unwrap();
    }
    let mut tasks = Vec::new();
    for w in 0..8 {
        let s = s.clone();
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
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 40);
}

#[tokio::test]
async fn complete_stores_results_and_stale_attempts_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    let id = s.enqueue(new("sudoku")).await.unwrap();
    let first = s.claim("w0").await.unwrap().unwrap();
    s.mark_running(id, first.attempt).await.unwrap();
    assert_eq!(s.get(id).await.unwrap().unwrap().status, Status::Running);
    // A crash: the claim goes stale and the submission is claimed again.
    assert_eq!(
        s.requeue_stale(3).await.unwrap(),
        StaleOutcome {
            requeued: 1,
            failed: 0
        }
    );
    let second = s.claim("w1").await.unwrap().unwrap();
    assert!(second.attempt > first.attempt);
    assert!(!s
        .complete(id, first.attempt, &report(Verdict::WA, 2))
        .await
        .unwrap());
    assert!(s
        .complete(id, second.attempt, &report(Verdict::AC, 3))
        .await
        .unwrap());
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(got.status, Status::Done);
    assert_eq!(got.verdict, Some(Verdict::AC));
    assert_eq!(got.score, Some(100));
    assert_eq!(got.tests.len(), 3);
    assert_eq!(got.tests[2].name, "secret/2");
    assert_eq!(got.time_ms, Some(2));
    assert_eq!(got.source.as_deref(), Some("int main(){}"));
}

#[tokio::test]
async fn rejudge_replaces_old_results() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
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

#[tokio::test]
async fn released_submissions_keep_their_place_in_the_queue() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    let a = s.enqueue(new("sudoku")).await.unwrap();
    let c = s.claim("w0").await.unwrap().unwrap();
    let _b = s.enqueue(new("sudoku")).await.unwrap();
    s.release(a, c.attempt).await.unwrap();
    assert_eq!(s.claim("w0").await.unwrap().unwrap().id, a);
}

#[tokio::test]
async fn list_is_newest_first_with_filters() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
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

#[tokio::test]
async fn data_survives_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let s = store(&dir).await;
        s.enqueue(new("sudoku")).await.unwrap()
    };
    let s = store(&dir).await;
    assert_eq!(s.get(id).await.unwrap().unwrap().status, Status::Queued);
}

#[tokio::test]
async fn a_submission_the_daemon_dies_on_every_time_ends_as_se_after_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    let id = s.enqueue(new("sudoku")).await.unwrap();
    // Claimed, then the daemon dies (the submission stays `running`), three times.
    for attempt in 1..=3 {
        let claimed = s.claim("w0").await.unwrap().unwrap();
        assert_eq!((claimed.id, claimed.attempt), (id, attempt));
        s.mark_running(id, claimed.attempt).await.unwrap();
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
