//! Users, tokens and submission owners as a trait, implemented for [`super::Store`] in
//! `sql/accounts.rs`.

use std::future::Future;
use std::time::Duration;

use crate::accounts::{Role, SubmissionScope, TokenHash, UserName};

use super::model::Submission;
use super::StoreError;

/// A user to create (name and password already checked by the caller).
#[derive(Debug, Clone)]
pub struct NewUser {
    /// Login name.
    pub name: UserName,
    /// Name shown to people (may be empty).
    pub display_name: String,
    /// Admin or contestant.
    pub role: Role,
    /// The argon2id PHC string of the password.
    pub password_hash: String,
}

/// A stored user, without the password hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Id (owner of submissions and tokens).
    pub id: i64,
    /// Login name.
    pub name: UserName,
    /// Name shown to people.
    pub display_name: String,
    /// Admin or contestant.
    pub role: Role,
    /// A disabled user cannot log in, and their tokens are gone.
    pub disabled: bool,
    /// When the account was made (ISO 8601 UTC).
    pub created_at: String,
}

/// What a login is checked against.
#[derive(Debug, Clone)]
pub struct Credentials {
    /// The user.
    pub user: User,
    /// The argon2id PHC string.
    pub password_hash: String,
}

/// How a token was made, which decides whether it expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// From `POST /api/login`; expires.
    Login,
    /// From `sudojudge user token`; lasts until revoked or the user is disabled.
    Api,
}

impl TokenKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Login => "login",
            TokenKind::Api => "api",
        }
    }
}

/// Users, tokens and owned submissions.
pub trait AccountStore: Send + Sync + 'static {
    /// Whether any user exists (disabled ones count): accounts are then in force.
    fn any_users(&self) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Creates every user in one transaction: all or none. A name taken (in the database or
    /// twice in `users`) is [`StoreError::DuplicateUser`] and nothing is written.
    fn add_users(
        &self,
        users: &[NewUser],
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// Every user, by name.
    fn list_users(&self) -> impl Future<Output = Result<Vec<User>, StoreError>> + Send;

    /// A user's record and password hash, for a login.
    fn credentials(
        &self,
        name: &UserName,
    ) -> impl Future<Output = Result<Option<Credentials>, StoreError>> + Send;

    /// Disables (and revokes every token of) or enables a user; `false` when there is none.
    fn set_disabled(
        &self,
        name: &UserName,
        disabled: bool,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Replaces a user's password hash and revokes every token of theirs (a password change
    /// ends every session); `false` when there is no such user.
    fn set_password(
        &self,
        name: &UserName,
        password_hash: &str,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Stores a token's hash for a user; `expires_in` `None` never expires.
    fn add_token(
        &self,
        user_id: i64,
        hash: &TokenHash,
        kind: TokenKind,
        expires_in: Option<Duration>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The enabled user a live (unexpired, unrevoked) token belongs to.
    fn token_user(
        &self,
        hash: &TokenHash,
    ) -> impl Future<Output = Result<Option<User>, StoreError>> + Send;

    /// Deletes a token; `false` when it was not there.
    fn revoke_token(
        &self,
        hash: &TokenHash,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The owner of a submission: `None` when there is no such submission, `Some(None)` for
    /// one made in open mode.
    fn submission_owner(
        &self,
        id: i64,
    ) -> impl Future<Output = Result<Option<Option<i64>>, StoreError>> + Send;

    /// Submissions in `scope`, newest first, optionally of one problem and below an id.
    fn list_scoped(
        &self,
        scope: SubmissionScope,
        problem: Option<&str>,
        limit: u32,
        before: Option<i64>,
    ) -> impl Future<Output = Result<Vec<Submission>, StoreError>> + Send;
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct UserRow {
    pub id: i64,
    pub name: String,
    pub display_name: String,
    pub role: String,
    pub disabled: bool,
    pub created_at: String,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct CredentialsRow {
    #[sqlx(flatten)]
    pub user: UserRow,
    pub password_hash: String,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct TokenUserRow {
    #[sqlx(flatten)]
    pub user: UserRow,
    pub hash: String,
}

/// A stored user, checked.
pub(crate) fn to_user(row: UserRow) -> Result<User, StoreError> {
    let corrupt = |what: String| StoreError::CorruptUser {
        name: row.name.clone(),
        what,
    };
    let name = UserName::parse(&row.name).map_err(|e| corrupt(e.to_string()))?;
    let role = Role::parse(&row.role).map_err(|e| corrupt(e.to_string()))?;
    Ok(User {
        id: row.id,
        name,
        display_name: row.display_name,
        role,
        disabled: row.disabled,
        created_at: row.created_at,
    })
}

/// The columns of [`UserRow`], from `users u`.
pub(crate) const USER_COLUMNS: &str =
    "u.id, u.name, u.display_name, u.role, u.disabled, u.created_at";
