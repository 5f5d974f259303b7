//! `sudojudge check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// The test input.
    pub input: PathBuf,
    /// The output to check.
    pub output: PathBuf,
    /// The reference answer (default: computed by the reference solver).
    #[arg(long)]
    pub answer: Option<PathBuf>,
}

/// Runs `sudojudge check`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge check` is not built yet")
}
