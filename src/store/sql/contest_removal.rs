//! [`ContestRemovalStore`] for [`Store`]: one transaction, one SQL text per query for both
//! backends.

use jiff::Timestamp;

use crate::store::any::each;
use crate::store::contest_removal::{ContestRemovalStore, DefDelete, TOMBSTONE};
use crate::store::contests::db_time;
use crate::store::dialect::Dialect;
use crate::store::{Store, StoreError};

const SUBMISSIONS: &str = "SELECT COUNT(*) FROM submissions WHERE contest = $1";

const BURY: &str = "UPDATE contest_defs SET definition = $2, revision = revision + 1,
 updated_at = $3 WHERE id = $1 AND definition <> $2 RETURNING revision";

/// What goes with a deleted contest (its submissions would block the deletion).
const WITH_IT: [&str; 4] = [
    "DELETE FROM contest_participations WHERE contest = $1",
    "DELETE FROM clarifications WHERE contest = $1",
    "DELETE FROM balloons_delivered WHERE contest = $1",
    "DELETE FROM rejudgings WHERE contest = $1",
];

const MOVE_BOARD: &str = "INSERT INTO contest_state (contest, version) VALUES ($1, 1)
 ON CONFLICT (contest) DO UPDATE SET version = contest_state.version + 1";

impl ContestRemovalStore for Store {
    async fn delete_contest_def(&self, id: &str, at: Timestamp) -> Result<DefDelete, StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            // As creating one does (PostgreSQL's advisory lock, to the commit).
            db.lock(&mut tx, "contest_defs").await?;
            let n: i64 = sqlx::query_scalar(SUBMISSIONS)
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
            if n > 0 {
                tx.rollback().await?;
                return Ok(DefDelete::HasSubmissions(u64::try_from(n).unwrap_or(0)));
            }
            let buried: Option<i64> = sqlx::query_scalar(BURY)
                .bind(id)
                .bind(TOMBSTONE)
                .bind(db_time(at))
                .fetch_optional(&mut *tx)
                .await?;
            let Some(revision) = buried else {
                tx.rollback().await?;
                return Ok(DefDelete::Missing);
            };
            for query in WITH_IT {
                sqlx::query(query).bind(id).execute(&mut *tx).await?;
            }
            sqlx::query(MOVE_BOARD).bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(DefDelete::Deleted(u64::try_from(revision).unwrap_or(0)))
        })
    }
}
