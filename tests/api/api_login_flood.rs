//! Issue 21, finding 1, against the real daemon: 600 concurrent failed logins, each from its
//! own /24 network on loopback (127.x.y.1, the client socket bound to that address), so the
//! per-network limit never stops them. Every login costs an argon2id check (19 MiB, 2 passes);
//! on tokio's blocking pool three such waves took the daemon from 16 MB to 14.7 GB, which
//! stayed, and `/api/health` took 11 s. Now the checks run on two hashing threads that keep
//! their memory, behind a short line: the rest get 503 with `Retry-After`.
//!
//! `cargo test --release --test api api_login_flood:: -- --nocapture` prints the figures.

use crate::fixtures::{accounts, daemon};

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use accounts::{add_user, client_from, metric, start_judge, try_login, Judge, PASSWORD_CHECKS};
use daemon::client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tokio::sync::Barrier;

const LOGINS: usize = 600;
const THREADS: usize = 2;
const WAITING_PER_THREAD: usize = 16;
const TOKEN: &str = "scrape-21-flood";

/// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
fn status_kib(pid: i32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Raises this process's descriptor limit to its hard limit (600 client sockets and more).
fn raise_nofile() {
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
}

/// One failed login over a socket bound to `source`: connects, waits for every other login
/// to be connected too, sends the request, and returns the answer's status and whether it
/// carried `Retry-After`.
async fn failed_login(
    source: Ipv4Addr,
    daemon: SocketAddr,
    start: Arc<Barrier>,
    i: usize,
) -> (u16, bool) {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(IpAddr::V4(source), 0))
        .expect("bind a loopback source address");
    let connected = socket.connect(daemon).await;
    start.wait().await;
    let Ok(mut s) = connected else {
        return (0, false);
    };
    let body = format!(r#"{{"name":"boss","password":"wrong guess {i}"}}"#);
    let request = format!(
        "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(request.as_bytes()).await.is_err() {
        return (0, false);
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut answer)).await;
    if read.is_err() {
        return (0, false);
    }
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (
        status,
        text.to_ascii_lowercase().contains("\r\nretry-after:"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_flood_is_bounded_in_memory_cpu_and_time() {
    raise_nofile();
    let Judge {
        d,
        db,
        config,
        dir: _dir,
    } = start_judge(
        0,
        &format!(
            "[accounts]\npassword_threads = {THREADS}\n\
             password_waiting_per_thread = {WAITING_PER_THREAD}\n\
             [metrics]\ntoken = \"{TOKEN}\"\n"
        ),
    );
    add_user(&config, &db, "boss", true, "correct horse battery");
    let daemon: SocketAddr = d.base.trim_start_matches("http://").parse().unwrap();
    let pid = d.pid();
    let scraper = client();

    // Idle: started, health read, no password checked yet.
    let prober = client_from("127.250.0.1");
    let r = prober.get(d.url("/api/health")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let idle_kib = status_kib(pid, "VmRSS");
    // How long one check takes here, alone (the bound on checks below is made of it).
    let mut single = Duration::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        let (s, _) = try_login(&client_from("127.251.0.1"), &d, "boss", "not the password").await;
        assert_eq!(s, 401);
        single = single.min(started.elapsed());
    }
    let before = metric(&scraper, &d, Some(TOKEN), PASSWORD_CHECKS).await;

    // 600 logins, each from its own /24, sent at once.
    let start = Arc::new(Barrier::new(LOGINS + 1));
    let logins: Vec<_> = (0..LOGINS)
        .map(|i| {
            let source = Ipv4Addr::new(127, 10 + (i / 250) as u8, (i % 250) as u8, 1);
            tokio::spawn(failed_login(source, daemon, Arc::clone(&start), i))
        })
        .collect();
    start.wait().await;
    let attack = Instant::now();

    // Meanwhile, /api/health from another address, and the daemon's memory.
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let probe = {
        let (done, url) = (Arc::clone(&done), d.url("/api/health"));
        tokio::spawn(async move {
            let mut slowest = Duration::ZERO;
            let mut probes = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let started = Instant::now();
                let r = prober.get(&url).send().await.expect("health answers");
                assert_eq!(r.status(), 200);
                slowest = slowest.max(started.elapsed());
                probes += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            (probes, slowest)
        })
    };
    let mut answers = Vec::with_capacity(LOGINS);
    for l in logins {
        answers.push(l.await.unwrap());
    }
    let took = attack.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let (probes, slowest) = probe.await.unwrap();
    let after = metric(&scraper, &d, Some(TOKEN), PASSWORD_CHECKS).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after_kib = status_kib(pid, "VmRSS");
    let peak_kib = status_kib(pid, "VmHWM");

    let wrong = answers.iter().filter(|(s, _)| *s == 401).count();
    let busy = answers.iter().filter(|(s, r)| *s == 503 && *r).count();
    assert_eq!(
        wrong + busy,
        LOGINS,
        "every login is answered 401 or 503 with Retry-After: {:?}",
        answers
            .iter()
            .filter(|(s, r)| !(*s == 401 || (*s == 503 && *r)))
            .take(5)
            .collect::<Vec<_>>()
    );
    assert!(busy > 0, "the line is bounded");
    let checked = after - before;
    assert_eq!(
        checked, wrong as f64,
        "each check is a 401, each refused login cost no check"
    );
    // At most the threads and the line at the start, then what the threads can do in the
    // time the flood lasted (a check takes at least half of a lone login's time).
    let line = THREADS + THREADS * WAITING_PER_THREAD;
    let rounds = (took.as_secs_f64() / (single.as_secs_f64() / 2.0)).ceil() as usize;
    let bound = line + THREADS * rounds;
    assert!(
        checked as usize <= bound,
        "{checked} checks; the bound allows {bound} ({line} in line, {THREADS} threads, \
         {took:?} of flood, {single:?} per lone login)"
    );
    assert!(
        probes > 0 && slowest < Duration::from_secs(2),
        "health: {slowest:?}"
    );
    let mib = |kib: u64| kib as f64 / 1024.0;
    assert!(
        peak_kib < 300 * 1024,
        "peak RSS {:.1} MiB (idle {:.1} MiB)",
        mib(peak_kib),
        mib(idle_kib)
    );
    assert!(
        after_kib < idle_kib + 50 * 1024,
        "RSS {:.1} MiB after the flood, {:.1} MiB idle",
        mib(after_kib),
        mib(idle_kib)
    );
    eprintln!(
        "{LOGINS} concurrent failed logins from {LOGINS} /24 networks, {THREADS} hashing \
         threads, line {line}: {wrong} checked (401), {busy} got 503 in {took:?} (a lone login \
         {single:?}); daemon RSS {:.1} MiB idle, peak {:.1} MiB, {:.1} MiB after; \
         /api/health from another address: {probes} probes, slowest {slowest:?}",
        mib(idle_kib),
        mib(peak_kib),
        mib(after_kib)
    );
}
