//! One module per subcommand; each turns parsed arguments into library calls.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod check;
mod doctor;
mod gen;
mod grade;
mod judge;
mod judging;
mod run;
mod serve;
mod solve;
mod submit;
mod verify;
mod verify_judging;

/// sudojudge: an online judge for three Sudoku problems.
#[derive(Debug, Parser)]
#[command(name = "sudojudge", version, about)]
pub struct Cli {
    /// Configuration file read on top of the embedded default.
    #[arg(long, global = true, env = "SUDOJUDGE_CONFIG")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands (the interface in the design notes).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The daemon: HTTP API and judging workers.
    Serve(serve::Args),
    /// Judge one source against a problem's tests.
    Judge(judge::Args),
    /// Compile and run one source on a given stdin (custom invocation).
    Run(run::Args),
    /// The reference solver: the problem's input on stdin, its answer on stdout.
    Solve(solve::Args),
    /// Check an output: exit 0 accepted, 1 wrong (message on stderr), 2 usage or file error.
    Check(check::Args),
    /// Verify problem packages: data, answers, and the verdicts of submissions/.
    Verify(verify::Args),
    /// Regenerate a problem's data/secret deterministically.
    Gen(gen::Args),
    /// Grade a class: a folder of student submissions to a table, CSV or JSON, with a
    /// similarity report.
    Grade(grade::Args),
    /// Post a source to a running daemon.
    Submit(submit::Args),
    /// What the sandbox can use on this host, and what is missing.
    Doctor(doctor::Args),
    /// Internal: the single-threaded sandbox helper (reads a box spec on stdin).
    #[command(name = "__sandbox-init", hide = true)]
    SandboxInit,
}

/// Runs the chosen subcommand; `Err` becomes a one-line message and exit code 2.
pub fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    let config = cli.config.as_deref();
    match cli.command {
        Command::Serve(args) => serve::run(config, args),
        Command::Judge(args) => judge::run(config, args),
        Command::Run(args) => run::run(config, args),
        Command::Solve(args) => solve::run(config, args),
        Command::Check(args) => check::run(config, args),
        Command::Verify(args) => verify::run(config, args),
        Command::Gen(args) => gen::run(config, args),
        Command::Grade(args) => grade::run(config, args),
        Command::Submit(args) => submit::run(config, args),
        Command::Doctor(args) => doctor::run(config, args),
        Command::SandboxInit => Ok(ExitCode::from(
            u8::try_from(sudojudge::sandbox::helper_main()).unwrap_or(1),
        )),
    }
}
