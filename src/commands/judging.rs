//! What the commands that judge many sources share (`verify`, `grade`): one judge per sandbox
//! slot, the async runtime, and a progress bar on a terminal with plain lines otherwise.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sudojudge::config::Config;
use sudojudge::judge::{Judge, JudgeSettings, SandboxExecutor};

/// Judges to use for `jobs` sources: `requested`, else the configured workers (0: one per
/// core), never more than the jobs and at least one.
pub fn worker_count(config: &Config, requested: Option<usize>, jobs: usize) -> usize {
    let configured = match requested.unwrap_or(config.server.workers) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    configured.clamp(1, jobs.max(1))
}

/// `count` judges, each on a sandbox slot this process leases (the lowest free ones, so
/// any number of processes judge at once); `hint` ends the error when a slot cannot be set up.
pub fn slot_judges(
    config: &Config,
    count: usize,
    hint: &str,
) -> anyhow::Result<Vec<Judge<SandboxExecutor>>> {
    let settings = JudgeSettings::from_config(config);
    (0..count)
        .map(|slot| {
            let executor = SandboxExecutor::any(config)
                .with_context(|| format!("setting up a sandbox slot{hint}"))?;
            if let (0, Some(why)) = (slot, executor.cache_refused()) {
                eprintln!("warning: {why}; compiling without the cache");
            }
            Ok(Judge::new(Arc::new(executor), settings.clone()))
        })
        .collect()
}

/// The runtime the judging tasks run on (the sandbox calls are blocking tasks of it).
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// A progress bar on a terminal, one plain line per finished source otherwise.
#[derive(Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
    done: Arc<AtomicU64>,
    total: u64,
}

impl Progress {
    /// A bar over `total` items called `what` (`solutions`, `students`).
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            let template = format!("{{bar:30}} {{pos}}/{{len}} {what}  {{elapsed}}  {{msg}}");
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            done: Arc::new(AtomicU64::new(0)),
            total,
        }
    }

    /// One item finished; `notable` lines stay above the bar.
    pub fn done(&self, line: &str, notable: bool) {
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                if notable {
                    bar.println(line);
                }
                bar.set_message(line.to_string());
            }
            None => {
                let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!("[{done}/{}] {line}", self.total);
            }
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
