//! `sudojudge verify`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::problem;
use sudojudge::verify::data::verify_data;

/// Arguments of `sudojudge verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub packages: super::PackageArgs,
    /// Problems to verify, by id or as package folders (a path: `./hello`, `/x/different`;
    /// `problem.toml` or Kattis `problem.yaml` packages); default: all in the problems folder.
    pub problems: Vec<String>,
    /// Only check the data, not the submissions.
    #[arg(long)]
    pub data_only: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge verify`: exit 0 when every package's data is sound, every contest file
/// is sound, and every reference solution gets the verdict its folder promises (within the
/// time margins), 1 otherwise.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_config_with(config, &args.packages)?;
    let dir = &config.problems.dir;
    let mut problems = if args.problems.is_empty() {
        problem::load_all(dir)?
    } else {
        args.problems
            .iter()
            .map(|arg| super::verify_kattis::resolve(dir, arg))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    anyhow::ensure!(!problems.is_empty(), "no problems in {}", dir.display());
    let limits = if args.data_only {
        Vec::new()
    } else {
        super::verify_kattis::derive_time_limits(&config, &mut problems)?
    };
    let mut reports: Vec<_> = problems.iter().map(verify_data).collect();
    super::verify_kattis::check_with_programs(&config, &problems, &mut reports)?;
    let only_paths = !args.problems.is_empty()
        && args
            .problems
            .iter()
            .all(|a| super::verify_kattis::is_path(a));
    let contests = if only_paths {
        Vec::new() // package folders named by path: the contests folder is not theirs
    } else {
        let known: Vec<String> = if args.problems.is_empty() {
            problems.iter().map(|p| p.id.clone()).collect()
        } else {
            problem::load_all(dir)?.into_iter().map(|p| p.id).collect()
        };
        super::verify_contests::check(
            &config.contests_dir(),
            &known,
            &sudojudge::languages::LanguageTable::from_config(&config),
        )?
    };
    let judged = if args.data_only {
        None
    } else {
        Some(super::verify_judging::judge_submissions(
            &config, &problems,
        )?)
    };
    let ok = reports.iter().all(|r| r.ok)
        && limits.iter().all(|l| l.error.is_none())
        && contests.iter().all(|c| c.ok)
        && judged.as_ref().is_none_or(|s| s.ok);
    if args.json {
        let submissions = match &judged {
            Some(summary) => serde_json::to_value(summary).context("encoding the summary")?,
            None => serde_json::json!({"checked": false, "reason": "skipped (--data-only)"}),
        };
        let json = serde_json::json!({
            "ok": ok,
            "data": reports,
            "contests": contests,
            "submissions": submissions,
            "time_limits": limits,
        });
        println!("{json}");
    } else {
        for report in &reports {
            if report.ok {
                println!("{}: {} tests, data ok", report.problem, report.tests);
                continue;
            }
            println!(
                "{}: {} tests, {} faults",
                report.problem,
                report.tests,
                report.faults.len()
            );
            for fault in &report.faults {
                let test = fault.test.as_deref().unwrap_or("package");
                println!("  {test}: {}", fault.message);
            }
        }
        super::verify_kattis::print_limits(&limits);
        super::verify_contests::print(&contests);
        if let Some(summary) = &judged {
            println!();
            super::verify_judging::print_table(summary);
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
