//! The services under the JSON API (`api_*.rs`) and the web pages (`crate::web`): each takes
//! the [`AppState`](super::AppState) and the caller, asks [`crate::accounts::access`] what the
//! caller may do, reads or writes the store and hands back plain values, so a page calls the
//! same function as the API, no rule is written twice, and neither handlers nor pages touch
//! the store (a test in `tests/properties/imports.rs` checks that of the pages).
//!
//! - [`submissions`]: submitting (with the queue's bounds), reading, listing and rejudging
//!   submissions.
//! - [`packages`]: an admin's package upload (API and admin page).
//! - [`login`]: signing in (the login limits and the password check) and out.
//! - [`users`]: the accounts an admin manages (add, disable, cancel a user's queue).
//! - [`queue`]: the queue, the nodes and the store's health, for `/api/health`, `/metrics`,
//!   `/api/nodes` and the admin page.
//! - [`contests`]: a contest as the caller sees it, submitting to it, its board and its
//!   clarifications (the [`contests::Contests`] the daemon loaded live in [`contests::loaded`],
//!   which the state holds).

pub mod contests;
pub mod groups;
pub mod login;
pub mod packages;
pub mod queue;
pub mod submissions;
pub mod users;
