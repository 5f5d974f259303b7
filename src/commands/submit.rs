//! `sudojudge submit`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge submit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// Source file.
    pub source: PathBuf,
    /// Language (c, cpp, rust, python); guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// Base URL of the daemon.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// Wait for the verdict and print it.
    #[arg(long)]
    pub wait: bool,
}

/// Runs `sudojudge submit`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge submit` is not built yet")
}
