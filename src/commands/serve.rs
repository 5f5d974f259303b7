//! `sudojudge serve`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sudojudge serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on (overrides the config).
    #[arg(long)]
    pub listen: Option<String>,
    /// SQLite database file (overrides the config).
    #[arg(long)]
    pub database: Option<PathBuf>,
    /// Number of judging workers (overrides the config).
    #[arg(long)]
    pub workers: Option<usize>,
}

/// Runs `sudojudge serve`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let _ = (config, args);
    anyhow::bail!("`sudojudge serve` is not built yet")
}
