//! `sudojudge stress`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::judge::{Compilation, Executor, JudgeSettings, SandboxExecutor};
use sudojudge::languages::Program;
use sudojudge::problem::Problem;
use sudojudge::stress::package::{self, PackageRun, Programs};
use sudojudge::stress::{self, StressReport, StressSettings};
use sudojudge::verify::submissions::{discover, Expectation};

/// Arguments of `sudojudge stress`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id, or a Kattis package folder (a path).
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
    /// A Kattis package's reference solution [default: the first file of its
    /// submissions/accepted/, by name].
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// A Kattis package's generator, run as `gen SEED` [default: generators/gen.c, .cpp or
    /// .py, else the one program in generators/].
    #[arg(long, value_name = "FILE")]
    pub generator: Option<PathBuf>,
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
    let from = match found.generator_seed {
        Some(seed) => format!(" (`gen {seed}`)"),
        None => String::new(),
    };
    out.push_str(&format!(
        "input {}{from} disagrees ({}{})\n",
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
        if found.minimal && found.generator_seed.is_some() {
            " (minimal: removing any one line or token, or lowering any number to 0 or its \
             half, ends the disagreement or the input validators reject the input)"
        } else if found.minimal {
            " (minimal: removing any one of them ends the disagreement or breaks the statement's promises)"
        } else if found.generator_seed.is_some() {
            " (not minimal: the --time of the shrink ran out)"
        } else {
            " (not minimal: the run limit of the shrink ran out)"
        }
    ));
    let s = &found.shrunk;
    out.push_str(&block("input", &s.input));
    let reference = match &report.reference {
        Some(path) => format!("reference solution {path}"),
        None => "reference solver".into(),
    };
    out.push_str(&block(&format!("expected ({reference})"), &s.expected));
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
    let problem = super::verify_kattis::resolve(&config.problems.dir, &args.problem)
        .with_context(|| format!("loading problem {:?}", args.problem))?;
    if problem.kattis.is_none() {
        stress::input_kind(&problem)?;
    }
    anyhow::ensure!(
        args.time.is_finite() && args.time > 0.0 && args.time <= 86_400.0,
        "--time: a number of seconds from 0 to 86400"
    );
    let generator = match (&problem.kattis, &args.generator) {
        (None, _) => None,
        (Some(_), Some(path)) => Some(path.clone()),
        (Some(_), None) => Some(package::find_generator(&problem.dir)?),
    };
    let language = super::judge::pick_language(&config, args.language.as_deref(), &args.source)?;
    let source = super::judge::read_source(&args.source)?;
    let executor = SandboxExecutor::any(&config).context("setting up the sandbox")?;
    let program = compile(&executor, &language, &source, &args.source)?;
    let judge_settings = JudgeSettings::from_config(&config);
    let settings = StressSettings {
        seed: args.seed.unwrap_or_else(clock_seed),
        time: Duration::from_secs_f64(args.time),
        limits: judge_settings.test_limits(&problem),
    };
    let report = match generator {
        None => stress::stress(&executor, &program, &problem, settings, |_| {})?,
        Some(generator) => {
            let programs = package_programs(&config, &executor, &problem, &args, generator)?;
            let run = PackageRun::new(
                &executor,
                &problem,
                &program,
                programs,
                settings.limits,
                judge_settings.max_processes,
            )?;
            package::stress_package(&run, settings)?
        }
    };
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

fn compile(
    executor: &SandboxExecutor,
    language: &str,
    source: &[u8],
    path: &Path,
) -> anyhow::Result<Program> {
    match executor
        .compile(language, source)
        .map_err(|e| anyhow::anyhow!("compiling {} in the sandbox: {e}", path.display()))?
    {
        Compilation::Ready { program, .. } => Ok(program),
        Compilation::Failed { log, .. } => {
            anyhow::bail!("{} does not compile:\n{log}", path.display())
        }
    }
}

/// A package's generator and reference solution (`--reference`, else the first accepted
/// submission by name), compiled through the cache.
fn package_programs(
    config: &Config,
    executor: &SandboxExecutor,
    problem: &Problem,
    args: &Args,
    generator_path: PathBuf,
) -> anyhow::Result<Programs<Program>> {
    let (gen_language, gen_source) =
        sudojudge::problem::kattis::program::source_of(&generator_path)
            .with_context(|| format!("the generator {}", generator_path.display()))?;
    let generator = compile(executor, gen_language, &gen_source, &generator_path)?;
    let (reference_path, language) = match &args.reference {
        Some(path) => (
            path.clone(),
            super::judge::pick_language(config, None, path)?,
        ),
        None => {
            let first = discover(problem, config)
                .with_context(|| format!("listing the submissions of {}", problem.id))?
                .into_iter()
                .find(|s| s.expected == Expectation::Accepted)
                .with_context(|| {
                    format!(
                        "{} has no reference solution: no program in submissions/accepted/ \
                         (or pass --reference FILE)",
                        problem.id
                    )
                })?;
            (first.path, first.language)
        }
    };
    let source = super::judge::read_source(&reference_path)?;
    let reference = compile(executor, &language, &source, &reference_path)?;
    Ok(Programs {
        generator,
        generator_path,
        reference,
        reference_path,
    })
}
