//! `sudojudge gen`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge gen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
}

/// Runs `sudojudge gen`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge gen` is not built yet")
}
