//! The submissions half of `sudojudge verify`: judges every package's reference solutions on
//! sandbox slots in parallel, with a progress bar on a terminal and plain lines otherwise.

use std::sync::Arc;

use super::judging::{runtime, slot_judges, worker_count, Progress};
use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::problem::Problem;
use sudojudge::verify::submissions::{
    diagnose, discover_with_skips, judge_all, render_table, Job, Margins, Outcome, Summary,
};

/// Judges the reference solutions of `problems`; the summary says whether all kept their
/// folders' promises.
pub fn judge_submissions(config: &Config, problems: &[Problem]) -> anyhow::Result<Summary> {
    let margins = Margins::default();
    let mut jobs = Vec::new();
    let mut skipped = Vec::new();
    for problem in problems {
        let problem = Arc::new(problem.clone());
        let (found, skips) = discover_with_skips(&problem, config)
            .with_context(|| format!("listing the submissions of {}", problem.id))?;
        for s in &skips {
            eprintln!("warning: skipped {}: {}", s.path.display(), s.reason);
        }
        skipped.extend(skips);
        jobs.extend(found.into_iter().map(|solution| Job {
            problem: Arc::clone(&problem),
            solution,
        }));
    }
    let workers = worker_count(config, None, jobs.len());
    let judges = slot_judges(config, workers, " (--data-only checks the data alone)")?;
    let total = jobs.len();
    let progress = Progress::new(total as u64, "solutions");
    let on_done = {
        let progress = progress.clone();
        Arc::new(move |o: &Outcome| {
            let line = format!(
                "{}/{}: {} (expected {}) {} ms{}",
                o.problem,
                o.name,
                o.got,
                o.expected.label(),
                o.time_ms,
                if o.ok { "" } else { "  FAIL" }
            );
            progress.done(&line, !o.ok)
        })
    };
    let runtime = runtime()?;
    eprintln!("judging {total} reference solutions on {workers} sandbox slots");
    let outcomes = runtime.block_on(judge_all(judges, jobs, margins, on_done));
    progress.finish();
    let package_failures = problems
        .iter()
        .flat_map(|p| diagnose(p, &outcomes))
        .collect();
    Ok(Summary::new(margins, outcomes, package_failures).with_skipped(skipped))
}

/// Prints the table of a summary.
pub fn print_table(summary: &Summary) {
    print!("{}", render_table(summary));
}
