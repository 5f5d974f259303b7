//! The compiled-program cache through the real `sudojudge judge` binary, the real sandbox and
//! gcc: a second judging runs no compiler, a changed source, command or toolchain misses, a
//! corrupt entry is compiled again, the size bound evicts the least recently used entry, and
//! processes compiling the same source at once all get a correct program.
//!
//! The compiler is observed directly: the test language `stamped` compiles C through a shell
//! that prints the time in nanoseconds after gcc, so a log with the same stamp is one the
//! compiler printed once, and a new stamp is a compile that ran.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::fixtures::config::write_config;
use crate::fixtures::daemon::{fixture, root, trimmed_problems};

const PROBLEM: &str = "binary-sudoku";

/// A test's folder: trimmed problems, a private cache, a watched "package database".
struct Setup {
    dir: tempfile::TempDir,
    problems: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let problems = trimmed_problems(dir.path(), 1);
        std::fs::write(dir.path().join("packages"), "gcc 1\n").unwrap();
        Setup { dir, problems }
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    /// A config over the private cache bounded at `cache_mb`, whose `stamped` language
    /// compiles with `flags`.
    fn config(&self, name: &str, cache_mb: u64, flags: &str) -> PathBuf {
        let folder = self.dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let extra = format!(
            "[compile]\ncache_mb = {cache_mb}\ncache_dir = {:?}\ncache_watch = [{:?}]\n\
             [languages.stamped]\nname = \"C, stamped\"\nextensions = [\"stc\"]\n\
             source = \"main.c\"\n\
             compile = [\"/bin/sh\", \"-c\", \"/usr/bin/gcc -std=gnu17 {flags} -static -o main main.c \
             && /usr/bin/date +compiled-%s%N\"]\nartifacts = [\"main\"]\nrun = [\"./main\"]\n",
            self.cache().display().to_string(),
            self.dir.path().join("packages").display().to_string(),
        );
        write_config(&folder, &self.problems, &extra)
    }

