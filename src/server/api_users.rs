//! `POST /api/users/{name}/cancel`: an admin cancels every queued submission of one user (a
//! flood, a runaway script). Each keeps its record with the final status `cancelled` and is
//! never judged; those being judged finish. The admin page's button calls the same service,
//! [`cancel_queued`].

use axum::extract::{Path, State};
use axum::Json;

use crate::accounts::Caller;

pub use crate::server::services::users::{cancel_queued, Cancelled};

use super::error::ApiResult;
use super::error::ErrorBody;
use super::state::AppState;

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
