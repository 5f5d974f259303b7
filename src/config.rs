//! `config.toml` to a typed [`Config`], read when a command starts (never at build time).
//!
//! The repository's `config.toml` is also built into the binary as the defaults: a judge
//! with no config file runs on exactly the settings that file documents. The file a command
//! reads ([`locate`]: `--config`, else `SUDOJUDGE_CONFIG`, else `./config.toml`) is laid over
//! those defaults, so it only needs the keys it changes; relative paths in it are resolved
//! against its own folder. Toolchains named by a language's `toolchain` command are found
//! on this host when the config is loaded ([`toolchain`]).

mod locate;
pub mod toolchain;

use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use locate::{is_postgres_url, locate, ConfigSource};
pub use toolchain::Toolchains;

/// The built-in defaults (the repository's `config.toml` at build time).
pub const DEFAULT_CONFIG: &str = include_str!("../config.toml");

/// Errors reading or parsing a configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has keys of the wrong type.
    #[error("invalid config {origin}: {message}")]
    Parse {
        /// Which file (or "built-in defaults").
        origin: String,
        /// The parser's message.
        message: String,
    },
}

/// The whole configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The daemon: address, database, workers, request limits.
    pub server: ServerConfig,
    /// Where the problem packages live.
    pub problems: ProblemsConfig,
    /// Where the contest files live.
    #[serde(default)]
    pub contests: ContestsConfig,
    /// Problem-independent limits for `sudojudge run` and `POST /api/runs`.
    pub run: RunConfig,
    /// Limits for compiles.
    pub compile: CompileConfig,
    /// The sandbox: mounts, uids, cgroups, degraded mode.
    pub sandbox: SandboxConfig,
    /// Accounts: when they are in force, login and run rate limits, token lifetime.
    pub accounts: AccountsConfig,
    /// The language table, keyed by language id (`c`, `cpp`, `rust`, `python`): only the
    /// languages whose toolchain was found on this host.
    pub languages: std::collections::BTreeMap<String, LanguageConfig>,
    /// What toolchain discovery found or missed per language (`doctor` prints it; a
    /// language whose toolchain is missing is left out of `languages`).
    #[serde(skip)]
    pub toolchains: Toolchains,
    /// The file these settings were read from (or the built-in defaults).
    #[serde(skip)]
    pub source: ConfigSource,
    /// How the queue retries a submission the judge failed on.
    #[serde(default)]
    pub queue: QueueConfig,
}

/// How the queue treats a submission the judge itself failed on (a sandbox set-up error,
/// a crash of the daemon while judging it): judged again, a bounded number of times.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueConfig {
    /// Claims of one submission before it is stored as `SE` with the judge's failure as the
    /// cause (a submission that crashes the daemon every time ends there, not in a loop).
    pub max_attempts: u32,
    /// Length of a claim's lease, in milliseconds: a node renews its leases by a heartbeat
    /// every third of it; on PostgreSQL a node silent this long loses its claims to the others.
    #[serde(default = "default_lease_ms")]
    pub lease_ms: u64,
}

fn default_lease_ms() -> u64 {
    30_000
}

impl Default for QueueConfig {
    fn default() -> QueueConfig {
        QueueConfig {
            max_attempts: 3,
            lease_ms: default_lease_ms(),
        }
    }
}

