//! The jury's "delivered" marks on balloons (`balloons_delivered`, migrations 0009 and
//! postgres/0003), on both stores: a balloon is a contestant's first AC on a problem (computed
//! from the submissions by the contest services); only the mark is stored.

use std::future::Future;

use super::any::{each, Store};
use super::dialect::Dialect;
use super::StoreError;

/// A delivered balloon: the contestant's name and the problem's label.
pub type Delivered = (String, String);

/// Balloons marked delivered.
pub trait BalloonStore: Send + Sync + 'static {
    /// Every balloon of `contest` marked delivered.
    fn delivered(
        &self,
        contest: &str,
    ) -> impl Future<Output = Result<Vec<Delivered>, StoreError>> + Send;

    /// Marks (or, `delivered` false, unmarks) the balloon of user `name` for `label` in
    /// `contest`; marking twice keeps the first mark. `false` when there is no such user.
    fn set_delivered(
        &self,
        contest: &str,
        name: &str,
        label: &str,
        delivered: bool,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
}

impl BalloonStore for Store {
    async fn delivered(&self, contest: &str) -> Result<Vec<Delivered>, StoreError> {
        each!(self, |db| Ok(sqlx::query_as(
            "SELECT u.name, b.label FROM balloons_delivered b JOIN users u ON u.id = b.user_id
             WHERE b.contest = $1",
        )
        .bind(contest)
        .fetch_all(db.read())
        .await?))
    }

    async fn set_delivered(
        &self,
        contest: &str,
        name: &str,
        label: &str,
        delivered: bool,
    ) -> Result<bool, StoreError> {
        let sql = if delivered {
            "INSERT INTO balloons_delivered (contest, user_id, label) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM balloons_delivered WHERE contest = $1 AND user_id = $2 AND label = $3"
        };
        each!(self, |db| {
            let mut tx = db.write().await?;
            let id: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(id) = id else {
                return Ok(false);
            };
            sqlx::query(sql)
                .bind(contest)
                .bind(id)
                .bind(label)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}
