//! Several nodes: named daemons on one machine, and API and worker nodes on a throwaway PostgreSQL cluster.
//!
//! One test binary for the area (each links the whole crate once); a module per file.

// Each binary uses only a part of the shared fixtures.
#[allow(dead_code)]
#[path = "../fixtures/mod.rs"]
mod fixtures;

mod node_daemons;
mod postgres_contest_delete;
mod postgres_contest_edits;
mod postgres_contests;
mod postgres_data;
mod postgres_nodes;
mod postgres_rejudgings;
mod postgres_upload;
mod postgres_worker_contests;
