//! `sudojudge verify`, above the problems and the checkers it exercises: a package's data
//! must be well formed and match its statement's promises, and every reference solution must
//! get the verdict its folder promises.
//!
//! - [`data`]: the data checks (formats, limits the statement promises, answers by the
//!   reference solvers).
//! - [`programs`]: the data checks that run the package's own validators in the sandbox.
//! - [`submissions`]: the reference solutions judged in the sandbox, each against its folder.

pub mod data;
pub mod programs;
pub mod submissions;
