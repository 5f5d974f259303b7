//! [`AccountStore`] on SQLite: users, tokens and submission owners.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::accounts::{SubmissionScope, TokenHash, UserName};

use super::SqliteStore;
use crate::store::accounts::{
    to_user, AccountStore, Credentials, CredentialsRow, NewUser, TokenKind, TokenUserRow, User,
    UserRow, USER_COLUMNS,
};
use crate::store::model::Submission;
use crate::store::submissions::SubmissionReads;
use crate::store::StoreError;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

impl AccountStore for SqliteStore {
    async fn any_users(&self) -> Result<bool, StoreError> {
        let any: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users)")
            .fetch_one(&self.reader)
            .await?;
        Ok(any)
    }

    async fn add_users(&self, users: &[NewUser]) -> Result<Vec<i64>, StoreError> {
        let mut seen = BTreeSet::new();
        if let Some(twice) = users.iter().find(|u| !seen.insert(u.name.as_str())) {
            return Err(StoreError::DuplicateUser(twice.name.to_string()));
        }
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let mut ids = Vec::with_capacity(users.len());
        for u in users {
            let taken: bool =
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users WHERE name = ?)")
                    .bind(u.name.as_str())
                    .fetch_one(&mut *tx)
                    .await?;
            if taken {
                tx.rollback().await?;
                return Err(StoreError::DuplicateUser(u.name.to_string()));
            }
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO users (name, display_name, role, password_hash) VALUES (?, ?, ?, ?)
                 RETURNING id",
            )
            .bind(u.name.as_str())
            .bind(&u.display_name)
            .bind(u.role.as_str())
            .bind(&u.password_hash)
            .fetch_one(&mut *tx)
            .await?;
            ids.push(id);
        }
        tx.commit().await?;
        Ok(ids)
    }

    async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        let rows: Vec<UserRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS} FROM users u ORDER BY u.name"
        ))
        .fetch_all(&self.reader)
        .await?;
        rows.into_iter().map(to_user).collect()
    }

    async fn credentials(&self, name: &UserName) -> Result<Option<Credentials>, StoreError> {
        let row: Option<CredentialsRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS}, u.password_hash FROM users u WHERE u.name = ?"
        ))
        .bind(name.as_str())
        .fetch_optional(&self.reader)
        .await?;
        row.map(|r| {
            Ok(Credentials {
                user: to_user(r.user)?,
                password_hash: r.password_hash,
            })
        })
        .transpose()
    }

    async fn set_disabled(&self, name: &UserName, disabled: bool) -> Result<bool, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let id: Option<i64> =
            sqlx::query_scalar("UPDATE users SET disabled = ? WHERE name = ? RETURNING id")
                .bind(disabled)
                .bind(name.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        if let (Some(id), true) = (id, disabled) {
            sqlx::query("DELETE FROM tokens WHERE user_id = ?")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id.is_some())
    }

    async fn set_password(&self, name: &UserName, password_hash: &str) -> Result<bool, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let id: Option<i64> =
            sqlx::query_scalar("UPDATE users SET password_hash = ? WHERE name = ? RETURNING id")
                .bind(password_hash)
                .bind(name.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        if let Some(id) = id {
            sqlx::query("DELETE FROM tokens WHERE user_id = ?")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id.is_some())
    }

    async fn add_token(
        &self,
        user_id: i64,
        hash: &TokenHash,
        kind: TokenKind,
        expires_in: Option<Duration>,
    ) -> Result<(), StoreError> {
        let expires = expires_in.map(|d| format!("+{} seconds", d.as_secs()));
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        // Expired login tokens are dropped as new ones are made, so the table stays small.
        sqlx::query(&format!(
            "DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= {NOW}"
        ))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO tokens (user_id, hash, kind, expires_at)
             VALUES (?, ?, ?, CASE WHEN ? IS NULL THEN NULL
                                   ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) END)",
        )
        .bind(user_id)
        .bind(hash.as_str())
        .bind(kind.as_str())
        .bind(&expires)
        .bind(&expires)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn token_user(&self, hash: &TokenHash) -> Result<Option<User>, StoreError> {
        let row: Option<TokenUserRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS}, t.hash FROM tokens t JOIN users u ON u.id = t.user_id
             WHERE t.hash = ? AND u.disabled = 0
               AND (t.expires_at IS NULL OR t.expires_at > {NOW})"
        ))
        .bind(hash.as_str())
        .fetch_optional(&self.reader)
        .await?;
        match row {
            Some(r) if TokenHash::from_stored(r.hash.clone()).matches(hash) => {
                to_user(r.user).map(Some)
            }
            _ => Ok(None),
        }
    }

    async fn revoke_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let n = sqlx::query("DELETE FROM tokens WHERE hash = ?")
            .bind(hash.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(n > 0)
    }

    async fn submission_owner(&self, id: i64) -> Result<Option<Option<i64>>, StoreError> {
        let row: Option<(Option<i64>,)> =
            sqlx::query_as("SELECT user_id FROM submissions WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.reader)
                .await?;
        Ok(row.map(|(owner,)| owner))
    }

    async fn list_scoped(
        &self,
        scope: SubmissionScope,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> Result<Vec<Submission>, StoreError> {
        let owner = match scope {
            SubmissionScope::All => None,
            SubmissionScope::Owner(id) => Some(id),
        };
        self.list_owned(owner, problem, limit, before).await
    }
}
