//! `sudojudge run`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Source file.
    pub source: PathBuf,
    /// Language (c, cpp, rust, python); guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// File fed to the program on stdin.
    #[arg(long)]
    pub stdin: Option<PathBuf>,
    /// CPU time limit in milliseconds.
    #[arg(long)]
    pub time_limit: Option<u64>,
    /// Memory limit in MiB.
    #[arg(long)]
    pub memory_limit: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge run`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge run` is not built yet")
}
