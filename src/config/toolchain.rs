//! Finds each language's toolchain on this host when the configuration is loaded, so the
//! shipped `config.toml` names no host-specific folder (the Rust toolchain lives wherever
//! rustup put it: `/root/.rustup/...`, `/usr/local/rustup/...`, `/opt/...`).
//!
//! A language with `toolchain = [...]` has that command run (its program looked up in
//! `PATH`, then in `$CARGO_HOME/bin` or `~/.cargo/bin`, so a service with a bare `PATH` still
//! finds rustup); the folder it prints is mounted read-only in every box and stands for
//! `{toolchain}` in the language's commands. A language whose toolchain is missing is left
//! out of the language table, and `doctor` says why.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::LanguageConfig;

/// The placeholder for the toolchain folder in a language's commands.
pub const PLACEHOLDER: &str = "{toolchain}";

/// How long a toolchain command may take (the rustup proxy answers in tens of ms).
const COMMAND_LIMIT: Duration = Duration::from_secs(20);

/// What toolchain discovery found, per language that asks for it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Toolchains {
    /// Languages whose toolchain was found: its folder and how.
    pub found: BTreeMap<String, FoundToolchain>,
    /// Languages left out because their toolchain is missing, with the reason.
    pub missing: BTreeMap<String, String>,
}

/// One toolchain found on this host.
#[derive(Debug, Clone, Serialize)]
pub struct FoundToolchain {
    /// The folder the command printed (mounted in every box).
    pub folder: PathBuf,
    /// The command as run, with the program's full path.
    pub command: String,
}

/// Runs the `toolchain` command of every language that has one, substitutes the folder
/// found, adds it to `mounts` and drops the languages whose toolchain is missing.
pub fn discover(
    languages: &mut BTreeMap<String, LanguageConfig>,
    mounts: &mut Vec<PathBuf>,
) -> Toolchains {
    let mut out = Toolchains::default();
    let mut missing = Vec::new();
    for (id, language) in languages.iter_mut() {
        let Some(command) = language.toolchain.clone() else {
            continue;
        };
        match find_cached(&command) {
            Ok(found) => {
                substitute(language, &found.folder);
                if !mounts.iter().any(|m| found.folder.starts_with(m)) {
                    mounts.push(found.folder.clone());
                }
                out.found.insert(id.clone(), found);
            }
            Err(reason) => {
                out.missing.insert(id.clone(), reason);
                missing.push(id.clone());
            }
        }
    }
    for id in missing {
        languages.remove(&id);
    }
    out
}

fn substitute(language: &mut LanguageConfig, folder: &Path) {
    let folder = folder.display().to_string();
    let args = language
        .compile
        .iter_mut()
        .flatten()
        .chain(language.run.iter_mut())
        .chain(language.env.values_mut());
    for arg in args {
        if arg.contains(PLACEHOLDER) {
            *arg = arg.replace(PLACEHOLDER, &folder);
        }
    }
}

/// [`find`], once per command and process (tests load the config many times).
fn find_cached(command: &[String]) -> Result<FoundToolchain, String> {
    type Cache = Mutex<HashMap<Vec<String>, Result<FoundToolchain, String>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(command).cloned()) {
        return hit;
    }
    let result = find(command);
    if let Ok(mut c) = cache.lock() {
        c.insert(command.to_vec(), result.clone());
    }
    result
}

