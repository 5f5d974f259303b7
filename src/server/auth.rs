//! Who is calling: the middleware that turns `Authorization: Bearer TOKEN`, the web pages'
//! session cookie (or their absence) into an [`accounts::Caller`](crate::accounts::Caller) for the handlers, and the glue from
//! the access rules' [`Decision`]s to HTTP errors. What a caller may do is decided by
//! [`crate::accounts::access`] alone; this file only establishes who the caller is.

use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::header::{AUTHORIZATION, HOST};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::accounts::access;
use crate::accounts::ratelimit::retry_after_secs;
use crate::accounts::{Caller, Decision, Identity, Token, TokenHash};
use crate::store::AccountStore;

pub use super::auth_settings::Auth;
use super::error::{ApiError, ApiResult};
use super::session::{session_token, Credential};
use super::state::AppState;

/// The hash of the token a request presented (for `POST /api/logout`).
#[derive(Debug, Clone)]
pub struct PresentedToken(pub TokenHash);

/// The client's address when the server was started with connection info.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = std::convert::Infallible;

    /// The caller the middleware found; without the middleware, nobody (fail closed).
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Caller>()
            .cloned()
            .unwrap_or(Caller::Anonymous))
    }
}

/// The bearer token of a request's headers: `None` without the header, `Some(None)` when it
/// is there but is not a well-formed token.
fn bearer_of(headers: &HeaderMap) -> Option<Option<Token>> {
    let value = headers.get(AUTHORIZATION)?;
    let text = value.to_str().ok();
    Some(text.and_then(|t| {
        let (scheme, token) = t.trim().split_once(' ')?;
        scheme
            .eq_ignore_ascii_case("bearer")
            .then(|| Token::parse(token.trim()))
            .flatten()
    }))
}

/// Middleware: finds the caller of every request (from `Authorization: Bearer`, else the
/// session cookie) and stores it, with how it was proved ([`Credential`]), in the request's
/// extensions.
pub async fn identify(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let (caller, proof) = caller_of(&state, req.headers()).await;
    if let Some((hash, credential)) = proof {
        req.extensions_mut().insert(PresentedToken(hash));
        req.extensions_mut().insert(credential);
    }
    // The open mode answers as the host: only to requests naming a loopback host, so a web
    // page whose name was rebound to 127.0.0.1 (DNS rebinding) cannot act as the host.
    if caller == Caller::Open && !loopback_host(&req) {
        return ApiError::MisdirectedHost(
            "the open single-user mode answers requests for localhost, 127.0.0.1 or [::1] only \
             (this one names another host: a web page may be trying to reach the judge through \
             its own name)"
                .into(),
        )
        .into_response();
    }
    req.extensions_mut().insert(caller);
    next.run(req).await
}

/// The caller of `req` and, for a user, the token's hash and how it was presented: what
/// [`identify`] stores, also asked before a package upload's large body is read.
pub async fn caller_of(
    state: &AppState,
    headers: &HeaderMap,
) -> (Caller, Option<(TokenHash, Credential)>) {
    // The header wins; the session cookie counts only on requests without one.
    let presented = match bearer_of(headers) {
        Some(token) => token.map(|t| (t, Credential::Bearer)),
        None => session_token(headers).map(|t| (t.clone(), Credential::Session(t))),
    };
    if let Some((token, credential)) = presented {
        let hash = token.hash();
        match state.store.token_user(&hash).await {
            Ok(Some(user)) => {
                let caller = Caller::User(Identity {
                    id: user.id,
                    name: user.name,
                    display_name: user.display_name,
                    role: user.role,
                });
                return (caller, Some((hash, credential)));
            }
            Ok(None) => {}
            // Fail closed, and let the handler answer (health says 503 itself).
            Err(e) => tracing::error!(error = %e, "cannot check a token; treated as none"),
        }
    }
    let caller = match state.store.any_users().await {
        Ok(users) if access::open_mode(state.auth.mode, users) => Caller::Open,
        Ok(_) => Caller::Anonymous,
        Err(e) => {
            tracing::error!(error = %e, "cannot tell whether accounts exist; anonymous");
            Caller::Anonymous
        }
    };
    (caller, None)
}

/// Whether the host a request names (its `Host` header, and the authority of an absolute
/// URI) is a loopback name or address: `localhost` or a name under `.localhost`, 127.0.0.0/8
/// or `[::1]`, with any port. A request naming no host at all (HTTP/1.0) passes: browsers
/// always send one.
pub fn loopback_host(req: &Request) -> bool {
    let header = match req.headers().get(HOST) {
        None => None,
        Some(v) => match v.to_str() {
            Ok(v) => Some(v),
            Err(_) => return false,
        },
    };
    let authority = req.uri().authority().map(|a| a.as_str());
    header
        .into_iter()
        .chain(authority)
        .all(is_loopback_authority)
}

