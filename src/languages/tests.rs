//! The language table read from the embedded config: ids, aliases, guesses by extension.

use super::*;

fn table() -> LanguageTable {
    LanguageTable::from_config(&Config::embedded().unwrap())
}

#[test]
fn guess_by_extension() {
    let t = table();
    assert_eq!(
        t.guess(Path::new("a/b.c")).map(|l| l.id.as_str()),
        Some("c17")
    );
    assert_eq!(
        t.guess(Path::new("x.CC")).map(|l| l.id.as_str()),
        Some("cpp17")
    );
    // gcc's rule: `.C` is C++, `.c` is C.
    assert_eq!(
        t.guess(Path::new("Main.C")).map(|l| l.id.as_str()),
        Some("cpp17")
    );
    assert_eq!(
        t.guess(Path::new("x.rs")).map(|l| l.id.as_str()),
        Some("rust")
    );
    assert_eq!(
        t.guess(Path::new("x.py")).map(|l| l.id.as_str()),
        Some("python")
    );
    assert_eq!(
        t.guess(Path::new("Main.java")).map(|l| l.id.as_str()),
        Some("java")
    );
    assert!(t.guess(Path::new("x.kt")).is_none());
    assert!(t.guess(Path::new("Makefile")).is_none());
    assert!(t.get("cpp").is_some() && t.get("cobol").is_none());
}

#[test]
fn aliases_name_the_default_standards_and_every_standard_defines_online_judge() {
    let t = table();
    assert_eq!(t.get("cpp").map(|l| l.id.as_str()), Some("cpp17"));
    assert_eq!(t.get("c").map(|l| l.id.as_str()), Some("c17"));
    for (id, std) in [
        ("cpp98", "-std=gnu++98"),
        ("cpp11", "-std=gnu++11"),
        ("cpp14", "-std=gnu++14"),
        ("cpp17", "-std=gnu++17"),
        ("cpp20", "-std=gnu++20"),
        ("c99", "-std=gnu99"),
        ("c11", "-std=gnu11"),
        ("c17", "-std=gnu17"),
    ] {
        let compile = t
            .get(id)
            .and_then(|l| l.compile.clone())
            .unwrap_or_default();
        for flag in [std, "-O2", "-static", "-DONLINE_JUDGE"] {
            assert!(
                compile.iter().any(|a| a == flag),
                "{id}: {flag} in {compile:?}"
            );
        }
    }
    for id in ["python", "rust"] {
        let compile = t
            .get(id)
            .and_then(|l| l.compile.clone())
            .unwrap_or_default();
        assert!(!compile.iter().any(|a| a.contains("ONLINE_JUDGE")), "{id}");
    }
    assert!(t.known_ids().iter().any(|i| i == "cpp"));
}

#[test]
fn log_is_truncated_on_a_char_boundary() {
    let log = make_log("é".repeat(100).as_bytes(), b"", 51);
    assert!(log.starts_with(&"é".repeat(25)));
    assert!(log.ends_with("[... truncated]\n"));
}

#[test]
fn run_request_adds_the_language_memory() {
    let t = table();
    let py = t.get("python").unwrap().clone();
    let dir = tempfile::tempdir().unwrap();
    let p = Program {
        files: vec![("main.py".into(), dir.path().join("main.py"))],
        entry: Box::new(py.entry(b"print(1)").unwrap()),
        language: py,
        dir,
        log: String::new(),
        cache: CacheUse::Off,
    };
    let limits = Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_bytes: 64 << 20,
        output_bytes: 1 << 20,
        max_processes: 16,
    };
    let r = p.run_request(None, limits);
    assert_eq!(r.limits.memory_bytes, (64 + 32) << 20);
    assert_eq!(r.argv, vec!["/usr/bin/python3", "-S", "main.py"]);
    assert_eq!(r.files.len(), 1);
}

#[test]
fn java_runs_its_main_class_with_the_problems_limit_as_heap_and_room_for_threads() {
    let t = table();
    let java = t.get("java").unwrap().clone();
    let source = b"class Helper {}\npublic class Sum { public static void main(String[] a) {} }\n";
    let entry = java.entry(source).unwrap();
    assert_eq!(entry.source, "Sum.java");
    assert_eq!(entry.main_class, "Sum");
    let dir = tempfile::tempdir().unwrap();
    let p = Program {
        files: vec![("main.jar".into(), dir.path().join("main.jar"))],
        entry: Box::new(entry),
        language: java.clone(),
        dir,
        log: String::new(),
        cache: CacheUse::Off,
    };
    let limits = Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_bytes: 64 << 20,
        output_bytes: 1 << 20,
        max_processes: 16,
    };
    let r = p.run_request(None, limits);
    assert!(r.argv.iter().any(|a| a == "-Xmx64m"), "{:?}", r.argv);
    assert_eq!(
        r.limits.memory_bytes,
        (64 + java.extra_memory_mb) << 20,
        "the JVM's own memory on top of the heap"
    );
    assert_eq!(r.limits.max_processes, 16 + java.extra_processes);
    assert!(java.extra_processes > 0);
    // A heap blown past -Xmx is a memory limit; another failure stays a run-time error.
    let mut report = RunReport {
        status: RunStatus::RuntimeError,
        exit_code: Some(1),
        signal: None,
        time_ms: 1,
        wall_ms: 1,
        memory_kib: 1,
        stdout: Vec::new(),
        stderr: b"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n"
            .to_vec(),
        degraded: false,
    };
    p.classify(&mut report);
    assert_eq!(report.status, RunStatus::MemoryLimit);
    report.status = RunStatus::RuntimeError;
    report.stderr = b"java.lang.ArrayIndexOutOfBoundsException".to_vec();
    p.classify(&mut report);
    assert_eq!(report.status, RunStatus::RuntimeError);
    // No main method: refused before any compile, with the reason.
    assert!(java
        .entry(b"public class Lib {}")
        .unwrap_err()
        .contains("main"));
}
