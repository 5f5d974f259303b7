//! `POST /api/login`, `POST /api/logout`, `GET /api/me`.

use std::net::IpAddr;
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::access;
use crate::accounts::ratelimit::retry_after_secs;
use crate::accounts::{password, Caller, Role, Token, UserName};
use crate::store::{AccountStore, TokenKind, User};

use super::auth::{allow, ClientAddr, PresentedToken};
use super::error::{ApiError, ApiResult};
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

/// The key login failures of a name are counted under (whether or not the account exists).
fn name_key(name: &str) -> String {
    name.chars().take(64).collect()
}

/// Trades a name and password for a token. Failures are counted per name and per address
/// (429 with `Retry-After` past the limit) and never say whether the account exists.
#[utoipa::path(post, path = "/api/login", operation_id = "login", tag = "accounts",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "a new token", body = LoginResponse),
        (status = 400, description = "malformed JSON", body = super::openapi::ErrorBody),
        (status = 401, description = "wrong name or password", body = super::openapi::ErrorBody),
        (status = 415, description = "not JSON", body = super::openapi::ErrorBody),
        (status = 429, description = "too many failures; see Retry-After",
         body = super::openapi::ErrorBody, headers(("Retry-After" = u64, description = "seconds"))),
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

/// Checks a name and password (the API's login and the sign-in page): failures are counted
/// per name and per address (429 past the limit) and never say whether the account exists;
/// on success a new login token is stored (hashed) and returned with its user.
pub async fn authenticate(
    state: &AppState,
    addr: Option<IpAddr>,
    name: &str,
    password: String,
) -> ApiResult<(User, Token)> {
    let auth = &state.auth;
    let now = Instant::now();
    let key = name_key(name);
    let limited = auth
        .login_failures_by_name
        .check(&key, now)
        .err()
        .into_iter()
        .chain(addr.and_then(|a| auth.login_failures_by_address.check(&a, now).err()))
        .max();
    if let Some(wait) = limited {
        return Err(ApiError::RateLimited {
            retry_after_secs: retry_after_secs(wait),
            message: "too many failed logins".into(),
        });
    }
    let credentials = match UserName::parse(name) {
        Ok(name) => state.store.credentials(&name).await?,
        Err(_) => None,
    };
    let usable = credentials.filter(|c| !c.user.disabled);
    let stored = usable.as_ref().map(|c| c.password_hash.clone());
    let ok = tokio::task::spawn_blocking(move || match stored {
        Some(hash) => password::verify(&password, &hash),
        None => {
            password::verify_dummy(&password);
            false
        }
    })
    .await
    .map_err(|e| ApiError::Internal(format!("password check failed: {e}")))?;
    let Some(user) = usable.filter(|_| ok).map(|c| c.user) else {
        let _ = auth.login_failures_by_name.hit(&key, now);
        if let Some(a) = addr {
            let _ = auth.login_failures_by_address.hit(&a, now);
        }
        return Err(ApiError::BadCredentials);
    };
    auth.login_failures_by_name.reset(&key);
    let token = Token::generate();
    state
        .store
        .add_token(
            user.id,
            &token.hash(),
            TokenKind::Login,
            Some(auth.login_token_ttl),
        )
        .await?;
    Ok((user, token))
}

/// Revokes the token the request carries (at once: the next request with it is refused).
#[utoipa::path(post, path = "/api/logout", operation_id = "logout", tag = "accounts",
    responses(
        (status = 204, description = "the token is revoked"),
        (status = 401, description = "no valid token", body = super::openapi::ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn logout(
    State(state): State<AppState>,
    caller: Caller,
    token: Option<Extension<PresentedToken>>,
) -> ApiResult<StatusCode> {
    allow(access::me(&caller), String::new)?;
    if let Some(Extension(PresentedToken(hash))) = token {
        state.store.revoke_token(&hash).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The caller's name and role.
#[utoipa::path(get, path = "/api/me", operation_id = "me", tag = "accounts",
    responses(
        (status = 200, description = "the caller", body = Me),
        (status = 401, description = "no valid token", body = super::openapi::ErrorBody),
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
