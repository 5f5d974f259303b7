//! `sudojudge verify`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problems to verify (default: all).
    pub problems: Vec<String>,
    /// Only check the data, not the submissions.
    #[arg(long)]
    pub data_only: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge verify`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge verify` is not built yet")
}
