//! Signing in and out, for `POST /api/login` and the sign-in page alike: the login limits
//! (per client network and name, per client network), the password check on the hashing
//! threads, the login token stored hashed; and revoking a token at sign-out.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Instant;

use crate::accounts::checks::Busy;
use crate::accounts::ratelimit::{network_of, retry_after_secs};
use crate::accounts::{Token, TokenHash, UserName};
use crate::store::{AccountStore, TokenKind};

pub use crate::store::User;

use crate::server::auth::Auth;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

/// The key login failures of a name are counted under (whether or not the account exists).
fn name_key(name: &str) -> String {
    name.chars().take(64).collect()
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

/// Revokes the login token whose hash is `hash` at once (sign-out): the next request with it
/// is refused.
pub async fn sign_out(state: &AppState, hash: &TokenHash) -> ApiResult<()> {
    state.store.revoke_token(hash).await?;
    Ok(())
}
