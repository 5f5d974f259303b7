//! `sudojudge serve`.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::judge::{ExecutorError, SandboxExecutor};
use sudojudge::node::NodeIdentity;
use sudojudge::server::Daemon;
use sudojudge::worker::Problems;

/// Arguments of `sudojudge serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub packages: super::PackageArgs,
    /// Address to listen on: HOST:PORT, HOST (the configured port) or PORT (on 127.0.0.1);
    /// HOST may be a name (overrides the config).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// SQLite database file, or a PostgreSQL URL `postgres://...` (overrides the config).
    #[arg(long)]
    pub database: Option<PathBuf>,
    /// Number of judging workers (overrides the config); 0: none, this node only serves the
    /// API (worker nodes judge).
    #[arg(long)]
    pub workers: Option<usize>,
    /// This node's name (overrides `[node] name`; default: this host's name). A named node
    /// judges in a sandbox namespace of its own: slot uids, box folder, cgroup folder.
    #[arg(long, value_name = "NAME")]
    pub node: Option<String>,
}

/// Runs `sudojudge serve` until SIGINT or SIGTERM.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let mut config = super::load_config_with(config, &args.packages)?;
    if let Some(database) = args.database {
        config.server.database = database;
    }
    match args.workers {
        Some(0) => config.server.judge = false,
        Some(workers) => config.server.workers = workers,
        None => {}
    }
    let node = NodeIdentity::from_config(&config, args.node.as_deref())?;
    node.apply(&mut config);
    config.server.listen = listen_address(
        args.listen.as_deref().unwrap_or(&config.server.listen),
        &config.server.listen,
    );
    init_logging();
    let (sandbox_info, problems) = prepare_judging(&config, &node)?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        // Each worker and custom-run executor leases the lowest slot free on the host.
        let pages = sudojudge::web::routes();
        let daemon = Daemon::start(&config, problems, sandbox_info, pages, |_| {
            SandboxExecutor::any(&config).map_err(|e| ExecutorError(e.to_string()))
        })
        .await
        .context("starting the daemon")?;
        tracing::info!(
            addr = %daemon.addr(),
            workers = daemon.workers(),
            database = %sudojudge::store::Location::parse(&config.server.database).display(),
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

/// Logs to stderr at `RUST_LOG`'s level (default info), coloured on a terminal.
pub(super) fn init_logging() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

/// What a judging node checks before it starts: the toolchains (logged), the sandbox (an
/// error unless degraded mode is allowed; its capabilities for the health endpoint) and the
/// problem packages.
pub(super) fn prepare_judging(
    config: &Config,
    node: &NodeIdentity,
) -> anyhow::Result<(serde_json::Value, Problems)> {
    tracing::info!(config = %config.source, "configuration read");
    tracing::info!(node = %node.name, from = ?node.source, uid_base = node.sandbox.uid_base,
        box_root = %node.sandbox.box_root.display(), cgroup = %node.sandbox.cgroup_name,
        "node");
    for (language, found) in &config.toolchains.found {
        tracing::info!(language, folder = %found.folder.display(), command = %found.command,
            "toolchain found");
    }
    for (language, why) in &config.toolchains.missing {
        tracing::warn!(language, reason = %why, "toolchain missing: the language is not offered");
    }
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
    super::package_checks::check(config, problems.values().iter().map(|p| &**p))?;
    Ok((sandbox_info, problems))
}

/// `given` as an address to bind: `HOST:PORT` as written, a bare `HOST` (a name or an IP)
/// on the port of `configured` (8080 if it has none), a bare `PORT` on 127.0.0.1.
fn listen_address(given: &str, configured: &str) -> String {
    let given = given.trim();
    if given.parse::<SocketAddr>().is_ok() {
        return given.to_string();
    }
    if let Ok(port) = given.parse::<u16>() {
        return format!("127.0.0.1:{port}");
    }
    let port = configured
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse::<u16>().ok())
        .unwrap_or(8080);
    if let Ok(ip) = given.trim_matches(['[', ']']).parse::<IpAddr>() {
        return SocketAddr::new(ip, port).to_string();
    }
    match given.rsplit_once(':') {
        Some((_, p)) if p.parse::<u16>().is_ok() => given.to_string(),
        _ => format!("{given}:{port}"),
    }
}

pub(super) async fn wait_for_signal() -> anyhow::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    let mut int = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::listen_address;

    #[test]
    fn listen_takes_names_bare_hosts_and_bare_ports() {
        let c = "127.0.0.1:8080";
        assert_eq!(listen_address("127.0.0.1:9000", c), "127.0.0.1:9000");
        assert_eq!(listen_address("localhost", c), "localhost:8080");
        assert_eq!(listen_address("localhost:0", c), "localhost:0");
        assert_eq!(listen_address("0.0.0.0", "x:9001"), "0.0.0.0:9001");
        assert_eq!(listen_address("::1", c), "[::1]:8080");
        assert_eq!(listen_address("[::1]:7", c), "[::1]:7");
        assert_eq!(listen_address("9000", c), "127.0.0.1:9000");
    }
}
