//! [`NodeStore`] on PostgreSQL: registration, heartbeats that renew leases, and the sweep
//! that hands a dead node's claims to the others.

use super::queue::{requeue_lost, Lost};
use super::PgStore;
use crate::store::model::StaleOutcome;
use crate::store::nodes::{Node, NodeRegistration, NodeRow, NodeStore};
use crate::store::StoreError;

impl NodeStore for PgStore {
    async fn register_node(&self, node: &NodeRegistration) -> Result<(), StoreError> {
        let hashes = serde_json::to_string(&node.hashes).unwrap_or_else(|_| "{}".into());
        sqlx::query(
            "INSERT INTO nodes (name, kind, instance, slots, hashes, started_at, heartbeat_at)
             VALUES ($1, $2, $3, $4, $5, sj_now(), now())
             ON CONFLICT (name) DO UPDATE SET kind = excluded.kind,
                 instance = excluded.instance, slots = excluded.slots,
                 hashes = excluded.hashes, started_at = excluded.started_at,
                 heartbeat_at = excluded.heartbeat_at",
        )
        .bind(self.lease.node())
        .bind(node.kind.as_str())
        .bind(self.lease.instance())
        .bind(i64::try_from(node.slots).unwrap_or(i64::MAX))
        .bind(hashes)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn heartbeat(&self) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE nodes SET heartbeat_at = now() WHERE name = $1 AND instance = $2")
            .bind(self.lease.node())
            .bind(self.lease.instance())
            .execute(&mut *tx)
            .await?;
        let held = sqlx::query(
            "UPDATE submissions
             SET lease_expires_at = now() + $1 * interval '1 millisecond'
             WHERE lease_owner = $2 AND status IN ('compiling', 'running')",
        )
        .bind(self.lease.millis() as f64)
        .bind(self.lease.instance())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(held)
    }

    async fn requeue_expired(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        requeue_lost(self, Lost::Expired, max_attempts).await
    }

    async fn deregister_node(&self) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM nodes WHERE name = $1 AND instance = $2")
            .bind(self.lease.node())
            .bind(self.lease.instance())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn list_nodes(&self) -> Result<Vec<Node>, StoreError> {
        let rows: Vec<NodeRow> = sqlx::query_as(
            "SELECT name, kind, slots, hashes, started_at,
                    CAST(EXTRACT(EPOCH FROM (now() - heartbeat_at)) * 1000 AS BIGINT)
                        AS heartbeat_age_ms
             FROM nodes ORDER BY name",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| r.into_node(self.lease.millis()))
            .collect()
    }
}
