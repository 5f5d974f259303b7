//! `sudojudge status`: a submission's state and verdict, read from a running daemon.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use super::client::{self, ServerArgs};

/// Arguments of `sudojudge status`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Submission id (as `submit` printed it).
    pub id: i64,
    #[command(flatten)]
    pub server: ServerArgs,
    /// Print the server's JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge status`: exit 0 on AC, 1 on another verdict, 3 while not judged yet,
/// 2 when the daemon cannot be asked.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_settings(config)?;
    let base = args.server.base(&config)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let (value, submission) = client::fetch(
            &client::client(args.server.token.as_deref())?,
            &base,
            args.id,
        )
        .await?;
        Ok(client::show(&value, submission, args.json))
    })
}
