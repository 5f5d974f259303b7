//! `sudojudge solve`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
}

/// Runs `sudojudge solve`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge solve` is not built yet")
}
