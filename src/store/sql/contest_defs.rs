//! [`ContestDefStore`] for [`Store`]: one SQL text per query for both backends.

use jiff::Timestamp;

use crate::store::any::each;
use crate::store::contest_defs::{ContestDefStore, DefWrite, StoredContest};
use crate::store::contests::db_time;
use crate::store::dialect::Dialect;
use crate::store::{Store, StoreError};

/// The sum of the revisions (moves with every create, edit and delete: a deleted contest's
/// row stays, a tombstone with its revision raised, [`crate::store::contest_removal`]).
const VERSION: &str = "SELECT CAST(COALESCE(SUM(revision), 0) AS BIGINT) FROM contest_defs";

const ALL: &str = "SELECT id, definition, revision FROM contest_defs ORDER BY id";

/// The stored contests, tombstones left out.
const COUNT: &str = "SELECT COUNT(*) FROM contest_defs WHERE definition <> ''";

/// A new contest, or one made again over its tombstone (its revision raised, never back to
/// 1, so the version keeps growing); nothing over a live contest.
const CREATE: &str = "INSERT INTO contest_defs (id, definition, revision, created_at, updated_at)
 VALUES ($1, $2, 1, $3, $3) ON CONFLICT (id) DO UPDATE SET definition = excluded.definition,
 revision = contest_defs.revision + 1, created_at = excluded.created_at,
 updated_at = excluded.updated_at WHERE contest_defs.definition = ''
 RETURNING revision";

const UPDATE: &str = "UPDATE contest_defs SET definition = $2, revision = revision + 1,
 updated_at = $4 WHERE id = $1 AND revision = $3 AND definition <> ''";

const REVISION: &str = "SELECT revision FROM contest_defs WHERE id = $1 AND definition <> ''";

const MOVE_BOARD: &str = "INSERT INTO contest_state (contest, version) VALUES ($1, 1)
 ON CONFLICT (contest) DO UPDATE SET version = contest_state.version + 1";

const LABELS: &str =
    "SELECT DISTINCT label FROM submissions WHERE contest = $1 AND label IS NOT NULL ORDER BY label";

impl ContestDefStore for Store {
    async fn defs_version(&self) -> Result<u64, StoreError> {
        let v: i64 = each!(self, |db| sqlx::query_scalar(VERSION)
            .fetch_one(db.read())
            .await?);
        Ok(u64::try_from(v).unwrap_or(0))
    }

    async fn contest_defs(&self) -> Result<Vec<StoredContest>, StoreError> {
        let rows: Vec<(String, String, i64)> =
            each!(self, |db| sqlx::query_as(ALL).fetch_all(db.read()).await?);
        Ok(rows
            .into_iter()
            .map(|(id, definition, revision)| StoredContest {
                id,
                definition,
                revision: u64::try_from(revision).unwrap_or(0),
            })
            .collect())
    }

    async fn create_contest_def(
        &self,
        id: &str,
        definition: &str,
        at: Timestamp,
        max: u64,
    ) -> Result<Option<DefWrite>, StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            db.lock(&mut tx, "contest_defs").await?;
            let n: i64 = sqlx::query_scalar(COUNT).fetch_one(&mut *tx).await?;
            if u64::try_from(n).unwrap_or(0) >= max {
                tx.rollback().await?;
                return Ok(None);
            }
            let made: Option<i64> = sqlx::query_scalar(CREATE)
                .bind(id)
                .bind(definition)
                .bind(db_time(at))
                .fetch_optional(&mut *tx)
                .await?;
            let Some(revision) = made else {
                tx.rollback().await?;
                return Ok(Some(DefWrite::Missing));
            };
            sqlx::query(MOVE_BOARD).bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(Some(DefWrite::Stored(u64::try_from(revision).unwrap_or(1))))
        })
    }

    async fn update_contest_def(
        &self,
        id: &str,
        definition: &str,
        revision: u64,
        at: Timestamp,
    ) -> Result<DefWrite, StoreError> {
        let expected = i64::try_from(revision).unwrap_or(i64::MAX);
        each!(self, |db| {
            let mut tx = db.write().await?;
            let changed = sqlx::query(UPDATE)
                .bind(id)
                .bind(definition)
                .bind(expected)
                .bind(db_time(at))
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if changed == 0 {
                let now: Option<i64> = sqlx::query_scalar(REVISION)
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
                tx.rollback().await?;
                return Ok(if now.is_some() {
                    DefWrite::Stale
                } else {
                    DefWrite::Missing
                });
            }
            sqlx::query(MOVE_BOARD).bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(DefWrite::Stored(revision + 1))
        })
    }

    async fn touch_contest(&self, contest: &str) -> Result<(), StoreError> {
        each!(self, |db| db
            .execute(sqlx::query(MOVE_BOARD).bind(contest))
            .await?);
        Ok(())
    }

    async fn labels_with_submissions(&self, contest: &str) -> Result<Vec<String>, StoreError> {
        each!(self, |db| Ok(sqlx::query_scalar(LABELS)
            .bind(contest)
            .fetch_all(db.read())
            .await?))
    }
}
