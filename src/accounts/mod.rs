//! Accounts and access control: who a caller is, and what they may see and do.
//!
//! - [`UserName`] (from [`crate::user_name`]): a user name that parses (documented character set and length).
//! - [`role`]: [`Role`], admin or contestant.
//! - [`password`]: argon2id password hashing, checking and generation.
//! - [`checks`]: the logins' password checks on a few hashing threads, with a short line.
//! - [`token`]: random API tokens, shown once and stored as a SHA-256 hash.
//! - [`roster`]: display names and class rosters (CSV), shared by the CLI and the admin page.
//! - [`ratelimit`]: fixed-window counters for login failures and custom runs.
//! - [`access`]: **the one place where access rules live**; every handler (and later the web
//!   pages) asks it, none decides on its own.
//!
//! Nothing here touches the database or HTTP: the store keeps users and tokens, the server
//! turns a request into an [`access::Caller`].

pub mod access;
pub mod checks;
pub mod password;
pub mod ratelimit;
pub mod role;
pub mod roster;
pub mod token;

pub use crate::user_name::{BadUserName, UserName};
pub use access::{AuthMode, Caller, Decision, Feedback, Identity, SubmissionScope};
pub use role::Role;
pub use token::{Token, TokenHash};

/// Errors of account values: names, passwords, tokens.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// A user name outside the documented rules.
    #[error(transparent)]
    BadName(#[from] BadUserName),
    /// A password too short, too long or empty.
    #[error("{0}")]
    BadPassword(String),
    /// A display name too long or with control characters.
    #[error("{0}")]
    BadDisplayName(String),
    /// A roster's group name that breaks the naming rule.
    #[error("{0}")]
    BadGroup(String),
    /// A role name that is neither `admin` nor `contestant`.
    #[error("unknown role {0:?}; roles: admin, contestant")]
    BadRole(String),
    /// Hashing or checking a password failed inside argon2 (never a wrong password).
    #[error("password hashing failed: {0}")]
    Hash(String),
}
