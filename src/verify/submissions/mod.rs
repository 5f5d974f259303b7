//! The submissions half of `sudojudge verify`: every reference solution kept under
//! `problems/<id>/submissions/<expected>/` is judged in the sandbox, and its verdict must match
//! its folder.
//!
//! - [`expectation`]: the folders, the verdict each promises, and the time margins.
//! - [`mod@discover`]: finding the reference solutions of a problem and their languages.
//! - [`mod@evaluate`]: the rule turning one judge report into a pass or a failure with reasons.
//! - [`runner`]: judging many solutions in parallel, one judge (sandbox slot) per worker.
//! - [`scores`]: a scoring problem's score promises (`accepted`, `partially_accepted`).
//! - [`render`]: the table for people and the JSON summary for machines.

pub mod discover;
pub mod evaluate;
pub mod expectation;
pub mod render;
pub mod runner;
pub mod scores;

pub use discover::{discover, discover_with_skips, DiscoverError, ReferenceSolution, Skipped};
pub use evaluate::{diagnose, evaluate, Outcome};
pub use expectation::{Expectation, Margins};
pub use render::{render_table, Summary};
pub use runner::{judge_all, problem_margins, Job};

#[cfg(test)]
mod tests;
