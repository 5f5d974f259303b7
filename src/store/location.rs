//! Which store a database setting names: `postgres://...` (or `postgresql://`) is
//! PostgreSQL, anything else a SQLite file (`sqlite:` in front is allowed and dropped).

use std::path::{Path, PathBuf};

use crate::config::is_postgres_url;

/// A parsed `--database` / `[server] database`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL.
    Postgres(String),
}

impl Location {
    /// What `setting` names.
    pub fn parse(setting: &Path) -> Location {
        let text = setting.to_string_lossy();
        if is_postgres_url(&text) {
            return Location::Postgres(text.into_owned());
        }
        match text
            .strip_prefix("sqlite://")
            .or(text.strip_prefix("sqlite:"))
        {
            Some(rest) => Location::Sqlite(PathBuf::from(rest)),
            None => Location::Sqlite(setting.to_path_buf()),
        }
    }

    /// Whether several nodes may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        matches!(self, Location::Postgres(_))
    }

    /// The setting for logs, with any password in the URL replaced by `***`.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => redact_password(url),
        }
    }
}

fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths() {
        assert_eq!(
            Location::parse(Path::new("postgres://u:p@h:5/db")),
            Location::Postgres("postgres://u:p@h:5/db".into())
        );
        assert!(Location::parse(Path::new("postgresql://h/db")).is_shared());
        assert_eq!(
            Location::parse(Path::new("data/x.db")),
            Location::Sqlite("data/x.db".into())
        );
        assert_eq!(
            Location::parse(Path::new("sqlite:/var/x.db")),
            Location::Sqlite("/var/x.db".into())
        );
        assert_eq!(
            Location::parse(Path::new("postgres://u:secret@h/db?x=1")).display(),
            "postgres://u:***@h/db?x=1"
        );
        assert_eq!(
            Location::parse(Path::new("postgres://h/db")).display(),
            "postgres://h/db"
        );
    }
}
