//! Hostile programs against the sandbox. Each test asserts the status, that the host is
//! untouched and that nothing is left running (see `sandbox_support::assert_clean`).
//! Needs root and cgroups, like the judge itself. Each test uses its own slot (uid).

use crate::fixtures::sandbox_support;

use std::io::Read;
use std::net::TcpListener;
use std::time::{Duration, Instant};

use sandbox_support::*;
use sudojudge::sandbox::RunStatus;

#[test]
fn hello_world_runs_ok_and_leaves_nothing() {
    let sb = sandbox(101);
    let t = tempfile::tempdir().unwrap();
    let p = build(&sb, "touch_mem.c");
    let r = run(&sb, &p, Some(stdin_file(t.path(), "1")), limits());
    expect_status(&r, RunStatus::Ok);
    assert_eq!(String::from_utf8_lossy(&r.stdout), "done 1\n");
    assert!(!r.degraded);
}

#[test]
fn busy_loop_is_time_limit_at_the_cpu_limit() {
    let sb = sandbox(102);
    let p = build(&sb, "busy.c");
    let _serial = timing_lock();
    // A generous wall limit: on a loaded machine the CPU limit must still be what ends it.
    let mut l = limits();
    l.wall_time_ms = 10_000;
    let r = run(&sb, &p, None, l);
    expect_status(&r, RunStatus::TimeLimit);
    assert!(r.time_ms >= 1000 && r.time_ms < 1200, "{r:?}");
}

#[test]
fn sleeper_is_time_limit_by_the_wall_clock() {
    let sb = sandbox(103);
    let p = build(&sb, "sleep.c");
    let started = Instant::now();
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::TimeLimit);
    assert!(r.time_ms < 100, "{r:?}");
    assert!(started.elapsed() < Duration::from_millis(4000));
}

#[test]
fn eight_spinning_threads_are_time_limit_promptly() {
    let sb = sandbox(104);
    let p = build(&sb, "threads.c");
    let _serial = timing_lock();
    let mut l = limits();
    l.wall_time_ms = 10_000;
    let r = run(&sb, &p, None, l);
    expect_status(&r, RunStatus::TimeLimit);
    // Ended by the CPU counter summed over threads (not the 10 s wall clock), with little
    // overshoot. (Wall time depends on the machine's load: it is shared.)
    assert!(r.time_ms >= 1000 && r.time_ms < 1500, "{r:?}");
    assert!(r.wall_ms < 5000, "{r:?}");
}

