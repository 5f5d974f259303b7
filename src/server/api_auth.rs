//! `POST /api/login`, `POST /api/logout`, `GET /api/me`.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::checks::Busy;
use crate::accounts::ratelimit::{network_of, retry_after_secs};
use crate::accounts::{access, Caller, Role, Token, UserName};
use crate::store::{AccountStore, TokenKind, User};

use super::auth::{allow, Auth, ClientAddr, PresentedToken};
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

/// Checks a name and password (the API's login and the sign-in page): failures are counted
/// per client network and name and per client network (429 past the limit) and never say
/// whether the account exists; on success a new login token is stored (hashed) and returned
/// with its user.
///
/// The attempt is counted *before* the password is checked (and given back when it
/// succeeds), so requests in flight together cannot all pass the limit.
pub async fn authenticate(
    state: &AppState,
    addr: Option<IpAddr>,
    name: &str,
    password: String,
) -> ApiResult<(User, Token)> {
    let auth = &state.auth;
    let attempt = Attempt::reserve(auth, addr, name)?;
    let credentials = match UserName::parse(name) {
        Ok(name) => match state.store.credentials(&name).await {
            Ok(c) => c,
            Err(e) => {
                attempt.release(auth);
                return Err(e.into());
            }
        },
        Err(_) => None,
    };
    let usable = credentials.filter(|c| !c.user.disabled);
    let stored = usable.as_ref().map(|c| c.password_hash.clone());
    // On the few hashing threads; a full line answers 503 and the attempt does not count.
    let ok = match state.passwords.check(password, stored).await {
        Ok(ok) => ok,
        Err(Busy) => {
            attempt.release(auth);
            return Err(ApiError::Busy {
                message: "too many logins are being checked; try again in a second".into(),
                retry_after_s: 1,
            });
        }
    };
    // A failure keeps its reservation: it is the failure counted.
    let Some(user) = usable.filter(|_| ok).map(|c| c.user) else {
        return Err(ApiError::BadCredentials);
    };
    attempt.succeeded(auth);
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

/// A login attempt counted in both limits before its password is checked.
struct Attempt {
    by_name: (IpAddr, String),
    network: IpAddr,
}

impl Attempt {
    /// Takes one attempt of the (network, name) and the network windows, or refuses with
    /// 429 (and takes nothing) when either is used up. A client whose address is unknown
    /// counts as the unspecified network.
    fn reserve(auth: &Auth, addr: Option<IpAddr>, name: &str) -> ApiResult<Attempt> {
        let now = Instant::now();
        let network = network_of(addr.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)));
        let by_name = (network, name_key(name));
        let limited = |wait| ApiError::RateLimited {
            retry_after_secs: retry_after_secs(wait),
            message: "too many failed logins".into(),
        };
        auth.login_failures_by_name
            .reserve(&by_name, now)
            .map_err(limited)?;
        if let Err(wait) = auth.login_failures_by_address.reserve(&network, now) {
            auth.login_failures_by_name.release(&by_name);
            return Err(limited(wait));
        }
        Ok(Attempt { by_name, network })
    }

    /// The attempt did not count (the server failed, or the line was full): both given back.
    fn release(self, auth: &Auth) {
        auth.login_failures_by_name.release(&self.by_name);
        auth.login_failures_by_address.release(&self.network);
    }

    /// The right password: the name's failures from this network are cleared and the
    /// network's attempt given back.
    fn succeeded(self, auth: &Auth) {
        auth.login_failures_by_name.reset(&self.by_name);
        auth.login_failures_by_address.release(&self.network);
    }
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
        state.store.revoke_token(&hash).await?;
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
