//! Deleting a contest made at runtime (`DELETE /api/contests/{id}`): allowed only while it
//! has no submission (a mistake fixed before anyone used it). The row stays as a tombstone
//! (an empty definition, its revision raised), so the definitions' version (the sum of the
//! revisions, which every node compares with its copy's before serving a request) only ever
//! grows: a deletion can never bring it back to a number a node already holds for other
//! contests. Its registrations, clarifications, balloon marks and rejudgings go with it; its
//! board version moves, so no board or Contest API log computed for it is served again under
//! that id. Implemented for [`super::Store`] in `sql/contest_removal.rs`.

use std::future::Future;

use jiff::Timestamp;

use super::StoreError;

/// What a tombstone holds as its definition: no contest text is empty.
pub const TOMBSTONE: &str = "";

/// What deleting a stored contest did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefDelete {
    /// Deleted: its tombstone is at this revision.
    Deleted(u64),
    /// Nothing deleted: no stored contest has this id (or it was deleted already).
    Missing,
    /// Nothing deleted: it has this many submissions.
    HasSubmissions(u64),
}

/// Deleting the contests made at runtime.
pub trait ContestRemovalStore: Send + Sync + 'static {
    /// Deletes the stored contest `id` unless it has submissions, in one transaction with
    /// its registrations, clarifications, balloon marks and rejudgings; `at` is when.
    fn delete_contest_def(
        &self,
        id: &str,
        at: Timestamp,
    ) -> impl Future<Output = Result<DefDelete, StoreError>> + Send;
}
