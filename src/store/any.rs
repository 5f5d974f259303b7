//! [`Store`]: the store a database setting names, SQLite or PostgreSQL, behind the same
//! traits ([`Queue`], [`SubmissionReads`], [`Gauges`], [`AccountStore`], [`ContestStore`],
//! [`NodeStore`]), so the server, the workers and the
//! commands are written once for both.

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use tokio::sync::Notify;

use crate::accounts::{SubmissionScope, TokenHash, UserName};
use crate::judge::JudgeReport;

use super::accounts::{AccountStore, Credentials, NewUser, TokenKind, User};
use super::contests::{
    BoardData, Clarification, ClarificationAdded, ClarificationPage, ContestEnqueue, ContestState,
    ContestStore, NewClarification, NewContestSubmission, RejudgeCount,
};
use super::gauges::Gauges;
use super::lease::Lease;
use super::location::Location;
use super::model::{
    Claimed, Enqueued, ListFilter, NewSubmission, QueueBounds, RejudgeOutcome, StaleOutcome,
    Status, Submission,
};
use super::node_data::{NodeData, QueuedGroup};
use super::nodes::{Node, NodeRegistration, NodeStore};
use super::postgres::PgStore;
use super::queue::Queue;
use super::sqlite::SqliteStore;
use super::submissions::SubmissionReads;
use super::StoreError;

/// One of the two stores.
#[derive(Debug, Clone)]
pub enum Store {
    /// A SQLite file, owned by one daemon.
    Sqlite(SqliteStore),
    /// A PostgreSQL database, shared by any number of nodes.
    Postgres(PgStore),
}

/// Runs the same expression on whichever store `self` is.
macro_rules! each {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            Store::Sqlite($s) => $e,
            Store::Postgres($s) => $e,
        }
    };
}

impl Store {
    /// Opens (and migrates) the store at `location` for the node instance of `lease`.
    pub async fn open(location: &Location, lease: Lease) -> Result<Store, StoreError> {
        Ok(match location {
            Location::Sqlite(path) => Store::Sqlite(SqliteStore::open_as(path, lease).await?),
            Location::Postgres(url) => Store::Postgres(PgStore::open(url, lease).await?),
        })
    }

    /// Whether other nodes may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// The lease of the node this store speaks for.
    pub fn lease(&self) -> &Lease {
        each!(self, s => &s.lease)
    }

    /// Pokes `wake` when another node queues a submission (PostgreSQL's `NOTIFY`); on SQLite
    /// the one daemon pokes its own workers, so there is nothing to listen to.
    pub async fn forward_queue_notifications(&self, wake: Arc<Notify>) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(_) => Ok(()),
            Store::Postgres(s) => s.forward_queue_notifications(wake).await,
        }
    }

    /// This store with the node's package data: on a shared database (PostgreSQL) claims
    /// refuse submissions made against other data; a SQLite daemon, the only node of its
    /// file, claims anything (and its worker logs the difference). Rejudges through either
    /// record the node's hash as the submission's new `submitted_data_hash`.
    pub fn with_data(self, data: NodeData) -> Store {
        match self {
            Store::Sqlite(s) => Store::Sqlite(s.with_data(data.claiming_anything())),
            Store::Postgres(s) => Store::Postgres(s.with_data(data)),
        }
    }

    /// The package data this store's node judges with, if set.
    pub fn data(&self) -> Option<&NodeData> {
        each!(self, s => s.data.as_ref())
    }

    /// How long a node may go without a heartbeat before it counts as dead.
    pub fn lease_duration(&self) -> Duration {
        self.lease().duration()
    }
}

impl SubmissionReads for Store {
    async fn get(&self, id: i64) -> Result<Option<Submission>, StoreError> {
        each!(self, s => s.get(id).await)
    }

    async fn list_filtered(
        &self,
        owner: Option<i64>,
        filter: &ListFilter,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        each!(self, s => s.list_filtered(owner, filter, limit, before).await)
    }

    async fn queued_by_owner(&self, limit: u32) -> Result<Vec<(String, u64)>, StoreError> {
        each!(self, s => s.queued_by_owner(limit).await)
    }
}

impl Gauges for Store {
    async fn depth_by_status(&self) -> Result<Vec<(Status, u64)>, StoreError> {
        each!(self, s => s.depth_by_status().await)
    }

    async fn queued_groups(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        each!(self, s => s.queued_groups().await)
    }

    async fn refused(&self) -> Result<Vec<QueuedGroup>, StoreError> {
        each!(self, s => s.refused().await)
    }
}

impl Queue for Store {
    async fn enqueue(&self, new: NewSubmission) -> Result<i64, StoreError> {
        each!(self, s => s.enqueue(new).await)
    }

    async fn enqueue_bounded(
        &self,
        new: NewSubmission,
        bounds: QueueBounds,
    ) -> Result<Enqueued, StoreError> {
        each!(self, s => s.enqueue_bounded(new, bounds).await)
    }

    async fn cancel_queued(&self, owner: i64) -> Result<u64, StoreError> {
        each!(self, s => s.cancel_queued(owner).await)
    }

    async fn claim(&self, worker: &str) -> Result<Option<Claimed>, StoreError> {
        each!(self, s => s.claim(worker).await)
    }

    async fn mark_running(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        each!(self, s => s.mark_running(id, attempt).await)
    }

