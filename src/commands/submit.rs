//! `sudojudge submit`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use sudojudge::config::Config;
use sudojudge::judge::{table, CompileInfo, JudgeReport, Verdict};
use sudojudge::store::{Status, Submission};

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

/// How long `--wait` waits for a verdict before giving up.
const WAIT_LIMIT: Duration = Duration::from_secs(600);

/// Runs `sudojudge submit`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).context("loading the configuration")?;
    let language = match &args.language {
        Some(l) => l.clone(),
        None => super::judge::guess_language(&config, &args.source)?,
    };
    let source = std::fs::read_to_string(&args.source)
        .with_context(|| format!("reading {} (sources must be UTF-8)", args.source.display()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(submit(&args, &language, source))
}

async fn submit(args: &Args, language: &str, source: String) -> anyhow::Result<ExitCode> {
    let base = args.server.trim_end_matches('/');
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .context("building the HTTP client")?;
    let body = serde_json::json!({"problem": args.problem, "language": language, "source": source});
    let response = client
        .post(format!("{base}/api/submissions"))
        .json(&body)
        .send()
        .await
        .with_context(|| format!("posting to {base}"))?;
    let status = response.status();
    let value: serde_json::Value = response
        .json()
        .await
        .with_context(|| format!("reading the answer of {base} (HTTP {status})"))?;
    if !status.is_success() {
        let message = value["error"]["message"].as_str().unwrap_or("no message");
        bail!("the server refused the submission (HTTP {status}): {message}");
    }
    let id = value["id"]
        .as_i64()
        .with_context(|| format!("the server's answer has no id: {value}"))?;
    println!("submission {id} queued");
    if !args.wait {
        return Ok(ExitCode::SUCCESS);
    }
    let started = Instant::now();
    let mut pause = Duration::from_millis(50);
    loop {
        let submission: Submission = client
            .get(format!("{base}/api/submissions/{id}"))
            .send()
            .await
            .with_context(|| format!("polling submission {id}"))?
            .error_for_status()
            .with_context(|| format!("polling submission {id}"))?
            .json()
            .await
            .with_context(|| format!("reading submission {id}"))?;
        if submission.status == Status::Done {
            print!("{}", table::render(&to_report(submission)));
            return Ok(ExitCode::SUCCESS);
        }
        if started.elapsed() > WAIT_LIMIT {
            bail!(
                "submission {id} is still {} after {}s",
                submission.status.as_str(),
                WAIT_LIMIT.as_secs()
            );
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(500));
    }
}

fn to_report(s: Submission) -> JudgeReport {
    JudgeReport {
        judge_failure: None,
        problem: s.problem,
        language: s.language,
        verdict: s.verdict.unwrap_or(Verdict::SE),
        score: s.score.unwrap_or(0),
        time_ms: s.time_ms.unwrap_or(0),
        memory_kib: s.memory_kib.unwrap_or(0),
        compile: s.compile.unwrap_or(CompileInfo {
            ok: false,
            log: String::new(),
        }),
        tests: s.tests,
        message: s.message,
        degraded: s.degraded,
    }
}
