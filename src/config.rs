//! `config.toml` to a typed [`Config`].
//!
//! The top-level `config.toml` is embedded in the binary and is the default: the daemon runs
//! with no config file at all on exactly the settings that file documents. A user's file is
//! read on top of the embedded one, so it only needs the keys it changes.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The embedded default configuration (the repository's `config.toml`).
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
        /// Which file (or "embedded default").
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
    /// Problem-independent limits for `sudojudge run` and `POST /api/runs`.
    pub run: RunConfig,
    /// Limits for compiles.
    pub compile: CompileConfig,
    /// The sandbox: mounts, uids, cgroups, degraded mode.
    pub sandbox: SandboxConfig,
    /// The language table, keyed by language id (`c`, `cpp`, `rust`, `python`).
    pub languages: std::collections::BTreeMap<String, LanguageConfig>,
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
}

impl Default for QueueConfig {
    fn default() -> QueueConfig {
        QueueConfig { max_attempts: 3 }
    }
}

/// Settings of the HTTP daemon.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// Address the HTTP API listens on.
    pub listen: String,
    /// SQLite database file, created on first start.
    pub database: PathBuf,
    /// Judging workers; 0 means one per CPU core.
    pub workers: usize,
    /// Largest accepted source, in KiB.
    pub max_source_kib: u64,
}

/// Where problems are loaded from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemsConfig {
    /// Folder holding one package per problem.
    pub dir: PathBuf,
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

fn default_box_inodes() -> u64 {
    4096
}

fn default_cgroup_root() -> PathBuf {
    PathBuf::from("/sys/fs/cgroup")
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
    /// The embedded default configuration.
    pub fn embedded() -> Result<Config, ConfigError> {
        parse_layered(DEFAULT_CONFIG, None, "embedded default")
    }

    /// The embedded default with the user's file read on top of it.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let Some(path) = path else {
            return Self::embedded();
        };
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        parse_layered(DEFAULT_CONFIG, Some(&text), &path.display().to_string())
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

fn parse_layered(base: &str, over: Option<&str>, origin: &str) -> Result<Config, ConfigError> {
    let mut table = parse_table(base, "embedded default")?;
    if let Some(over) = over {
        merge(&mut table, parse_table(over, origin)?);
    }
    toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| ConfigError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_default_parses() {
        let config = Config::embedded().expect("embedded config.toml must parse");
        assert!(config.languages.contains_key("c"));
        assert!(config.languages.contains_key("python"));
    }

    #[test]
    fn user_file_overrides_only_its_keys() {
        let config = parse_layered(DEFAULT_CONFIG, Some("[server]\nworkers = 7\n"), "t").unwrap();
        assert_eq!(config.server.workers, 7);
        assert_eq!(config.server.max_source_kib, 256);
    }

    #[test]
    fn unknown_key_is_an_error() {
        let err = parse_layered(DEFAULT_CONFIG, Some("[server]\nworkerz = 7\n"), "t").unwrap_err();
        assert!(err.to_string().contains("workerz"), "{err}");
    }
}