    async fn complete(
        &self,
        id: i64,
        attempt: i64,
        report: &JudgeReport,
    ) -> Result<bool, StoreError> {
        each!(self, s => s.complete(id, attempt, report).await)
    }

    async fn release(&self, id: i64, attempt: i64) -> Result<(), StoreError> {
        each!(self, s => s.release(id, attempt).await)
    }

    async fn requeue_stale(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        each!(self, s => s.requeue_stale(max_attempts).await)
    }

    async fn rejudge(&self, id: i64) -> Result<RejudgeOutcome, StoreError> {
        each!(self, s => s.rejudge(id).await)
    }

    async fn depth(&self) -> Result<u64, StoreError> {
        each!(self, s => s.depth().await)
    }
}

impl AccountStore for Store {
    async fn any_users(&self) -> Result<bool, StoreError> {
        each!(self, s => s.any_users().await)
    }

    async fn add_users(&self, users: &[NewUser]) -> Result<Vec<i64>, StoreError> {
        each!(self, s => s.add_users(users).await)
    }

    async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        each!(self, s => s.list_users().await)
    }

    async fn credentials(&self, name: &UserName) -> Result<Option<Credentials>, StoreError> {
        each!(self, s => s.credentials(name).await)
    }

    async fn set_disabled(&self, name: &UserName, disabled: bool) -> Result<bool, StoreError> {
        each!(self, s => s.set_disabled(name, disabled).await)
    }

    async fn set_password(&self, name: &UserName, password_hash: &str) -> Result<bool, StoreError> {
        each!(self, s => s.set_password(name, password_hash).await)
    }

    async fn add_token(
        &self,
        user_id: i64,
        hash: &TokenHash,
        kind: TokenKind,
        expires_in: Option<Duration>,
    ) -> Result<(), StoreError> {
        each!(self, s => s.add_token(user_id, hash, kind, expires_in).await)
    }

    async fn token_user(&self, hash: &TokenHash) -> Result<Option<User>, StoreError> {
        each!(self, s => s.token_user(hash).await)
    }

    async fn revoke_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        each!(self, s => s.revoke_token(hash).await)
    }

    async fn submission_owner(&self, id: i64) -> Result<Option<Option<i64>>, StoreError> {
        each!(self, s => s.submission_owner(id).await)
    }

    async fn list_scoped(
        &self,
        scope: SubmissionScope,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        each!(self, s => s.list_scoped(scope, problem, limit, before).await)
    }
}

impl NodeStore for Store {
    async fn register_node(&self, node: &NodeRegistration) -> Result<(), StoreError> {
        each!(self, s => s.register_node(node).await)
    }

    async fn heartbeat(&self) -> Result<u64, StoreError> {
        each!(self, s => s.heartbeat().await)
    }

    async fn requeue_expired(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        each!(self, s => s.requeue_expired(max_attempts).await)
    }

    async fn deregister_node(&self) -> Result<(), StoreError> {
        each!(self, s => s.deregister_node().await)
    }

    async fn list_nodes(&self) -> Result<Vec<Node>, StoreError> {
        each!(self, s => s.list_nodes().await)
    }
}

impl ContestStore for Store {
    async fn participation(
        &self,
        contest: &str,
        user_id: i64,
    ) -> Result<Option<Timestamp>, StoreError> {
        each!(self, s => s.participation(contest, user_id).await)
    }

    async fn start_participation(
        &self,
        contest: &str,
        user_id: i64,
        at: Timestamp,
    ) -> Result<(Timestamp, bool), StoreError> {
        each!(self, s => s.start_participation(contest, user_id, at).await)
    }

    async fn enqueue_contest(
        &self,
        new: NewContestSubmission,
    ) -> Result<ContestEnqueue, StoreError> {
        each!(self, s => s.enqueue_contest(new).await)
    }

    async fn contest_state(&self, contest: &str) -> Result<ContestState, StoreError> {
        each!(self, s => s.contest_state(contest).await)
    }

    async fn board_data(&self, contest: &str) -> Result<BoardData, StoreError> {
        each!(self, s => s.board_data(contest).await)
    }

    async fn set_unfrozen(&self, contest: &str, unfrozen: bool) -> Result<(), StoreError> {
        each!(self, s => s.set_unfrozen(contest, unfrozen).await)
    }

    async fn rejudge_label(&self, contest: &str, label: &str) -> Result<RejudgeCount, StoreError> {
        each!(self, s => s.rejudge_label(contest, label).await)
    }

    async fn add_clarification(
        &self,
        new: NewClarification,
        rate: Option<crate::contest::Rate>,
    ) -> Result<ClarificationAdded, StoreError> {
        each!(self, s => s.add_clarification(new, rate).await)
    }

    async fn unanswered(&self, contest: &str) -> Result<u64, StoreError> {
        each!(self, s => s.unanswered(contest).await)
    }

    async fn answer_clarification(
        &self,
        contest: &str,
        id: i64,
        answer: &str,
        public: bool,
        by: Option<i64>,
        at: Timestamp,
    ) -> Result<bool, StoreError> {
        each!(self, s => s.answer_clarification(contest, id, answer, public, by, at).await)
    }

    async fn clarifications(
        &self,
        contest: &str,
        viewer: Option<i64>,
        page: ClarificationPage,
    ) -> Result<Vec<Clarification>, StoreError> {
        each!(self, s => s.clarifications(contest, viewer, page).await)
    }
}
