//! `sudojudge solve`.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::problem::TARGET_MIN_GIVENS;
use sudojudge::problem::{self, answer::reference_answer, format, CheckerKind};

/// Arguments of `sudojudge solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub packages: super::PackageArgs,
    /// Problem id.
    pub problem: String,
}

/// Runs `sudojudge solve`: the problem's input on stdin, the reference answer on stdout. The
/// problem is a package of the problems folder, or, with none there, a checker kind's name.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_settings_with(config, &args.packages)?;
    let checker = match problem::find(&config.problems.dir, &args.problem) {
        Ok(problem) => super::builtin_kind(&problem, "a reference solver")?,
        // The solver needs only the kind: outside a repository, a kind's name is enough.
        Err(
            err @ (problem::ProblemError::NoProblemsFolder { .. }
            | problem::ProblemError::Unknown { .. }),
        ) => CheckerKind::from_name(&args.problem).ok_or(err)?,
        Err(err) => return Err(err.into()),
    };
    let mut input = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut input)
        .context("reading stdin")?;
    if checker == CheckerKind::TargetSudoku {
        warn_below_target_constraint(&input);
    }
    let answer = reference_answer(checker, &input).context("stdin")?;
    let mut out = std::io::stdout().lock();
    out.write_all(&answer)
        .and_then(|()| out.flush())
        .context("writing stdout")?;
    Ok(ExitCode::SUCCESS)
}

/// The exact search is fast within the statement's constraint; far below it (an empty grid)
/// it can run for minutes, so say so before starting instead of looking hung.
fn warn_below_target_constraint(input: &[u8]) {
    let Ok(grid) = format::target::parse(input) else {
        return;
    };
    let givens = grid.iter().filter(|&&d| d != 0).count();
    if givens < TARGET_MIN_GIVENS {
        eprintln!(
            "warning: {givens} givens, fewer than the statement's {TARGET_MIN_GIVENS}: \
             the exact search may take minutes"
        );
    }
}
