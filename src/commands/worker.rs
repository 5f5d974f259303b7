//! `sudojudge worker`: a judge-only node on a shared PostgreSQL database (no HTTP).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use sudojudge::judge::{JudgeSettings, SandboxExecutor};
use sudojudge::metrics::{Counted, Metrics};
use sudojudge::node::{NodeIdentity, NodeName};
use sudojudge::packages::sync::{spawn as spawn_rescan, upload_limits};
use sudojudge::packages::PackageSync;
use sudojudge::server::daemon::worker_count;
use sudojudge::server::daemon::{load_contests, package_hashes};
use sudojudge::server::services::contests::catalog;
use sudojudge::store::NodeData;
use sudojudge::store::{Location, NodeKind, StoreNode};
use sudojudge::worker::node::open_store;
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
    /// This node's name among the nodes on the database [default: `[node] name`, else
    /// `<hostname>-worker`]. A worker always judges in a sandbox namespace of its own (slot
    /// uids, box folder, cgroup folder derived from its name), so it never meets a `serve`
    /// node or another worker on the same machine.
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
    let name = args
        .node
        .or_else(|| config.node.name.clone())
        .unwrap_or_else(|| NodeName::of_host().with_suffix("worker").to_string());
    let node = NodeIdentity::from_config(&config, Some(&name))?;
    node.apply(&mut config);
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
    let (_, problems) = prepare_judging(&config, &node)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let name = node.name.to_string();
        let (store, _) = open_store(&config, &name)
            .await
            .context("opening the database")?;
        let slots = worker_count(&config);
        let metrics = Metrics::new(&name);
        let mut executors = Vec::with_capacity(slots);
        for _ in 0..slots {
            // Each executor leases the lowest sandbox slot free on this host, so several
            // nodes on one machine never share a uid, a cgroup or a box folder.
            let executor = SandboxExecutor::any(&config).context("setting up a sandbox slot")?;
            executors.push(Arc::new(Counted::judging(executor, metrics.clone())));
        }
        let problems = Arc::new(problems);
        let store = store.with_data(NodeData::new(package_hashes(&problems)));
        // Packages uploaded while this node was down are fetched before the contests load.
        let sync = Arc::new(PackageSync::new(
            store.clone(),
            Arc::clone(&problems),
            config.problems.dir.clone(),
            upload_limits(config.problems.max_upload_kib.saturating_mul(1024)),
            None,
        ));
        sync.pass().await;
        let contests = load_contests(&config, &problems)?;
        let hashes = package_hashes(&problems);
        // Contests made or edited at runtime: judged in their format's mode here too.
        let contests = Arc::new(contests);
        catalog::load_database(&store, &contests, &problems.keys())
            .await
            .context("reading the database's contests")?;
        tokio::spawn(catalog::follow_database(
            store.clone(),
            Arc::clone(&contests),
            Arc::clone(&problems),
        ));
        let (stop, stop_rx) = tokio::sync::watch::channel(false);
        let rescan = spawn_rescan(
            sync,
            Duration::from_millis(config.problems.rescan_ms),
            stop_rx,
        );
        let pool = WorkerPool::start(
            store,
            problems,
            executors,
            PoolSettings {
                kind: NodeKind::Worker,
                judge: JudgeSettings::from_config(&config),
                max_attempts: config.queue.max_attempts,
                hashes,
                modes: contests.modes(),
                metrics,
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
        let _ = stop.send(true);
        if let Some(rescan) = rescan {
            let _ = rescan.await;
        }
        pool.shutdown().await;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
