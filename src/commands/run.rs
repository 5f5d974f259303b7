//! `sudojudge run`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;
use sudojudge::config::Config;
use sudojudge::languages::{compile, Compiled, LanguageTable};
use sudojudge::sandbox::{Limits, RunReport, Sandbox};

/// Worker slot (and so uid `uid_base + 999`) of `sudojudge run`, apart from the daemon's.
pub const CLI_SLOT: u32 = 999;

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

fn status_name(report: &RunReport) -> String {
    serde_json::to_value(report.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "system_error".into())
}

/// Runs `sudojudge run`.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).context("loading the configuration")?;
    let table = LanguageTable::from_config(&config);
    let language = match &args.language {
        Some(id) => table
            .get(id)
            .with_context(|| format!("unknown language {id:?}"))?,
        None => table.guess(&args.source).with_context(|| {
            format!(
                "cannot guess the language of {} (use --language)",
                args.source.display()
            )
        })?,
    };
    let source = std::fs::read(&args.source)
        .with_context(|| format!("reading {}", args.source.display()))?;
    if let Some(stdin) = &args.stdin {
        std::fs::metadata(stdin).with_context(|| format!("reading {}", stdin.display()))?;
    }
    let sandbox = Sandbox::new(&config.sandbox, CLI_SLOT).context("starting the sandbox")?;
    let compiled = compile(&sandbox, language, &source, &config.compile)
        .context("compiling in the sandbox")?;
    let program = match compiled {
        Compiled::Failed(failure) => {
            if args.json {
                let out = json!({
                    "status": "compile_error",
                    "exit_code": failure.report.exit_code,
                    "signal": failure.report.signal,
                    "time_ms": failure.report.time_ms,
                    "wall_ms": failure.report.wall_ms,
                    "memory_kib": failure.report.memory_kib,
                    "stdout": "",
                    "stderr": "",
                    "compile": {"ok": false, "log": failure.log},
                    "degraded": failure.report.degraded,
                });
                println!("{out}");
            } else {
                println!("status: compile_error\n{}", failure.log);
            }
            return Ok(ExitCode::SUCCESS);
        }
        Compiled::Program(p) => p,
    };
    let cpu = args.time_limit.unwrap_or(config.run.time_limit_ms);
    let limits = Limits {
        cpu_time_ms: cpu,
        wall_time_ms: cpu.saturating_mul(config.sandbox.wall_factor.max(1)),
        memory_bytes: args.memory_limit.unwrap_or(config.run.memory_limit_mb) << 20,
        output_bytes: config.run.output_limit_kib << 10,
        max_processes: config.sandbox.max_processes,
    };
    let request = program.run_request(args.stdin.clone(), limits);
    let report = sandbox.run(&request).context("running in the sandbox")?;
    let status = status_name(&report);
    let stdout = String::from_utf8_lossy(&report.stdout);
    let stderr = String::from_utf8_lossy(&report.stderr);
    if args.json {
        let out = json!({
            "status": status,
            "exit_code": report.exit_code,
            "signal": report.signal,
            "time_ms": report.time_ms,
            "wall_ms": report.wall_ms,
            "memory_kib": report.memory_kib,
            "stdout": stdout,
            "stderr": stderr,
            "compile": {"ok": true, "log": program.compile_log()},
            "degraded": report.degraded,
        });
        println!("{out}");
    } else {
        let ended = match (report.exit_code, report.signal) {
            (_, Some(sig)) => format!("killed by signal {sig}"),
            (Some(code), None) => format!("exit code {code}"),
            (None, None) => "no exit status".into(),
        };
        println!(
            "status: {status} ({ended}), cpu {} ms, wall {} ms, memory {} KiB{}",
            report.time_ms,
            report.wall_ms,
            report.memory_kib,
            if report.degraded {
                ", DEGRADED (not isolated)"
            } else {
                ""
            }
        );
        if !program.compile_log().is_empty() {
            println!("--- compiler messages ---\n{}", program.compile_log());
        }
        println!("--- stdout ---\n{stdout}");
        if !stderr.is_empty() {
            println!("--- stderr ---\n{stderr}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
