//! The command line: `judge`, `grade`, `verify`, `user`, offline commands, and a fresh clone standing alone.
//!
//! One test binary for the area (each links the whole crate once); a module per file.

// Each binary uses only a part of the shared fixtures.
#[allow(dead_code)]
#[path = "../fixtures/mod.rs"]
mod fixtures;

mod accounts_cli;
mod cli_offline;
mod compile_cache;
mod era_compilers;
mod era_data;
mod file_io;
mod grade_assignment;
mod grade_cli;
mod grade_full_scores;
mod grade_hostile;
mod grade_lms;
mod java_language;
mod judge_cli;
mod kattis_interactive;
mod kattis_scoring;
mod kattis_team_message_cli;
mod kattis_verify;
mod negative_scores;
mod password_cli;
mod standalone;
mod stress_cli;
mod stress_package;
mod user_list_groups;
mod verify_submissions;
