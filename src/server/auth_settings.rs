//! The accounts settings and the rate-limit counters the server shares ([`Auth`]): held by
//! the [`AppState`](super::AppState), read by the login service and the custom runs' rate.

use std::net::IpAddr;
use std::time::Duration;

use crate::accounts::access::AuthMode;
use crate::accounts::ratelimit::Limiter;
use crate::config::AccountsConfig;

/// The accounts settings and rate-limit counters the server shares.
#[derive(Debug)]
pub struct Auth {
    /// When accounts are in force.
    pub mode: AuthMode,
    /// How long a login token lasts.
    pub login_token_ttl: Duration,
    /// Failed logins per account name from one client network (the key is the network of
    /// [`network_of`](crate::accounts::ratelimit::network_of) and the name): failures from
    /// elsewhere never lock a name for a client whose network is clean.
    pub login_failures_by_name: Limiter<(IpAddr, String)>,
    /// Failed logins per client network (/24 for IPv4, /64 for IPv6).
    pub login_failures_by_address: Limiter<IpAddr>,
    /// Custom runs per user.
    pub runs_by_user: Limiter<i64>,
}

impl Auth {
    /// The settings of `[accounts]`.
    pub fn from_config(c: &AccountsConfig) -> Auth {
        let window = Duration::from_secs(c.login_window_secs.max(1));
        Auth {
            mode: c.auth,
            login_token_ttl: Duration::from_secs(c.login_token_hours.saturating_mul(3600)),
            login_failures_by_name: Limiter::new(c.login_failures_per_account, window),
            login_failures_by_address: Limiter::new(c.login_failures_per_address, window),
            runs_by_user: Limiter::new(c.runs_per_minute, Duration::from_secs(60)),
        }
    }
}
