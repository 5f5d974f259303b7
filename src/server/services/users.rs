//! The accounts an admin manages, for `POST /api/users/{name}/cancel` and the admin page:
//! the users with their queued submissions, adding users (made by [`crate::accounts::roster`]),
//! disabling and enabling one, cancelling one's queue. Each asks
//! [`access::administer`] first.

use std::collections::HashMap;

use serde::Serialize;

use crate::accounts::{access, password, Caller, UserName};
use crate::store::SubmissionReads;
use crate::store::{AccountStore, GroupStore, Queue, StoreError};

pub use crate::store::{NewUser, User};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

/// The answer to a cancel.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Cancelled {
    /// The user.
    pub user: String,
    /// Their queued submissions now cancelled.
    pub cancelled: u64,
}

/// Cancels every queued submission of user `name` (admins); the service the API and the
/// admin page share.
pub async fn cancel_queued(state: &AppState, caller: &Caller, name: &str) -> ApiResult<Cancelled> {
    allow(access::administer(caller), String::new)?;
    let missing = || ApiError::NotFound(format!("no user {name:?}"));
    let user = UserName::parse(name).map_err(|_| missing())?;
    let found = state.store.credentials(&user).await?.ok_or_else(missing)?;
    let cancelled = state.store.cancel_queued(found.user.id).await?;
    tracing::info!(user = name, cancelled, "queued submissions cancelled");
    Ok(Cancelled {
        user: user.to_string(),
        cancelled,
    })
}

/// A user with their submissions waiting in the queue.
pub struct UserQueue {
    /// The user.
    pub user: User,
    /// Their queued submissions.
    pub queued: u64,
}

/// Every user, with their queued submissions (admins).
pub async fn with_queued(state: &AppState, caller: &Caller) -> ApiResult<Vec<UserQueue>> {
    allow(access::administer(caller), String::new)?;
    let users = state.store.list_users().await?;
    let by_owner: HashMap<String, u64> = state
        .store
        .queued_by_owner(u32::try_from(users.len()).unwrap_or(u32::MAX).max(1))
        .await?
        .into_iter()
        .collect();
    Ok(users
        .into_iter()
        .map(|user| UserQueue {
            queued: by_owner.get(user.name.as_str()).copied().unwrap_or(0),
            user,
        })
        .collect())
}

/// Why users were not added (nothing was written either way).
#[derive(Debug)]
pub enum NotAdded {
    /// A user of that name exists already.
    Duplicate(String),
    /// The store or the caller's right failed.
    Failed(ApiError),
}

/// Adds `users` all or nothing (admins).
pub async fn add(state: &AppState, caller: &Caller, users: &[NewUser]) -> Result<(), NotAdded> {
    allow(access::administer(caller), String::new).map_err(NotAdded::Failed)?;
    match state.store.add_users(users).await {
        Ok(_) => Ok(()),
        Err(StoreError::DuplicateUser(name)) => Err(NotAdded::Duplicate(name)),
        Err(other) => Err(NotAdded::Failed(other.into())),
    }
}

/// Puts each named user in their roster group (admins; after [`add`], for a roster's
/// `group` column).
pub async fn set_groups(
    state: &AppState,
    caller: &Caller,
    groups: &[crate::store::Grouping],
) -> ApiResult<()> {
    allow(access::administer(caller), String::new)?;
    Ok(state.store.set_groups(groups).await?)
}

/// Disables (revoking every token of theirs at once) or enables user `name` (admins);
/// whether the user exists.
pub async fn set_disabled(
    state: &AppState,
    caller: &Caller,
    name: &UserName,
    disabled: bool,
) -> ApiResult<bool> {
    allow(access::administer(caller), String::new)?;
    Ok(state.store.set_disabled(name, disabled).await?)
}

/// Gives user `name` a new generated password (admins) and ends every session and token of
/// theirs, as a password change should; the password is returned to be shown once. A
/// missing user is 404.
pub async fn reset_password(state: &AppState, caller: &Caller, name: &str) -> ApiResult<String> {
    allow(access::administer(caller), String::new)?;
    let missing = || ApiError::NotFound(format!("no user {name:?}"));
    let user = UserName::parse(name).map_err(|_| missing())?;
    let password = password::generate();
    let clear = password.clone();
    // argon2id is slow on purpose: off the async threads.
    let hash = tokio::task::spawn_blocking(move || password::hash(&clear))
        .await
        .map_err(|e| ApiError::Internal(format!("password hashing failed: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    if !state.store.set_password(&user, &hash).await? {
        return Err(missing());
    }
    tracing::info!(user = name, "password reset; every token of theirs revoked");
    Ok(password)
}
