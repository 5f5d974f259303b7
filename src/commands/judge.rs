//! `sudojudge judge`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge judge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// Source file.
    pub source: PathBuf,
    /// Language (c, cpp, rust, python); guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge judge`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge judge` is not built yet")
}
