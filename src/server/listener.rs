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
//!   write blocked on a client that does not read fails after `write_timeout`.

use std::sync::Arc;
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
    /// Time to send a request's headers (from opening or from the previous answer).
    pub header_timeout: Duration,
    /// Time a write to the client may stay blocked.
    pub write_timeout: Duration,
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
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(READ_BUFFER_BYTES);
    let mut refused: u64 = 0;
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
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            refused += 1;
            if refused.is_power_of_two() {
                tracing::warn!(
                    refused,
                    max_connections = limits.max_connections,
                    "connection cap reached: closing new connections at once"
                );
            }
            drop(stream);
            continue;
        };
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
        let connection =
            graceful.watch(builder.serve_connection(TokioIo::new(Box::pin(io)), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended");
            }
            drop(permit);
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

    #[test]
    fn the_cap_leaves_the_reserve() {
        assert_eq!(connection_cap(256, 1_048_576, 4), 256);
        assert_eq!(connection_cap(2000, 1024, 4), 1024 - 128 - 4 * 32);
        assert_eq!(connection_cap(10, 100, 4), 1);
    }
}
