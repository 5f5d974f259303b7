//! Which configuration file a command reads, and what its relative paths are relative to.
//!
//! The order, as cargo and ripgrep users expect: `--config FILE`, else the
//! `SUDOJUDGE_CONFIG` environment variable, else `config.toml` in the current folder if there
//! is one, else the built-in defaults alone.

use std::fmt;
use std::path::{Path, PathBuf};

/// Environment variable naming the configuration file when `--config` is not given.
pub const CONFIG_ENV: &str = "SUDOJUDGE_CONFIG";

/// Where a [`super::Config`] came from, so the log and `doctor` can say which file was read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ConfigSource {
    /// No file: the built-in defaults alone.
    #[default]
    BuiltIn,
    /// The `--config` argument.
    Flag(PathBuf),
    /// The `SUDOJUDGE_CONFIG` environment variable.
    Env(PathBuf),
    /// `config.toml` in the current folder.
    WorkingDir(PathBuf),
}

impl ConfigSource {
    /// The file read, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            ConfigSource::BuiltIn => None,
            ConfigSource::Flag(p) | ConfigSource::Env(p) | ConfigSource::WorkingDir(p) => Some(p),
        }
    }
}

impl fmt::Display for ConfigSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigSource::BuiltIn => write!(f, "built-in defaults (no config file)"),
            ConfigSource::Flag(p) => write!(f, "{} (--config)", p.display()),
            ConfigSource::Env(p) => write!(f, "{} ({CONFIG_ENV})", p.display()),
            ConfigSource::WorkingDir(p) => write!(f, "{} (current folder)", p.display()),
        }
    }
}

/// The file to read for a `--config` argument of `flag`, looked up in the order above.
pub fn locate(flag: Option<&Path>) -> ConfigSource {
    let env = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty());
    let cwd = Path::new("config.toml");
    locate_with(flag, env.map(PathBuf::from), cwd.is_file())
}

fn locate_with(flag: Option<&Path>, env: Option<PathBuf>, cwd_has_file: bool) -> ConfigSource {
    if let Some(flag) = flag {
        return ConfigSource::Flag(flag.to_path_buf());
    }
    if let Some(env) = env {
        return ConfigSource::Env(env);
    }
    if cwd_has_file {
        let cwd = Path::new("config.toml");
        return ConfigSource::WorkingDir(std::path::absolute(cwd).unwrap_or(cwd.to_path_buf()));
    }
    ConfigSource::BuiltIn
}

/// Whether a `[server] database` is a PostgreSQL URL (`postgres://` or `postgresql://`), not
/// a path to resolve.
pub fn is_postgres_url(setting: &str) -> bool {
    setting.starts_with("postgres://") || setting.starts_with("postgresql://")
}

/// Keys whose values are host paths a user may write relative to the config file.
const PATH_KEYS: &[(&str, &str)] = &[
    ("server", "database"),
    ("problems", "dir"),
    ("contests", "dir"),
    ("contests", "clock_file"),
    ("compile", "cache_dir"),
    ("sandbox", "box_root"),
    ("sandbox", "helper"),
    ("sandbox", "slot_locks"),
    ("node", "box_root"),
    ("node", "slot_locks"),
];

/// Rewrites the relative paths of a config file's table as paths relative to the file's
/// folder, so the file means the same thing whatever folder the judge starts in.
pub(super) fn resolve_paths(table: &mut toml::Table, file: &Path) {
    let file = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let folder = file.parent().unwrap_or(Path::new("/"));
    for (section_name, key) in PATH_KEYS {
        let Some(toml::Value::Table(section)) = table.get_mut(*section_name) else {
            continue;
        };
        let Some(toml::Value::String(value)) = section.get_mut(*key) else {
            continue;
        };
        // A database may be a PostgreSQL URL (left as it is) or `sqlite:PATH`.
        if is_postgres_url(value) {
            continue;
        }
        let (prefix, path) = match value.strip_prefix("sqlite:") {
            Some(path) if *section_name == "server" => ("sqlite:", path.to_string()),
            _ => ("", value.clone()),
        };
        if Path::new(&path).is_relative() {
            *value = format!("{prefix}{}", folder.join(&path).display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_then_the_environment_then_the_current_folder() {
        let flag = Path::new("a.toml");
        let env = || Some(PathBuf::from("b.toml"));
        assert_eq!(
            locate_with(Some(flag), env(), true),
            ConfigSource::Flag(flag.into())
        );
        assert_eq!(
            locate_with(None, env(), true),
            ConfigSource::Env("b.toml".into())
        );
        assert!(matches!(
            locate_with(None, None, true),
            ConfigSource::WorkingDir(p) if p.is_absolute() && p.ends_with("config.toml")
        ));
        assert_eq!(locate_with(None, None, false), ConfigSource::BuiltIn);
    }

    #[test]
    fn relative_paths_are_taken_from_the_files_folder() {
        let mut table: toml::Table = "[server]\ndatabase = \"db/j.db\"\nlisten = \"x\"\n\
            [problems]\ndir = \"/abs/problems\"\n[sandbox]\nhelper = \"bin/sudojudge\"\n"
            .parse()
            .unwrap();
        resolve_paths(&mut table, Path::new("/etc/sudojudge/config.toml"));
        assert_eq!(
            table["server"]["database"].as_str(),
            Some("/etc/sudojudge/db/j.db")
        );
        assert_eq!(table["server"]["listen"].as_str(), Some("x"));
        for (given, resolved) in [
            ("postgres://u@h/db", "postgres://u@h/db"),
            ("sqlite:db/j.db", "sqlite:/etc/sudojudge/db/j.db"),
        ] {
            let mut table: toml::Table =
                format!("[server]\ndatabase = {given:?}\n").parse().unwrap();
            resolve_paths(&mut table, Path::new("/etc/sudojudge/config.toml"));
            assert_eq!(table["server"]["database"].as_str(), Some(resolved));
        }
        assert_eq!(table["problems"]["dir"].as_str(), Some("/abs/problems"));
        assert_eq!(
            table["sandbox"]["helper"].as_str(),
            Some("/etc/sudojudge/bin/sudojudge")
        );
    }
}
