//! `sudojudge judge`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::judge::{table, Judge, JudgeSettings, SandboxExecutor};
use sudojudge::languages::LanguageTable;

/// Arguments of `sudojudge judge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// Source file.
    pub source: PathBuf,
    /// Language (c, cpp, rust, python); guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The language id given, or the one the source's extension selects.
pub(super) fn guess_language(config: &Config, source: &Path) -> anyhow::Result<String> {
    let table = LanguageTable::from_config(config);
    let known = || {
        table
            .iter()
            .map(|l| l.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match table.guess(source) {
        Some(language) => Ok(language.id.clone()),
        None => anyhow::bail!(
            "cannot tell the language of {} from its extension; pass --language ({})",
            source.display(),
            known()
        ),
    }
}

/// Runs `sudojudge judge`: exit 0 whatever the verdict.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).context("loading the configuration")?;
    let problem = sudojudge::problem::find(&config.problems.dir, &args.problem)
        .with_context(|| format!("loading problem {:?}", args.problem))?;
    let language = match &args.language {
        Some(l) => {
            if !config.languages.contains_key(l) {
                let known: Vec<&str> = config.languages.keys().map(String::as_str).collect();
                anyhow::bail!("unknown language {l:?}; known: {}", known.join(", "));
            }
            l.clone()
        }
        None => guess_language(&config, &args.source)?,
    };
    let source = std::fs::read(&args.source)
        .with_context(|| format!("reading {}", args.source.display()))?;
    let executor = SandboxExecutor::new(&config, 0).context("setting up the sandbox")?;
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
    Ok(ExitCode::SUCCESS)
}
