//! Says, once per node and per (problem, submitted hash), why queued submissions wait: this
//! node's claims refuse them because they were made against other package data (or a problem
//! it does not have). Checked at each heartbeat, not at each poll, so an idle node does not
//! repeat itself; the message names the hash the node has and the live nodes that have the
//! submission's hash (or that none does: an admin's rejudge then makes them judgeable).

use std::collections::HashSet;

use crate::store::Gauges;
use crate::store::{NodeStore, QueuedGroup, Store, StoreNode};

/// The refusals this node has already logged.
#[derive(Debug, Default)]
pub struct Refusals {
    logged: HashSet<(String, Option<String>)>,
}

impl Refusals {
    /// Logs the refused groups not logged before; returns how many it logged.
    pub async fn check(&mut self, store: &Store) -> usize {
        let refused = match store.refused().await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the submissions this node refuses");
                return 0;
            }
        };
        let fresh: Vec<QueuedGroup> = refused
            .into_iter()
            .filter(|g| {
                self.logged
                    .insert((g.problem.clone(), g.submitted_data_hash.clone()))
            })
            .collect();
        if fresh.is_empty() {
            return 0;
        }
        let nodes = match store.list_nodes().await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "cannot list the nodes to say who can judge");
                Vec::new()
            }
        };
        for g in &fresh {
            let own = store.data().and_then(|d| d.hash_of(&g.problem));
            let own = own
                .as_deref()
                .unwrap_or("none (the problem is not loaded here)");
            let submitted = g.submitted_data_hash.as_deref().unwrap_or("none");
            let able: Vec<&str> = nodes
                .iter()
                .filter(|n| n.alive && n.slots > 0)
                .filter(
                    |n| match (n.hashes.get(&g.problem), &g.submitted_data_hash) {
                        (Some(h), Some(s)) => h == s,
                        (Some(_), None) => true,
                        (None, _) => false,
                    },
                )
                .map(|n| n.name.as_str())
                .collect();
            let able = if able.is_empty() {
                "none: no live judging node has that data; an admin's rejudge stamps the \
                 rejudging node's hash"
                    .to_string()
            } else {
                able.join(", ")
            };
            tracing::warn!(
                problem = %g.problem,
                submitted_hash = submitted,
                own_hash = own,
                queued = g.queued,
                nodes_with_that_data = %able,
                "refusing to claim: these submissions were made against other problem data"
            );
        }
        fresh.len()
    }
}
