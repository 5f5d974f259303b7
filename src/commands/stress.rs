//! `sudojudge stress`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use sudojudge::judge::{Compilation, Executor, JudgeSettings, SandboxExecutor};
use sudojudge::stress::{self, StressReport, StressSettings};

/// Arguments of `sudojudge stress`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// The solution's source file.
    pub source: PathBuf,
    /// Seed of the random inputs (the same seed tries the same inputs); default: from the
    /// clock, printed so the run can be repeated.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Seconds to look for a disagreement (shrinking comes on top).
    #[arg(long, default_value_t = 60.0)]
    pub time: f64,
    /// Language id or alias; guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub packages: super::PackageArgs,
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

fn block(title: &str, text: &str) -> String {
    format!("{title}:\n{}\n", text.trim_end())
}

fn render(report: &StressReport) -> String {
    let mut out = format!(
        "stress {}: seed {}, {} random inputs in {:.1} s: ",
        report.problem, report.seed, report.tried, report.search_s
    );
    let Some(found) = &report.found else {
        out.push_str("no disagreement\n");
        return out;
    };
    let first = &found.original;
    out.push_str(&format!(
        "input {} disagrees ({}{})\n",
        report.tried,
        first.verdict.as_str(),
        first
            .message
            .as_deref()
            .map(|m| format!(": {m}"))
            .unwrap_or_default()
    ));
    out.push_str(&format!(
        "shrunk from {} to {} {} in {} runs{}\n\n",
        found.sizes.0,
        found.sizes.1,
        found.unit,
        found.shrink_runs,
        if found.minimal {
            " (minimal: removing any one of them ends the disagreement or breaks the statement's promises)"
        } else {
            " (not minimal: the run limit of the shrink ran out)"
        }
    ));
    let s = &found.shrunk;
    out.push_str(&block("input", &s.input));
    out.push_str(&block("expected (reference solver)", &s.expected));
    out.push_str(&block(
        &format!(
            "got ({}{})",
            s.verdict.as_str(),
            s.message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        ),
        &s.output,
    ));
    out
}

/// Runs `sudojudge stress`: exit 1 when a disagreement was found, 0 when none was, 2 when
/// it cannot run.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_config_with(config, &args.packages)?;
    let problem = sudojudge::problem::find(&config.problems.dir, &args.problem)
        .with_context(|| format!("loading problem {:?}", args.problem))?;
    stress::input_kind(&problem)?;
    anyhow::ensure!(
        args.time.is_finite() && args.time > 0.0 && args.time <= 86_400.0,
        "--time: a number of seconds from 0 to 86400"
    );
    let language = super::judge::pick_language(&config, args.language.as_deref(), &args.source)?;
    let source = super::judge::read_source(&args.source)?;
    let executor = SandboxExecutor::any(&config).context("setting up the sandbox")?;
    let program = match executor
        .compile(&language, &source)
        .map_err(|e| anyhow::anyhow!("compiling in the sandbox: {e}"))?
    {
        Compilation::Ready { program, .. } => program,
        Compilation::Failed { log, .. } => {
            anyhow::bail!("{} does not compile:\n{log}", args.source.display())
        }
    };
    let settings = StressSettings {
        seed: args.seed.unwrap_or_else(clock_seed),
        time: Duration::from_secs_f64(args.time),
        limits: JudgeSettings::from_config(&config).test_limits(&problem),
    };
    let report = stress::stress(&executor, &program, &problem, settings, |_| {})?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).context("encoding the report")?
        );
    } else {
        print!("{}", render(&report));
    }
    Ok(ExitCode::from(if report.found.is_some() {
        super::EXIT_FAILED
    } else {
        super::EXIT_OK
    }))
}
