//! The accept loop: a cap on connections, header and write timeouts, a descriptor reserve.
//!
//! `axum::serve` accepts every connection and keeps it as long as the client likes: 1,100
//! clients sending their headers a byte at a time took every descriptor, after which the
//! listener logged `Too many open files`, normal requests hung and a submission judged then
//! failed as SE (the sandbox could not open its pipes). Here:
//! - at most `max_connections` connections are served at once; one more is closed as soon as
//!   it is accepted, so it holds a descriptor for microseconds;
//! - the descriptor limit is raised to the hard limit at start, and the cap is kept below it
//!   by a reserve for judging (the database, the sandbox's pipes and box files);
//! - a connection must send a request's headers within `header_timeout` of its opening or of
//!   its previous answer (hyper's header read timeout, also the keep-alive idle timeout), and a
//!   write blocked on a client that does not read fails after `write_timeout`;
//! - one client address holds at most `per_address` connections and one network (/24 for
//!   IPv4, /64 for IPv6) at most `per_network`: 300 half-sent headers from one address filled
//!   the whole cap, and every other client was refused until the header timeout freed it;
//! - as the cap nears, new connections get a shorter header timeout (from half the cap on,
//!   shrinking linearly to `busy_header_timeout` at the cap), so idle connections make room
//!   sooner when room is short, as nginx reuses idle keep-alive connections.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

use crate::accounts::ratelimit::network_of;

/// Descriptors kept for the judge whatever the clients do: the database, logs, the helper.
const RESERVE_BASE: u64 = 128;
/// Descriptors kept per sandbox slot (pipes, cgroup files, box files of one run).
const RESERVE_PER_SLOT: u64 = 32;

/// Largest read buffer of one connection (hyper's default grows to about 400 KiB, which 400
/// clients streaming bodies at once turned into 150 MB). Headers must fit in it.
const READ_BUFFER_BYTES: usize = 64 * 1024;

/// How the listener treats connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections one client address may hold at once (0: no limit but the total).
    pub per_address: usize,
    /// Connections one client network (/24, /64) may hold at once (0: no limit but the total).
    pub per_network: usize,
    /// Time to send a request's headers (from opening or from the previous answer).
    pub header_timeout: Duration,
    /// The header timeout of a connection opened when the cap is (nearly) full.
    pub busy_header_timeout: Duration,
    /// Time a write to the client may stay blocked.
    pub write_timeout: Duration,
}

impl ConnectionLimits {
    /// The header timeout of a connection opened while `open` connections (itself included)
    /// are served: the full timeout up to half the cap, then shrinking linearly to the busy
    /// timeout at the cap.
    pub fn header_timeout_at(&self, open: usize) -> Duration {
        let cap = self.max_connections.max(1);
        let half = cap / 2;
        if open <= half || self.busy_header_timeout >= self.header_timeout {
            return self.header_timeout;
        }
        let over = (open.min(cap) - half) as f64 / (cap - half).max(1) as f64;
        let span = self.header_timeout - self.busy_header_timeout;
        self.header_timeout - span.mul_f64(over)
    }
}

/// Why a connection was closed at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its address holds `per_address` connections already.
    Address,
    /// Its network holds `per_network` connections already.
    Network,
}

/// Connections held per client address and per network.
#[derive(Debug, Default)]
pub struct Holders {
    by_address: HashMap<IpAddr, usize>,
    by_network: HashMap<IpAddr, usize>,
}

impl Holders {
    /// Counts a new connection from `addr`, or refuses it (counting nothing) when its address
    /// or network holds its share already.
    pub fn admit(&mut self, addr: IpAddr, limits: &ConnectionLimits) -> Result<(), Refusal> {
        let net = network_of(addr);
        let held = |m: &HashMap<IpAddr, usize>, k| m.get(&k).copied().unwrap_or(0);
        if limits.per_address > 0 && held(&self.by_address, addr) >= limits.per_address {
            return Err(Refusal::Address);
        }
        if limits.per_network > 0 && held(&self.by_network, net) >= limits.per_network {
            return Err(Refusal::Network);
        }
        *self.by_address.entry(addr).or_insert(0) += 1;
        *self.by_network.entry(net).or_insert(0) += 1;
        Ok(())
    }

    /// A connection from `addr` ended.
    pub fn leave(&mut self, addr: IpAddr) {
        fn down(m: &mut HashMap<IpAddr, usize>, k: IpAddr) {
            if let Some(n) = m.get_mut(&k) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    m.remove(&k);
                }
            }
        }
        down(&mut self.by_address, addr);
        down(&mut self.by_network, network_of(addr));
    }
}

/// A connection's place in [`Holders`], given back when dropped.
struct Held {
    holders: Arc<Mutex<Holders>>,
    addr: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.holders
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .leave(self.addr);
    }
}

/// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the soft limit now in force.
pub fn raise_descriptor_limit() -> u64 {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    match getrlimit(Resource::RLIMIT_NOFILE) {
        Ok((soft, hard)) if soft < hard => match setrlimit(Resource::RLIMIT_NOFILE, hard, hard) {
            Ok(()) => hard,
            Err(e) => {
                tracing::warn!(soft, hard, error = %e, "cannot raise the descriptor limit");
                soft
            }
        },
        Ok((soft, _)) => soft,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the descriptor limit");
            1024
        }
    }
}

