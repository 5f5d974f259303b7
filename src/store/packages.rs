//! Packages added to a running judge (`packages`, migrations sqlite/0015 and postgres/0009):
//! the uploaded zip by problem id with its data hash, so every node sharing the database
//! fetches it and serves the same data; and the node's own hashes in `nodes` refreshed once
//! it serves one more problem.

use std::collections::BTreeMap;
use std::future::Future;

use super::StoreError;

/// A stored package: its problem id and data hash (hex), without the zip.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredPackage {
    /// The problem id.
    pub problem: String,
    /// The data hash of the package as the uploading node loaded it.
    pub data_hash: String,
}

/// A package to store.
#[derive(Debug, Clone, Copy)]
pub struct NewPackage<'a> {
    /// The problem id.
    pub problem: &'a str,
    /// Its data hash (hex).
    pub data_hash: &'a str,
    /// The zip as uploaded.
    pub zip: &'a [u8],
    /// Who uploaded it (`None`: the open mode's host).
    pub uploaded_by: Option<&'a str>,
}

/// The packages uploaded to a running judge.
pub trait PackageStore: Send + Sync + 'static {
    /// Stores `package`; `false` when a package of that problem id is stored already (an id
    /// is never replaced).
    fn put_package(
        &self,
        package: NewPackage<'_>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Every stored package's id and hash, by id: what a node compares with what it serves.
    fn stored_packages(
        &self,
    ) -> impl Future<Output = Result<Vec<StoredPackage>, StoreError>> + Send;

    /// The zip of `problem` when the stored one has `data_hash`.
    fn package_zip(
        &self,
        problem: &str,
        data_hash: &str,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, StoreError>> + Send;

    /// Replaces this node's hashes in `nodes` (after it loaded one more problem), so
    /// `GET /api/nodes` and the other nodes' refusal logs see what it serves now.
    fn set_node_hashes(
        &self,
        hashes: &BTreeMap<String, String>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}
