//! `sudojudge grade` over a class folder a hostile student prepared (issue 22, findings
//! 8-10), on the built binary with the real sandbox (run as root): links are never
//! followed, special and kernel files never read, and names never reach the teacher's
//! terminal or spreadsheet as commands.

use crate::fixtures::{config, package};

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The tests of this file share the grade's sandbox slots: one at a time.
static SLOTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The sandbox uids of these tests start here, apart from every other process's: the block
/// after `grade_cli`'s (the default `uid_base`, 1879048192, then the 64 blocks of named
/// nodes, then `grade_cli`'s), so a process left under them is this file's grade's.
const UID_BASE: u32 = 1_879_048_192 + 66 * 1000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The small binary-sudoku package (3 tests) in `dir/problems`; returns the config.
fn package(dir: &Path) -> PathBuf {
    package::small_binary_sudoku(dir);
    let extra = format!("[sandbox]\nuid_base = {UID_BASE}\n");
    config::write_config(dir, &dir.join("problems"), &extra)
}

/// An accepted C solution, and Python copies of one solution (the second disguised).
fn accepted_c() -> PathBuf {
    root().join("tests/fixtures/binary-sudoku/ac.c")
}

fn grade(config: &Path, args: &[&OsStr]) -> Output {
    grade_within(
        config,
        args,
        300,
        Command::new(env!("CARGO_BIN_EXE_sudojudge")),
    )
}

/// Runs `grade` with a deadline: a run that hangs is killed and the test fails.
fn grade_within(config: &Path, args: &[&OsStr], secs: u64, mut command: Command) -> Output {
    command
        .arg("grade")
        .args(args)
        .arg("--config")
        .arg(config)
        .env_remove("SUDOJUDGE_CONFIG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().expect("the binary runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "grade still running after {secs} s: stderr {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn json_of(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn rows_by_student(json: &serde_json::Value) -> BTreeMap<String, serde_json::Value> {
    json["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["student"].as_str().unwrap().to_string(), s.clone()))
        .collect()
}

/// The CSV parsed back: student -> record.
fn read_csv(path: &Path) -> BTreeMap<String, csv::StringRecord> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r)
        })
        .collect()
}

