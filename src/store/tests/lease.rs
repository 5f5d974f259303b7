//! Leases and nodes, on both backends: a node that stops beating loses its claims (on
//! PostgreSQL) and its late result is dropped; a beating node keeps them; a restarted node
//! takes back only its own earlier claims; nodes register, beat and leave.

use std::time::Duration;

use super::backends::{both, Backend};
use super::sample::{complete, submission};
use crate::judge::Verdict;
use crate::store::*;

both!(
    a_silent_node_loses_its_claims_and_its_late_result_is_dropped,
    a_beating_node_keeps_its_claims,
    a_restarted_node_takes_back_only_its_own_claims,
    nodes_register_beat_and_leave,
);

async fn a_silent_node_loses_its_claims_and_its_late_result_is_dropped(b: &Backend) {
    let dead = b.node("dead", 300).await;
    let alive = b.node("alive", 300).await;
    let id = dead.enqueue(submission("sudoku")).await.unwrap();
    let first = dead.claim("w0").await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let swept = alive.requeue_expired(3).await.unwrap();
    if !b_is_shared(b) {
        // SQLite: one daemon, no expiry sweep; the claim stays until a restart.
        assert_eq!(swept, StaleOutcome::default());
        assert!(alive.claim("w0").await.unwrap().is_none());
        return;
    }
    assert_eq!(
        swept,
        StaleOutcome {
            requeued: 1,
            failed: 0
        }
    );
    let second = alive.claim("w0").await.unwrap().unwrap();
    assert_eq!((second.id, second.attempt), (id, first.attempt + 1));
    // The dead node wakes up and reports: dropped, also after the new attempt is done.
    assert!(!complete(&dead, (id, first.attempt), Verdict::WA, 0).await);
    assert!(complete(&alive, (id, second.attempt), Verdict::AC, 0).await);
    assert!(!complete(&dead, (id, first.attempt), Verdict::WA, 0).await);
    let got = alive.get(id).await.unwrap().unwrap();
    assert_eq!((got.status, got.verdict), (Status::Done, Some(Verdict::AC)));
    // Its heartbeat renews nothing: the claim is no longer its own.
    assert_eq!(dead.heartbeat().await.unwrap(), 0);
}

fn b_is_shared(b: &Backend) -> bool {
    matches!(b, Backend::Postgres(..))
}

async fn a_beating_node_keeps_its_claims(b: &Backend) {
    let busy = b.node("busy", 300).await;
    let other = b.node("other", 300).await;
    busy.enqueue(submission("sudoku")).await.unwrap();
    let claimed = busy.claim("w0").await.unwrap().unwrap();
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(busy.heartbeat().await.unwrap(), 1);
        assert_eq!(
            other.requeue_expired(3).await.unwrap(),
            StaleOutcome::default()
        );
    }
    assert!(complete(&busy, (claimed.id, claimed.attempt), Verdict::AC, 0).await);
    assert_eq!(busy.heartbeat().await.unwrap(), 0);
}

async fn a_restarted_node_takes_back_only_its_own_claims(b: &Backend) {
    let w1 = b.node("w1", 30_000).await;
    let w2 = b.node("w2", 30_000).await;
    let a = w1.enqueue(submission("sudoku")).await.unwrap();
    let c = w1.enqueue(submission("sudoku")).await.unwrap();
    assert_eq!(w1.claim("w0").await.unwrap().unwrap().id, a);
    assert_eq!(w2.claim("w0").await.unwrap().unwrap().id, c);
    // w1 is killed and starts again under the same name.
    let again = b.node("w1", 30_000).await;
    let outcome = again.requeue_stale(3).await.unwrap();
    if b_is_shared(b) {
        // Only w1's claim: w2 is alive and judging.
        assert_eq!(outcome.requeued, 1);
        assert_eq!(
            again.get(c).await.unwrap().unwrap().status,
            Status::Compiling
        );
    } else {
        // SQLite: the one daemon restarting owns every claim.
        assert_eq!(outcome.requeued, 2);
    }
    assert_eq!(again.get(a).await.unwrap().unwrap().status, Status::Queued);
}

async fn nodes_register_beat_and_leave(b: &Backend) {
    let api = b.node("api", 300).await;
    let worker = b.node("worker-1", 300).await;
    let hashes = |h: &str| {
        [("sudoku".to_string(), h.to_string())]
            .into_iter()
            .collect()
    };
    api.register_node(&NodeRegistration {
        kind: NodeKind::Serve,
        slots: 0,
        hashes: hashes("aa"),
    })
    .await
    .unwrap();
    worker
        .register_node(&NodeRegistration {
            kind: NodeKind::Worker,
            slots: 4,
            hashes: hashes("bb"),
        })
        .await
        .unwrap();
    let nodes = api.list_nodes().await.unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["api", "worker-1"]);
    assert_eq!((nodes[1].kind, nodes[1].slots), (NodeKind::Worker, 4));
    assert_eq!(nodes[1].hashes["sudoku"], "bb");
    assert!(nodes.iter().all(|n| n.alive && n.heartbeat_age_ms < 300));
    tokio::time::sleep(Duration::from_millis(400)).await;
    worker.heartbeat().await.unwrap();
    let nodes = api.list_nodes().await.unwrap();
    assert!(!nodes[0].alive, "api stopped beating: {:?}", nodes[0]);
    assert!(nodes[1].alive, "worker beat: {:?}", nodes[1]);
    // A second instance under the same name replaces the first; the old one cannot remove it.
    let worker_again = b.node("worker-1", 300).await;
    worker_again
        .register_node(&NodeRegistration {
            kind: NodeKind::Worker,
            slots: 2,
            hashes: hashes("bb"),
        })
        .await
        .unwrap();
    worker.deregister_node().await.unwrap();
    assert_eq!(api.list_nodes().await.unwrap()[1].slots, 2);
    worker_again.deregister_node().await.unwrap();
    let names: Vec<String> = api
        .list_nodes()
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.name)
        .collect();
    assert_eq!(names, ["api"]);
}
