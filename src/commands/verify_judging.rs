//! The submissions half of `sudojudge verify`: judges every package's reference solutions on
//! sandbox slots in parallel, with a progress bar on a terminal and plain lines otherwise.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sudojudge::config::Config;
use sudojudge::judge::{Judge, JudgeSettings, SandboxExecutor};
use sudojudge::problem::Problem;
use sudojudge::verify_submissions::{
    diagnose, discover, judge_all, render_table, Job, Margins, Outcome, Summary,
};

fn worker_count(config: &Config, jobs: usize) -> usize {
    let configured = match config.server.workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    configured.clamp(1, jobs.max(1))
}

/// Judges the reference solutions of `problems`; the summary says whether all kept their
/// folders' promises.
pub fn judge_submissions(config: &Config, problems: &[Problem]) -> anyhow::Result<Summary> {
    let margins = Margins::default();
    let mut jobs = Vec::new();
    for problem in problems {
        let problem = Arc::new(problem.clone());
        let found = discover(&problem, config)
            .with_context(|| format!("listing the submissions of {}", problem.id))?;
        jobs.extend(found.into_iter().map(|solution| Job {
            problem: Arc::clone(&problem),
            solution,
        }));
    }
    let workers = worker_count(config, jobs.len());
    let settings = JudgeSettings::from_config(config);
    let mut judges = Vec::with_capacity(workers);
    for _ in 0..workers {
        let executor = SandboxExecutor::any(config)
            .context("setting up a sandbox slot (--data-only checks the data alone)")?;
        judges.push(Judge::new(Arc::new(executor), settings.clone()));
    }
    let total = jobs.len();
    let progress = Progress::new(total as u64);
    let on_done = {
        let progress = progress.clone();
        Arc::new(move |o: &Outcome| progress.done(o))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    eprintln!("judging {total} reference solutions on {workers} sandbox slots");
    let outcomes = runtime.block_on(judge_all(judges, jobs, margins, on_done));
    progress.finish();
    let package_failures = problems
        .iter()
        .flat_map(|p| diagnose(p, &outcomes))
        .collect();
    Ok(Summary::new(margins, outcomes, package_failures))
}

/// Prints the table of a summary.
pub fn print_table(summary: &Summary) {
    print!("{}", render_table(summary));
}

/// A progress bar on a terminal, one plain line per solution otherwise.
#[derive(Clone)]
struct Progress {
    bar: Option<ProgressBar>,
    done: Arc<AtomicU64>,
    total: u64,
}

impl Progress {
    fn new(total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            if let Ok(style) =
                ProgressStyle::with_template("{bar:30} {pos}/{len} solutions  {elapsed}  {msg}")
            {
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

    fn done(&self, o: &Outcome) {
        let line = format!(
            "{}/{}: {} (expected {}) {} ms{}",
            o.problem,
            o.name,
            o.got,
            o.expected_verdict,
            o.time_ms,
            if o.ok { "" } else { "  FAIL" }
        );
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                if !o.ok {
                    bar.println(line.clone());
                }
                bar.set_message(line);
            }
            None => {
                let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!("[{done}/{}] {line}", self.total);
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
