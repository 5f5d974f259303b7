//! Reading a configuration: the file a command names laid over the built-in defaults,
//! table by table, then parsed into the typed [`Config`].

use std::path::{Path, PathBuf};

use super::{locate, toolchain, Config, ConfigError, ConfigSource, Toolchains, DEFAULT_CONFIG};

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
    check_aliases(&config.languages).map_err(|message| ConfigError::Parse {
        origin: source.to_string(),
        message,
    })?;
    config.source = source;
    Ok(config)
}

/// Every language id and alias names one entry: an alias that is another entry's id, or
/// the alias of two entries, would make a submission's language ambiguous.
fn check_aliases(
    languages: &std::collections::BTreeMap<String, super::LanguageConfig>,
) -> Result<(), String> {
    let mut seen: std::collections::BTreeMap<&str, &str> = std::collections::BTreeMap::new();
    for (id, language) in languages {
        for alias in &language.aliases {
            if languages.contains_key(alias) {
                return Err(format!(
                    "[languages.{id}] alias {alias:?} is also the id of [languages.{alias}]"
                ));
            }
            if let Some(other) = seen.insert(alias, id) {
                return Err(format!(
                    "alias {alias:?} names both [languages.{other}] and [languages.{id}]"
                ));
            }
        }
    }
    Ok(())
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
        assert!(config.languages.contains_key("c17"));
        assert!(config.languages.contains_key("python"));
    }

    #[test]
    fn an_alias_naming_an_entry_or_two_is_refused() {
        let block = |id: &str, alias: &str| {
            format!(
                "[languages.{id}]\nname = \"x\"\naliases = [\"{alias}\"]\nextensions = []\n\
                 source = \"m.c\"\ncompile = [\"/bin/true\"]\nrun = [\"./m\"]\n"
            )
        };
        let err = parse_layered(DEFAULT_CONFIG, Some(table(&block("mine", "c99"))), t())
            .unwrap_err()
            .to_string();
        assert!(err.contains("alias \"c99\" is also the id"), "{err}");
        let err = parse_layered(DEFAULT_CONFIG, Some(table(&block("mine", "cpp"))), t())
            .unwrap_err()
            .to_string();
        assert!(err.contains("alias \"cpp\" names both"), "{err}");
        assert!(parse_layered(DEFAULT_CONFIG, Some(table(&block("mine", "gnu"))), t()).is_ok());
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
