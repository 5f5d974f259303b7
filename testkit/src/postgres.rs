//! Test helper: a throwaway PostgreSQL cluster of the test's own. `initdb` into a temporary
//! folder, `postgres` on a free port of 127.0.0.1 with its socket in that folder, run as an
//! unprivileged user when the tests run as root (PostgreSQL refuses root), stopped when the
//! last handle is dropped, and by a watchdog if the test process dies first (even `kill -9`).
//!
//! Used by the store's unit tests and the cluster test binary.
//! [`PgServer::shared`] gives `None` (the caller skips) when no server can be started, unless
//! `CI` is set: then it panics, so a CI run can never pass by skipping.

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// A running cluster; stopped when dropped.
pub struct PgServer {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    postmaster: Child,
    watchdog: Option<Child>,
    next_db: AtomicU32,
}

static SHARED: Mutex<Weak<PgServer>> = Mutex::new(Weak::new());

impl PgServer {
    /// The cluster the running tests share (started by the first that asks, stopped when the
    /// last drops it); `None` when none can be started and `CI` is not set.
    pub fn shared() -> Option<Arc<PgServer>> {
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(server) = shared.upgrade() {
            return Some(server);
        }
        match PgServer::start() {
            Ok(server) => {
                let server = Arc::new(server);
                *shared = Arc::downgrade(&server);
                Some(server)
            }
            Err(why) if std::env::var_os("CI").is_some() => {
                panic!("CI is set and no PostgreSQL server could be started: {why}")
            }
            Err(why) => {
                eprintln!("SKIPPED: no PostgreSQL server could be started ({why}); set CI=1 to fail instead");
                None
            }
        }
    }

    /// Starts a fresh cluster tuned for tests: no fsync, no synchronous commit (a crash of
    /// a throwaway cluster loses nothing anyone needs).
    pub fn start() -> Result<PgServer, String> {
        PgServer::start_with(false)
    }

    /// Starts a fresh cluster with PostgreSQL's durable defaults (fsync, synchronous commit),
    /// for benchmarks that compare it with SQLite.
    pub fn start_durable() -> Result<PgServer, String> {
        PgServer::start_with(true)
    }

    fn start_with(durable: bool) -> Result<PgServer, String> {
        let bin = find_bin_dir().ok_or("no initdb/postgres found (apt-get install postgresql)")?;
        let dir = tempfile::Builder::new()
            .prefix("sudojudge-pg-")
            .tempdir()
            .map_err(|e| format!("temp folder: {e}"))?;
        let user = RunAs::choose();
        user.own(dir.path())?;
        let data = dir.path().join("data");
        let out = user
            .command(&bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ])
            .stdout(Stdio::null())
            .output()
            .map_err(|e| format!("initdb: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let port = free_port()?;
        let log = std::fs::File::create(dir.path().join("postgres.log"))
            .map_err(|e| format!("log: {e}"))?;
        let postmaster = user
            .command(&bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .arg("-p")
            .arg(port.to_string())
            .arg("-k")
            .arg(dir.path())
            .args(["-c", "listen_addresses=127.0.0.1"])
            .args(["-c", "max_connections=300", "-c", "shared_buffers=32MB"])
            .args(if durable {
                &[][..]
            } else {
                &[
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                ]
            })
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("postgres: {e}"))?;
        let watchdog = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "while kill -0 {test} 2>/dev/null && kill -0 {pg} 2>/dev/null; do sleep 1; done; \
                 kill -INT {pg} 2>/dev/null; sleep 5; kill -KILL {pg} 2>/dev/null",
                test = std::process::id(),
                pg = postmaster.id()
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok();
        let server = PgServer {
            dir,
            bin,
            port,
            postmaster,
            watchdog,
            next_db: AtomicU32::new(0),
        };
        server.wait_ready(Duration::from_secs(60))?;
        Ok(server)
    }

    fn wait_ready(&self, limit: Duration) -> Result<(), String> {
        let started = Instant::now();
        loop {
            let ok = self
                .client("pg_isready")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                return Ok(());
            }
            if started.elapsed() > limit {
                return Err(format!(
                    "postgres not ready after {limit:?}; its log:\n{}",
                    self.log()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The server's log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("postgres.log")).unwrap_or_default()
    }

    /// A new empty database on the cluster; returns its URL.
    pub fn database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            self.next_db.fetch_add(1, Ordering::SeqCst)
        );
        let out = self
            .client("createdb")
            .arg(&name)
            .output()
            .expect("run createdb");
        assert!(
            out.status.success(),
            "createdb {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A client program of the cluster (`pg_isready`, `createdb`) aimed at it as `postgres`.
    fn client(&self, program: &str) -> Command {
        let mut c = Command::new(self.bin.join(program));
        c.args([
            "-h",
            "127.0.0.1",
            "-p",
            &self.port.to_string(),
            "-U",
            "postgres",
        ]);
        c
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        // Fast shutdown: clients are disconnected, the postmaster and its backends exit.
        unsafe {
            libc::kill(self.postmaster.id() as i32, libc::SIGINT);
        }
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.postmaster.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.postmaster.kill();
        let _ = self.postmaster.wait();
        if let Some(mut w) = self.watchdog.take() {
            let _ = w.kill();
            let _ = w.wait();
        }
    }
}

/// Who runs the cluster: as root, the `postgres` user (else `nobody`); otherwise ourselves.
enum RunAs {
    Me,
    User { uid: u32, gid: u32 },
}

impl RunAs {
    fn choose() -> RunAs {
        if unsafe { libc::geteuid() } != 0 {
            return RunAs::Me;
        }
        for name in ["postgres", "nobody"] {
            let c = std::ffi::CString::new(name).unwrap_or_default();
            let pw = unsafe { libc::getpwnam(c.as_ptr()) };
            if !pw.is_null() {
                let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
                return RunAs::User { uid, gid };
            }
        }
        RunAs::User {
            uid: 65534,
            gid: 65534,
        }
    }

    fn own(&self, dir: &Path) -> Result<(), String> {
        if let RunAs::User { uid, gid } = self {
            std::os::unix::fs::chown(dir, Some(*uid), Some(*gid))
                .map_err(|e| format!("chown {}: {e}", dir.display()))?;
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("chmod {}: {e}", dir.display()))
    }

    fn command(&self, program: &Path) -> Command {
        match self {
            RunAs::Me => Command::new(program),
            RunAs::User { uid, gid } => {
                let mut c = Command::new("setpriv");
                c.arg(format!("--reuid={uid}"))
                    .arg(format!("--regid={gid}"))
                    .arg("--clear-groups")
                    .arg(program)
                    .current_dir("/");
                c
            }
        }
    }
}

/// The folder of `initdb` and `postgres`: `$SUDOJUDGE_PG_BIN`, the newest
/// `/usr/lib/postgresql/*/bin` (Debian), else wherever `PATH` finds `initdb`.
fn find_bin_dir() -> Option<PathBuf> {
    let usable = |d: &Path| d.join("initdb").exists() && d.join("postgres").exists();
    if let Some(dir) = std::env::var_os("SUDOJUDGE_PG_BIN").map(PathBuf::from) {
        return usable(&dir).then_some(dir);
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, d)| usable(d))
        .collect();
    debian.sort();
    if let Some((_, dir)) = debian.pop() {
        return Some(dir);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path).find_map(|d| {
            let initdb = d.join("initdb");
            let real = std::fs::canonicalize(&initdb).ok()?;
            let dir = real.parent()?.to_path_buf();
            usable(&dir).then_some(dir)
        })
    })
}

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("free port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("free port: {e}"))
}
