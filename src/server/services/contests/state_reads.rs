//! A contest's state (the board's version, the freeze) read from the store once for a crowd:
//! every board read must see the version as it is at least when the request arrived (any
//! node's writers bump it, by trigger), so the version is read from the database, never
//! guessed; but requests arriving while a read is under way share the next read instead of
//! each taking a pooled connection for it. A read is shared only with requests that arrived
//! before it started, so no request gets a version older than its arrival.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::store::{ContestDefStore, ContestState, ContestStore, StoreError};

/// The shared reads of one contest's state.
#[derive(Default)]
struct Reads {
    /// Reads started so far; a read's number is taken before it starts.
    started: AtomicU64,
    /// The last read done: its number and what it read.
    last: Mutex<Option<(u64, ContestState)>>,
    /// One read at a time.
    one: tokio::sync::Mutex<()>,
}

/// The shared state reads of every contest (by id).
#[derive(Default)]
pub struct StateReads {
    by_contest: Mutex<HashMap<String, Arc<Reads>>>,
}

impl StateReads {
    /// The state of `contest` as of a read that started after this call began.
    pub async fn read<S: ContestStore>(
        &self,
        store: &S,
        contest: &str,
    ) -> Result<ContestState, StoreError> {
        let reads = {
            let mut all = self.by_contest.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(all.entry(contest.to_string()).or_default())
        };
        // Reads numbered above `arrived` start after now.
        let arrived = reads.started.load(Ordering::SeqCst);
        let _one = reads.one.lock().await;
        if let Some((n, state)) = *reads.last.lock().unwrap_or_else(|e| e.into_inner()) {
            if n > arrived {
                return Ok(state);
            }
        }
        let n = reads.started.fetch_add(1, Ordering::SeqCst) + 1;
        let state = store.contest_state(contest).await?;
        *reads.last.lock().unwrap_or_else(|e| e.into_inner()) = Some((n, state));
        Ok(state)
    }
}

/// The database contests' version ([`ContestDefStore::defs_version`]) read once for the
/// requests arriving while a read runs, with the same rule as [`StateReads`]: a request gets
/// a version read that started after it arrived, so an edit committed through any node
/// before a request is seen by it.
#[derive(Default)]
pub struct DefsReads {
    started: AtomicU64,
    last: Mutex<Option<(u64, u64)>>,
    one: tokio::sync::Mutex<()>,
}

impl DefsReads {
    /// The version as of a read that started after this call began.
    pub async fn read<S: ContestDefStore>(&self, store: &S) -> Result<u64, StoreError> {
        let arrived = self.started.load(Ordering::SeqCst);
        let _one = self.one.lock().await;
        if let Some((n, version)) = *self.last.lock().unwrap_or_else(|e| e.into_inner()) {
            if n > arrived {
                return Ok(version);
            }
        }
        let n = self.started.fetch_add(1, Ordering::SeqCst) + 1;
        let version = store.defs_version().await?;
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some((n, version));
        Ok(version)
    }
}
