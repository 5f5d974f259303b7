//! What `sudojudge verify` adds for Kattis packages: package folders named by path, the
//! time limit derived from the accepted submissions (and kept in `.timelimit`), and the
//! data checks that run the package's own validators in the sandbox.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use serde::Serialize;
use sudojudge::config::Config;
use sudojudge::judge::SandboxExecutor;
use sudojudge::problem::kattis::{timing, TimeLimitSource};
use sudojudge::problem::{self, Problem};
use sudojudge::verify::data::DataReport;
use sudojudge::verify::submissions::{discover, judge_all, Expectation, Job, Margins};

use super::judging::{runtime, slot_judges, worker_count};

/// Whether a `verify` argument names a package folder rather than a problem id.
pub fn is_path(arg: &str) -> bool {
    arg.contains('/') || arg == "." || arg == ".."
}

/// The problem an argument names: a package folder by path, else an id in `dir`.
pub fn resolve(dir: &Path, arg: &str) -> anyhow::Result<Problem> {
    let path = Path::new(arg);
    if is_path(arg) || (path.is_dir() && problem::package::is_package(path)) {
        anyhow::ensure!(
            problem::package::is_package(path),
            "unknown problem `{arg}`: no package folder there (no problem.toml or problem.yaml)"
        );
        let path = path
            .canonicalize()
            .with_context(|| format!("cannot read {arg}"))?;
        return Ok(problem::load(&path)?);
    }
    Ok(problem::find(dir, arg)?)
}

/// A Kattis package's time limit as `verify` found or derived it.
#[derive(Debug, Clone, Serialize)]
pub struct TimeLimit {
    /// The problem.
    pub problem: String,
    /// The limit, ms.
    pub time_limit_ms: u64,
    /// `problem_yaml` (given), `derived` (from the slowest accepted submission), `unset`
    /// (none could be derived).
    pub source: TimeLimitSource,
    /// The slowest accepted submission's CPU time it was derived from, ms.
    pub slowest_accepted_ms: Option<u64>,
    /// The wall-clock limit of a run, ms: the limit x the package's `time_safety_margin`, at
    /// least x `[sandbox] wall_factor`.
    pub wall_limit_ms: u64,
    /// Why no limit could be derived.
    pub error: Option<String>,
}

