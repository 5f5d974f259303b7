//! The store a node opens: the database of `[server] database`, SQLite (locked for this
//! process alone) or PostgreSQL (shared), with a fresh lease instance for the node's name
//! (the name itself is [`crate::node::NodeIdentity`]'s).

use std::time::Duration;

use crate::config::Config;
use crate::store::{DatabaseOwner, Lease, Location, Store, StoreError, StoreNode};

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