#[test]
fn memory_bomb_is_memory_limit() {
    let sb = sandbox(105);
    let p = build(&sb, "membomb.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::MemoryLimit);
    assert!(r.memory_kib >= 60 << 10, "{r:?}");
}

#[test]
fn output_flood_is_output_limit_without_filling_the_disk() {
    let sb = sandbox(106);
    let p = build(&sb, "flood.c");
    let started = Instant::now();
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::OutputLimit);
    assert_eq!(r.stdout.len() as u64, limits().output_bytes);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn pids_limit_holds_then_fork_bomb_is_contained() {
    let sb = sandbox(107);
    // First prove the limit with a bounded number of forks.
    let p = build(&sb, "fork_bounded.c");
    let mut l = limits();
    l.max_processes = 8;
    let r = run(&sb, &p, None, l);
    expect_status(&r, RunStatus::Ok);
    let forked: u32 = String::from_utf8_lossy(&r.stdout).trim().parse().unwrap();
    assert!(
        forked < 8,
        "{forked} children alive at once with a limit of 8"
    );
    // Only then the real bomb. Every failed fork allocates a task and a kernel stack that the
    // kernel frees only after an RCU grace period, and cgroups charge that kernel memory to the
    // box: the bomb ends on the CPU limit, or sooner on the memory limit when the churn outruns
    // the frees (about one run in five here). Both are the bomb contained; `run` has already
    // checked that nothing of the slot is left.
    let p = build(&sb, "forkbomb.c");
    let started = Instant::now();
    let r = run(&sb, &p, None, l);
    assert!(
        matches!(r.status, RunStatus::TimeLimit | RunStatus::MemoryLimit),
        "fork bomb not ended by a limit: {r:?}"
    );
    // Ended by a limit, promptly: on a loaded machine the bomb gets less CPU than wall time
    // and the wall-clock watchdog (3 s) ends it, so the wall figure may reach the wall limit
    // (plus the watchdog's own teardown), never more.
    assert!(
        r.time_ms <= 1500 && r.wall_ms <= l.wall_time_ms + 250,
        "{r:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn kill_minus_one_reaches_only_the_box() {
    let sb = sandbox(108);
    let mut sentinel = std::process::Command::new("/bin/sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let p = build(&sb, "killall.c");
    let r = run(&sb, &p, None, limits());
    let alive = sentinel.try_wait().unwrap().is_none();
    let _ = sentinel.kill();
    let _ = sentinel.wait();
    expect_status(&r, RunStatus::Ok);
    assert!(alive, "the sentinel outside the box was killed");
}

#[test]
fn detached_grandchild_is_gone_after_the_run() {
    let sb = sandbox(109);
    let p = build(&sb, "detach.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    assert_eq!(String::from_utf8_lossy(&r.stdout), "parent done\n");
}

#[test]
fn no_connection_reaches_a_host_loopback_listener() {
    let sb = sandbox(110);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let t = tempfile::tempdir().unwrap();
    let p = build(&sb, "connect.c");
    let r = run(
        &sb,
        &p,
        Some(stdin_file(t.path(), &port.to_string())),
        limits(),
    );
    expect_status(&r, RunStatus::Ok);
    assert_eq!(String::from_utf8_lossy(&r.stdout), "failed\n");
    assert!(
        listener.accept().is_err(),
        "a connection arrived from the box"
    );
}

#[test]
fn host_secrets_are_not_readable() {
    let sb = sandbox(111);
    let t = tempfile::tempdir().unwrap();
    let host_tmp = tempfile::Builder::new()
        .prefix("sj-secret-")
        .tempfile_in("/tmp")
        .unwrap();
    std::fs::write(host_tmp.path(), "TMP-SECRET").unwrap();
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let project_secret = tempfile::Builder::new()
        .prefix("sj-secret-")
        .tempfile_in(project.join("target"))
        .unwrap();
    std::fs::write(project_secret.path(), "PROJECT-SECRET").unwrap();
    let mut paths = vec![
        "/etc/shadow".to_string(),
        "/etc/passwd".to_string(),
        host_tmp.path().display().to_string(),
        project_secret.path().display().to_string(),
        project.join("Cargo.toml").display().to_string(),
        "/root/.bash_history".to_string(),
    ];
    for dir in [
        "problems/sudoku/data/sample",
        "problems/binary-sudoku/data/sample",
    ] {
        if let Ok(entries) = std::fs::read_dir(project.join(dir)) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "ans") {
                    paths.push(e.path().display().to_string());
                }
            }
        }
    }
    let p = build(&sb, "read_files.c");
    let r = run(
        &sb,
        &p,
        Some(stdin_file(t.path(), &paths.join("\n"))),
        limits(),
    );
    expect_status(&r, RunStatus::Ok);
    let out = String::from_utf8_lossy(&r.stdout);
    for path in &paths {
        assert!(
            out.contains(&format!("DENIED {path}\n")),
            "{path} readable:\n{out}"
        );
    }
    assert!(!out.contains("SECRET"));
}

#[test]
fn writes_outside_the_box_never_reach_the_host() {
    let sb = sandbox(112);
    let t = tempfile::tempdir().unwrap();
    let nonce = format!("sj-escape-{}", std::process::id());
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let targets = [
        format!("/tmp/{nonce}"),
        format!("/root/{nonce}"),
        project.join(&nonce).display().to_string(),
        format!("/etc/{nonce}"),
    ];
    let p = build(&sb, "write_files.c");
    let r = run(
        &sb,
        &p,
        Some(stdin_file(t.path(), &targets.join("\n"))),
        limits(),
    );
    expect_status(&r, RunStatus::Ok);
    for target in &targets {
        assert!(
            !std::path::Path::new(target).exists(),
            "{target} appeared on the host"
        );
    }
    // /tmp of the box is its own tmpfs: writing there works but stays in the box.
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.contains(&format!("WROTE /tmp/{nonce}")), "{out}");
    assert!(out.contains(&format!("DENIED /root/{nonce}")), "{out}");
}