/// Settings of the HTTP daemon.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// Address the HTTP API listens on.
    pub listen: String,
    /// SQLite database file, created on first start (`sqlite:` in front is allowed), or a
    /// PostgreSQL URL (`postgres://user:password@host/db`) shared by several nodes.
    pub database: PathBuf,
    /// Judging workers; 0 means one per CPU core.
    pub workers: usize,
    /// Whether this node judges at all (`serve --workers 0` sets it false: an API-only node
    /// in front of worker nodes on PostgreSQL).
    #[serde(default = "default_judge")]
    pub judge: bool,
    /// This node's name among the nodes sharing a database (`--node`); unset:
    /// `<hostname>-serve` or `<hostname>-worker`.
    #[serde(default)]
    pub node: Option<String>,
    /// Largest accepted source, in KiB.
    pub max_source_kib: u64,
    /// What the API shows of secret tests (see [`Feedback`]).
    #[serde(default)]
    pub feedback: Feedback,
    /// Submissions waiting in the queue at most; past it a submit gets 503 + `Retry-After`.
    #[serde(default = "default_max_queued")]
    pub max_queued: u64,
    /// Connections served at once; more are closed as soon as they are accepted.
    #[serde(default = "default_max_connections")]
    pub max_connections: usize,
    /// Time a connection has to send a request's headers, counted from its opening or from
    /// the end of its previous response (so it is the keep-alive idle timeout too).
    #[serde(default = "default_header_timeout_ms")]
    pub header_timeout_ms: u64,
    /// Time a client has to send a whole request body.
    #[serde(default = "default_body_timeout_ms")]
    pub body_timeout_ms: u64,
    /// Time a request may take from its headers to its answer (custom runs wait for a slot).
    #[serde(default = "default_request_timeout_ms")]
    pub request_timeout_ms: u64,
    /// Time a write to a client may stay blocked (a client that does not read its answer).
    #[serde(default = "default_write_timeout_ms")]
    pub write_timeout_ms: u64,
}

/// Who is reading a submission: how much of its secret tests' feedback they may see.
///
/// Checker messages quote answers (`expected 2876, found 0`) and program output, and exit
/// codes carry whatever a program puts in them, so on secret tests a contestant sees only the
/// verdict, time and memory. The full messages stay in the database for the host.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Feedback {
    /// Everything the judge stored (the host, an admin, a trusted single user).
    Full,
    /// Secret tests: verdict, time and memory, and a fixed phrase per verdict.
    #[default]
    Contestant,
}

fn default_judge() -> bool {
    true
}

fn default_max_queued() -> u64 {
    1000
}

fn default_max_connections() -> usize {
    256
}

fn default_header_timeout_ms() -> u64 {
    10_000
}

fn default_body_timeout_ms() -> u64 {
    30_000
}

fn default_request_timeout_ms() -> u64 {
    180_000
}

fn default_write_timeout_ms() -> u64 {
    30_000
}

/// Accounts and their limits (`[accounts]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountsConfig {
    /// `"auto"`: open single-user mode while no user exists (loopback only); `"required"`:
    /// every endpoint but health, login and problems needs a token, users or not.
    pub auth: crate::accounts::AuthMode,
    /// Hours a token from `POST /api/login` lasts.
    pub login_token_hours: u64,
    /// Failed logins per account name per window before 429.
    pub login_failures_per_account: u32,
    /// Failed logins per client address per window before 429.
    pub login_failures_per_address: u32,
    /// The window of both login counters, in seconds.
    pub login_window_secs: u64,
    /// Custom runs (`POST /api/runs`) per user per minute; 0 = no limit.
    pub runs_per_minute: u32,
}

/// Where problems are loaded from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemsConfig {
    /// Folder holding one package per problem.
    pub dir: PathBuf,
}

/// Where contests are loaded from.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContestsConfig {
    /// Folder of the contest files; `None`: `contests` beside the problems folder.
    #[serde(default)]
    pub dir: Option<PathBuf>,
}

/// Limits for custom invocations.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// CPU time limit.
    pub time_limit_ms: u64,
    /// Memory limit.
    pub memory_limit_mb: u64,
    /// Output limit.
    pub output_limit_kib: u64,
    /// Largest stdin accepted by `POST /api/runs`, in KiB.
    pub max_stdin_kib: u64,
    /// Custom runs the daemon serves at once, each on its own sandbox slot.
    pub slots: usize,
    /// Custom runs that may wait for a slot, per slot; past it `POST /api/runs` gets 503.
    #[serde(default = "default_waiting_per_slot")]
    pub waiting_per_slot: usize,
}

/// Limits for compiles.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileConfig {
    /// CPU time limit of one compile.
    pub time_limit_ms: u64,
    /// Wall time limit of one compile.
    pub wall_limit_ms: u64,
    /// Memory limit of one compile.
    pub memory_limit_mb: u64,
    /// Compiler output kept (and the cap on its messages).
    pub output_limit_kib: u64,
    /// Processes a compiler may run at once.
    pub max_processes: u32,
}

