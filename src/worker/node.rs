//! Who a node is and which store it opens: its name (`--node`, else from the host name) and
//! the database of `[server] database`, SQLite (locked for this process alone) or PostgreSQL
//! (shared), with a fresh lease instance.

use std::time::Duration;

use crate::config::Config;
use crate::store::{DatabaseOwner, Lease, Location, NodeKind, Store, StoreError};

/// The name of this node: `[server] node` (or `--node`), else `<hostname>-<kind>`.
pub fn node_name(config: &Config, kind: NodeKind) -> String {
    match config.server.node.as_deref().map(str::trim) {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => {
            let host = nix::unistd::gethostname()
                .ok()
                .and_then(|h| h.into_string().ok())
                .unwrap_or_else(|| "localhost".into());
            format!("{host}-{}", kind.as_str())
        }
    }
}

/// Opens the store `[server] database` names, as node `name`: a SQLite file is first locked
/// for this process alone (one daemon per file; the lock is returned), a PostgreSQL database
/// is shared.
pub async fn open_store(
    config: &Config,
    name: &str,
) -> Result<(Store, Option<DatabaseOwner>), StoreError> {
    let location = Location::parse(&config.server.database);
    let owner = match &location {
        Location::Sqlite(path) => Some(DatabaseOwner::claim(path)?),
        Location::Postgres(_) => None,
    };
    let lease = Lease::new(name, Duration::from_millis(config.queue.lease_ms));
    Ok((Store::open(&location, lease).await?, owner))
}