#[test]
fn symlinks_planted_in_the_box_are_not_followed() {
    let sb = sandbox(113);
    let t = tempfile::tempdir().unwrap();
    let p = build(&sb, "symlinks.c");
    let mut req = p.run_request(None, limits());
    let leak = t.path().join("leak");
    let main = t.path().join("main");
    let hard = t.path().join("hard");
    req.collect = vec![
        ("leak".into(), leak.clone()),
        ("main".into(), main.clone()),
        ("hard".into(), hard.clone()),
    ];
    let r = sb.run(&req).unwrap();
    assert_clean(&sb);
    expect_status(&r, RunStatus::Ok);
    // symlink ok, symlink ok, hard link refused, rename of /box refused, symlink ok.
    assert_eq!(String::from_utf8_lossy(&r.stdout), "0 0 -1 -1 0\n");
    assert!(!leak.exists() && !main.exists() && !hard.exists());
    assert!(std::path::Path::new("/etc/shadow").exists());
    assert!(std::path::Path::new("/etc/passwd").exists());
}

#[test]
fn privileged_calls_are_refused() {
    let sb = sandbox(114);
    let p = build(&sb, "syscalls.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    let out = String::from_utf8_lossy(&r.stdout);
    for call in [
        "ptrace",
        "mount",
        "unshare",
        "unshare_net",
        "clone_newuser",
        "setuid0",
        "chroot",
    ] {
        assert!(out.contains(&format!("{call} refused\n")), "{call}:\n{out}");
    }
}

#[test]
fn compiler_bombs_are_compile_errors() {
    let sb = sandbox(115);
    let cfg = config();
    let table = sudojudge::languages::LanguageTable::from_config(&cfg);
    let mut compile_cfg = cfg.compile.clone();
    compile_cfg.time_limit_ms = 5000;
    compile_cfg.wall_limit_ms = 10000;
    compile_cfg.memory_limit_mb = 256;
    // The memory limit first (a preprocessor expansion of 2^30 tokens), then the bombs.
    let source = std::fs::read(hostile("macro_bomb.c")).unwrap();
    let out =
        sudojudge::languages::compile(&sb, table.get("c").unwrap(), &source, &compile_cfg).unwrap();
    assert_clean(&sb);
    let sudojudge::languages::Compiled::Failed(f) = out else {
        panic!("macro_bomb.c compiled")
    };
    assert!(
        f.log
            .contains("compilation stopped: memory limit (256 MiB)"),
        "{}",
        f.log
    );
    for (name, lang) in [("urandom_include.c", "c"), ("templates.cpp", "cpp")] {
        let source = std::fs::read(hostile(name)).unwrap();
        let started = Instant::now();
        let out =
            sudojudge::languages::compile(&sb, table.get(lang).unwrap(), &source, &compile_cfg)
                .unwrap();
        assert_clean(&sb);
        match out {
            sudojudge::languages::Compiled::Failed(f) => {
                assert!(!f.log.is_empty());
                assert!(
                    f.log.len() <= (64 << 10) + 200,
                    "log of {} bytes",
                    f.log.len()
                );
            }
            sudojudge::languages::Compiled::Program(_) => panic!("{name} compiled"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(11),
            "{name} too slow"
        );
    }
    // With the default limits (1 GiB), endless devices are simply not there for a compiler.
    for device in ["/dev/urandom", "/dev/zero"] {
        let source = format!("#include \"{device}\"\nint main(void) {{ return 0; }}\n");
        let out = sudojudge::languages::compile(
            &sb,
            table.get("c").unwrap(),
            source.as_bytes(),
            &cfg.compile,
        )
        .unwrap();
        assert_clean(&sb);
        let sudojudge::languages::Compiled::Failed(f) = out else {
            panic!("including {device} compiled")
        };
        assert!(
            f.log
                .contains(&format!("{device}: No such file or directory")),
            "{}",
            f.log
        );
    }
}

#[test]
fn including_etc_shadow_shows_nothing_of_it() {
    let sb = sandbox(116);
    let cfg = config();
    let table = sudojudge::languages::LanguageTable::from_config(&cfg);
    let source = std::fs::read(hostile("shadow_include.c")).unwrap();
    let out =
        sudojudge::languages::compile(&sb, table.get("c").unwrap(), &source, &cfg.compile).unwrap();
    assert_clean(&sb);
    let sudojudge::languages::Compiled::Failed(f) = out else {
        panic!("compiled")
    };
    let mut shadow = String::new();
    std::fs::File::open("/etc/shadow")
        .unwrap()
        .read_to_string(&mut shadow)
        .unwrap();
    for line in shadow.lines().filter(|l| l.len() > 6) {
        assert!(!f.log.contains(line), "shadow line in log: {}", f.log);
    }
    assert!(f.log.contains("No such file"), "{}", f.log);
}

#[test]
fn python_hostiles() {
    let sb = sandbox(117);
    let p = build(&sb, "busy.py");
    expect_status(&run(&sb, &p, None, limits()), RunStatus::TimeLimit);
    let p = build(&sb, "membomb.py");
    expect_status(&run(&sb, &p, None, limits()), RunStatus::MemoryLimit);
    let p = build(&sb, "read_shadow.py");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("DENIED"));
}

#[test]
fn rust_hostiles() {
    let sb = sandbox(118);
    let p = build(&sb, "threads.rs");
    let r = {
        let _serial = timing_lock();
        let mut l = limits();
        l.wall_time_ms = 10_000;
        run(&sb, &p, None, l)
    };
    expect_status(&r, RunStatus::TimeLimit);
    assert!(r.time_ms >= 1000 && r.time_ms < 1500, "{r:?}");
    let p = build(&sb, "membomb.rs");
    expect_status(&run(&sb, &p, None, limits()), RunStatus::MemoryLimit);
}

#[test]
fn concurrent_boxes_do_not_see_or_signal_each_other() {
    let a = sandbox(119);
    let b = sandbox(120);
    let sleeper = build(&a, "cpu_400ms.c");
    let hunter = build(&b, "see_others.c");
    std::thread::scope(|s| {
        let ja = s.spawn(|| run(&a, &sleeper, None, limits()));
        std::thread::sleep(Duration::from_millis(100));
        let jb = s.spawn(|| run(&b, &hunter, None, limits()));
        let ra = ja.join().unwrap();
        let rb = jb.join().unwrap();
        expect_status(&ra, RunStatus::Ok);
        expect_status(&rb, RunStatus::Ok);
        let out = String::from_utf8_lossy(&rb.stdout);
        // It sees its init and itself, and can signal only its init (which ignores it).
        assert!(out.starts_with("pids=2 self=2\n"), "{out}");
        assert!(out.contains("signalable=0"), "{out}");
    });
}

#[test]
fn dropping_the_sandbox_stops_its_helper_and_removes_its_cgroup() {
    let sb = sandbox(121);
    let p = build(&sb, "touch_mem.c");
    let t = tempfile::tempdir().unwrap();
    expect_status(
        &run(&sb, &p, Some(stdin_file(t.path(), "1")), limits()),
        RunStatus::Ok,
    );
    let folders = slot_folders(121);
    let helpers: Vec<String> = folders
        .iter()
        .filter_map(|f| std::fs::read_to_string(f.join("cgroup.procs")).ok())
        .flat_map(|s| s.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    drop(p);
    drop(sb);
    assert!(slot_folders(121).is_empty(), "{:?}", slot_folders(121));
    for pid in helpers {
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "helper {pid} alive"
        );
    }
}

#[test]
fn filling_tmp_beyond_the_memory_limit_is_memory_limit() {
    let sb = sandbox(122);
    let p = build(&sb, "tmpfs_fill.c");
    let mut l = limits();
    l.memory_bytes = 32 << 20;
    // Files are capped at the output limit (RLIMIT_FSIZE): lift it so memory is the limit.
    l.output_bytes = 128 << 20;
    let r = run(&sb, &p, None, l);
    expect_status(&r, RunStatus::MemoryLimit);
    // The helper survived: the next run works.
    let p = build(&sb, "touch_mem.c");
    let t = tempfile::tempdir().unwrap();
    expect_status(
        &run(&sb, &p, Some(stdin_file(t.path(), "1")), limits()),
        RunStatus::Ok,
    );
}

#[test]
fn the_program_runs_unprivileged_with_a_clean_slate() {
    let sb = sandbox(123);
    let p = build(&sb, "identity.c");
    let r = run(&sb, &p, None, limits());
    expect_status(&r, RunStatus::Ok);
    let out = String::from_utf8_lossy(&r.stdout);
    let id = sb.uid();
    assert!(
        out.contains(&format!("uid={id} gid={id} groups=0\n")),
        "{out}"
    );
    for cap in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
        assert!(
            out.contains(&format!("{cap}:\t0000000000000000\n")),
            "{cap}: {out}"
        );
    }
    assert!(out.contains("NoNewPrivs:\t1\n"), "{out}");
    assert!(out.contains("Seccomp:\t2\n"), "{out}");
    // 0, 1, 2 and the descriptor of the listing itself.
    assert!(out.contains("fds: 0 1 2 3\n"), "{out}");
    let env: Vec<&str> = out.lines().filter(|l| l.starts_with("env ")).collect();
    assert_eq!(
        env,
        [
            "env PATH=/usr/local/bin:/usr/bin:/bin",
            "env HOME=/box",
            "env TMPDIR=/tmp",
            "env LANG=C.UTF-8"
        ],
        "{out}"
    );
    assert!(out.contains("host=sudojudge\n"), "{out}");
    let root = out.lines().find(|l| l.starts_with("root:")).unwrap();
    let mut entries: Vec<&str> = root["root:".len()..].split_whitespace().collect();
    entries.sort();
    assert_eq!(
        entries,
        ["bin", "box", "dev", "etc", "lib", "lib64", "proc", "root", "tmp", "usr"],
        "{out}"
    );
    let dev = out.lines().find(|l| l.starts_with("dev:")).unwrap();
    let mut entries: Vec<&str> = dev["dev:".len()..].split_whitespace().collect();
    entries.sort();
    assert_eq!(
        entries,
        ["fd", "null", "stderr", "stdin", "stdout", "urandom", "zero"],
        "{out}"
    );
}

