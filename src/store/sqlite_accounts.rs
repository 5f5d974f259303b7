//! [`AccountStore`] on SQLite: users, tokens and submission owners.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::accounts::{SubmissionScope, TokenHash, UserName};

use super::accounts::{
    to_user, AccountStore, Credentials, CredentialsRow, NewUser, TokenKind, TokenUserRow, User,
    UserRow, USER_COLUMNS,
};
use super::model::Submission;
use super::sqlite::SqliteStore;
use super::StoreError;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{Role, Token};
    use crate::store::{NewSubmission, Queue};

    fn new_user(name: &str, role: Role) -> NewUser {
        NewUser {
            name: UserName::parse(name).unwrap(),
            display_name: format!("{name} display"),
            role,
            password_hash: "$argon2id$stub".into(),
        }
    }

    fn sub() -> NewSubmission {
        NewSubmission {
            data_hash: None,
            problem: "sudoku".into(),
            language: "c".into(),
            source: "int main(){}".into(),
            owner: None,
        }
    }

    crate::store::backends::both!(users_tokens_and_owners);

    async fn users_tokens_and_owners(b: &crate::store::backends::Backend) {
        let s = b.open().await;
        assert!(!s.any_users().await.unwrap());
        let ids = s
            .add_users(&[
                new_user("ann", Role::Admin),
                new_user("bob", Role::Contestant),
            ])
            .await
            .unwrap();
        assert!(s.any_users().await.unwrap());
        // A duplicate, in the database or inside one batch: nothing written.
        for batch in [
            vec![
                new_user("cat", Role::Contestant),
                new_user("bob", Role::Contestant),
            ],
            vec![
                new_user("cat", Role::Contestant),
                new_user("cat", Role::Contestant),
            ],
        ] {
            match s.add_users(&batch).await {
                Err(StoreError::DuplicateUser(n)) => assert!(n == "bob" || n == "cat"),
                other => panic!("{other:?}"),
            }
        }
        let names: Vec<String> = s
            .list_users()
            .await
            .unwrap()
            .into_iter()
            .map(|u| u.name.to_string())
            .collect();
        assert_eq!(names, ["ann", "bob"]);

        let bob = UserName::parse("bob").unwrap();
        let creds = s.credentials(&bob).await.unwrap().unwrap();
        assert_eq!(creds.user.id, ids[1]);
        assert_eq!(creds.user.role, Role::Contestant);
        assert!(s
            .credentials(&UserName::parse("nobody").unwrap())
            .await
            .unwrap()
            .is_none());

        let (api, login, expired) = (Token::generate(), Token::generate(), Token::generate());
        s.add_token(ids[1], &api.hash(), TokenKind::Api, None)
            .await
            .unwrap();
        s.add_token(
            ids[1],
            &login.hash(),
            TokenKind::Login,
            Some(Duration::from_secs(3600)),
        )
        .await
        .unwrap();
        s.add_token(
            ids[1],
            &expired.hash(),
            TokenKind::Login,
            Some(Duration::ZERO),
        )
        .await
        .unwrap();
        assert_eq!(s.token_user(&api.hash()).await.unwrap().unwrap().id, ids[1]);
        assert_eq!(
            s.token_user(&login.hash()).await.unwrap().unwrap().id,
            ids[1]
        );
        assert!(s.token_user(&expired.hash()).await.unwrap().is_none());
        assert!(s
            .token_user(&Token::generate().hash())
            .await
            .unwrap()
            .is_none());
        assert!(s.revoke_token(&login.hash()).await.unwrap());
        assert!(s.token_user(&login.hash()).await.unwrap().is_none());
        assert!(s.set_disabled(&bob, true).await.unwrap());
        assert!(s.token_user(&api.hash()).await.unwrap().is_none());
        assert!(s.set_disabled(&bob, false).await.unwrap());
        assert!(
            s.token_user(&api.hash()).await.unwrap().is_none(),
            "disabling revokes"
        );
        assert!(!s
            .set_disabled(&UserName::parse("zed").unwrap(), true)
            .await
            .unwrap());
        let fresh = Token::generate();
        s.add_token(ids[1], &fresh.hash(), TokenKind::Api, None)
            .await
            .unwrap();
        assert!(s.set_password(&bob, "$argon2id$new").await.unwrap());
        assert!(
            s.token_user(&fresh.hash()).await.unwrap().is_none(),
            "a new password revokes"
        );
        let stored = s.credentials(&bob).await.unwrap().unwrap();
        assert_eq!(stored.password_hash, "$argon2id$new");
        assert!(!s
            .set_password(&UserName::parse("zed").unwrap(), "$argon2id$x")
            .await
            .unwrap());

        let open = s.enqueue(sub()).await.unwrap();
        let owned = s
            .enqueue(NewSubmission {
                owner: Some(ids[1]),
                ..sub()
            })
            .await
            .unwrap();
        assert_eq!(s.submission_owner(open).await.unwrap(), Some(None));
        assert_eq!(s.submission_owner(owned).await.unwrap(), Some(Some(ids[1])));
        assert_eq!(s.submission_owner(999).await.unwrap(), None);
        let got = s.get(owned).await.unwrap().unwrap();
        assert_eq!(
            (got.owner, got.user.as_deref()),
            (Some(ids[1]), Some("bob"))
        );
        let mine = s
            .list_scoped(SubmissionScope::Owner(ids[1]), None, 10, None)
            .await
            .unwrap();
        assert_eq!(mine.iter().map(|s| s.id).collect::<Vec<_>>(), [owned]);
        assert_eq!(mine[0].user.as_deref(), Some("bob"));
        let all = s
            .list_scoped(SubmissionScope::All, None, 10, None)
            .await
            .unwrap();
        assert_eq!(all.len(), 2);
    }
}