/// Sandbox settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxConfig {
    /// Host folders bind-mounted read-only at the same path inside every box.
    pub mounts: Vec<PathBuf>,
    /// Where box directories are created.
    pub box_root: PathBuf,
    /// First unprivileged uid/gid; worker slot N runs as `uid_base + N`.
    pub uid_base: u32,
    /// Folder of the host-wide slot locks (`<uid>.lock`): every process leases free slots
    /// there, so processes never share a uid.
    #[serde(default = "default_slot_locks")]
    pub slot_locks: PathBuf,
    /// Size of the tmpfs mounted at `/tmp` in each box.
    pub tmp_size_mb: u64,
    /// Size of the tmpfs mounted on `box_root` (boxes live in memory, and what a program
    /// writes in `/box` counts against its memory limit instead of filling a disk); 0 keeps
    /// `box_root` on the file system it is on.
    #[serde(default)]
    pub box_tmpfs_mb: u64,
    /// Files, folders and links a run may have in `/box`, and again in `/tmp` (each is a
    /// tmpfs with this `nr_inodes`): bounds what tearing a box down costs.
    #[serde(default = "default_box_inodes")]
    pub box_inodes: u64,
    /// Wall limit as a multiple of the CPU limit when none is given.
    pub wall_factor: u64,
    /// Processes and threads a run may have at once.
    pub max_processes: u32,
    /// Allow running without namespaces/cgroups (rlimits only). Every result then says so.
    pub allow_degraded: bool,
    /// Where the cgroup hierarchies are mounted (v2 unified, or one folder per v1 controller).
    #[serde(default = "default_cgroup_root")]
    pub cgroup_root: PathBuf,
    /// Folder created inside the judge's own cgroup to hold every run's cgroup.
    #[serde(default = "default_cgroup_name")]
    pub cgroup_name: String,
    /// The `sudojudge` binary used as the single-threaded sandbox helper; default: the
    /// `SUDOJUDGE_HELPER` environment variable, else the running executable.
    #[serde(default)]
    pub helper: Option<PathBuf>,
}

fn default_waiting_per_slot() -> usize {
    2
}

fn default_box_inodes() -> u64 {
    4096
}

fn default_cgroup_root() -> PathBuf {
    PathBuf::from("/sys/fs/cgroup")
}

fn default_slot_locks() -> PathBuf {
    PathBuf::from("/run/sudojudge/slots")
}

fn default_cgroup_name() -> String {
    "sudojudge".to_string()
}

/// One language.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageConfig {
    /// Display name.
    pub name: String,
    /// File extensions that select this language (without the dot).
    pub extensions: Vec<String>,
    /// Name the source is written to inside the box.
    pub source: String,
    /// Command printing the language's toolchain folder on this host (for Rust:
    /// `rustc --print sysroot`), run when the config is loaded; the folder is mounted in every
    /// box and replaces `{toolchain}` in `compile` and `run`.
    #[serde(default)]
    pub toolchain: Option<Vec<String>>,
    /// Compile command, if the language compiles; `{source}` and `{binary}` are substituted.
    pub compile: Option<Vec<String>>,
    /// Files the compile produces that the run needs.
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Run command.
    pub run: Vec<String>,
    /// Extra environment for compile and run.
    #[serde(default)]
    pub env: std::collections::BTreeMap<String, String>,
    /// Extra memory granted on top of the problem's limit (an interpreter's own footprint).
    #[serde(default)]
    pub extra_memory_mb: u64,
}

impl Config {
    /// The folder of the contest files: `[contests] dir`, else `contests` beside the
    /// problems folder (so `--problems DIR` alone moves both).
    pub fn contests_dir(&self) -> PathBuf {
        if let Some(dir) = &self.contests.dir {
            return dir.clone();
        }
        match self.problems.dir.parent() {
            Some(parent) => parent.join("contests"),
            None => PathBuf::from("contests"),
        }
    }

    /// The built-in defaults (the repository's `config.toml` as it was at build time), with
    /// toolchains found on this host.
    pub fn embedded() -> Result<Config, ConfigError> {
        Self::from_source(ConfigSource::BuiltIn)
    }

