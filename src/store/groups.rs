//! Roster groups (issue 26, point 3): a user's group (`user_groups`, migrations 0011 and
//! postgres/0005), so a contest file's `participants = ["group:class-7b", "alice"]` admits
//! and lists every member; and a contest's counters row made before its first board, so the
//! triggers of those migrations (a user added or grouped moves every contest's version)
//! reach a contest nothing was submitted to yet. The same SQL text on both stores.

use std::collections::BTreeMap;
use std::future::Future;

use super::any::{each, Store};
use super::dialect::Dialect;
use super::StoreError;

/// A user's name and the group to put them in.
pub type Grouping = (String, String);

const SET_GROUP: &str = "INSERT INTO user_groups (user_id, grp)
 SELECT id, $2 FROM users WHERE name = $1
 ON CONFLICT (user_id) DO UPDATE SET grp = excluded.grp";

const GROUP_OF: &str = "SELECT grp FROM user_groups WHERE user_id = $1";

const MEMBERS: &str = "SELECT u.name FROM user_groups g JOIN users u ON u.id = g.user_id
 WHERE g.grp = $1 ORDER BY u.name";

const ALL_GROUPS: &str = "SELECT u.name, g.grp FROM user_groups g JOIN users u ON u.id = g.user_id";

const TRACK: &str =
    "INSERT INTO contest_state (contest) VALUES ($1) ON CONFLICT (contest) DO NOTHING";

/// Users' groups.
pub trait GroupStore: Send + Sync + 'static {
    /// Puts each named user in their group (replacing an earlier one), in one transaction;
    /// a name no user has is skipped.
    fn set_groups(
        &self,
        groups: &[Grouping],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The group of user `user_id`, if any.
    fn group_of(
        &self,
        user_id: i64,
    ) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    /// The names of every member of `group`, sorted.
    fn members(&self, group: &str) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// Every grouped user's group, by user name (`sudojudge user list`).
    fn all_groups(
        &self,
    ) -> impl Future<Output = Result<BTreeMap<String, String>, StoreError>> + Send;

    /// Makes `contest`'s counters row (version 0) if it has none, so the users' triggers
    /// move its version too.
    fn track_contest(&self, contest: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
}

impl GroupStore for Store {
    async fn set_groups(&self, groups: &[Grouping]) -> Result<(), StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            for (name, group) in groups {
                sqlx::query(SET_GROUP)
                    .bind(name)
                    .bind(group)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    async fn group_of(&self, user_id: i64) -> Result<Option<String>, StoreError> {
        each!(self, |db| Ok(sqlx::query_scalar(GROUP_OF)
            .bind(user_id)
            .fetch_optional(db.read())
            .await?))
    }

    async fn members(&self, group: &str) -> Result<Vec<String>, StoreError> {
        each!(self, |db| Ok(sqlx::query_scalar(MEMBERS)
            .bind(group)
            .fetch_all(db.read())
            .await?))
    }

    async fn all_groups(&self) -> Result<BTreeMap<String, String>, StoreError> {
        each!(self, |db| {
            let rows: Vec<(String, String)> =
                sqlx::query_as(ALL_GROUPS).fetch_all(db.read()).await?;
            Ok(rows.into_iter().collect())
        })
    }

    async fn track_contest(&self, contest: &str) -> Result<(), StoreError> {
        each!(self, |db| {
            db.execute(sqlx::query(TRACK).bind(contest)).await?;
            Ok(())
        })
    }
}
