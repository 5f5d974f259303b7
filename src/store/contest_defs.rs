//! Contests made or edited at runtime (issue 30, point 2): their definitions (the text of a
//! contest file) in `contest_defs` (migrations sqlite/0016 and postgres/0010), so every node
//! of a cluster serves the same contest. [`super::Store`] implements it in
//! `sql/contest_defs.rs`; the checks and the rules (who may, what an edit may change) are the
//! caller's, this only stores.

use std::future::Future;

use jiff::Timestamp;

use super::StoreError;

/// A contest definition as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredContest {
    /// Its id.
    pub id: String,
    /// The text of a contest file.
    pub definition: String,
    /// 1 when made, one more with each edit (and each deletion and making again).
    pub revision: u64,
}

/// What storing an edit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefWrite {
    /// Stored, now at this revision.
    Stored(u64),
    /// Nothing stored: the id is taken (create) or missing (edit).
    Missing,
    /// Nothing stored: someone else's edit came first (the revision checked is not the
    /// stored one).
    Stale,
}

/// The stored contest definitions.
pub trait ContestDefStore: Send + Sync + 'static {
    /// A number that grows with every create, edit and delete (the sum of the revisions,
    /// tombstones' included): what each node compares with its copy's before serving a
    /// request.
    fn defs_version(&self) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Every stored contest, by id, tombstones included (a deleted contest: its definition
    /// [`super::contest_removal::TOMBSTONE`]; its revision counts in the version).
    fn contest_defs(&self) -> impl Future<Output = Result<Vec<StoredContest>, StoreError>> + Send;

    /// Stores a new contest (over a deleted one's tombstone, its revision raised) unless `id`
    /// is taken ([`DefWrite::Missing`]) or `max` contests are stored already (`None` then).
    fn create_contest_def(
        &self,
        id: &str,
        definition: &str,
        at: Timestamp,
        max: u64,
    ) -> impl Future<Output = Result<Option<DefWrite>, StoreError>> + Send;

    /// Replaces the definition of `id` if it is still at `revision`, and moves the contest's
    /// board version in the same transaction (its boards show the new definition).
    fn update_contest_def(
        &self,
        id: &str,
        definition: &str,
        revision: u64,
        at: Timestamp,
    ) -> impl Future<Output = Result<DefWrite, StoreError>> + Send;

    /// Moves the board version of `contest` (its definition changed outside this table: a
    /// contest file read again), so no board computed before is served again.
    fn touch_contest(&self, contest: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The labels of `contest` that have submissions (any status): what an edit may not
    /// remove or point at another problem.
    fn labels_with_submissions(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
}
