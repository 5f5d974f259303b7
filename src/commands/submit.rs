//! `sudojudge submit`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use super::client::{self, ServerArgs};

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
    #[command(flatten)]
    pub server: ServerArgs,
    /// Wait for the verdict and print it (exit code as `judge`).
    #[arg(long)]
    pub wait: bool,
}

/// How long `--wait` waits for a verdict before giving up.
const WAIT_LIMIT: Duration = Duration::from_secs(600);

/// Runs `sudojudge submit`: exit 0 once queued (with `--wait`: 0 on AC, 1 on another
/// verdict), 2 when refused or the daemon cannot be reached.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_settings(config)?;
    let base = args.server.base(&config)?;
    let language = super::judge::pick_language(&config, args.language.as_deref(), &args.source)?;
    let source = super::judge::read_source(&args.source)?;
    let source = String::from_utf8(source)
        .map_err(|_| anyhow::anyhow!("{}: sources must be UTF-8", args.source.display()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(submit(&args, &base, &language, source))
}

async fn submit(
    args: &Args,
    base: &str,
    language: &str,
    source: String,
) -> anyhow::Result<ExitCode> {
    let client = client::client(args.server.token.as_deref())?;
    let body = serde_json::json!({"problem": args.problem, "language": language, "source": source});
    let response = client
        .post(format!("{base}/api/submissions"))
        .json(&body)
        .send()
        .await
        .with_context(|| format!("posting to {base}"))?;
    let value = client::answer(response, base, "the server refused the submission:").await?;
    let id = value["id"]
        .as_i64()
        .with_context(|| format!("the server's answer has no id: {value}"))?;
    println!("submission {id} queued");
    if !args.wait {
        return Ok(ExitCode::from(super::EXIT_OK));
    }
    let started = Instant::now();
    let mut pause = Duration::from_millis(50);
    loop {
        let (value, submission) = client::fetch(&client, base, id).await?;
        if submission.status.is_final() {
            return Ok(client::show(&value, submission, false));
        }
        if started.elapsed() > WAIT_LIMIT {
            bail!(
                "submission {id} is still {} after {}s (`sudojudge status {id}` reads it later)",
                submission.status.as_str(),
                WAIT_LIMIT.as_secs()
            );
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(500));
    }
}
