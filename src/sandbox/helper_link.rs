//! [`HelperLink`]: a slot's long-lived helper process (`sudojudge __sandbox-init`) and the
//! exchange with it: one JSON [`BoxSpec`] line out, one JSON report line back. The helper is
//! started on first use and restarted once if it died.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use super::error::SandboxError;
use super::spec::{BoxSpec, HelperReport};

/// The helper binary of one sandbox and its running process, if started.
#[derive(Debug)]
pub(super) struct HelperLink {
    path: PathBuf,
    server: Mutex<Option<Server>>,
}

/// The running helper process and its protocol pipes.
#[derive(Debug)]
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// How long a helper told to stop (its input closed) may take to stop its waiting box and
/// exit before it is killed.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

impl Server {
    /// Closes the helper's input, so it stops the box waiting for a run (its child, which it
    /// reaps) and exits; kills it if it has not within [`STOP_GRACE`].
    fn stop(self) {
        let Server {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let deadline = std::time::Instant::now() + STOP_GRACE;
        while std::time::Instant::now() < deadline {
            match child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => std::thread::sleep(std::time::Duration::from_millis(1)),
                Err(_) => break,
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl HelperLink {
    /// A link to `path`, started on the first [`HelperLink::call`].
    pub(super) fn new(path: PathBuf) -> HelperLink {
        HelperLink {
            path,
            server: Mutex::new(None),
        }
    }

    /// The helper binary.
    pub(super) fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Uses `path` from now on; a helper already running is stopped.
    pub(super) fn set_path(&mut self, path: PathBuf) {
        self.path = path;
        self.stop();
    }

    /// Stops the helper if it runs.
    pub(super) fn stop(&mut self) {
        if let Some(server) = self.server.get_mut().ok().and_then(Option::take) {
            server.stop();
        }
    }

    fn spawn(&self) -> Result<Server, SandboxError> {
        let helper_err = |source| SandboxError::Helper {
            path: self.path.clone(),
            source,
        };
        // argv[0] is neutral: the box's init is a clone of the helper, and its
        // `/proc/1/cmdline` must not name the judge's binary path.
        let mut child = Command::new(&self.path)
            .arg0("sudojudge")
            .arg("__sandbox-init")
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(helper_err)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(helper_err(std::io::Error::other("no pipes to the helper")));
        };
        Ok(Server {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    fn exchange(server: &mut Server, line: &[u8]) -> std::io::Result<String> {
        server.stdin.write_all(line)?;
        server.stdin.flush()?;
        let mut answer = String::new();
        if server.stdout.read_line(&mut answer)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the helper exited",
            ));
        }
        Ok(answer)
    }

    /// Sends one spec to the slot's helper (started on first use, restarted once if it
    /// died) and reads its report.
    pub(super) fn call(&self, spec: &BoxSpec) -> Result<HelperReport, SandboxError> {
        let mut line = serde_json::to_vec(spec)
            .map_err(|e| SandboxError::Request(format!("cannot encode the box spec: {e}")))?;
        line.push(b'\n');
        let mut guard = self.server.lock().unwrap_or_else(|e| e.into_inner());
        let mut last_err = None;
        for _attempt in 0..2 {
            let mut server = match guard.take() {
                Some(s) => s,
                None => self.spawn()?,
            };
            match Self::exchange(&mut server, &line) {
                Ok(answer) => {
                    *guard = Some(server);
                    return match serde_json::from_str::<Result<HelperReport, String>>(&answer) {
                        Ok(Ok(report)) => Ok(report),
                        Ok(Err(message)) => Err(SandboxError::Setup(message)),
                        Err(_) => {
                            let mut output = answer;
                            output.truncate(4096);
                            Err(SandboxError::HelperOutput {
                                status: "running".into(),
                                output,
                            })
                        }
                    };
                }
                Err(e) => {
                    server.stop();
                    last_err = Some(e);
                }
            }
        }
        Err(SandboxError::Helper {
            path: self.path.clone(),
            source: last_err.unwrap_or_else(|| std::io::Error::other("helper failed")),
        })
    }
}
