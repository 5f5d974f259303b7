//! `sudojudge gen`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::problem::{self, gen};

/// Arguments of `sudojudge gen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub packages: super::PackageArgs,
    /// Problem id.
    pub problem: String,
    /// Folder of the public puzzle lists (default: `datasets/` beside the problems folder,
    /// as in the repository).
    #[arg(long)]
    pub datasets: Option<PathBuf>,
    /// Replace `data/secret/` even when it holds tests gen did not make (hand-made or edited).
    #[arg(long)]
    pub force: bool,
}

/// Runs `sudojudge gen`: rewrites `data/secret/` from fixed seeds.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_settings_with(config, &args.packages)?;
    let problem = problem::find(&config.problems.dir, &args.problem)?;
    let datasets = args.datasets.unwrap_or_else(|| {
        let root = config.problems.dir.parent().unwrap_or(Path::new(""));
        root.join("datasets")
    });
    let kind = super::builtin_kind(&problem, "a data generator")?;
    let cases = gen::generate(kind, problem.gen_profile.as_deref(), &datasets)
        .with_context(|| format!("generating {}", problem.id))?;
    let dir = gen::write_secret(&problem, &cases, args.force)?;
    let bytes: usize = cases.iter().map(|c| c.input.len() + c.answer.len()).sum();
    println!(
        "{}: wrote {} tests ({} KiB) to {}",
        problem.id,
        cases.len(),
        bytes.div_ceil(1024),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