    /// The defaults with the file at `path` (if any) laid over them; relative paths in the
    /// file are resolved against its folder.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        match path {
            None => Self::embedded(),
            Some(path) => Self::from_source(ConfigSource::Flag(path.to_path_buf())),
        }
    }

    /// The configuration a command runs on: the file [`locate`] finds for `flag` (the
    /// `--config` argument), laid over the defaults.
    pub fn discover(flag: Option<&Path>) -> Result<Config, ConfigError> {
        Self::from_source(locate(flag))
    }

    /// [`Config::discover`] without looking for toolchains, for commands that compile and
    /// run nothing (`solve`, `check`, `gen`, `submit`, `status`): finding Rust's costs a
    /// rustup start, tens of milliseconds. `toolchains` is then empty, every language is
    /// kept, and `{toolchain}` is left unsubstituted in the language commands.
    pub fn discover_settings(flag: Option<&Path>) -> Result<Config, ConfigError> {
        let mut config = Self::read(locate(flag))?;
        config.toolchains = Toolchains::default();
        Ok(config)
    }

    /// The defaults with the file `source` names laid over them.
    pub fn from_source(source: ConfigSource) -> Result<Config, ConfigError> {
        let mut config = Self::read(source)?;
        config.toolchains = toolchain::discover(&mut config.languages, &mut config.sandbox.mounts);
        Ok(config)
    }

    /// The settings alone, no toolchain looked for.
    fn read(source: ConfigSource) -> Result<Config, ConfigError> {
        let Some(path) = source.path() else {
            return parse_layered(DEFAULT_CONFIG, None, source);
        };
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
            path: path.to_path_buf(),
            source: e,
        })?;
        let origin = path.display().to_string();
        let mut table = parse_table(&text, &origin)?;
        locate::resolve_paths(&mut table, path);
        parse_layered(DEFAULT_CONFIG, Some(table), source)
    }
}

fn parse_table(text: &str, origin: &str) -> Result<toml::Table, ConfigError> {
    text.parse::<toml::Table>().map_err(|e| ConfigError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

/// Merges `over` into `base` key by key; tables merge recursively, anything else replaces.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(key, v);
            }
        }
    }
}

fn parse_layered(
    base: &str,
    over: Option<toml::Table>,
    source: ConfigSource,
) -> Result<Config, ConfigError> {
    let origin = source.to_string();
    let mut table = parse_table(base, "built-in defaults")?;
    if let Some(over) = over {
        merge(&mut table, over);
    }
    let mut config: Config =
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Parse {
                origin,
                message: e.to_string(),
            })?;
    config.source = source;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> toml::Table {
        parse_table(text, "t").unwrap()
    }

    fn t() -> ConfigSource {
        ConfigSource::Flag(PathBuf::from("t.toml"))
    }

    #[test]
    fn embedded_default_parses() {
        let config = Config::embedded().expect("embedded config.toml must parse");
        assert!(config.languages.contains_key("c"));
        assert!(config.languages.contains_key("python"));
    }

    #[test]
    fn user_file_overrides_only_its_keys() {
        let config =
            parse_layered(DEFAULT_CONFIG, Some(table("[server]\nworkers = 7\n")), t()).unwrap();
        assert_eq!(config.server.workers, 7);
        assert_eq!(config.server.max_source_kib, 256);
    }

    #[test]
    fn contests_sit_beside_the_problems_unless_configured() {
        let config = parse_layered(DEFAULT_CONFIG, None, t()).unwrap();
        assert_eq!(config.contests_dir(), PathBuf::from("contests"));
        let over = Some(table("[problems]\ndir = \"/srv/judge/problems\"\n"));
        let config = parse_layered(DEFAULT_CONFIG, over, t()).unwrap();
        assert_eq!(config.contests_dir(), PathBuf::from("/srv/judge/contests"));
        let over = Some(table("[contests]\ndir = \"/srv/c\"\n"));
        let config = parse_layered(DEFAULT_CONFIG, over, t()).unwrap();
        assert_eq!(config.contests_dir(), PathBuf::from("/srv/c"));
    }

    #[test]
    fn unknown_key_is_an_error() {
        let over = Some(table("[server]\nworkerz = 7\n"));
        let err = parse_layered(DEFAULT_CONFIG, over, t()).unwrap_err();
        assert!(err.to_string().contains("workerz"), "{err}");
    }
}
