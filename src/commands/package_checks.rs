//! What `serve` (and a `worker` node) checks of every package before serving any: a Kattis
//! package's time limit is known, and the data of every package, Kattis or `problem.toml`,
//! passes `verify`'s data checks (inputs in canonical form and answers equal to the reference
//! solver's, or the default validator or the package's own accepting every answer file,
//! every input validator every input), run again only when a package's data hash is new to
//! this machine. A package that fails is refused with the file and the reason, and the
//! daemon serves nothing.

use std::path::PathBuf;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::judge::SandboxExecutor;
use sudojudge::problem::kattis::TimeLimitSource;
use sudojudge::problem::Problem;
use sudojudge::verify::data::verify_data;
use sudojudge::verify::programs::verify_programs;

/// Where the hashes of the packages whose data passed are remembered (beside the compile
/// cache: a cache too, safe to delete).
fn marks_dir(config: &Config) -> PathBuf {
    config.compile.cache_dir.with_file_name("verified-packages")
}

/// Checks every package of `problems`; the error names the package and its faults.
pub fn check<'a>(
    config: &Config,
    problems: impl IntoIterator<Item = &'a Problem>,
) -> anyhow::Result<()> {
    let marks = marks_dir(config);
    let mut executor: Option<SandboxExecutor> = None;
    for p in problems {
        let unset = p
            .kattis
            .as_ref()
            .is_some_and(|k| k.time_limit_source == TimeLimitSource::Unset);
        if unset {
            anyhow::bail!(
                "problem {} ({}) is refused: problem.yaml gives no limits.time_limit and \
                 `sudojudge verify {}` has not derived one yet (.timelimit)",
                p.id,
                p.dir.display(),
                p.dir.display()
            );
        }
        let mark = marks.join(p.data_hash.to_hex());
        if mark.is_file() {
            continue;
        }
        let mut report = verify_data(p);
        let runs_programs = matches!(p.validator, sudojudge::problem::OutputValidator::Program(_))
            || p.kattis
                .as_ref()
                .is_some_and(|k| !k.input_validators.is_empty());
        if report.ok && runs_programs {
            if executor.is_none() {
                executor = Some(
                    SandboxExecutor::any(config)
                        .context("setting up a sandbox slot to check the packages' data")?,
                );
            }
            if let Some(executor) = &executor {
                report.faults = verify_programs(executor, p, config.sandbox.max_processes);
                report.ok = report.faults.is_empty();
            }
        }
        if !report.ok {
            let faults: Vec<String> = report
                .faults
                .iter()
                .map(|f| format!("{}: {}", f.test.as_deref().unwrap_or("package"), f.message))
                .collect();
            anyhow::bail!(
                "problem {} ({}) is refused: its data fails verification:\n  {}",
                p.id,
                p.dir.display(),
                faults.join("\n  ")
            );
        }
        if std::fs::create_dir_all(&marks).is_ok() {
            let _ = std::fs::write(&mark, format!("{}\n", p.id));
        }
    }
    Ok(())
}
