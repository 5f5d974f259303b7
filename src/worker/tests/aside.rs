//! A rejudging's runs beside the submissions' queue.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejudgings_runs_come_after_queued_submissions_and_stay_aside() {
    use crate::store::rejudgings::NewRejudging;
    use crate::store::{
        AccountStore, ContestEnqueue, ContestStore, NewContestSubmission, NewUser, RejudgingStore,
    };
    let dir = tempfile::tempdir().unwrap();
    let compiled = Compiled::default();
    let (store, ctx, stop, handles) = setup_failing(
        dir.path(),
        Duration::from_millis(5),
        1,
        0,
        Arc::clone(&compiled),
    )
    .await;
    let owner = store
        .add_users(&[NewUser {
            name: crate::accounts::UserName::parse("alice").unwrap(),
            display_name: String::new(),
            role: crate::accounts::Role::Contestant,
            password_hash: "$argon2id$stub".into(),
        }])
        .await
        .unwrap()[0];
    let mut ids = Vec::new();
    for source in ["s1", "s2"] {
        let mut submission = new("p", source);
        submission.owner = Some(owner);
        let stored = store
            .enqueue_contest(NewContestSubmission::registered(
                submission,
                "icpc-contest",
                "A",
                "2026-03-01T09:00:00Z".parse().unwrap(),
            ))
            .await
            .unwrap();
        let ContestEnqueue::Stored(id) = stored else {
            panic!("not stored: {stored:?}")
        };
        ctx.wake.notify_one();
        wait_until(&store, id, Status::Done).await;
        ids.push(id);
    }
    let finished = |id| {
        let store = Arc::clone(&store);
        async move { store.get(id).await.unwrap().unwrap().finished_at }
    };
    let before = (finished(ids[0]).await, finished(ids[1]).await);
    let started = store
        .create_rejudging(&NewRejudging {
            contest: "icpc-contest".into(),
            label: None,
            chosen: None,
            created_by: "boss".into(),
            max_open: 4,
        })
        .await
        .unwrap();
    let crate::store::rejudgings::RejudgingCreated::Created {
        id: rejudging,
        runs: 2,
    } = started
    else {
        panic!("{started:?}")
    };
    let late = store.enqueue(new("p", "late")).await.unwrap();
    ctx.wake.notify_one();
    wait_until(&store, late, Status::Done).await;
    for _ in 0..500 {
        let r = store.rejudging(rejudging).await.unwrap().unwrap();
        if r.judged == r.total {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        *compiled.lock().unwrap(),
        ["s1", "s2", "late", "s1", "s2"],
        "the late submission before the runs"
    );
    let runs = store.rejudging_runs(rejudging).await.unwrap();
    assert!(
        runs.iter()
            .all(|r| r.judged && r.new_verdict == Some(Verdict::AC)),
        "{runs:?}"
    );
    assert_eq!(
        (finished(ids[0]).await, finished(ids[1]).await),
        before,
        "the submissions are not touched"
    );
    stop.send(true).unwrap();
    for h in handles {
        h.await.unwrap();
    }
}
