//! Roster groups (issue 26, point 3): a user's group (`user_groups`, migrations 0011 and
//! postgres/0005), so a contest file's `participants = ["group:class-7b", "alice"]` admits
//! and lists every member; and a contest's counters row made before its first board, so the
//! triggers of those migrations (a user added or grouped moves every contest's version)
//! reach a contest nothing was submitted to yet. The same SQL text on both stores.

use std::future::Future;

use super::any::Store;
use super::postgres::PgStore;
use super::sqlite::SqliteStore;
use super::StoreError;

/// A user's name and the group to put them in.
pub type Grouping = (String, String);

const SET_GROUP: &str = "INSERT INTO user_groups (user_id, grp)
 SELECT id, $2 FROM users WHERE name = $1
 ON CONFLICT (user_id) DO UPDATE SET grp = excluded.grp";

const GROUP_OF: &str = "SELECT grp FROM user_groups WHERE user_id = $1";

const MEMBERS: &str = "SELECT u.name FROM user_groups g JOIN users u ON u.id = g.user_id
 WHERE g.grp = $1 ORDER BY u.name";

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

    /// Makes `contest`'s counters row (version 0) if it has none, so the users' triggers
    /// move its version too.
    fn track_contest(&self, contest: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
}

impl GroupStore for SqliteStore {
    async fn set_groups(&self, groups: &[Grouping]) -> Result<(), StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        for (name, group) in groups {
            sqlx::query(SET_GROUP)
                .bind(name)
                .bind(group)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn group_of(&self, user_id: i64) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(GROUP_OF)
            .bind(user_id)
            .fetch_optional(&self.reader)
            .await?)
    }

    async fn members(&self, group: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(MEMBERS)
            .bind(group)
            .fetch_all(&self.reader)
            .await?)
    }

    async fn track_contest(&self, contest: &str) -> Result<(), StoreError> {
        sqlx::query(TRACK)
            .bind(contest)
            .execute(&self.writer)
            .await?;
        Ok(())
    }
}

impl GroupStore for PgStore {
    async fn set_groups(&self, groups: &[Grouping]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (name, group) in groups {
            sqlx::query(SET_GROUP)
                .bind(name)
                .bind(group)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn group_of(&self, user_id: i64) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(GROUP_OF)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?)
    }

    async fn members(&self, group: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(MEMBERS)
            .bind(group)
            .fetch_all(&self.pool)
            .await?)
    }

    async fn track_contest(&self, contest: &str) -> Result<(), StoreError> {
        sqlx::query(TRACK).bind(contest).execute(&self.pool).await?;
        Ok(())
    }
}

impl GroupStore for Store {
    async fn set_groups(&self, groups: &[Grouping]) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.set_groups(groups).await,
            Store::Postgres(s) => s.set_groups(groups).await,
        }
    }

    async fn group_of(&self, user_id: i64) -> Result<Option<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.group_of(user_id).await,
            Store::Postgres(s) => s.group_of(user_id).await,
        }
    }

    async fn members(&self, group: &str) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.members(group).await,
            Store::Postgres(s) => s.members(group).await,
        }
    }

    async fn track_contest(&self, contest: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.track_contest(contest).await,
            Store::Postgres(s) => s.track_contest(contest).await,
        }
    }
}
