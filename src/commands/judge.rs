//! `sudojudge judge`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::judge::{table, Judge, JudgeSettings, SandboxExecutor, Verdict};
use sudojudge::languages::{is_blank, LanguageTable, EMPTY_SOURCE};

/// Arguments of `sudojudge judge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// Source file.
    pub source: PathBuf,
    /// Language id (cpp98, cpp11, cpp14, cpp17, cpp20, c99, c11, c17, rust, python) or alias
    /// (cpp = cpp17, c = c17); guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub packages: super::PackageArgs,
}

/// The languages of the table, and those left out for want of a toolchain, for messages.
fn known_languages(config: &Config) -> String {
    let mut known = LanguageTable::from_config(config).known_ids().join(", ");
    for (id, why) in &config.toolchains.missing {
        known.push_str(&format!("; {id} is unavailable here ({why})"));
    }
    known
}

/// The id of the language given (an id or an alias, checked against the table), or of the
/// one the source's extension selects: the id it is compiled as (`cpp` gives `cpp17`); the
/// error lists the known languages.
pub(super) fn pick_language(
    config: &Config,
    given: Option<&str>,
    source: &Path,
) -> anyhow::Result<String> {
    let table = LanguageTable::from_config(config);
    if let Some(id) = given {
        return match table.get(id) {
            Some(language) => Ok(language.id.clone()),
            None => anyhow::bail!(
                "unknown language {id:?}; known: {}",
                known_languages(config)
            ),
        };
    }
    match table.guess(source) {
        Some(language) => Ok(language.id.clone()),
        None => anyhow::bail!(
            "cannot tell the language of {} from its extension; pass --language ({})",
            source.display(),
            known_languages(config)
        ),
    }
}

/// Reads a source file, refusing a blank one as the HTTP API does.
pub(super) fn read_source(path: &Path) -> anyhow::Result<Vec<u8>> {
    let source = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    anyhow::ensure!(!is_blank(&source), "{}: {EMPTY_SOURCE}", path.display());
    Ok(source)
}

/// The exit code of a verdict: 0 on AC only, so a setter's CI can call `judge`.
pub(super) fn verdict_exit(verdict: Verdict) -> ExitCode {
    if verdict == Verdict::AC {
        ExitCode::from(super::EXIT_OK)
    } else {
        ExitCode::from(super::EXIT_FAILED)
    }
}

/// Runs `sudojudge judge`: exit 0 on AC, 1 on any other verdict, 2 when it cannot judge.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_config_with(config, &args.packages)?;
    let problem = sudojudge::problem::find(&config.problems.dir, &args.problem)
        .with_context(|| format!("loading problem {:?}", args.problem))?;
    let language = pick_language(&config, args.language.as_deref(), &args.source)?;
    let source = read_source(&args.source)?;
    let executor = SandboxExecutor::any(&config).context("setting up the sandbox")?;
    if let Some(why) = executor.cache_refused() {
        eprintln!("warning: {why}; compiling without the cache");
    }
    let judge = Judge::new(Arc::new(executor), JudgeSettings::from_config(&config));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let report = runtime.block_on(judge.judge(&problem, &language, source));
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).context("encoding the report")?
        );
    } else {
        print!("{}", table::render(&report));
    }
    Ok(verdict_exit(report.verdict))
}