    fn source(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The cache's entries (file names), sorted.
    fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.cache())
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

fn judge_command(config: &Path, source: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sudojudge"));
    c.current_dir(root())
        .arg("--config")
        .arg(config)
        .args(["judge", PROBLEM])
        .arg(source)
        .args(["--language", "stamped", "--json"]);
    c
}

fn report(out: std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: stdout {}\nstderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Judges `source`; returns whether the program came from the cache and the compile's stamp.
fn judge(config: &Path, source: &Path) -> (bool, String) {
    let v = report(judge_command(config, source).output().unwrap());
    assert_eq!(v["verdict"], "AC", "{v:#}");
    let log = v["compile"]["log"].as_str().unwrap_or_default();
    let stamp = log
        .lines()
        .find(|l| l.starts_with("compiled-"))
        .unwrap_or_else(|| panic!("no stamp in the compile log: {v:#}"))
        .to_string();
    (v["compile"]["cached"] == true, stamp)
}

#[test]
fn a_second_judging_runs_no_compiler_and_any_change_of_source_or_command_misses() {
    let s = Setup::new();
    let o2 = s.config("o2", 512, "-O2");
    let ac = s.source("ac.c", &fixture(PROBLEM, "ac.c"));
    let (cached, first) = judge(&o2, &ac);
    assert!(!cached, "an empty cache has nothing");
    let (cached, again) = judge(&o2, &ac);
    assert!(cached, "the second judging is a hit");
    assert_eq!(
        again, first,
        "no compiler ran: the log is the first compile's"
    );
    assert_eq!(s.entries().len(), 1, "{:?}", s.entries());
    let mode = std::fs::metadata(s.cache()).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o700
    );

    // One byte more in the source: another key, a compile.
    let changed = s.source("changed.c", &format!("{}\n", fixture(PROBLEM, "ac.c")));
    let (cached, stamp) = judge(&o2, &changed);
    assert!(!cached);
    assert_ne!(stamp, first);

    // Another flag in the compile command: another key, a compile; the first entry stays.
    let o1 = s.config("o1", 512, "-O1");
    let (cached, o1_stamp) = judge(&o1, &ac);
    assert!(!cached, "another command never takes the other's program");
    assert_ne!(o1_stamp, first);
    assert_eq!(judge(&o2, &ac), (true, first.clone()));
    assert_eq!(judge(&o1, &ac), (true, o1_stamp));
    assert_eq!(s.entries().len(), 3, "{:?}", s.entries());

    // A toolchain update (the watched package database changes): every key is new.
    std::fs::write(s.dir.path().join("packages"), "gcc 2\n").unwrap();
    let (cached, updated) = judge(&o2, &ac);
    assert!(!cached, "a toolchain update never reuses a program");
    assert_ne!(updated, first);
    assert_eq!(judge(&o2, &ac), (true, updated));
}

#[test]
fn a_corrupt_entry_is_compiled_again_not_run() {
    let s = Setup::new();
    let config = s.config("c", 512, "-O2");
    let ac = s.source("ac.c", &fixture(PROBLEM, "ac.c"));
    let (_, first) = judge(&config, &ac);
    let entry = s.cache().join(&s.entries()[0]);
    for damage in ["flip", "truncate"] {
        let mut bytes = std::fs::read(&entry).unwrap();
        match damage {
            // A byte inside the program (the entry's second half is the binary).
            "flip" => {
                let i = bytes.len() * 2 / 3;
                bytes[i] ^= 0xff;
            }
            _ => bytes.truncate(bytes.len() / 2),
        }
        std::fs::write(&entry, bytes).unwrap();
        let (cached, stamp) = judge(&config, &ac);
        assert!(!cached, "{damage}: a corrupt entry is not a hit");
        assert_ne!(stamp, first, "{damage}: the compiler ran again");
        // The entry was written again, whole: the next judging hits it.
        assert_eq!(judge(&config, &ac), (true, stamp), "{damage}");
    }
}

/// A C source whose static binary is about 1 MB bigger than the solution's alone.
fn padded(i: usize) -> String {
    format!(
        "{}\n__attribute__((used)) static char pad_{i}[1000000] = {{ {i} }};\n",
        fixture(PROBLEM, "ac.c")
    )
}

#[test]
fn the_size_bound_evicts_the_least_recently_used_entry() {
    let s = Setup::new();
    let one = s.source("one.c", &padded(1));
    let two = s.source("two.c", &padded(2));
    let three = s.source("three.c", &padded(3));
    // Measure one entry with a roomy cache, then bound the cache at two and a half.
    let roomy = s.config("roomy", 512, "-O2");
    judge(&roomy, &one);
    let size = std::fs::metadata(s.cache().join(&s.entries()[0]))
        .unwrap()
        .len();
    std::fs::remove_file(s.cache().join(&s.entries()[0])).unwrap();
    let mb = (size * 5 / 2) >> 20;
    assert!(
        mb * (1 << 20) >= 2 * size && mb * (1 << 20) < 3 * size,
        "entry of {size} bytes: no whole-MB bound holds two but not three"
    );
    let bounded = s.config("bounded", mb, "-O2");

    assert!(!judge(&bounded, &one).0);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(!judge(&bounded, &two).0);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(judge(&bounded, &one).0, "one is now the most recently used");
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(!judge(&bounded, &three).0);
    assert_eq!(s.entries().len(), 2, "{:?}", s.entries());
    let total: u64 = s
        .entries()
        .iter()
        .map(|e| std::fs::metadata(s.cache().join(e)).unwrap().len())
        .sum();
    assert!(total <= mb << 20, "{total} bytes over the bound");
    assert!(judge(&bounded, &one).0, "one was used last: kept");
    assert!(judge(&bounded, &three).0, "three was just stored: kept");
    assert!(
        !judge(&bounded, &two).0,
        "two was the least recently used: evicted"
    );
}

#[test]
fn processes_compiling_the_same_source_at_once_all_get_a_correct_program() {
    let s = Setup::new();
    let config = s.config("c", 512, "-O2");
    let ac = s.source("ac.c", &fixture(PROBLEM, "ac.c"));
    for round in 0..2 {
        let children: Vec<_> = (0..3)
            .map(|_| {
                judge_command(&config, &ac)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let v = report(child.wait_with_output().unwrap());
            assert_eq!(v["verdict"], "AC", "round {round}: {v:#}");
            assert_eq!(v["score"], 100, "round {round}: {v:#}");
        }
        // One whole entry, no temporary file left.
        assert_eq!(s.entries().len(), 1, "round {round}: {:?}", s.entries());
    }
    assert!(judge(&config, &ac).0);
}

#[test]
fn an_unsafe_or_disabled_cache_is_not_used() {
    let s = Setup::new();
    let ac = s.source("ac.c", &fixture(PROBLEM, "ac.c"));
    // Off: nothing is made, every judging compiles.
    let off = s.config("off", 0, "-O2");
    let (cached, first) = judge(&off, &ac);
    let (again, second) = judge(&off, &ac);
    assert!(!cached && !again);
    assert_ne!(first, second);
    assert!(!s.cache().exists());

    // A folder others may read: refused, every judging compiles, nothing is stored in it.
    std::fs::create_dir(s.cache()).unwrap();
    std::fs::set_permissions(
        s.cache(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let on = s.config("on", 512, "-O2");
    let out = judge_command(&on, &ac).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("refused") && stderr.contains("mode 755"),
        "{stderr}"
    );
    let (cached, first) = judge(&on, &ac);
    let (again, second) = judge(&on, &ac);
    assert!(!cached && !again);
    assert_ne!(first, second);
    assert!(s.entries().is_empty(), "{:?}", s.entries());
}

#[test]
fn grade_and_judge_share_the_cache() {
    let s = Setup::new();
    let config = s.config("c", 512, "-O2");
    let class = s.dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    for student in ["ann", "bob"] {
        std::fs::write(
            class.join(format!("{student}.stc")),
            fixture(PROBLEM, "ac.c"),
        )
        .unwrap();
    }
    let grade = |force: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sudojudge"));
        c.current_dir(root())
            .arg("--config")
            .arg(&config)
            .args(["grade", PROBLEM])
            .arg(&class)
            .args(["--json", "--jobs", "1"]);
        if force {
            c.arg("--force");
        }
        let v = report(c.output().unwrap());
        let students = v["students"].as_array().unwrap().clone();
        students
            .iter()
            .map(|s| {
                let compile = &s["report"]["compile"];
                assert_eq!(s["report"]["verdict"], "AC", "{s:#}");
                (
                    compile["cached"] == true,
                    compile["log"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    // The two students' files are the same bytes: one compile, then a hit.
    let first = grade(false);
    assert_eq!(
        first.iter().filter(|(cached, _)| *cached).count(),
        1,
        "{first:?}"
    );
    assert_eq!(first[0].1, first[1].1, "one compiler run for both");
    // A forced re-grade compiles nothing; a judge of the same source neither.
    let again = grade(true);
    assert!(
        again
            .iter()
            .all(|(cached, log)| *cached && *log == first[0].1),
        "{again:?}"
    );
    let source = class.join("ann.stc");
    let (cached, stamp) = judge(&config, &source);
    assert!(cached);
    assert!(first[0].1.contains(&stamp));
}

#[test]
fn doctor_shows_the_cache_its_use_and_a_refusal() {
    let s = Setup::new();
    let config = s.config("c", 512, "-O2");
    let doctor = |config: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
            .current_dir(root())
            .arg("--config")
            .arg(config)
            .arg("doctor")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let ac = s.source("ac.c", &fixture(PROBLEM, "ac.c"));
    judge(&config, &ac);
    let text = doctor(&config);
    let line = format!("compile cache: {}, 1 entries, ", s.cache().display());
    assert!(
        text.contains(&line) && text.contains(" of 512 MiB"),
        "{text}"
    );
    assert!(doctor(&s.config("off", 0, "-O2")).contains("compile cache: off"));
    std::fs::set_permissions(
        s.cache(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let text = doctor(&config);
    assert!(
        text.contains("compile cache: REFUSED:") && text.contains("mode 777"),
        "{text}"
    );
}