/// Processes running as this file's sandbox uids.
fn slot_processes() -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let uid = status
            .lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|u| u.parse::<u32>().ok());
        if uid.is_some_and(|u| (UID_BASE..UID_BASE + 1000).contains(&u)) {
            found.push(status.lines().next().unwrap_or("").to_string());
        }
    }
    found
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const LINK: &str = "a symbolic link, not followed (hand in the file itself)";
/// Finding 8 of issue 22: a student's links are never followed. A link to another student's
/// file, to a root-only file outside the class, a folder that is a link, and a link in a
/// student's folder each get a `-` row saying so; nothing of what they point to (content,
/// file names) reaches the JSON, the table or the CSVs, and no pair is reported for them.
#[test]
fn a_students_symbolic_links_are_never_followed() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let _slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let config = package(dir.path());
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(accepted_c(), class.join("alice.c")).unwrap();
    // Another student's file, under a name of one's own.
    symlink(class.join("alice.c"), class.join("mallory.c")).unwrap();
    // A root-only file outside the class: its first line would come back in a compile log.
    let secret = dir.path().join("secret.c");
    std::fs::write(&secret, "SECRET_FIRST_LINE_8f3a;\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    symlink(&secret, class.join("ivan.c")).unwrap();
    std::fs::create_dir(class.join("frank")).unwrap();
    symlink(&secret, class.join("frank/main.c")).unwrap();
    // A folder that is a link to the teacher's private folder: its names must not show.
    let private = dir.path().join("private");
    std::fs::create_dir(&private).unwrap();
    std::fs::write(private.join("exam-answers-2026.txt"), "42").unwrap();
    std::fs::write(private.join("grading-key.c"), "int main(){}").unwrap();
    symlink(&private, class.join("eve")).unwrap();
    symlink(&private, class.join("Zoe Q_9_assignsubmission_file_")).unwrap();
    // A link to a folder inside a student's own folder: listed by its own name only.
    std::fs::create_dir(class.join("gus")).unwrap();
    symlink(&private, class.join("gus/stuff")).unwrap();
    std::fs::write(class.join("gus/notes.txt"), "notes").unwrap();

    let csv_path = dir.path().join("out/grades.csv");
    std::fs::create_dir_all(csv_path.parent().unwrap()).unwrap();
    let args = ["binary-sudoku", "--json", "--similarity", "--csv"].map(OsStr::new);
    let out = grade(
        &config,
        &[&args[..], &[csv_path.as_os_str(), class.as_os_str()]].concat(),
    );
    ok(&out);
    let json = json_of(&out);
    let rows = rows_by_student(&json);
    assert_eq!(
        rows.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Zoe Q", "alice", "eve", "frank", "gus", "ivan", "mallory"]
    );
    assert_eq!(rows["alice"]["verdict"], "AC");
    assert_eq!(rows["alice"]["passed"], 3);
    for student in ["Zoe Q", "eve", "frank", "ivan", "mallory"] {
        let row = &rows[student];
        assert!(row["verdict"].is_null(), "{student}: {row}");
        assert!(row["report"].is_null(), "{student}: {row}");
        assert_eq!(row["message"], LINK, "{student}: {row}");
    }
    assert_eq!(json["judged"], 1, "only alice is judged");
    assert!(
        rows["gus"]["message"]
            .as_str()
            .unwrap()
            .contains("found notes.txt, stuff"),
        "{}",
        rows["gus"]
    );
    assert_eq!(
        json["similarity"],
        serde_json::json!([]),
        "mallory is not alice's copy"
    );

    let args = [
        OsStr::new("binary-sudoku"),
        OsStr::new("--similarity"),
        class.as_os_str(),
    ];
    let table = grade(&config, &args);
    ok(&table);
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let mallory = table.lines().find(|l| l.starts_with("mallory")).unwrap();
    assert!(mallory.contains("symbolic link, not followed"), "{table}");
    let csv_rows = read_csv(&csv_path);
    assert!(
        csv_rows["ivan"][9].contains("symbolic link"),
        "{:?}",
        csv_rows["ivan"]
    );
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let similarity = std::fs::read_to_string(dir.path().join("out/grades.similarity.csv")).unwrap();
    for (what, text) in [
        ("JSON", String::from_utf8_lossy(&out.stdout).into_owned()),
        ("table", table),
        ("grades.csv", csv),
        ("grades.similarity.csv", similarity),
        ("stderr", String::from_utf8_lossy(&out.stderr).into_owned()),
    ] {
        for leak in ["SECRET_FIRST_LINE", "exam-answers", "grading-key"] {
            assert!(!text.contains(leak), "{leak} in the {what}: {text}");
        }
    }
    let leftovers = slot_processes();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}

/// A FIFO, a character device (1:3, as `/dev/null`), a socket and a FIFO in a student's
/// folder, made here in the temporary folder.
fn special_files(class: &Path) {
    let c = |p: PathBuf| std::ffi::CString::new(p.into_os_string().into_vec()).unwrap();
    let fifo = c(class.join("pipe.c"));
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o666) }, 0);
    let null = c(class.join("null.c"));
    let dev = libc::makedev(1, 3);
    assert_eq!(
        unsafe { libc::mknod(null.as_ptr(), libc::S_IFCHR | 0o666, dev) },
        0,
        "mknod: {}",
        std::io::Error::last_os_error()
    );
    drop(std::os::unix::net::UnixListener::bind(class.join("sock.c")).unwrap());
    std::fs::create_dir(class.join("pat")).unwrap();
    let inner = c(class.join("pat/main.py"));
    assert_eq!(unsafe { libc::mkfifo(inner.as_ptr(), 0o666) }, 0);
    std::os::unix::fs::symlink(class.join("pipe.c"), class.join("piped.c")).unwrap();
}

