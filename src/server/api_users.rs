//! `POST /api/users/{name}/cancel`: an admin cancels every queued submission of one user (a
//! flood, a runaway script). Each keeps its record with the final status `cancelled` and is
//! never judged; those being judged finish. The admin page's button calls [`cancel_queued`].

use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;

use crate::accounts::{access, Caller, UserName};
use crate::store::{AccountStore, Queue};

use super::auth::allow;
use super::error::ErrorBody;
use super::error::{ApiError, ApiResult};
use super::state::AppState;

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

/// Cancels every queued submission of a user: each keeps its record with the final status
/// `cancelled` and is never judged; those being judged finish (admins).
#[utoipa::path(post, path = "/api/users/{name}/cancel", operation_id = "cancel_user_queue", tag = "submissions",
    params(("name" = String, Path, description = "user name", example = "alice")),
    responses(
        (status = 200, description = "cancelled", body = Cancelled),
        (status = 401, description = "sign in first", body = ErrorBody),
        (status = 403, description = "admins only", body = ErrorBody),
        (status = 404, description = "no such user", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> ApiResult<Json<Cancelled>> {
    Ok(Json(cancel_queued(&state, &caller, &name).await?))
}
