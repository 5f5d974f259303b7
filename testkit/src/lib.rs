//! Test-only helpers that both sudojudge's unit tests (`src/store/`) and its test binaries
//! (`tests/*/main.rs`) need, kept in a crate of their own so that `src/` never reaches into
//! `tests/`. A dev-dependency only: nothing here ships in the judge.

pub mod postgres;
