//! sudojudge: an online judge for Sudoku problems (three classic ones and a speed variant).
//!
//! The crate is a library with a thin binary on top (`src/main.rs`). Data flows one way:
//! a submission (HTTP or CLI) is stored as `queued`, a worker claims it, the judge compiles
//! it and runs every test in a fresh sandbox box, a checker verifies each output, and the
//! results are stored for the API to read.
//!
//! Module map:
//! - [`archive`]: safe extraction of an uploaded zip (LMS exports; package uploads): no path
//!   leaving the folder, no link, bounded entries, sizes and compression ratio.
//! - [`accounts`]: users, argon2id passwords, hashed tokens, roles, and the access rules
//!   every handler asks.
//! - [`config`]: the configuration file (found at run time) over built-in defaults, to a
//!   typed [`config::Config`]; toolchains found on this host.
//! - [`contest`]: contest files, formats, timings and scoreboards as pure code (no I/O but
//!   reading contest files), with a clock trait.
//! - [`problem`]: problem packages on disk (`problems/<id>/`), their input formats and data.
//! - [`solvers`]: pure reference solvers, no I/O. Every verdict rests on them.
//! - [`checkers`]: one checker per problem kind, built on the solvers.
//! - [`validators`]: the output validators run in-process, behind one abstraction
//!   ([`problem::OutputValidator`]).
//! - [`sandbox`]: Linux isolation (namespaces, mounts, cgroups v1/v2, rlimits, seccomp).
//! - [`languages`]: the language table: compile and run commands per language, and the
//!   compiled-program cache every compile goes through.
//! - [`judge`]: compile once, run every test, check, aggregate a verdict.
//! - [`store`]: sqlx persistence on SQLite or PostgreSQL: submissions, test results, the
//!   queue with leases, accounts, nodes, contests' runtime state (participations, the
//!   board's version, clarifications).
//! - [`server`]: the axum HTTP API, sessions and CSRF tokens, the services (submissions,
//!   login, users, the queue, contests) it shares with the web pages, the daemon.
//! - [`web`]: the web pages (server-rendered templates) the daemon serves beside the API.
//! - [`worker`]: takes queued submissions and judges them; the heartbeat and the worker pool
//!   of `serve` and `worker` nodes.
//! - [`node`]: this judging node's name and its own sandbox namespace (uids, box folder,
//!   cgroup folder), so several nodes share one machine.
//! - [`packages`]: packages added to a running judge: an upload or a dropped folder checked
//!   and served, and another node's upload fetched from the database by its hash.
//! - [`metrics`]: the Prometheus counters, gauges and histogram behind `GET /metrics`, one
//!   registry per daemon.
//! - [`grade`]: `sudojudge grade`: a class folder to a table, CSV and JSON, a re-run cache, and
//!   a similarity report (normalised tokens, winnowed fingerprints).
//! - [`user_name`]: the user-name newtype, below both the accounts and the contest files.
//! - [`stress`]: `sudojudge stress`: a solution against the reference solver on random
//!   inputs, the first disagreement shrunk to a minimal input.
//! - [`verify`]: `sudojudge verify`: a package's data checks, and every reference solution
//!   judged and checked against its folder.

#![warn(missing_docs)]

pub mod accounts;
pub mod archive;
pub mod checkers;
pub mod config;
pub mod contest;
pub mod grade;
pub mod judge;
pub mod languages;
pub mod metrics;
pub mod node;
pub mod packages;
pub mod problem;
pub mod sandbox;
pub mod server;
pub mod solvers;
pub mod store;
pub mod stress;
pub mod user_name;
pub mod validators;
pub mod verify;
pub mod web;
pub mod worker;
