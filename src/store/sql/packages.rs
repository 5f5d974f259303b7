//! [`PackageStore`] for [`Store`]: the uploaded packages' zips by problem id and hash.

use std::collections::BTreeMap;

use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::packages::{NewPackage, PackageStore, StoredPackage};
use crate::store::{Store, StoreError, StoreNode};

impl PackageStore for Store {
    async fn put_package(&self, p: NewPackage<'_>) -> Result<bool, StoreError> {
        let bytes = i64::try_from(p.zip.len()).unwrap_or(i64::MAX);
        each!(self, |db| {
            let sql = format!(
                "INSERT INTO packages (problem, data_hash, zip, bytes, uploaded_by, uploaded_at)
                 VALUES ($1, $2, $3, $4, $5, {}) ON CONFLICT (problem) DO NOTHING",
                db.now()
            );
            let insert = sqlx::query(&sql)
                .bind(p.problem)
                .bind(p.data_hash)
                .bind(p.zip)
                .bind(bytes)
                .bind(p.uploaded_by);
            Ok(db.execute(insert).await? == 1)
        })
    }

    async fn stored_packages(&self) -> Result<Vec<StoredPackage>, StoreError> {
        each!(self, |db| Ok(sqlx::query_as(
            "SELECT problem, data_hash FROM packages ORDER BY problem"
        )
        .fetch_all(db.read())
        .await?))
    }

    async fn package_zip(
        &self,
        problem: &str,
        data_hash: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        each!(self, |db| Ok(sqlx::query_scalar(
            "SELECT zip FROM packages WHERE problem = $1 AND data_hash = $2"
        )
        .bind(problem)
        .bind(data_hash)
        .fetch_optional(db.read())
        .await?))
    }

    async fn set_node_hashes(&self, hashes: &BTreeMap<String, String>) -> Result<(), StoreError> {
        let json = serde_json::to_string(hashes).unwrap_or_else(|_| "{}".into());
        each!(self, |db| {
            let update =
                sqlx::query("UPDATE nodes SET hashes = $1 WHERE name = $2 AND instance = $3")
                    .bind(&json)
                    .bind(self.lease().node())
                    .bind(self.lease().instance());
            db.execute(update).await?;
            Ok(())
        })
    }
}