/// The connection cap that leaves the judge its reserve under `descriptor_limit`; lower than
/// `wanted` (with a warning) when the limit is too small for both.
pub fn connection_cap(wanted: usize, descriptor_limit: u64, sandbox_slots: usize) -> usize {
    let reserve = RESERVE_BASE + RESERVE_PER_SLOT * sandbox_slots as u64;
    let room = usize::try_from(descriptor_limit.saturating_sub(reserve)).unwrap_or(usize::MAX);
    let cap = wanted.min(room).max(1);
    if cap < wanted {
        tracing::warn!(
            wanted,
            cap,
            descriptor_limit,
            reserve,
            "max_connections lowered to keep descriptors for judging"
        );
    }
    cap
}

/// Serves `app` on `listener` until `stop` turns true, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let holders = Arc::new(Mutex::new(Holders::default()));
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(READ_BUFFER_BYTES);
    let mut refused: u64 = 0;
    let mut refused_share: u64 = 0;
    let stopped = async move {
        let _ = stop.wait_for(|stop| *stop).await;
    };
    tokio::pin!(stopped);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = &mut stopped => break,
        };
        let admitted = holders
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .admit(peer.ip(), &limits);
        if let Err(why) = admitted {
            refused_share += 1;
            if refused_share.is_power_of_two() {
                tracing::warn!(
                    refused = refused_share,
                    client = %peer.ip(),
                    per_address = limits.per_address,
                    per_network = limits.per_network,
                    "a client {} holds its share of connections: closing its new ones at once",
                    match why {
                        Refusal::Address => "address",
                        Refusal::Network => "network",
                    }
                );
            }
            drop(stream);
            continue;
        }
        let held = Held {
            holders: Arc::clone(&holders),
            addr: peer.ip(),
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            refused += 1;
            if refused.is_power_of_two() {
                tracing::warn!(
                    refused,
                    max_connections = limits.max_connections,
                    "connection cap reached: closing new connections at once"
                );
            }
            drop(held);
            drop(stream);
            continue;
        };
        let open = limits.max_connections - permits.available_permits();
        let _ = stream.set_nodelay(true);
        let mut io = TimeoutStream::new(stream);
        io.set_write_timeout(Some(limits.write_timeout));
        // What `into_make_service_with_connect_info` would give: the client's address, for
        // the per-address login limit.
        // Layering the router per connection would wrap every route anew (a copy of the
        // route table per connection); the extension is put on each request instead.
        let app = app
            .clone()
            .map_request(move |mut req: hyper::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                req
            });
        let service = TowerToHyperService::new(app);
        let header_timeout = limits.header_timeout_at(open);
        let connection = if header_timeout == limits.header_timeout {
            graceful.watch(builder.serve_connection(TokioIo::new(Box::pin(io)), service))
        } else {
            let mut busy = builder.clone();
            busy.header_read_timeout(header_timeout);
            graceful.watch(busy.serve_connection(TokioIo::new(Box::pin(io)), service))
        };
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended");
            }
            drop(permit);
            drop(held);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// An accept error: a dropped connection is nothing; running out of descriptors (the cap
/// should prevent it) or memory is logged and retried after a pause, never a busy loop.
async fn accept_failed(e: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %e, "accept failed");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_address: usize, per_network: usize) -> ConnectionLimits {
        ConnectionLimits {
            max_connections: 100,
            per_address,
            per_network,
            header_timeout: Duration::from_secs(10),
            busy_header_timeout: Duration::from_secs(1),
            write_timeout: Duration::from_secs(30),
        }
    }

    #[test]
    fn addresses_and_networks_hold_their_share() {
        let l = limits(2, 3);
        let mut h = Holders::default();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        h.admit(ip("192.0.2.1"), &l).unwrap();
        h.admit(ip("192.0.2.1"), &l).unwrap();
        assert_eq!(h.admit(ip("192.0.2.1"), &l), Err(Refusal::Address));
        h.admit(ip("192.0.2.2"), &l).unwrap();
        assert_eq!(h.admit(ip("192.0.2.3"), &l), Err(Refusal::Network));
        h.admit(ip("198.51.100.1"), &l).unwrap();
        h.leave(ip("192.0.2.1"));
        h.admit(ip("192.0.2.3"), &l).unwrap();
        // IPv6: one /64 is one network.
        h.admit(ip("2001:db8::1"), &l).unwrap();
        h.admit(ip("2001:db8::2"), &l).unwrap();
        h.admit(ip("2001:db8::3"), &l).unwrap();
        assert_eq!(h.admit(ip("2001:db8::4"), &l), Err(Refusal::Network));
        let mut none = Holders::default();
        for _ in 0..1000 {
            none.admit(ip("192.0.2.1"), &limits(0, 0)).unwrap();
        }
        for _ in 0..1000 {
            none.leave(ip("192.0.2.1"));
        }
        assert!(none.by_address.is_empty() && none.by_network.is_empty());
    }

    #[test]
    fn the_header_timeout_shrinks_as_the_cap_nears() {
        let l = limits(0, 0);
        assert_eq!(l.header_timeout_at(1), Duration::from_secs(10));
        assert_eq!(l.header_timeout_at(50), Duration::from_secs(10));
        assert_eq!(l.header_timeout_at(75), Duration::from_millis(5500));
        assert_eq!(l.header_timeout_at(100), Duration::from_secs(1));
        assert_eq!(l.header_timeout_at(1000), Duration::from_secs(1));
    }

    #[test]
    fn the_cap_leaves_the_reserve() {
        assert_eq!(connection_cap(256, 1_048_576, 4), 256);
        assert_eq!(connection_cap(2000, 1024, 4), 1024 - 128 - 4 * 32);
        assert_eq!(connection_cap(10, 100, 4), 1);
    }
}
