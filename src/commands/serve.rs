//! `sudojudge serve`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::judge::{ExecutorError, SandboxExecutor};
use sudojudge::server::Daemon;
use sudojudge::worker::Problems;

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

/// Runs `sudojudge serve` until SIGINT or SIGTERM.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let mut config = Config::load(config).context("loading the configuration")?;
    if let Some(listen) = args.listen {
        config.server.listen = listen;
    }
    if let Some(database) = args.database {
        config.server.database = database;
    }
    if let Some(workers) = args.workers {
        config.server.workers = workers;
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();

    let capabilities = sudojudge::sandbox::probe(&config.sandbox);
    if !capabilities.isolated && !config.sandbox.allow_degraded {
        anyhow::bail!(
            "the sandbox cannot isolate submissions on this host; missing: {}. \
             Run as root on a host with cgroups, or set [sandbox] allow_degraded = true \
             to run without isolation",
            capabilities.missing.join("; ")
        );
    }
    if !capabilities.isolated {
        tracing::warn!(missing = %capabilities.missing.join("; "),
            "DEGRADED mode: submissions are NOT isolated (rlimits only)");
    }
    let sandbox_info =
        serde_json::to_value(&capabilities).context("encoding the sandbox capabilities")?;
    let problems: Problems = sudojudge::problem::load_all(&config.problems.dir)
        .with_context(|| format!("loading problems from {}", config.problems.dir.display()))?
        .into_iter()
        .map(|p| (p.id.clone(), p))
        .collect();

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let daemon = Daemon::start(&config, problems, sandbox_info, |slot| {
            let slot = u32::try_from(slot).map_err(|e| ExecutorError(e.to_string()))?;
            SandboxExecutor::new(&config, slot).map_err(|e| ExecutorError(e.to_string()))
        })
        .await
        .context("starting the daemon")?;
        tracing::info!(
            addr = %daemon.addr(),
            workers = daemon.workers(),
            database = %config.server.database.display(),
            "sudojudge listening"
        );
        // Tests and scripts read the bound address from this line (port 0 picks one).
        println!("listening on http://{}", daemon.addr());
        let _ = std::io::stdout().flush();
        wait_for_signal().await?;
        tracing::info!("shutting down: no new work, in-flight submissions are requeued");
        daemon.shutdown().await;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

async fn wait_for_signal() -> anyhow::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    let mut int = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    Ok(())
}
