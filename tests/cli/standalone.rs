//! A newcomer's first hour: the repository, cloned into a folder with nothing beside it,
//! stands alone, and the built binary works from any folder on the config it reads at run
//! time. Only committed files are cloned: that is the point.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_sudojudge");

/// One clone per test binary: `<tmp>/repo`, with an empty `<tmp>/elsewhere` beside it.
fn clone() -> &'static Path {
    static CLONE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, repo) = CLONE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let out = Command::new("git")
            .args(["clone", "--quiet", "--no-hardlinks"])
            .arg(env!("CARGO_MANIFEST_DIR"))
            .arg(&repo)
            .output()
            .expect("git must be installed");
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
        (dir, repo)
    });
    repo
}

/// An empty folder that is neither the clone nor inside it.
fn elsewhere() -> PathBuf {
    clone().parent().unwrap().join("elsewhere")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the built binary in `dir` with no `SUDOJUDGE_CONFIG` from the caller's environment.
fn sudojudge(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .env_remove("SUDOJUDGE_CONFIG")
        .args(args)
        .output()
        .expect("run sudojudge")
}

/// The ids of the packages the clone holds (whatever `problems/` holds today).
fn packages() -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(clone().join("problems"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("problem.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    assert!(!ids.is_empty(), "the clone has no problem packages");
    ids
}

#[test]
fn nothing_in_the_repository_points_outside_it() {
    // Spelled in two halves so this file does not match itself.
    let (up, abs) = (format!("{}/shared", ".."), format!("/work{}", "/shared"));
    let out = Command::new("git")
        .current_dir(clone())
        .args(["grep", "-n", "-I", "-F", "-e", &up, "-e", &abs])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "files point outside the repository:\n{}",
        text(&out.stdout)
    );
    for doc in ["docs/design.md", "datasets/README.md"] {
        assert!(clone().join(doc).is_file(), "{doc} is missing");
    }
}

#[test]
fn gen_reproduces_every_committed_package_byte_for_byte() {
    let problems = clone().join("problems");
    for id in packages() {
        let out = sudojudge(
            &elsewhere(),
            &["gen", &id, "--problems", problems.to_str().unwrap()],
        );
        assert!(out.status.success(), "gen {id}: {}", text(&out.stderr));
    }
    // Every byte as committed, and no file more or less.
    let out = Command::new("git")
        .current_dir(clone())
        .args(["status", "--porcelain", "--untracked-files=all", "problems"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty(),
        "gen changed the committed data:\n{}",
        text(&out.stdout)
    );
}

/// The first accepted reference solution of binary-sudoku (the quickest package), else of
/// the first package that has one.
fn accepted_solution() -> (String, PathBuf) {
    let mut ids = packages();
    ids.sort_by_key(|id| id != "binary-sudoku");
    for id in ids {
        let folder = clone()
            .join("problems")
            .join(&id)
            .join("submissions/accepted");
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort_by_key(|p| p.extension().is_none_or(|e| e != "c"));
        if let Some(file) = files.into_iter().next() {
            return (id, file);
        }
    }
    panic!("no accepted solution in any package");
}

#[test]
fn the_binary_judges_from_an_unrelated_folder_with_problems_or_config() {
    let (id, solution) = accepted_solution();
    let problems = clone().join("problems");
    let config = clone().join("config.toml");
    let solution = solution.to_str().unwrap();

    // Without either, it says where it looked and what to pass.
    let out = sudojudge(&elsewhere(), &["judge", &id, solution]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--problems DIR"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    for args in [
        vec![
            "judge",
            &id,
            solution,
            "--problems",
            problems.to_str().unwrap(),
        ],
        vec!["--config", config.to_str().unwrap(), "judge", &id, solution],
    ] {
        let out = sudojudge(&elsewhere(), &[&args[..], &["--json"]].concat());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["verdict"], "AC", "{args:?}: {v}");
    }
}

/// A port free at the moment of asking.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `serve ARGS` in `dir` with `env`, returns what it printed on stdout's first line
/// and its log, then kills it.
fn serve_once(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> (String, String) {
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir)
        .env_remove("SUDOJUDGE_CONFIG")
        .args(["serve", "--workers", "1"])
        .args(args)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(log.reopen().unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(Duration::from_secs(60)).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    (line, std::fs::read_to_string(log.path()).unwrap())
}

#[test]
fn a_config_edited_in_place_is_obeyed_by_the_built_binary() {
    // A copy of the clone, so this test's edit does not race the other tests' reads.
    let root = tempfile::tempdir().unwrap();
    let repo = root.path().join("repo");
    let out = Command::new("git")
        .args(["clone", "--quiet"])
        .arg(clone())
        .arg(&repo)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let config = repo.join("config.toml");
    let port = free_port();
    let edited = std::fs::read_to_string(&config)
        .unwrap()
        .replace(
            "listen = \"127.0.0.1:8080\"",
            &format!("listen = \"127.0.0.1:{port}\""),
        )
        .replace(
            "database = \"data/sudojudge.db\"",
            "database = \"state/judge.db\"",
        );
    assert!(edited.contains(&format!("127.0.0.1:{port}")) && edited.contains("state/judge.db"));
    std::fs::write(&config, edited).unwrap();

    // From the repository folder, ./config.toml is read; from anywhere else,
    // SUDOJUDGE_CONFIG: the same port, the database beside the file (relative paths are the
    // file's), nothing written where it runs.
    let away = root.path().join("away");
    std::fs::create_dir(&away).unwrap();
    let env = [("SUDOJUDGE_CONFIG", config.as_path())];
    for (dir, env, said) in [
        (&repo, &[][..], "config.toml (current folder)"),
        (&away, &env[..], "config.toml (SUDOJUDGE_CONFIG)"),
    ] {
        let _ = std::fs::remove_file(repo.join("state/judge.db"));
        let (line, log) = serve_once(dir, &[], env);
        let expected = format!("listening on http://127.0.0.1:{port}");
        assert_eq!(line.trim(), expected, "{log}");
        assert!(log.contains(said), "{log}");
        assert!(repo.join("state/judge.db").is_file(), "{log}");
    }
    let written = std::fs::read_dir(&away).unwrap().count();
    assert_eq!(written, 0, "wrote into {away:?}");

    // A typo is an error naming the file and the line; elsewhere, the file does not matter.
    std::fs::write(&config, "[server]\nlisten = \n").unwrap();
    let out = sudojudge(&repo, &["doctor"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(
        first.contains(&config.display().to_string()) && first.contains("line 2"),
        "{stderr}"
    );
    let problems = repo.join("problems");
    let args = [
        "verify",
        "--data-only",
        "--problems",
        problems.to_str().unwrap(),
    ];
    let out = sudojudge(&away, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn listen_errors_say_their_cause_once_and_host_names_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let db = dir.path().join("j.db");
    let problems = clone().join("problems");
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .args(["serve", "--workers", "1", "--listen", &addr, "--problems"])
        .arg(&problems)
        .arg("--database")
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let last = stderr.lines().last().unwrap_or("");
    assert!(last.starts_with("error: "), "{stderr}");
    assert_eq!(last.matches("in use").count(), 1, "{stderr}");
    drop(taken);

    // `localhost` is a host name, not an error.
    let args = [
        "--listen",
        "localhost:0",
        "--database",
        db.to_str().unwrap(),
    ];
    let (line, log) = serve_once(
        dir.path(),
        &[&args[..], &["--problems", problems.to_str().unwrap()]].concat(),
        &[],
    );
    assert!(line.starts_with("listening on http://"), "{line:?}\n{log}");
}
