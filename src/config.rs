//! `config.toml` to a typed [`Config`], read when a command starts (never at build time).
//!
//! The repository's `config.toml` is also built into the binary as the defaults: a judge
//! with no config file runs on exactly the settings that file documents. The file a command
//! reads ([`locate`]: `--config`, else `SUDOJUDGE_CONFIG`, else `./config.toml`) is laid over
//! those defaults, so it only needs the keys it changes; relative paths in it are resolved
//! against its own folder. Toolchains named by a language's `toolchain` command are found
//! on this host when the config is loaded ([`toolchain`]).
//!
//! This file is the schema (one typed section per table; the daemon's `[server]` and
//! `[accounts]` are in `server`); `read` lays the file over the defaults and parses it.

mod locate;
mod read;
mod server;
pub mod toolchain;

use std::path::PathBuf;

use serde::Deserialize;

pub use locate::{is_postgres_url, locate, ConfigSource};
pub use server::{AccountsConfig, AuthMode, Feedback, ServerConfig};
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
    /// This node's name and its own sandbox namespace (several nodes on one machine).
    #[serde(default)]
    pub node: NodeConfig,
    /// Who may read `GET /metrics`.
    #[serde(default)]
    pub metrics: MetricsConfig,
}

/// `[node]`: the name of this judging node and, for a node named explicitly, its own sandbox
/// namespace. Resolved by [`crate::node::NodeIdentity::from_config`]; every key is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeConfig {
    /// The node's name (`--node` overrides it); not set: this host's name, sanitized.
    #[serde(default)]
    pub name: Option<String>,
    /// First uid of the node's slots; default for a named node: derived from its name.
    #[serde(default)]
    pub uid_base: Option<u32>,
    /// The node's box folder; default for a named node: `<[sandbox] box_root>-<name>`.
    #[serde(default)]
    pub box_root: Option<PathBuf>,
    /// The node's cgroup folder name; default for a named node:
    /// `<[sandbox] cgroup_name>-<name>`.
    #[serde(default)]
    pub cgroup_name: Option<String>,
    /// The node's slot lock folder; default: `[sandbox] slot_locks`, shared host-wide (lock
    /// files are named by uid, so a node's lock paths are its own through its uids).
    #[serde(default)]
    pub slot_locks: Option<PathBuf>,
}

/// `[metrics]`: who may read `GET /metrics`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsConfig {
    /// A bearer token that may read `/metrics` (for a Prometheus server, which holds no
    /// account); admins may always, and so may anyone in the open single-user mode.
    #[serde(default)]
    pub token: Option<String>,
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

/// Where problems are loaded from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemsConfig {
    /// Folder holding one package per problem.
    pub dir: PathBuf,
    /// Largest package zip an admin may upload (`POST /api/problems`, the admin page), in KiB.
    #[serde(default = "default_max_upload_kib")]
    pub max_upload_kib: u64,
    /// How often a node looks for packages uploaded through another node and for package
    /// folders dropped in the problems folder, in milliseconds (0: never).
    #[serde(default = "default_rescan_ms")]
    pub rescan_ms: u64,
}

fn default_max_upload_kib() -> u64 {
    64 * 1024
}

fn default_rescan_ms() -> u64 {
    2000
}

/// Where contests are loaded from, and the bounds of their questions.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContestsConfig {
    /// Folder of the contest files; `None`: `contests` beside the problems folder.
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// Contest time read from this file (one RFC 3339 instant, read again at every use)
    /// instead of the system clock: for tests and rehearsals of a contest. `None`: the
    /// system clock.
    #[serde(default)]
    pub clock_file: Option<PathBuf>,
    /// Questions to the jury one contestant may ask in one contest: at most `questions` in
    /// any `per_minutes` (a sliding span, counted from the stored questions); past it 429.
    #[serde(default)]
    pub question_rate: QuestionRate,
    /// Longest question, in characters; longer ones get 422 `too_long`.
    #[serde(default = "default_max_question_chars")]
    pub max_question_chars: usize,
}

/// `[contests] question_rate`: questions per contestant and contest in a sliding span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionRate {
    /// Questions allowed in one span (0: no limit).
    pub questions: u32,
    /// The span, in minutes.
    pub per_minutes: u32,
}

impl Default for QuestionRate {
    fn default() -> QuestionRate {
        QuestionRate {
            questions: 5,
            per_minutes: 10,
        }
    }
}

fn default_max_question_chars() -> usize {
    1000
}

impl Default for ContestsConfig {
    fn default() -> ContestsConfig {
        ContestsConfig {
            dir: None,
            clock_file: None,
            question_rate: QuestionRate::default(),
            max_question_chars: default_max_question_chars(),
        }
    }
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
    /// Bound of the compiled-program cache on disk, in MB (least recently used out); 0
    /// turns the cache off. See [`crate::languages::cache`].
    #[serde(default = "default_cache_mb")]
    pub cache_mb: u64,
    /// The cache's folder: created root-only (0700); one owned by another user or open to
    /// others is refused (the judge then compiles every time and says why in its log).
    #[serde(default = "default_cache_dir")]
    pub cache_dir: PathBuf,
    /// Files whose size or modification time joins every cache key (the host's package
    /// database by default): what a compile links in besides its compiler (a static libc)
    /// changes with them, so a package upgrade starts a fresh set of entries.
    #[serde(default = "default_cache_watch")]
    pub cache_watch: Vec<PathBuf>,
}

fn default_cache_mb() -> u64 {
    512
}

fn default_cache_dir() -> PathBuf {
    PathBuf::from("/var/cache/sudojudge/programs")
}

fn default_cache_watch() -> Vec<PathBuf> {
    vec![PathBuf::from("/var/lib/dpkg/status")]
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
    /// Other ids naming this entry (`cpp` for `cpp17`): a submission in an alias is
    /// recorded under this entry's id.
    #[serde(default)]
    pub aliases: Vec<String>,
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
    /// Processes and threads allowed on top of the sandbox's `max_processes`, in compiles and
    /// runs of this language (a JVM's own threads).
    #[serde(default)]
    pub extra_processes: u32,
    /// How the entry point is found in the source; not set: `source` as it is.
    #[serde(default)]
    pub entry_point: Option<EntryPointRule>,
    /// Text whose presence in the stderr of a failed run means the program ran out of the
    /// memory its runtime was given (a JVM's `java.lang.OutOfMemoryError`): the run is then
    /// a memory-limit verdict, not a run-time error.
    #[serde(default)]
    pub memory_error: Option<String>,
}

/// How a language finds where a source starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryPointRule {
    /// Java: the file is named after the public top-level class, `{mainclass}` is the class
    /// with `public static void main` (see `languages::java`).
    Java,
}