/// [`loopback_host`] for one `host[:port]`.
fn is_loopback_authority(authority: &str) -> bool {
    let authority = authority.trim();
    let host = match authority.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((v6, port)) if port.is_empty() || port.strip_prefix(':').is_some_and(is_port) => {
                return v6
                    .parse::<std::net::Ipv6Addr>()
                    .is_ok_and(|a| a.is_loopback());
            }
            _ => return false,
        },
        None => match authority.rsplit_once(':') {
            Some((host, port)) if is_port(port) => host,
            Some(_) => return false,
            None => authority,
        },
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    host.parse::<std::net::Ipv4Addr>()
        .is_ok_and(|a| a.is_loopback())
}

/// 1 to 5 digits.
fn is_port(p: &str) -> bool {
    (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
}

/// Turns an access decision into a result: 401, 403, or 404 with `not_found` as its message
/// (the very message of a missing resource, so a refusal reveals nothing).
pub fn allow(decision: Decision, not_found: impl FnOnce() -> String) -> ApiResult<()> {
    match decision {
        Decision::Allow => Ok(()),
        refused => Err(refusal(refused, not_found)),
    }
}

/// The HTTP error of a refusal (see [`allow`]).
pub fn refusal(decision: Decision, not_found: impl FnOnce() -> String) -> ApiError {
    match decision {
        Decision::Unauthenticated => ApiError::Unauthenticated(
            "sign in first: send Authorization: Bearer TOKEN (POST /api/login gives one); a \
             token stops working at logout, at expiry, or when its user is disabled"
                .into(),
        ),
        Decision::Forbidden => ApiError::Forbidden("only an admin may do this".into()),
        Decision::Hidden => ApiError::NotFound(not_found()),
        Decision::Allow => ApiError::Internal("an allowed action was refused".into()),
    }
}

/// Lets a custom run start, or refuses it: a signed-in caller, within the user's run rate.
pub fn admit_run(state: &AppState, caller: &Caller) -> ApiResult<()> {
    allow(access::create_run(caller), String::new)?;
    if let Some(user) = access::run_rate_key(caller) {
        state
            .auth
            .runs_by_user
            .hit(&user, Instant::now())
            .map_err(|wait| ApiError::RateLimited {
                retry_after_secs: retry_after_secs(wait),
                message: "too many custom runs; wait before the next".into(),
            })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_header(value: &str) -> Request {
        Request::builder()
            .header(AUTHORIZATION, value)
            .body(axum::body::Body::empty())
            .unwrap()
    }

    #[test]
    fn the_open_mode_answers_loopback_hosts_only() {
        let with_host = |host: &str| {
            Request::builder()
                .header(HOST, host)
                .body(axum::body::Body::empty())
                .unwrap()
        };
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.:80",
            "judge.localhost:1",
            "127.0.0.1",
            "127.0.0.1:8080",
            "127.9.8.7:65535",
            "[::1]",
            "[::1]:8080",
        ] {
            assert!(loopback_host(&with_host(host)), "{host}");
        }
        for host in [
            "rebind.attacker.example",
            "rebind.attacker.example:8080",
            "localhost.attacker.example",
            "10.0.0.1:8080",
            "0.0.0.0:8080",
            "[::2]:8080",
            "[::1]:80x",
            "::1",
            "127.0.0.1:",
            "",
        ] {
            assert!(!loopback_host(&with_host(host)), "{host}");
        }
        let none = Request::builder().body(axum::body::Body::empty()).unwrap();
        assert!(loopback_host(&none));
        let absolute = Request::builder()
            .uri("http://rebind.attacker.example/api/submissions")
            .header(HOST, "127.0.0.1")
            .body(axum::body::Body::empty())
            .unwrap();
        assert!(!loopback_host(&absolute));
    }

    #[test]
    fn bearer_tokens_are_read_and_checked_for_shape() {
        let token = Token::generate();
        for header in [
            format!("Bearer {}", token.reveal()),
            format!("bearer  {} ", token.reveal()),
        ] {
            let found = bearer_of(with_header(&header).headers())
                .flatten()
                .expect("a token");
            assert!(found.hash().matches(&token.hash()));
        }
        for header in [
            format!("Basic {}", token.reveal()),
            "Bearer".to_string(),
            "Bearer sj_1234".to_string(),
            token.reveal().to_string(),
        ] {
            assert!(
                matches!(bearer_of(with_header(&header).headers()), Some(None)),
                "{header}"
            );
        }
        let none = Request::builder().body(axum::body::Body::empty()).unwrap();
        assert!(bearer_of(none.headers()).is_none());
    }
}