/// The processes that hold `path` open.
fn holders(path: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for proc in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(fds) = std::fs::read_dir(proc.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if std::fs::read_link(fd.path()).is_ok_and(|t| t == path) {
                found.push(proc.file_name().to_string_lossy().into_owned());
            }
        }
    }
    found
}

/// Finding 9 of issue 22: special files never hang the run. A FIFO, a device node and a
/// socket the test makes (never the host's kernel log), and a regular file of procfs (a
/// bind mount of `/proc/version` over a student's file, in a mount namespace of the grade's
/// own, which `stat` calls a regular file of length 0 as it does `/proc/kmsg`): each gets a
/// `-` row saying why, the run ends promptly, and nothing holds the FIFO afterwards.
#[test]
fn special_files_and_kernel_files_are_refused_promptly() {
    use std::os::unix::process::CommandExt;
    let _slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let config = package(dir.path());
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    special_files(&class);
    std::fs::write(class.join("version.c"), "").unwrap();
    let target =
        std::ffi::CString::new(class.join("version.c").into_os_string().into_vec()).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudojudge"));
    // SAFETY: only system calls between fork and exec, on strings made before the fork.
    unsafe {
        command.pre_exec(move || {
            let fail = || Err(std::io::Error::last_os_error());
            if libc::unshare(libc::CLONE_NEWNS) != 0 {
                return fail();
            }
            let root = c"/".as_ptr();
            let none = std::ptr::null();
            if libc::mount(
                none,
                root,
                none,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return fail();
            }
            let proc_file = c"/proc/version".as_ptr();
            if libc::mount(
                proc_file,
                target.as_ptr(),
                none,
                libc::MS_BIND,
                std::ptr::null(),
            ) != 0
            {
                return fail();
            }
            Ok(())
        });
    }
    let started = std::time::Instant::now();
    let args = [
        OsStr::new("binary-sudoku"),
        OsStr::new("--json"),
        class.as_os_str(),
    ];
    let out = grade_within(&config, &args, 20, command);
    assert!(
        started.elapsed().as_secs() < 10,
        "took {:?}",
        started.elapsed()
    );
    ok(&out);
    let rows = rows_by_student(&json_of(&out));
    let expected = [
        (
            "null",
            "not a regular file (a character device): not opened",
        ),
        ("pat", "not a regular file (a FIFO): not opened"),
        ("pipe", "not a regular file (a FIFO): not opened"),
        ("piped", LINK),
        ("sock", "not a regular file (a socket): not opened"),
        (
            "version",
            "a file of the kernel's proc file system, not read",
        ),
    ];
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for (student, message) in expected {
        let row = &rows[student];
        assert!(row["verdict"].is_null(), "{student}: {row}");
        assert_eq!(row["message"], message, "{student}: {row}");
    }
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Linux version"));
    assert_eq!(holders(&class.join("pipe.c")), Vec::<String>::new());
    assert_eq!(holders(&class.join("pat/main.py")), Vec::<String>::new());
    // The mount was the grade's own: here the file is still the empty one written above.
    assert_eq!(
        std::fs::read_to_string(class.join("version.c")).unwrap(),
        ""
    );
    let leftovers = slot_processes();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}

