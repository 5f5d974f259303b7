//! One module per subcommand; each turns parsed arguments into library calls.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use sudojudge::config::Config;

mod check;
mod client;
mod doctor;
mod gen;
mod grade;
mod grade_problem;
mod judge;
mod judging;
mod package_checks;
mod run;
mod serve;
mod solve;
mod status;
mod stress;
mod submit;
mod user;
mod verify;
mod verify_contests;
mod verify_judging;
mod verify_kattis;
mod worker;

/// sudojudge: an online judge for three Sudoku problems.
#[derive(Debug, Parser)]
#[command(name = "sudojudge", version, about)]
pub struct Cli {
    /// Configuration file laid over the built-in defaults [default: $SUDOJUDGE_CONFIG, else
    /// ./config.toml if present].
    #[arg(long, global = true, value_name = "FILE")]
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
    /// Hunt for an input on which a solution disagrees with the reference solver, and
    /// shrink it.
    Stress(stress::Args),
    /// Grade a class: a folder of student submissions to a table, CSV or JSON, with a
    /// similarity report.
    Grade(grade::Args),
    /// Post a source to a running daemon.
    Submit(submit::Args),
    /// A submission's state and verdict, from a running daemon.
    Status(status::Args),
    /// What the sandbox can use on this host, and what is missing.
    Doctor(doctor::Args),
    /// Accounts: add, import, list, disable, enable, token.
    User(user::Args),
    /// A judge-only node on a shared PostgreSQL database (no HTTP).
    Worker(worker::Args),
    /// Internal: the single-threaded sandbox helper (reads a box spec on stdin).
    #[command(name = "__sandbox-init", hide = true)]
    SandboxInit,
}

/// Exit code of a command that did its job and found nothing wrong (`judge`: AC).
pub const EXIT_OK: u8 = 0;
/// Exit code of a command that did its job and found a fault: `judge`, `submit --wait` and
/// `status` on a verdict other than AC, `verify` on a failed package, `check` on a wrong
/// output, `doctor` on a host that cannot isolate runs.
pub const EXIT_FAILED: u8 = 1;
/// Exit code of a command that could not do its job: bad arguments, unreadable files, a
/// broken config, an unusable sandbox, an unreachable server (clap's usage errors too).
pub const EXIT_ERROR: u8 = 2;
/// Exit code of `status` for a submission not judged yet (queued, compiling or running).
pub const EXIT_PENDING: u8 = 3;

/// `--problems DIR` and `--contests DIR`, on every command that loads problem packages.
#[derive(Debug, Clone, clap::Args)]
pub struct PackageArgs {
    /// Folder of the problem packages [default: the config file's [problems] dir, relative
    /// to that file; else ./problems].
    #[arg(long = "problems", id = "problems_dir", value_name = "DIR")]
    pub problems_dir: Option<PathBuf>,
    /// Folder of the contest files [default: the config file's [contests] dir, relative
    /// to that file; else `contests` beside the problems folder].
    #[arg(long = "contests", id = "contests_dir", value_name = "DIR")]
    pub contests_dir: Option<PathBuf>,
}

impl PackageArgs {
    /// `config` with `--problems` and `--contests` (if given) in place of its
    /// `[problems] dir` and `[contests] dir`.
    fn apply(&self, mut config: Config) -> Config {
        if let Some(dir) = &self.problems_dir {
            config.problems.dir = dir.clone();
        }
        if let Some(dir) = &self.contests_dir {
            config.contests.dir = Some(dir.clone());
        }
        config
    }
}

/// The configuration a command runs on (see `sudojudge::config::locate`).
pub fn load_config(flag: Option<&Path>) -> anyhow::Result<Config> {
    Config::discover(flag).context("loading the configuration")
}

/// The configuration of a command that compiles and runs nothing: no toolchain is looked
/// for (see `Config::discover_settings`).
pub fn load_settings(flag: Option<&Path>) -> anyhow::Result<Config> {
    Config::discover_settings(flag).context("loading the configuration")
}

/// [`load_config`] with `--problems` applied.
pub fn load_config_with(flag: Option<&Path>, packages: &PackageArgs) -> anyhow::Result<Config> {
    Ok(packages.apply(load_config(flag)?))
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
        Command::Stress(args) => stress::run(config, args),
        Command::Grade(args) => grade::run(config, args),
        Command::Submit(args) => submit::run(config, args),
        Command::Status(args) => status::run(config, args),
        Command::Doctor(args) => doctor::run(config, args),
        Command::User(args) => user::run(config, args),
        Command::Worker(args) => worker::run(config, args),
        Command::SandboxInit => Ok(ExitCode::from(
            u8::try_from(sudojudge::sandbox::helper_main()).unwrap_or(1),
        )),
    }
}

/// [`load_settings`] with `--problems` applied.
pub fn load_settings_with(flag: Option<&Path>, packages: &PackageArgs) -> anyhow::Result<Config> {
    Ok(packages.apply(load_settings(flag)?))
}

/// The built-in Sudoku kind of `problem`, or an error saying that only those have `what`
/// (a package with its own validator has no reference solver or generator here).
pub fn builtin_kind(
    problem: &sudojudge::problem::Problem,
    what: &str,
) -> anyhow::Result<sudojudge::problem::CheckerKind> {
    problem.validator.builtin().ok_or_else(|| {
        anyhow::anyhow!(
            "{} has no {what}: only the built-in Sudoku kinds have one",
            problem.id
        )
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        // clap's own checks: no two arguments of a command share an id.
        super::Cli::command().debug_assert();
    }
}
