//! `POST /api/login`, `POST /api/logout`, `GET /api/me`.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::{access, Caller, Role};
use crate::server::services::login::{self, authenticate};

use super::auth::{allow, ClientAddr, PresentedToken};
use super::error::ApiResult;
use super::state::AppState;

/// The body of `POST /api/login`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    /// User name.
    #[schema(example = "alice")]
    pub name: String,
    /// Password.
    #[schema(example = "correct horse battery")]
    pub password: String,
}

/// A new token: send it as `Authorization: Bearer TOKEN`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LoginResponse {
    /// The token, shown this once (the server keeps only its hash).
    pub token: String,
    /// Who it belongs to.
    pub name: String,
    /// Their role.
    pub role: Role,
    /// Seconds until it expires.
    pub expires_in: u64,
}

/// Who the caller is.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Me {
    /// User name (`null` in the open single-user mode).
    pub name: Option<String>,
    /// Display name (`null` in the open mode).
    pub display_name: Option<String>,
    /// The caller's role (the open mode's host is an admin).
    pub role: Role,
    /// Whether the daemon is in the open single-user mode (no accounts yet, loopback only).
    pub open_mode: bool,
}

/// Trades a name and password for a token. Attempts are counted per client network and
/// name and per client network before the password is checked (429 with `Retry-After` past
/// the limit; a success gives its attempt back) and never say whether the account exists.
#[utoipa::path(post, path = "/api/login", operation_id = "login", tag = "accounts",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "a new token", body = LoginResponse),
        (status = 400, description = "malformed JSON", body = super::error::ErrorBody),
        (status = 401, description = "wrong name or password", body = super::error::ErrorBody),
        (status = 415, description = "not JSON", body = super::error::ErrorBody),
        (status = 429, description = "too many failures; see Retry-After",
         body = super::error::ErrorBody, headers(("Retry-After" = u64, description = "seconds"))),
        (status = 503, description = "too many logins being checked; see Retry-After",
         body = super::error::ErrorBody, headers(("Retry-After" = u64, description = "seconds"))),
    ))]
pub async fn login(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    body: Result<Json<LoginRequest>, JsonRejection>,
) -> ApiResult<Json<LoginResponse>> {
    let Json(req) = body?;
    let (user, token) = authenticate(&state, addr, &req.name, req.password).await?;
    Ok(Json(LoginResponse {
        token: token.reveal().to_string(),
        name: user.name.to_string(),
        role: user.role,
        expires_in: state.auth.login_token_ttl.as_secs(),
    }))
}

/// Revokes the token the request carries (at once: the next request with it is refused).
#[utoipa::path(post, path = "/api/logout", operation_id = "logout", tag = "accounts",
    responses(
        (status = 204, description = "the token is revoked"),
        (status = 401, description = "no valid token", body = super::error::ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn logout(
    State(state): State<AppState>,
    caller: Caller,
    token: Option<Extension<PresentedToken>>,
) -> ApiResult<StatusCode> {
    allow(access::me(&caller), String::new)?;
    if let Some(Extension(PresentedToken(hash))) = token {
        login::sign_out(&state, &hash).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The caller's name and role.
#[utoipa::path(get, path = "/api/me", operation_id = "me", tag = "accounts",
    responses(
        (status = 200, description = "the caller", body = Me),
        (status = 401, description = "no valid token", body = super::error::ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn me(caller: Caller) -> ApiResult<Json<Me>> {
    allow(access::me(&caller), String::new)?;
    Ok(Json(match caller {
        Caller::User(u) => Me {
            name: Some(u.name.to_string()),
            display_name: Some(u.display_name),
            role: u.role,
            open_mode: false,
        },
        _ => Me {
            name: None,
            display_name: None,
            role: Role::Admin,
            open_mode: true,
        },
    }))
}
