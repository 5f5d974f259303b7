//! A node's heartbeat: every third of a lease it renews its row in `nodes` and the leases of
//! every claim it holds (submissions and rejudging runs), and on a shared database (PostgreSQL) it hands the claims of nodes
//! whose leases ran out back to the queue, waking this node's idle workers to take them. It
//! also logs what the node's claims refuse ([`Refusals`]).

use std::sync::Arc;

use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::store::{NodeStore, RejudgeQueue, Store, StoreNode};

use super::refusals::Refusals;

/// Starts the heartbeat of `store`'s node; it returns when `shutdown` turns true. A node
/// that judges (`judging`) also logs, once each, the queued submissions its claims refuse.
pub fn spawn(
    store: Store,
    max_attempts: u32,
    judging: bool,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let every = store.lease().heartbeat_every();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut refusals = Refusals::default();
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.changed() => {}
            }
            if *shutdown.borrow() {
                break;
            }
            beat(&store, max_attempts, &wake).await;
            if judging {
                refusals.check(&store).await;
            }
        }
    })
}

/// One beat: renew, then (shared database) sweep expired leases.
pub async fn beat(store: &Store, max_attempts: u32, wake: &Notify) {
    if let Err(e) = store.heartbeat().await {
        tracing::error!(error = %e, "heartbeat: cannot renew this node's leases");
    }
    if let Err(e) = store.renew_runs().await {
        tracing::error!(error = %e, "heartbeat: cannot renew this node's rejudging runs");
    }
    if !store.is_shared() {
        return;
    }
    match store.requeue_expired(max_attempts).await {
        Ok(o) if o.requeued > 0 || o.failed > 0 => {
            tracing::warn!(
                requeued = o.requeued,
                failed = o.failed,
                "claims of a node that stopped beating: queued again, or SE after {max_attempts} \
                 attempts"
            );
            for _ in 0..o.requeued {
                wake.notify_one();
            }
        }
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e, "heartbeat: cannot sweep expired leases"),
    }
}
