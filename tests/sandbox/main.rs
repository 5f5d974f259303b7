//! The Linux sandbox: accuracy, containment of hostile programs, degraded hosts, node namespaces, several judging processes at once.
//!
//! One test binary for the area (each links the whole crate once); a module per file.

// Each binary uses only a part of the shared fixtures.
#[allow(dead_code)]
#[path = "../fixtures/mod.rs"]
mod fixtures;

mod concurrent_processes;
mod node_sandboxes;
mod reused_box;
mod sandbox_accuracy;
mod sandbox_cli;
mod sandbox_degraded;
mod sandbox_hostile;
mod sandbox_hostile_fs;
mod sandbox_hostile_kernel;
