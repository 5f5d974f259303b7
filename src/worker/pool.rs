//! The judging half of a node, shared by `serve` and `worker`: one worker per executor, the
//! heartbeat that keeps their claims leased, the listener that wakes them when another node
//! queues work, and a stop that returns what is being judged to the queue.

use std::sync::Arc;

use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::judge::{Executor, Judge, JudgeSettings};
use crate::metrics::Metrics;
use crate::store::{NodeKind, NodeRegistration, NodeStore, Queue, Store, StoreError, StoreNode};

use super::{Problems, WorkerContext};

/// The workers and heartbeat of a node; [`WorkerPool::shutdown`] stops them.
pub struct WorkerPool {
    store: Store,
    stop: watch::Sender<bool>,
    handles: Vec<JoinHandle<()>>,
    heartbeat: JoinHandle<()>,
}

/// What a pool starts with.
pub struct PoolSettings {
    /// serve or worker (for the nodes table).
    pub kind: NodeKind,
    /// How each judge runs.
    pub judge: JudgeSettings,
    /// Claims of one submission before it is stored as `SE`.
    pub max_attempts: u32,
    /// Package hashes by problem id, recorded with the node.
    pub hashes: std::collections::BTreeMap<String, String>,
    /// How much of a contest's submissions is judged, by contest id.
    pub modes: Arc<super::JudgeModes>,
    /// The node's metrics registry (judged counts, durations, heartbeat).
    pub metrics: Metrics,
}

impl WorkerPool {
    /// Registers the node, recovers what an earlier instance of it left in flight, and
    /// starts one worker per executor (named `<node>/w<i>`) and the heartbeat. `wake` is
    /// poked by the local API on every submission; other nodes' submissions arrive through
    /// the store's notifications.
    pub async fn start<E: Executor>(
        store: Store,
        problems: Arc<Problems>,
        executors: Vec<Arc<E>>,
        settings: PoolSettings,
        wake: Arc<Notify>,
    ) -> Result<WorkerPool, StoreError> {
        let stale = store.requeue_stale(settings.max_attempts).await?;
        if stale.requeued > 0 || stale.failed > 0 {
            tracing::warn!(
                requeued = stale.requeued,
                failed = stale.failed,
                "submissions left in flight by a crash: queued again, or SE after {} attempts",
                settings.max_attempts
            );
        }
        let workers = executors.len();
        store
            .register_node(&NodeRegistration {
                kind: settings.kind,
                slots: workers as u64,
                hashes: settings.hashes,
            })
            .await?;
        if workers > 0 {
            store.forward_queue_notifications(Arc::clone(&wake)).await?;
        }
        let (stop, stop_rx) = watch::channel(false);
        let ctx = WorkerContext {
            queue: Arc::new(store.clone()),
            problems,
            wake: Arc::clone(&wake),
            shutdown: stop_rx.clone(),
            max_attempts: settings.max_attempts,
            modes: settings.modes,
            metrics: settings.metrics,
        };
        let node = store.lease().node().to_string();
        let handles = executors
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                let judge = Judge::new(e, settings.judge.clone());
                super::spawn(format!("{node}/w{i}"), judge, ctx.clone())
            })
            .collect();
        let heartbeat = super::heartbeat::spawn(
            store.clone(),
            settings.max_attempts,
            workers > 0,
            wake,
            stop_rx,
        );
        Ok(WorkerPool {
            store,
            stop,
            handles,
            heartbeat,
        })
    }

    /// Stops the workers (each puts its submission back in the queue at the next test, or
    /// stores it if it was done) and the heartbeat, waits for them, and removes the node's row.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for handle in self.handles {
            if let Err(e) = handle.await {
                tracing::error!(error = %e, "worker task failed");
            }
        }
        if let Err(e) = self.heartbeat.await {
            tracing::error!(error = %e, "heartbeat task failed");
        }
        if let Err(e) = self.store.deregister_node().await {
            tracing::warn!(error = %e, "cannot remove this node from the nodes table");
        }
    }
}
