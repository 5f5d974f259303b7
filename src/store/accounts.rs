//! Users, tokens and submission owners as a trait, so the PostgreSQL store (later) carries
//! them too. [`super::SqliteStore`] implements it in `sqlite_accounts.rs`.

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
