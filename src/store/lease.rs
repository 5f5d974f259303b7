//! Who holds a claim, and for how long. Every claim a store hands out is a lease of the node
//! instance the store speaks for: its name (`--node`), a token fresh at every start (a node
//! restarted under the same name must not renew the leases of its dead predecessor) and the
//! lease's length. The node's heartbeat renews its leases; a lease that runs out returns its
//! submission to the queue (PostgreSQL, where several nodes share the queue).

use std::time::Duration;

use rand::Rng;

/// The default lease: a node silent this long has lost its claims.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);

/// The node instance a store speaks for and the length of its leases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    node: String,
    instance: String,
    duration: Duration,
}

impl Lease {
    /// A fresh instance of node `node` whose claims last `duration` unless renewed.
    pub fn new(node: &str, duration: Duration) -> Lease {
        let token: u64 = rand::thread_rng().gen();
        Lease {
            node: node.to_string(),
            instance: format!("{node}#{token:016x}"),
            duration: duration.max(Duration::from_millis(100)),
        }
    }

    /// The node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The instance token stored with each claim (`name#random`).
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// How long a claim lasts without a heartbeat.
    pub fn duration(&self) -> Duration {
        self.duration
    }

    /// The lease length in whole milliseconds (for SQL intervals).
    pub fn millis(&self) -> i64 {
        i64::try_from(self.duration.as_millis()).unwrap_or(i64::MAX)
    }

    /// How often the heartbeat should renew: a third of the lease, so two missed beats still
    /// keep the claims.
    pub fn heartbeat_every(&self) -> Duration {
        self.duration / 3
    }
}

impl Default for Lease {
    /// The single daemon of a SQLite database (`local`), with the default lease.
    fn default() -> Lease {
        Lease::new("local", DEFAULT_LEASE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_is_a_new_instance() {
        let a = Lease::new("w1", Duration::from_secs(30));
        let b = Lease::new("w1", Duration::from_secs(30));
        assert_ne!(a.instance(), b.instance());
        assert!(a.instance().starts_with("w1#"));
        assert_eq!(a.heartbeat_every(), Duration::from_secs(10));
        assert_eq!(Lease::new("x", Duration::ZERO).millis(), 100);
    }
}
