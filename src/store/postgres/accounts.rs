//! [`AccountStore`] on PostgreSQL: users, tokens and submission owners.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::accounts::{SubmissionScope, TokenHash, UserName};

use super::PgStore;
use crate::store::accounts::{
    to_user, AccountStore, Credentials, CredentialsRow, NewUser, TokenKind, TokenUserRow, User,
    UserRow, USER_COLUMNS,
};
use crate::store::model::Submission;
use crate::store::submissions::SubmissionReads;
use crate::store::StoreError;

impl AccountStore for PgStore {
    async fn any_users(&self) -> Result<bool, StoreError> {
        let any: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users)")
            .fetch_one(&self.pool)
            .await?;
        Ok(any)
    }

    async fn add_users(&self, users: &[NewUser]) -> Result<Vec<i64>, StoreError> {
        let mut seen = BTreeSet::new();
        if let Some(twice) = users.iter().find(|u| !seen.insert(u.name.as_str())) {
            return Err(StoreError::DuplicateUser(twice.name.to_string()));
        }
        let mut tx = self.pool.begin().await?;
        let mut ids = Vec::with_capacity(users.len());
        for u in users {
            // ON CONFLICT keeps the transaction usable: a taken name is reported, not raised.
            let id: Option<i64> = sqlx::query_scalar(
                "INSERT INTO users (name, display_name, role, password_hash)
                 VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING RETURNING id",
            )
            .bind(u.name.as_str())
            .bind(&u.display_name)
            .bind(u.role.as_str())
            .bind(&u.password_hash)
            .fetch_optional(&mut *tx)
            .await?;
            match id {
                Some(id) => ids.push(id),
                None => {
                    tx.rollback().await?;
                    return Err(StoreError::DuplicateUser(u.name.to_string()));
                }
            }
        }
        tx.commit().await?;
        Ok(ids)
    }

    async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        let rows: Vec<UserRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS} FROM users u ORDER BY u.name"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(to_user).collect()
    }

    async fn credentials(&self, name: &UserName) -> Result<Option<Credentials>, StoreError> {
        let row: Option<CredentialsRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS}, u.password_hash FROM users u WHERE u.name = $1"
        ))
        .bind(name.as_str())
        .fetch_optional(&self.pool)
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
        let mut tx = self.pool.begin().await?;
        let id: Option<i64> =
            sqlx::query_scalar("UPDATE users SET disabled = $1 WHERE name = $2 RETURNING id")
                .bind(disabled)
                .bind(name.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        if let (Some(id), true) = (id, disabled) {
            sqlx::query("DELETE FROM tokens WHERE user_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id.is_some())
    }

    async fn set_password(&self, name: &UserName, password_hash: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let id: Option<i64> =
            sqlx::query_scalar("UPDATE users SET password_hash = $1 WHERE name = $2 RETURNING id")
                .bind(password_hash)
                .bind(name.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        if let Some(id) = id {
            sqlx::query("DELETE FROM tokens WHERE user_id = $1")
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
        let seconds = expires_in.map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2));
        let mut tx = self.pool.begin().await?;
        // Expired login tokens are dropped as new ones are made, so the table stays small.
        sqlx::query("DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= sj_now()")
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO tokens (user_id, hash, kind, expires_at)
             VALUES ($1, $2, $3, CASE WHEN $4::bigint IS NULL THEN NULL
                 ELSE sj_time(clock_timestamp() + $4::bigint * interval '1 second') END)",
        )
        .bind(user_id)
        .bind(hash.as_str())
        .bind(kind.as_str())
        .bind(seconds)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn token_user(&self, hash: &TokenHash) -> Result<Option<User>, StoreError> {
        let row: Option<TokenUserRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS}, t.hash FROM tokens t JOIN users u ON u.id = t.user_id
             WHERE t.hash = $1 AND NOT u.disabled
               AND (t.expires_at IS NULL OR t.expires_at > sj_now())"
        ))
        .bind(hash.as_str())
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(r) if TokenHash::from_stored(r.hash.clone()).matches(hash) => {
                to_user(r.user).map(Some)
            }
            _ => Ok(None),
        }
    }

    async fn revoke_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        let n = sqlx::query("DELETE FROM tokens WHERE hash = $1")
            .bind(hash.as_str())
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(n > 0)
    }

    async fn submission_owner(&self, id: i64) -> Result<Option<Option<i64>>, StoreError> {
        let row: Option<(Option<i64>,)> =
            sqlx::query_as("SELECT user_id FROM submissions WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
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
