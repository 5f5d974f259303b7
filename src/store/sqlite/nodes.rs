//! [`NodeStore`] on SQLite: the one daemon of the file registers itself and renews its
//! leases; expiry is not acted on (a crash is recovered at the next start instead).

use super::{lease_modifier, SqliteStore, LEASE_END};
use crate::store::model::StaleOutcome;
use crate::store::nodes::{Node, NodeRegistration, NodeRow, NodeStore};
use crate::store::StoreError;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

impl NodeStore for SqliteStore {
    async fn register_node(&self, node: &NodeRegistration) -> Result<(), StoreError> {
        let hashes = serde_json::to_string(&node.hashes).unwrap_or_else(|_| "{}".into());
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(&format!(
            "INSERT INTO nodes (name, kind, instance, slots, hashes, started_at, heartbeat_at)
             VALUES (?, ?, ?, ?, ?, {NOW}, {NOW})
             ON CONFLICT (name) DO UPDATE SET kind = excluded.kind,
                 instance = excluded.instance, slots = excluded.slots,
                 hashes = excluded.hashes, started_at = excluded.started_at,
                 heartbeat_at = excluded.heartbeat_at"
        ))
        .bind(self.lease.node())
        .bind(node.kind.as_str())
        .bind(self.lease.instance())
        .bind(i64::try_from(node.slots).unwrap_or(i64::MAX))
        .bind(hashes)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn heartbeat(&self) -> Result<u64, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(&format!(
            "UPDATE nodes SET heartbeat_at = {NOW} WHERE name = ? AND instance = ?"
        ))
        .bind(self.lease.node())
        .bind(self.lease.instance())
        .execute(&mut *tx)
        .await?;
        let held = sqlx::query(&format!(
            "UPDATE submissions SET lease_expires_at = {LEASE_END}
             WHERE lease_owner = ? AND status IN ('compiling', 'running')"
        ))
        .bind(lease_modifier(&self.lease))
        .bind(self.lease.instance())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(held)
    }

    async fn requeue_expired(&self, _max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        Ok(StaleOutcome::default())
    }

    async fn deregister_node(&self) -> Result<(), StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("DELETE FROM nodes WHERE name = ? AND instance = ?")
            .bind(self.lease.node())
            .bind(self.lease.instance())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn list_nodes(&self) -> Result<Vec<Node>, StoreError> {
        let rows: Vec<NodeRow> = sqlx::query_as(
            "SELECT name, kind, slots, hashes, started_at,
                    CAST((julianday('now') - julianday(heartbeat_at)) * 86400000 AS INTEGER)
                        AS heartbeat_age_ms
             FROM nodes ORDER BY name",
        )
        .fetch_all(&self.reader)
        .await?;
        rows.into_iter()
            .map(|r| r.into_node(self.lease.millis()))
            .collect()
    }
}
