//! The daemon: store, workers, custom-run pool and HTTP listener, started and stopped together.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::accounts::access;
use crate::config::Config;
use crate::contest::{self, Clock, SystemClock};
use crate::judge::{CustomRun, Executor, ExecutorError, JudgeSettings, RunnerPool};
use crate::metrics::{Counted, Metrics};
use crate::node::NodeIdentity;
use crate::packages::sync::{spawn as spawn_rescan, upload_limits, ProgramCheck};
use crate::packages::PackageSync;
use crate::store::NodeData;
use crate::store::{AccountStore, DatabaseOwner, NodeKind, Queue, Store, StoreError, StoreNode};
use crate::verify::data::DataFault;
use crate::verify::programs::verify_programs;
use crate::worker::node::open_store;
use crate::worker::{PoolSettings, Problems, WorkerPool};

use super::listener::{self, ConnectionLimits};
use super::services::contests::file_clock::FileClock;
use super::services::contests::Contests;
use super::state::AppState;

/// Errors starting the daemon.
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A sandbox slot could not be set up.
    #[error("sandbox slot {slot}: {source}")]
    Executor {
        /// The slot.
        slot: usize,
        /// Why.
        source: ExecutorError,
    },
    /// A contest file is broken, or the contest clock file cannot be read (each error names
    /// the file and the key).
    #[error("{0}")]
    Contests(String),
    /// Open mode (no accounts) on an address others can reach; the message says how to fix.
    #[error("{0}")]
    OpenMode(String),
    /// The listen address is unusable.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
}

/// A running daemon. Dropping it does not stop it: call [`Daemon::shutdown`].
pub struct Daemon {
    addr: SocketAddr,
    workers: usize,
    stop: watch::Sender<bool>,
    server: JoinHandle<std::io::Result<()>>,
    pool: WorkerPool,
    store: Store,
    metrics: Metrics,
    rescan: Option<JoinHandle<()>>,
    _owner: Option<DatabaseOwner>,
}