#[test]
fn a_compile_box_has_no_endless_device() {
    let sb = sandbox(125);
    let cfg = config();
    let mut lister = sudojudge::languages::LanguageTable::from_config(&cfg)
        .get("c")
        .unwrap()
        .clone();
    // A "compiler" that lists /dev and fails, so the listing comes back as the log.
    lister.compile = Some(vec![
        "/bin/sh".into(),
        "-c".into(),
        "ls -A /dev; exit 1".into(),
    ]);
    let out = sudojudge::languages::compile(&sb, &lister, b"", &cfg.compile).unwrap();
    assert_clean(&sb);
    let sudojudge::languages::Compiled::Failed(f) = out else {
        panic!("the lister compiled")
    };
    let mut entries: Vec<&str> = f
        .log
        .lines()
        .take_while(|l| !l.starts_with("the compiler"))
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        ["fd", "null", "stderr", "stdin", "stdout"],
        "{}",
        f.log
    );
}

#[test]
fn filling_the_box_folder_is_memory_limit_not_a_full_disk() {
    let sb = sandbox(124);
    let p = build(&sb, "box_fill.c");
    let mut l = limits();
    l.memory_bytes = 48 << 20;
    let r = run(&sb, &p, None, l);
    expect_status(&r, RunStatus::MemoryLimit);
    assert!(sudojudge::sandbox::boxdir::is_tmpfs(sb.box_root()).unwrap());
}
