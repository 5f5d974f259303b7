//! `sudojudge worker`: a judge-only node on a shared PostgreSQL database (no HTTP).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use sudojudge::judge::{JudgeSettings, SandboxExecutor};
use sudojudge::server::daemon::worker_count;
use sudojudge::store::{Location, NodeKind};
use sudojudge::worker::node::{node_name, open_store};
use sudojudge::worker::{PoolSettings, WorkerPool};
use tokio::sync::Notify;

use super::serve::{init_logging, prepare_judging, wait_for_signal};

/// Arguments of `sudojudge worker`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub packages: super::PackageArgs,
    /// The shared PostgreSQL database, `postgres://user:password@host/db` (overrides the
    /// config's `[server] database`).
    #[arg(long, value_name = "URL")]
    pub database: Option<PathBuf>,
    /// This node's name among the nodes on the database [default: `[server] node`, else
    /// `<hostname>-worker`].
    #[arg(long, value_name = "NAME")]
    pub node: Option<String>,
    /// Judging slots (workers) [default: `[server] workers`, 0 = one per CPU core].
    #[arg(long, value_name = "N")]
    pub slots: Option<usize>,
}

/// Runs `sudojudge worker` until SIGINT or SIGTERM; then each submission being judged is
/// put back in the queue at its next test (or stored, if it was done).
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let mut config = super::load_config_with(config, &args.packages)?;
    if let Some(database) = args.database {
        config.server.database = database;
    }
    if let Some(node) = args.node {
        config.server.node = Some(node);
    }
    if let Some(slots) = args.slots {
        config.server.workers = slots.max(1);
    }
    config.server.judge = true;
    let location = Location::parse(&config.server.database);
    if !location.is_shared() {
        anyhow::bail!(
            "a worker node needs a database shared with the API node: --database \
             postgres://...; {} is a SQLite file, where `sudojudge serve` itself judges",
            location.display()
        );
    }
    init_logging();
    let (_, problems) = prepare_judging(&config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let name = node_name(&config, NodeKind::Worker);
        let (store, _) = open_store(&config, &name)
            .await
            .context("opening the database")?;
        let slots = worker_count(&config);
        let mut executors = Vec::with_capacity(slots);
        for _ in 0..slots {
            // Each executor leases the lowest sandbox slot free on this host, so several
            // nodes on one machine never share a uid, a cgroup or a box folder.
            let executor = SandboxExecutor::any(&config).context("setting up a sandbox slot")?;
            executors.push(Arc::new(executor));
        }
        let pool = WorkerPool::start(
            store,
            Arc::new(problems),
            executors,
            PoolSettings {
                kind: NodeKind::Worker,
                judge: JudgeSettings::from_config(&config),
                max_attempts: config.queue.max_attempts,
                hashes: Default::default(),
            },
            Arc::new(Notify::new()),
        )
        .await
        .context("starting the workers")?;
        tracing::info!(node = %name, slots, database = %location.display(), "worker node judging");
        // Tests and scripts wait for this line.
        println!("worker {name} judging with {slots} slots");
        let _ = std::io::stdout().flush();
        wait_for_signal().await?;
        tracing::info!("shutting down: no new work, in-flight submissions are requeued");
        pool.shutdown().await;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
