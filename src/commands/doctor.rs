//! `sudojudge doctor`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge doctor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge doctor`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge doctor` is not built yet")
}
