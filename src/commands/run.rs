//! `sudojudge run`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use sudojudge::judge::{run_limits, CompileInfo, RunResult};
use sudojudge::languages::cache::{CacheUse, CompileCache};
use sudojudge::languages::{compile_cached, Compiled, LanguageTable};
use sudojudge::sandbox::Sandbox;

/// Arguments of `sudojudge run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Source file.
    pub source: PathBuf,
    /// Language (c, cpp, rust, python); guessed from the extension when absent.
    #[arg(long)]
    pub language: Option<String>,
    /// File fed to the program on stdin.
    #[arg(long)]
    pub stdin: Option<PathBuf>,
    /// CPU time limit in milliseconds.
    #[arg(long)]
    pub time_limit: Option<u64>,
    /// Memory limit in MiB.
    #[arg(long)]
    pub memory_limit: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sudojudge run`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_config(config)?;
    let table = LanguageTable::from_config(&config);
    let id = super::judge::pick_language(&config, args.language.as_deref(), &args.source)?;
    let language = table
        .get(&id)
        .with_context(|| format!("unknown language {id:?}"))?;
    let source = super::judge::read_source(&args.source)?;
    if let Some(stdin) = &args.stdin {
        std::fs::metadata(stdin).with_context(|| format!("reading {}", stdin.display()))?;
    }
    let sandbox = Sandbox::any(&config.sandbox).context("starting the sandbox")?;
    // An unusable cache folder is not this command's business: it compiles.
    let cache = CompileCache::open(&config).ok().flatten();
    let compiled = compile_cached(&sandbox, language, &source, &config.compile, cache.as_ref())
        .context("compiling in the sandbox")?;
    let result = match compiled {
        Compiled::Failed(failure) => RunResult::compile_error(&failure.log),
        Compiled::Program(program) => {
            let limits = run_limits(&config, args.time_limit, args.memory_limit);
            let request = program.run_request(args.stdin.clone(), limits);
            let mut report = sandbox.run(&request).context("running in the sandbox")?;
            program.classify(&mut report);
            let compile = CompileInfo {
                ok: true,
                log: program.compile_log().to_string(),
                cached: program.cache_use() == CacheUse::Hit,
            };
            RunResult::from_report(&report, compile)
        }
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&result).context("encoding the result")?
        );
    } else if !result.compile.ok {
        println!("status: compile_error\n{}", result.compile.log);
    } else {
        let ended = match (result.exit_code, result.signal) {
            (_, Some(sig)) => format!("killed by signal {sig}"),
            (Some(code), None) => format!("exit code {code}"),
            (None, None) => "no exit status".into(),
        };
        println!(
            "status: {} ({ended}), cpu {} ms, wall {} ms, memory {} KiB{}",
            result.status,
            result.time_ms,
            result.wall_ms,
            result.memory_kib,
            if result.degraded {
                ", DEGRADED (not isolated)"
            } else {
                ""
            }
        );
        if !result.compile.log.is_empty() {
            println!("--- compiler messages ---\n{}", result.compile.log);
        }
        println!("--- stdout ---\n{}", result.stdout);
        if !result.stderr.is_empty() {
            println!("--- stderr ---\n{}", result.stderr);
        }
    }
    Ok(ExitCode::SUCCESS)
}
