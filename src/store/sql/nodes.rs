//! [`NodeStore`] for [`Store`]: registration, heartbeats that renew leases, and on a shared
//! database (PostgreSQL) the sweep that hands a dead node's claims to the others. The one
//! daemon of a SQLite file does not act on expiry: a crash is recovered at its next start.

use super::queue::{requeue_lost, Lost};
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::StaleOutcome;
use crate::store::nodes::{Node, NodeRegistration, NodeRow, NodeStore};
use crate::store::{Store, StoreError, StoreNode};

impl NodeStore for Store {
    async fn register_node(&self, node: &NodeRegistration) -> Result<(), StoreError> {
        let hashes = serde_json::to_string(&node.hashes).unwrap_or_else(|_| "{}".into());
        let lease = self.lease();
        each!(self, |db| {
            let sql = format!(
                "INSERT INTO nodes (name, kind, instance, slots, hashes, started_at, heartbeat_at)
                 VALUES ($1, $2, $3, $4, $5, {}, {})
                 ON CONFLICT (name) DO UPDATE SET kind = excluded.kind,
                     instance = excluded.instance, slots = excluded.slots,
                     hashes = excluded.hashes, started_at = excluded.started_at,
                     heartbeat_at = excluded.heartbeat_at",
                db.now(),
                db.instant()
            );
            let register = sqlx::query(&sql)
                .bind(lease.node())
                .bind(node.kind.as_str())
                .bind(lease.instance())
                .bind(i64::try_from(node.slots).unwrap_or(i64::MAX))
                .bind(&hashes);
            db.execute(register).await?
        });
        Ok(())
    }

    async fn heartbeat(&self) -> Result<u64, StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            sqlx::query(&format!(
                "UPDATE nodes SET heartbeat_at = {} WHERE name = $1 AND instance = $2",
                db.instant()
            ))
            .bind(self.lease().node())
            .bind(self.lease().instance())
            .execute(&mut *tx)
            .await?;
            let held = sqlx::query(&format!(
                "UPDATE submissions SET lease_expires_at = {}
                 WHERE lease_owner = $2 AND status IN ('compiling', 'running')",
                db.lease_end(1)
            ))
            .bind(self.lease().millis())
            .bind(self.lease().instance())
            .execute(&mut *tx)
            .await?
            .rows_affected();
            tx.commit().await?;
            Ok(held)
        })
    }

    async fn requeue_expired(&self, max_attempts: u32) -> Result<StaleOutcome, StoreError> {
        if !self.is_shared() {
            return Ok(StaleOutcome::default());
        }
        requeue_lost(self, Lost::Expired, max_attempts).await
    }

    async fn deregister_node(&self) -> Result<(), StoreError> {
        const LEAVE: &str = "DELETE FROM nodes WHERE name = $1 AND instance = $2";
        let lease = self.lease();
        each!(self, |db| db
            .execute(sqlx::query(LEAVE).bind(lease.node()).bind(lease.instance()))
            .await?);
        Ok(())
    }

    async fn list_nodes(&self) -> Result<Vec<Node>, StoreError> {
        let rows: Vec<NodeRow> = each!(self, |db| sqlx::query_as(&format!(
            "SELECT name, kind, slots, hashes, started_at, {} AS heartbeat_age_ms
             FROM nodes ORDER BY name",
            db.age_ms("heartbeat_at")
        ))
        .fetch_all(db.read())
        .await?);
        rows.into_iter()
            .map(|r| r.into_node(self.lease().millis()))
            .collect()
    }
}
