//! The daemon's sections of the schema: `[server]` (listening, connection and request
//! limits, the queue's bounds) and `[accounts]` (who may sign in, and the logins' limits).

use std::path::PathBuf;

use serde::Deserialize;

/// Settings of the HTTP daemon.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// Address the HTTP API listens on.
    pub listen: String,
    /// SQLite database file, created on first start (`sqlite:` in front is allowed), or a
    /// PostgreSQL URL (`postgres://user:password@host/db`) shared by several nodes.
    pub database: PathBuf,
    /// Judging workers; 0 means one per CPU core.
    pub workers: usize,
    /// Whether this node judges at all (`serve --workers 0` sets it false: an API-only node
    /// in front of worker nodes on PostgreSQL).
    #[serde(default = "default_judge")]
    pub judge: bool,
    /// Largest accepted source, in KiB.
    pub max_source_kib: u64,
    /// What the API shows of secret tests (see [`Feedback`]).
    #[serde(default)]
    pub feedback: Feedback,
    /// Submissions waiting in the queue at most; past it a submit gets 503 + `Retry-After`.
    #[serde(default = "default_max_queued")]
    pub max_queued: u64,
    /// One user's queued submissions at most (plain and contest ones together); past it a
    /// submit gets 429 `too_many_queued`. 0: no bound. Admins are not bound.
    #[serde(default = "default_max_queued_per_user")]
    pub max_queued_per_user: u64,
    /// Places of `max_queued` kept for contest submissions: plain ones are refused once
    /// `max_queued - contest_reserve` wait, so no flood of plain submissions keeps a
    /// contestant out. Not set: a fifth of `max_queued` (none when no contest is loaded).
    #[serde(default)]
    pub contest_reserve: Option<u64>,
    /// Connections served at once; more are closed as soon as they are accepted.
    #[serde(default = "default_max_connections")]
    pub max_connections: usize,
    /// Connections one client address may hold at once (0: only the total counts).
    #[serde(default = "default_max_connections_per_address")]
    pub max_connections_per_address: usize,
    /// Connections one client network (/24 for IPv4, /64 for IPv6) may hold at once (0: only
    /// the total counts).
    #[serde(default = "default_max_connections_per_network")]
    pub max_connections_per_network: usize,
    /// The header timeout of connections opened when the cap is full: from half the cap on,
    /// new connections get a timeout shrinking linearly from `header_timeout_ms` to this.
    #[serde(default = "default_busy_header_timeout_ms")]
    pub busy_header_timeout_ms: u64,
    /// Time a connection has to send a request's headers, counted from its opening or from
    /// the end of its previous response (so it is the keep-alive idle timeout too).
    #[serde(default = "default_header_timeout_ms")]
    pub header_timeout_ms: u64,
    /// Time a client has to send a whole request body.
    #[serde(default = "default_body_timeout_ms")]
    pub body_timeout_ms: u64,
    /// Time a request may take from its headers to its answer (custom runs wait for a slot).
    #[serde(default = "default_request_timeout_ms")]
    pub request_timeout_ms: u64,
    /// Time a write to a client may stay blocked (a client that does not read its answer).
    #[serde(default = "default_write_timeout_ms")]
    pub write_timeout_ms: u64,
}

/// When accounts are in force: `[accounts] auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// Open mode while no user exists (loopback only); accounts as soon as one does.
    Auto,
    /// Accounts always, even with no user yet.
    Required,
}

/// Who is reading a submission: how much of its secret tests' feedback they may see.
///
/// Checker messages quote answers (`expected 2876, found 0`) and program output, and exit
/// codes carry whatever a program puts in them, so on secret tests a contestant sees only the
/// verdict, time and memory. The full messages stay in the database for the host.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Feedback {
    /// Everything the judge stored (the host, an admin, a trusted single user).
    Full,
    /// Secret tests: verdict, time and memory, and a fixed phrase per verdict.
    #[default]
    Contestant,
}

fn default_judge() -> bool {
    true
}

fn default_max_queued() -> u64 {
    1000
}

fn default_max_queued_per_user() -> u64 {
    50
}

fn default_max_connections() -> usize {
    4096
}

fn default_max_connections_per_address() -> usize {
    256
}

fn default_max_connections_per_network() -> usize {
    1024
}

fn default_busy_header_timeout_ms() -> u64 {
    2_000
}

fn default_header_timeout_ms() -> u64 {
    10_000
}

fn default_body_timeout_ms() -> u64 {
    30_000
}

fn default_request_timeout_ms() -> u64 {
    180_000
}

fn default_password_waiting_per_thread() -> usize {
    16
}

fn default_write_timeout_ms() -> u64 {
    30_000
}

/// Accounts and their limits (`[accounts]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountsConfig {
    /// `"auto"`: open single-user mode while no user exists (loopback only); `"required"`:
    /// every endpoint but health, login and problems needs a token, users or not.
    pub auth: AuthMode,
    /// Hours a token from `POST /api/login` lasts.
    pub login_token_hours: u64,
    /// Failed logins per account name per window before 429.
    pub login_failures_per_account: u32,
    /// Failed logins per client address per window before 429.
    pub login_failures_per_address: u32,
    /// The window of both login counters, in seconds.
    pub login_window_secs: u64,
    /// Custom runs (`POST /api/runs`) per user per minute; 0 = no limit.
    pub runs_per_minute: u32,
    /// Threads that check logins' passwords (argon2id, 19 MiB each); 0 = one per core, at
    /// most 4.
    #[serde(default)]
    pub password_threads: usize,
    /// Password checks that may wait for a thread, per thread; past it a login gets 503 with
    /// `Retry-After`.
    #[serde(default = "default_password_waiting_per_thread")]
    pub password_waiting_per_thread: usize,
    /// Whether the web pages' cookies carry `Secure` (sent over HTTPS only): set it when the
    /// daemon is reached through an HTTPS proxy.
    pub secure_cookies: bool,
}
