//! [`AccountStore`] for [`Store`]: users, tokens and submission owners.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::accounts::{SubmissionScope, TokenHash, UserName};
use crate::store::accounts::{
    to_user, AccountStore, Credentials, CredentialsRow, NewUser, TokenKind, TokenUserRow, User,
    UserRow, USER_COLUMNS,
};
use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::model::Submission;
use crate::store::submissions::SubmissionReads;
use crate::store::{Store, StoreError};

impl AccountStore for Store {
    async fn any_users(&self) -> Result<bool, StoreError> {
        each!(self, |db| {
            let any: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users)")
                .fetch_one(db.read())
                .await?;
            Ok(any)
        })
    }

    async fn add_users(&self, users: &[NewUser]) -> Result<Vec<i64>, StoreError> {
        let mut seen = BTreeSet::new();
        if let Some(twice) = users.iter().find(|u| !seen.insert(u.name.as_str())) {
            return Err(StoreError::DuplicateUser(twice.name.to_string()));
        }
        each!(self, |db| {
            let mut tx = db.write().await?;
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
        })
    }

    async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        each!(self, |db| {
            let rows: Vec<UserRow> = sqlx::query_as(&format!(
                "SELECT {USER_COLUMNS} FROM users u ORDER BY u.name"
            ))
            .fetch_all(db.read())
            .await?;
            rows.into_iter().map(to_user).collect()
        })
    }

    async fn credentials(&self, name: &UserName) -> Result<Option<Credentials>, StoreError> {
        let row: Option<CredentialsRow> = each!(self, |db| sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS}, u.password_hash FROM users u WHERE u.name = $1"
        ))
        .bind(name.as_str())
        .fetch_optional(db.read())
        .await?);
        row.map(|r| {
            Ok(Credentials {
                user: to_user(r.user)?,
                password_hash: r.password_hash,
            })
        })
        .transpose()
    }

    async fn set_disabled(&self, name: &UserName, disabled: bool) -> Result<bool, StoreError> {
        change_user(self, name, Some(disabled), None).await
    }

    async fn set_password(&self, name: &UserName, password_hash: &str) -> Result<bool, StoreError> {
        change_user(self, name, None, Some(password_hash)).await
    }

    async fn add_token(
        &self,
        user_id: i64,
        hash: &TokenHash,
        kind: TokenKind,
        expires_in: Option<Duration>,
    ) -> Result<(), StoreError> {
        let seconds = expires_in.map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2));
        each!(self, |db| {
            let mut tx = db.write().await?;
            // Expired login tokens are dropped as new ones are made, so the table stays small.
            sqlx::query(&format!(
                "DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= {}",
                db.now()
            ))
            .execute(&mut *tx)
            .await?;
            // `expires_at` is NULL (never) when `$4` is.
            sqlx::query(&format!(
                "INSERT INTO tokens (user_id, hash, kind, expires_at) VALUES ($1, $2, $3, {})",
                db.later(4)
            ))
            .bind(user_id)
            .bind(hash.as_str())
            .bind(kind.as_str())
            .bind(seconds)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    async fn token_user(&self, hash: &TokenHash) -> Result<Option<User>, StoreError> {
        let row: Option<TokenUserRow> = each!(self, |db| sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS}, t.hash FROM tokens t JOIN users u ON u.id = t.user_id
             WHERE t.hash = $1 AND NOT u.disabled
               AND (t.expires_at IS NULL OR t.expires_at > {})",
            db.now()
        ))
        .bind(hash.as_str())
        .fetch_optional(db.read())
        .await?);
        match row {
            Some(r) if TokenHash::from_stored(r.hash.clone()).matches(hash) => {
                to_user(r.user).map(Some)
            }
            _ => Ok(None),
        }
    }

    async fn revoke_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        const REVOKE: &str = "DELETE FROM tokens WHERE hash = $1";
        let n = each!(self, |db| db
            .execute(sqlx::query(REVOKE).bind(hash.as_str()))
            .await?);
        Ok(n > 0)
    }

    async fn submission_owner(&self, id: i64) -> Result<Option<Option<i64>>, StoreError> {
        each!(self, |db| {
            let row: Option<(Option<i64>,)> =
                sqlx::query_as("SELECT user_id FROM submissions WHERE id = $1")
                    .bind(id)
                    .fetch_optional(db.read())
                    .await?;
            Ok(row.map(|(owner,)| owner))
        })
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

/// Disables (`disabled`) or enables the user `name`, or replaces their password hash, in one
/// transaction; a disabled user's tokens and a changed password's sessions are revoked.
/// `false` when there is no such user.
async fn change_user(
    store: &Store,
    name: &UserName,
    disabled: Option<bool>,
    password_hash: Option<&str>,
) -> Result<bool, StoreError> {
    let revoke = disabled == Some(true) || password_hash.is_some();
    each!(store, |db| {
        let mut tx = db.write().await?;
        let id: Option<i64> = sqlx::query_scalar(
            "UPDATE users SET disabled = COALESCE($1, disabled),
                              password_hash = COALESCE($2, password_hash)
             WHERE name = $3 RETURNING id",
        )
        .bind(disabled)
        .bind(password_hash)
        .bind(name.as_str())
        .fetch_optional(&mut *tx)
        .await?;
        if let (Some(id), true) = (id, revoke) {
            sqlx::query("DELETE FROM tokens WHERE user_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id.is_some())
    })
}
