//! Issue 21, finding 3, against the real daemon: idle connections from one address no longer
//! lock everyone out. 300 half-sent request headers from one address used to fill
//! `max_connections` (256), and every other client was refused until the header timeout
//! freed them. Now one address holds at most `max_connections_per_address`, one network at
//! most `max_connections_per_network`, and as the cap nears new connections get a shorter
//! header timeout.
//!
//! `cargo test --release --test api api_connection_shares:: -- --nocapture` prints the figures.

use crate::fixtures::{accounts, daemon};

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use accounts::client_from;
use daemon::start_fresh;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpSocket, TcpStream};

const HALF_SENT: &[u8] = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";

/// Raises this process's descriptor limit to its hard limit (the test holds 1,000 sockets;
/// the daemon it starts inherits the limit).
fn raise_nofile() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
    limit.rlim_cur
}

fn open_descriptors(pid: i32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// A connection from `source` that sends the start of a request's headers and no more.
async fn half_sent(source: &str, daemon: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source.parse::<IpAddr>().unwrap(), 0))?;
    let mut s = socket.connect(daemon).await?;
    s.write_all(HALF_SENT).await?;
    Ok(s)
}

/// Whether the daemon has closed `s` (a read, without waiting, sees EOF, an answer or an error).
fn closed(s: &TcpStream) -> bool {
    let mut buf = [0u8; 512];
    !matches!(s.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_take_every_connection() {
    let nofile = raise_nofile();
    assert!(
        nofile >= 1200,
        "the test needs 1,200 descriptors, has {nofile}"
    );
    // The defaults: 4096 connections, 256 per address, 1024 per network, 10 s for headers.
    let (_dir, d) = start_fresh(0, 1, "");
    let daemon: SocketAddr = d.base.trim_start_matches("http://").parse().unwrap();
    let idle_fds = open_descriptors(d.pid());

    let attack = Instant::now();
    let mut slow = Vec::with_capacity(1000);
    for _ in 0..1000 {
        if let Ok(s) = half_sent("127.0.0.1", daemon).await {
            slow.push(s);
        }
    }
    let opened_in = attack.elapsed();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let held: Vec<&TcpStream> = slow.iter().filter(|s| !closed(s)).collect();
    let held = held.len();
    let peak_fds = open_descriptors(d.pid());

    // A normal client from another address, while they are held.
    let normal = client_from("127.1.0.1");
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        let started = Instant::now();
        let r = tokio::time::timeout(
            Duration::from_secs(2),
            normal.get(d.url("/api/health")).send(),
        )
        .await
        .expect("answered within 2 s")
        .expect("answered");
        assert_eq!(r.status(), 200);
        slowest = slowest.max(started.elapsed());
    }
    assert!(
        slow.iter().filter(|s| !closed(s)).count() >= held.saturating_sub(5),
        "the slow clients were still held while the normal client was served"
    );
    assert!(
        held <= 256,
        "{held} half-sent connections from one address are held (its share: 256)"
    );
    assert!(
        held >= 200,
        "only {held} held: the share is not what it says"
    );
    assert!(
        peak_fds <= idle_fds + 256 + 8,
        "descriptors: {idle_fds} idle, {peak_fds} with 1,000 slow clients"
    );
    assert!(
        d.log().contains("holds its share of connections"),
        "{}",
        d.log()
    );
    eprintln!(
        "1,000 half-sent headers from one address (opened in {opened_in:?}): {held} held, the \
         rest closed at once; daemon descriptors {idle_fds} idle, {peak_fds} under attack; a \
         client from another address answered 5 times, slowest {slowest:?}"
    );
}

/// With the cap half full, new connections get a header timeout shrinking toward
/// `busy_header_timeout_ms`: the last idle connections opened close long before the first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_make_room_sooner_as_the_cap_nears() {
    raise_nofile();
    let (_dir, d) = start_fresh(
        0,
        1,
        "[server]\nmax_connections = 40\nmax_connections_per_address = 0\n\
         max_connections_per_network = 0\nheader_timeout_ms = 10000\n\
         busy_header_timeout_ms = 1000\n",
    );
    let daemon: SocketAddr = d.base.trim_start_matches("http://").parse().unwrap();
    let mut idle = Vec::new();
    for _ in 0..38 {
        idle.push(half_sent("127.0.0.1", daemon).await.unwrap());
    }
    let opened = Instant::now();
    // The last ones (38 of 40 open: 1.0 + 9.0 x 2/20 = 1.9 s) close within a few seconds;
    // the first (under half the cap: 10 s) stay.
    let last = idle.pop().unwrap();
    while !closed(&last) {
        assert!(
            opened.elapsed() < Duration::from_secs(6),
            "the last idle connection is still open after {:?}",
            opened.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let last_closed = opened.elapsed();
    let first_open = !closed(&idle[0]);
    assert!(
        first_open,
        "the first idle connection keeps its full timeout"
    );
    assert!(
        last_closed >= Duration::from_millis(1000),
        "closed after {last_closed:?}"
    );
    // Room again: a normal request gets through.
    let r = client_from("127.1.0.1")
        .get(d.url("/api/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    eprintln!(
        "38 idle connections, cap 40: the last opened closed after {last_closed:?} (busy \
         timeout 1 s, full 10 s); the first still open"
    );
}