/// Finding 10 of issue 22: names a student chose never act on the teacher's terminal or
/// spreadsheet. Files named as formulas (`=HYPERLINK(...)`, `+`, `-`, `@`, a leading tab)
/// and names with escape sequences, a bell, carriage returns and newlines (one clears the
/// screen and prints a fake "ALL STUDENTS AC 100" line): the table and the progress lines
/// show them escaped, each row on its line; the CSV cells are escaped and formula cells
/// start with `'`; the JSON keeps the real names (JSON-escaped).
#[test]
fn hostile_names_are_escaped_on_the_terminal_and_neutralised_in_the_csv() {
    let _slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let config = package(dir.path());
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    let copies = root().join("tests/fixtures/grade/copies");
    let hyperlink = "=HYPERLINK(\"https:evil.example\",\"click\")";
    let fake = "\x1b[2J\x1b[H\nALL STUDENTS AC 100\r\x07";
    std::fs::copy(
        copies.join("original.py"),
        class.join(format!("{hyperlink}.py")),
    )
    .unwrap();
    std::fs::copy(
        copies.join("disguised.py"),
        class.join(format!("{fake}.py")),
    )
    .unwrap();
    for name in ["+1+1.c", "-2+3.c", "@SUM(A1).c", "\t+TAB.c"] {
        std::fs::write(class.join(name), "").unwrap();
    }
    let folder = class.join("q\x1b[31mred");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a\x1b[5m.c"), "").unwrap();
    std::fs::write(folder.join("b\n.py"), "").unwrap();

    let csv_path = dir.path().join("out/grades.csv");
    std::fs::create_dir_all(csv_path.parent().unwrap()).unwrap();
    let args = ["binary-sudoku", "--similarity", "--csv"].map(OsStr::new);
    let out = grade(
        &config,
        &[&args[..], &[csv_path.as_os_str(), class.as_os_str()]].concat(),
    );
    ok(&out);
    let escaped_fake = "\\x1b[2J\\x1b[H\\nALL STUDENTS AC 100\\r\\x07";
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    for (what, text) in [("table", &stdout), ("progress", &stderr)] {
        for c in ['\x1b', '\x07', '\r'] {
            assert!(!text.contains(c), "{c:?} in the {what}: {text:?}");
        }
        assert!(
            !text.lines().any(|l| l.starts_with("ALL STUDENTS")),
            "{what}: {text}"
        );
        assert!(text.contains(escaped_fake), "{what}: {text}");
    }
    // One line per student: the header, 7 rows, then the blank line before the summary.
    let table: Vec<&str> = stdout.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(table.len(), 8, "{stdout}");
    assert!(
        // (A row's message is one line: the newline is a space there.)
        stdout.contains("2 sources (a\\x1b[5m.c, b .py): hand in one"),
        "{stdout}"
    );
    let pair = stdout.lines().find(|l| l.contains('~')).unwrap();
    assert!(
        pair.contains(hyperlink) && pair.contains(escaped_fake),
        "{stdout}"
    );

    let bytes = std::fs::read(&csv_path).unwrap();
    assert!(
        !bytes.contains(&0x1b) && !bytes.contains(&b'\r'),
        "{bytes:?}"
    );
    let rows = read_csv(&csv_path);
    let students: Vec<&str> = rows.keys().map(String::as_str).collect();
    let quoted = format!("'{hyperlink}");
    assert_eq!(
        students,
        [
            "'+1+1",
            "'+TAB",
            "'-2+3",
            quoted.as_str(),
            "'@SUM(A1)",
            escaped_fake,
            "q\\x1b[31mred"
        ]
    );
    assert_eq!(&rows["'+1+1"][9], "empty file");
    assert!(
        rows["q\\x1b[31mred"][1].ends_with("/class/q\\x1b[31mred"),
        "{:?}",
        rows["q\\x1b[31mred"]
    );
    let mut similarity =
        csv::Reader::from_path(dir.path().join("out/grades.similarity.csv")).unwrap();
    let pairs: Vec<csv::StringRecord> = similarity.records().map(Result::unwrap).collect();
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    let mut names = [pairs[0][0].to_string(), pairs[0][1].to_string()];
    names.sort();
    assert_eq!(names, [quoted.as_str(), escaped_fake]);

    // The JSON keeps the real names, JSON-escaped.
    let args = [
        OsStr::new("binary-sudoku"),
        OsStr::new("--json"),
        class.as_os_str(),
    ];
    let out = grade(&config, &args);
    ok(&out);
    assert!(!out.stdout.contains(&0x1b));
    let rows = rows_by_student(&json_of(&out));
    assert!(
        rows.contains_key(fake) && rows.contains_key(hyperlink),
        "{rows:?}"
    );
    let leftovers = slot_processes();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}
