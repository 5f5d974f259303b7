//! Property tests of pure code: solvers, contest scoring, similarity.
//!
//! One test binary for the area (each links the whole crate once); a module per file.

// Each binary uses only a part of the shared fixtures.
#[allow(dead_code)]
#[path = "../fixtures/mod.rs"]
mod fixtures;

mod contest_properties;
mod grade_similarity;
mod imports;
mod solver_properties;
