//! Packages added to a running judge (issue 29, point 3): an admin's zip upload (API and
//! admin page), a folder dropped in the problems folder, or another node's upload fetched
//! from the database. Each is checked as `serve` checks packages at start before it is
//! served, and a package that fails leaves nothing behind.
//!
//! - [`mod@stage`]: a zip to a loaded, checked package in a staging folder, then moved into the
//!   problems folder (the safe extraction of [`crate::archive`], shared with `grade`).
//! - [`sync`]: what a node does every few seconds: fetch the stored packages it lacks, pick
//!   up dropped folders, and serve them (its problems, its claim filter, its `nodes` row).

pub mod stage;
pub mod sync;

pub use stage::{stage, PackageError, Staged};
pub use sync::PackageSync;