/// The number of workers a config asks for (0 = one per CPU core; none when `judge` is off).
pub fn worker_count(config: &Config) -> usize {
    if !config.server.judge {
        return 0;
    }
    match config.server.workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The contests of `[contests] dir` (every file must be sound: a broken contest refuses the
/// start rather than vanish) on the contest clock (`[contests] clock_file`, else the system's).
pub fn load_contests(config: &Config, problems: &Problems) -> Result<Contests, DaemonError> {
    let dir = config.contests_dir();
    let known: Vec<String> = problems.keys();
    let (loaded, errors) =
        contest::load_all(&dir, &known).map_err(|e| DaemonError::Contests(e.to_string()))?;
    if !errors.is_empty() {
        let all: Vec<String> = errors.iter().map(|e| format!("contest {e}")).collect();
        return Err(DaemonError::Contests(format!(
            "{} (sudojudge verify checks contest files)",
            all.join("; ")
        )));
    }
    let clock: Arc<dyn Clock> = match &config.contests.clock_file {
        None => Arc::new(SystemClock),
        Some(path) => {
            let clock = FileClock::open(path).map_err(DaemonError::Contests)?;
            tracing::warn!(file = %path.display(), "contest time is read from a file, not the system clock");
            Arc::new(clock)
        }
    };
    for c in &loaded {
        tracing::info!(contest = %c.id, format = c.format.as_str(), "contest loaded");
    }
    Ok(Contests::new(loaded, clock).watching(dir))
}

/// Each problem's data hash (hex), by problem id: what a node records in the nodes table,
/// so hosts see at a glance which node judges with other data.
pub fn package_hashes(problems: &Problems) -> BTreeMap<String, String> {
    problems.hashes()
}

impl Daemon {
    /// Opens the store (claiming a SQLite file for this daemon alone), requeues what a crash
    /// left in flight, registers the node, starts the workers (slots `0..workers`), the
    /// custom-run pool (the next `[run] slots` slots) and the listener, which serves the API
    /// and `pages` (the web pages, or an empty router).
    pub async fn start<E, F>(
        config: &Config,
        problems: Problems,
        sandbox_info: serde_json::Value,
        pages: axum::Router<AppState>,
        mut make_executor: F,
    ) -> Result<Daemon, DaemonError>
    where
        E: Executor,
        F: FnMut(usize) -> Result<E, ExecutorError>,
    {
        let node = NodeIdentity::name_of(config);
        let (store, owner) = open_store(config, node.as_str()).await?;
        let problems = Arc::new(problems);
        let store = store.with_data(NodeData::new(package_hashes(&problems)));
        // Packages uploaded while this node was down are fetched before the contests load.
        let mut packages = PackageSync::new(
            store.clone(),
            Arc::clone(&problems),
            config.problems.dir.clone(),
            upload_limits(config.problems.max_upload_kib.saturating_mul(1024)),
            None,
        );
        packages.pass().await;
        let contests = Arc::new(load_contests(config, &problems)?);
        let workers = worker_count(config);
        let settings = JudgeSettings::from_config(config);
        let wake = Arc::new(Notify::new());
        let (stop, stop_rx) = watch::channel(false);
        let metrics = Metrics::new(node.as_str());

        let mut executors = Vec::with_capacity(workers);
        for slot in 0..workers {
            let e = make_executor(slot).map_err(|source| DaemonError::Executor { slot, source })?;
            executors.push(Arc::new(Counted::judging(e, metrics.clone())));
        }
        let mut run_slots = Vec::new();
        for slot in workers..workers + config.run.slots.max(1) {
            let e = make_executor(slot).map_err(|source| DaemonError::Executor { slot, source })?;
            run_slots.push(Arc::new(Counted::custom(e, metrics.clone())));
        }
        let run_pool = Arc::new(RunnerPool::new(run_slots, config));
        let runner: Arc<dyn CustomRun> = Arc::clone(&run_pool) as Arc<dyn CustomRun>;

        let listener = tokio::net::TcpListener::bind(&config.server.listen)
            .await
            .map_err(|source| DaemonError::Listen {
                addr: config.server.listen.clone(),
                source,
            })?;
        let addr = listener
            .local_addr()
            .map_err(|source| DaemonError::Listen {
                addr: config.server.listen.clone(),
                source,
            })?;
        let users = store.any_users().await?;
        access::check_listen(config.accounts.auth, users, addr.ip().is_loopback())
            .map_err(DaemonError::OpenMode)?;

        let pool = WorkerPool::start(
            store.clone(),
            Arc::clone(&problems),
            executors,
            PoolSettings {
                kind: NodeKind::Serve,
                judge: settings,
                max_attempts: config.queue.max_attempts,
                hashes: package_hashes(&problems),
                modes: contests.modes(),
                metrics: metrics.clone(),
            },
            Arc::clone(&wake),
        )
        .await?;

        let run_slots = runner.size();
        let mut state = AppState::new(
            config,
            store.clone(),
            problems,
            workers,
            sandbox_info,
            Some(runner),
            wake,
        )
        .with_contests(contests);
        state.metrics = metrics.clone();
        state.stopping = stop_rx.clone();
        // The database's contests before the first request; the files watched from now on.
        super::services::contests::catalog::reload_database(&state).await?;
        for why in state.contests.refused() {
            tracing::error!(%why, "a contest is not served");
        }
        tokio::spawn(super::services::contests::catalog::watch_files(
            state.clone(),
            stop_rx.clone(),
        ));
        let max_processes = config.sandbox.max_processes;
        packages.set_programs(ProgramCheck {
            run: Arc::new(move |p| {
                run_pool
                    .with_slot(|e| verify_programs(e, p, max_processes))
                    .unwrap_or_else(|| {
                        vec![DataFault {
                            test: None,
                            message: "no free sandbox slot to run the package's programs; \
                                      try again"
                                .into(),
                        }]
                    })
            }),
            permits: Arc::clone(&state.run_permits),
        });
        let packages = Arc::new(packages);
        state.packages = Some(Arc::clone(&packages));
        let rescan = spawn_rescan(
            packages,
            Duration::from_millis(config.problems.rescan_ms),
            stop_rx.clone(),
        );
        let app = super::app(state, pages);
        let descriptors = listener::raise_descriptor_limit();
        let limits = ConnectionLimits {
            max_connections: listener::connection_cap(
                config.server.max_connections,
                descriptors,
                workers + run_slots,
            ),
            per_address: config.server.max_connections_per_address,
            per_network: config.server.max_connections_per_network,
            header_timeout: Duration::from_millis(config.server.header_timeout_ms.max(1)),
            busy_header_timeout: Duration::from_millis(config.server.busy_header_timeout_ms.max(1)),
            write_timeout: Duration::from_millis(config.server.write_timeout_ms.max(1)),
        };
        let server = tokio::spawn(listener::serve(listener, app, limits, stop_rx));
        Ok(Daemon {
            addr,
            workers,
            stop,
            server,
            pool,
            store,
            metrics,
            rescan,
            _owner: owner,
        })
    }

    /// The bound address (the real port when the config said port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Number of judging workers.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The daemon's metrics registry (what `GET /metrics` renders).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The store (benchmarks and tests read it directly).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Stops taking requests and work; in-flight submissions are finished up to the current
    /// test and put back in the queue; waits for everything to stop.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        match self.server.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!(error = %e, "HTTP server failed"),
            Err(e) => tracing::error!(error = %e, "HTTP server task failed"),
        }
        if let Some(rescan) = self.rescan {
            let _ = rescan.await;
        }
        self.pool.shutdown().await;
        if let Ok(depth) = self.store.depth().await {
            tracing::info!(queue_depth = depth, "stopped");
        }
    }
}
