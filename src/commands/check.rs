//! `sudojudge check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::checkers::CheckOutcome;
use sudojudge::problem::{self, answer::reference_answer};

/// Arguments of `sudojudge check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub packages: super::PackageArgs,
    /// Problem id.
    pub problem: String,
    /// The test input.
    pub input: PathBuf,
    /// The output to check.
    pub output: PathBuf,
    /// The reference answer (default: computed by the reference solver).
    #[arg(long)]
    pub answer: Option<PathBuf>,
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Runs `sudojudge check`: exit 0 accepted, 1 wrong (message on stderr), 2 usage/file error.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_settings_with(config, &args.packages)?;
    let problem = problem::find(&config.problems.dir, &args.problem)?;
    let input = read(&args.input)?;
    let output = read(&args.output)?;
    let answer = match &args.answer {
        Some(path) => read(path)?,
        None => reference_answer(
            super::builtin_kind(&problem, "a reference solver (pass --answer)")?,
            &input,
        )
        .with_context(|| format!("{}", args.input.display()))?,
    };
    match sudojudge::validators::check(&problem.validator, &[], &input, &output, &answer) {
        CheckOutcome::Accepted => {
            println!("accepted");
            Ok(ExitCode::SUCCESS)
        }
        CheckOutcome::WrongAnswer(message) => {
            eprintln!("wrong answer: {message}");
            Ok(ExitCode::from(1))
        }
        CheckOutcome::JudgeError(message) => {
            anyhow::bail!("the test itself is malformed: {message}")
        }
    }
}