/// Derives the time limit of every Kattis package that does not give one: judges its
/// accepted submissions with a generous limit, applies the format's multiplier, writes
/// `.timelimit` and reloads the package. Packages with `limits.time_limit` are listed as
/// they are.
pub fn derive_time_limits(
    config: &Config,
    problems: &mut [Problem],
) -> anyhow::Result<Vec<TimeLimit>> {
    let mut limits = Vec::new();
    for p in problems.iter_mut() {
        let Some(k) = &p.kattis else { continue };
        if k.time_limit_source == TimeLimitSource::ProblemYaml {
            limits.push(TimeLimit {
                problem: p.id.clone(),
                time_limit_ms: p.time_limit_ms,
                source: TimeLimitSource::ProblemYaml,
                slowest_accepted_ms: None,
                wall_limit_ms: timing::wall_limit_ms(
                    k.timing,
                    p.time_limit_ms,
                    config.sandbox.wall_factor,
                ),
                error: None,
            });
            continue;
        }
        let timing_of = k.timing;
        let provisional = Arc::new(Problem {
            time_limit_ms: timing::PROVISIONAL_TIME_LIMIT_MS,
            ..p.clone()
        });
        let jobs: Vec<Job> = discover(p, config)
            .with_context(|| format!("listing the submissions of {}", p.id))?
            .into_iter()
            .filter(|s| s.expected == Expectation::Accepted)
            .map(|solution| Job {
                problem: Arc::clone(&provisional),
                solution,
            })
            .collect();
        let mut entry = TimeLimit {
            problem: p.id.clone(),
            time_limit_ms: p.time_limit_ms,
            source: TimeLimitSource::Unset,
            slowest_accepted_ms: None,
            wall_limit_ms: timing::wall_limit_ms(
                timing_of,
                p.time_limit_ms,
                config.sandbox.wall_factor,
            ),
            error: None,
        };
        if jobs.is_empty() {
            entry.error = Some("no accepted submission to derive the time limit from".into());
            limits.push(entry);
            continue;
        }
        let workers = worker_count(config, None, jobs.len());
        let judges = slot_judges(config, workers, "")?;
        eprintln!(
            "{}: judging {} accepted submissions to derive the time limit",
            p.id,
            jobs.len()
        );
        let outcomes = runtime()?.block_on(judge_all(
            judges,
            jobs,
            Margins::default(),
            Arc::new(|_| {}),
        ));
        let accepted: Vec<_> = outcomes
            .iter()
            .filter(|o| o.got == sudojudge::judge::Verdict::AC)
            .collect();
        if accepted.len() != outcomes.len() {
            let bad: Vec<String> = outcomes
                .iter()
                .filter(|o| o.got != sudojudge::judge::Verdict::AC)
                .map(|o| format!("{} got {}", o.name, o.got))
                .collect();
            entry.error = Some(format!(
                "accepted submissions fail with a {} ms limit: {}",
                timing::PROVISIONAL_TIME_LIMIT_MS,
                bad.join(", ")
            ));
            limits.push(entry);
            continue;
        }
        let slowest = accepted.iter().map(|o| o.time_ms).max().unwrap_or(0);
        let limit = timing::derive(timing_of, slowest);
        timing::write(&p.dir, limit)
            .with_context(|| format!("writing {}/{}", p.dir.display(), timing::TIMELIMIT_FILE))?;
        *p = problem::load(&p.dir)?;
        entry.time_limit_ms = p.time_limit_ms;
        entry.source = TimeLimitSource::Derived;
        entry.slowest_accepted_ms = Some(slowest);
        entry.wall_limit_ms =
            timing::wall_limit_ms(timing_of, p.time_limit_ms, config.sandbox.wall_factor);
        limits.push(entry);
    }
    Ok(limits)
}

/// Adds the faults the packages' own validators find (run in a sandbox slot) to `reports`.
pub fn check_with_programs(
    config: &Config,
    problems: &[Problem],
    reports: &mut [DataReport],
) -> anyhow::Result<()> {
    let needs = |p: &Problem| {
        matches!(p.validator, problem::OutputValidator::Program(_))
            || p.kattis
                .as_ref()
                .is_some_and(|k| !k.input_validators.is_empty())
    };
    if !problems.iter().any(needs) {
        return Ok(());
    }
    let executor = SandboxExecutor::any(config).context("setting up a sandbox slot")?;
    for (p, report) in problems.iter().zip(reports.iter_mut()) {
        if !needs(p) {
            continue;
        }
        let faults = sudojudge::verify::programs::verify_programs(
            &executor,
            p,
            config.sandbox.max_processes,
        );
        if !faults.is_empty() {
            report.ok = false;
            report.faults.extend(faults);
        }
    }
    Ok(())
}

/// Prints the time limits.
pub fn print_limits(limits: &[TimeLimit]) {
    for l in limits {
        match (&l.error, l.source) {
            (Some(e), _) => println!("{}: time limit not derived: {e}", l.problem),
            (None, TimeLimitSource::Derived) => println!(
                "{}: time limit {} ms, derived from the slowest accepted submission ({} ms), written to {}; wall-clock limit {} ms (time_safety_margin)",
                l.problem,
                l.time_limit_ms,
                l.slowest_accepted_ms.unwrap_or(0),
                timing::TIMELIMIT_FILE,
                l.wall_limit_ms
            ),
            (None, _) => println!(
                "{}: time limit {} ms (problem.yaml); wall-clock limit {} ms (time_safety_margin)",
                l.problem, l.time_limit_ms, l.wall_limit_ms
            ),
        }
    }
}