/// Runs `command` and takes the first line it prints as the toolchain folder.
fn find(command: &[String]) -> Result<FoundToolchain, String> {
    let Some((program, args)) = command.split_first() else {
        return Err("the toolchain command is empty".into());
    };
    let program = find_program(program)
        .ok_or_else(|| format!("`{program}` not found in PATH, $CARGO_HOME/bin or ~/.cargo/bin"))?;
    let shown = std::iter::once(program.display().to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let stdout = run_captured(&program, args).map_err(|e| format!("`{shown}`: {e}"))?;
    let line = stdout.lines().next().unwrap_or("").trim();
    let folder = PathBuf::from(line);
    if !folder.is_absolute() || !folder.is_dir() {
        return Err(format!("`{shown}` printed {line:?}, not a folder"));
    }
    Ok(FoundToolchain {
        folder,
        command: shown,
    })
}

/// `name` itself when it holds a `/`, else the first executable `name` in `PATH`, then in
/// cargo's own bin folder (where rustup puts its proxies).
pub fn find_program(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let path = PathBuf::from(name);
        return is_executable(&path).then_some(path);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    std::env::split_paths(&path)
        .chain(cargo_home.map(|c| c.join("bin")))
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Runs `program args`, waits at most `COMMAND_LIMIT`, returns its stdout when it exits 0.
pub fn run_captured(program: &Path, args: &[String]) -> Result<String, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > COMMAND_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer within {}s", COMMAND_LIMIT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.success() {
        return Ok(stdout);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().next().unwrap_or("").trim();
    Err(format!("{} ({first})", output.status))
}

/// The first line `compiler --version` prints (the version a language runs with here).
pub fn version(compiler: &Path) -> Option<String> {
    let out = run_captured(compiler, &["--version".to_string()]).ok()?;
    out.lines().next().map(|l| l.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language(toolchain: &[&str]) -> LanguageConfig {
        LanguageConfig {
            aliases: Vec::new(),
            name: "L".into(),
            extensions: vec!["l".into()],
            source: "main.l".into(),
            toolchain: Some(toolchain.iter().map(|s| s.to_string()).collect()),
            compile: Some(vec!["{toolchain}/bin/cc".into(), "main.l".into()]),
            artifacts: vec![],
            run: vec!["./main".into()],
            env: [("LIB".to_string(), "{toolchain}/lib".to_string())].into(),
            extra_memory_mb: 0,
            extra_processes: 0,
            entry_point: None,
            memory_error: None,
        }
    }

    #[test]
    fn a_found_toolchain_is_substituted_and_mounted_once() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().display().to_string();
        let mut languages: BTreeMap<_, _> = [
            ("a".to_string(), language(&["/bin/echo", &folder])),
            ("b".to_string(), language(&["echo", &folder])),
        ]
        .into();
        let mut mounts = vec![PathBuf::from("/usr")];
        let found = discover(&mut languages, &mut mounts);
        assert_eq!(found.found.len(), 2, "{found:?}");
        assert_eq!(
            mounts,
            vec![PathBuf::from("/usr"), dir.path().to_path_buf()]
        );
        let a = &languages["a"];
        assert_eq!(a.compile.as_ref().unwrap()[0], format!("{folder}/bin/cc"));
        assert_eq!(a.env["LIB"], format!("{folder}/lib"));
    }

    #[test]
    fn a_missing_toolchain_drops_the_language_and_says_why() {
        let mut languages: BTreeMap<_, _> = [
            ("gone".to_string(), language(&["no-such-program-sudojudge"])),
            ("odd".to_string(), language(&["/bin/echo", "relative/dir"])),
            ("fails".to_string(), language(&["/bin/false"])),
        ]
        .into();
        let mut mounts = Vec::new();
        let found = discover(&mut languages, &mut mounts);
        assert!(languages.is_empty());
        assert!(mounts.is_empty());
        assert!(
            found.missing["gone"].contains("not found in PATH"),
            "{found:?}"
        );
        assert!(found.missing["odd"].contains("not a folder"), "{found:?}");
        assert!(found.missing["fails"].contains("exit status"), "{found:?}");
    }

    #[test]
    fn rustc_is_found_on_this_machine() {
        let config = crate::config::Config::embedded().unwrap();
        let rust = &config.toolchains.found["rust"];
        assert!(rust.folder.join("bin/rustc").is_file(), "{rust:?}");
        assert!(config.sandbox.mounts.contains(&rust.folder));
        let compile = config.languages["rust"].compile.as_ref().unwrap();
        assert_eq!(
            compile[0],
            rust.folder.join("bin/rustc").display().to_string()
        );
    }
}
