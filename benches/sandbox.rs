//! Sandbox overhead: bare fork+exec+wait of `/bin/true` (the baseline) against a full
//! sandboxed run of a trivial static program (namespaces, mounts, cgroup limits and
//! accounting, seccomp, teardown), measured alternately in one run. Prints medians and the
//! ratio, then the sandboxed run back to back (no pause between runs). Needs root:
//! `cargo bench --bench sandbox`; `SANDBOX_BENCH_HELPER=<sudojudge binary>` measures another
//! helper build under the same bench, `SANDBOX_BENCH_AHEAD=0` without the next run's file
//! system made ahead, `SANDBOX_BENCH_PAUSE_US` the pause before each measured run (3000),
//! `SANDBOX_BENCH_ITERATIONS` (200) and `SANDBOX_BENCH_B2B_ITERATIONS` (the same) how many.

use std::time::{Duration, Instant};

use sudojudge::config::Config;
use sudojudge::languages::{compile, Compiled, LanguageTable};
use sudojudge::sandbox::{Limits, RunStatus, Sandbox};

fn bare_true() -> Duration {
    let start = Instant::now();
    let path = c"/bin/true";
    let argv = [path.as_ptr(), std::ptr::null()];
    let envp = [std::ptr::null()];
    // SAFETY: this bench is single-threaded here; the child only execs or _exits.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::execve(path.as_ptr(), argv.as_ptr(), envp.as_ptr());
            libc::_exit(127);
        }
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }
    start.elapsed()
}

/// (p10, median, p90) of a sample.
fn quantiles(v: &mut [Duration]) -> (Duration, Duration, Duration) {
    v.sort();
    (v[v.len() / 10], v[v.len() / 2], v[v.len() * 9 / 10])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let iterations: usize = std::env::var("SANDBOX_BENCH_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let config = Config::embedded().expect("embedded config");
    let mut sandbox = match Sandbox::new(&config.sandbox, 200) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sandbox bench skipped: {e}");
            return;
        }
    };
    // Another helper binary (an older build, say) under the same bench, to compare two.
    match std::env::var_os("SANDBOX_BENCH_HELPER") {
        Some(helper) => sandbox.set_helper(helper),
        None => sandbox.set_helper(env!("CARGO_BIN_EXE_sudojudge")),
    }
    // `SANDBOX_BENCH_AHEAD=0`: every run makes its file system on its path (the judge's
    // side as it was before the box made ahead), to compare with the same bench binary.
    let ahead = std::env::var("SANDBOX_BENCH_AHEAD").map_or(true, |v| v != "0");
    sandbox.set_make_ahead(ahead);
    let table = LanguageTable::from_config(&config);
    let c = table.get("c").expect("c language");
    let program = match compile(&sandbox, c, b"int main(void){return 0;}\n", &config.compile) {
        Ok(Compiled::Program(p)) => p,
        Ok(Compiled::Failed(f)) => panic!("trivial program failed to compile: {}", f.log),
        Err(e) => panic!("compile: {e}"),
    };
    let request = program.run_request(
        None,
        Limits {
            cpu_time_ms: 1000,
            wall_time_ms: 3000,
            memory_bytes: 64 << 20,
            output_bytes: 64 << 10,
            max_processes: 8,
        },
    );
    // Warm-up.
    for _ in 0..5 {
        bare_true();
        let r = sandbox.run(&request).expect("sandboxed run");
        assert_eq!(r.status, RunStatus::Ok);
    }
    // A pause before each measured run, so neither side is measured while the sandbox
    // makes the next box (its helper and its thread work between runs): that work is what
    // the back-to-back figure below includes.
    let pause = Duration::from_micros(
        std::env::var("SANDBOX_BENCH_PAUSE_US")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(3000),
    );
    let mut bare = Vec::with_capacity(iterations);
    let mut boxed = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        std::thread::sleep(pause);
        bare.push(bare_true());
        std::thread::sleep(pause);
        let start = Instant::now();
        let r = sandbox.run(&request).expect("sandboxed run");
        boxed.push(start.elapsed());
        assert_eq!(r.status, RunStatus::Ok);
    }
    // Back to back, nothing in between: the next box is still being made fresh when the
    // run comes (what a judge that never reads its reports would see).
    // `SANDBOX_BENCH_B2B_ITERATIONS`: more (or fewer) of them, e.g. to profile them alone.
    let b2b_iterations: usize = std::env::var("SANDBOX_BENCH_B2B_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(iterations);
    let mut back_to_back = Vec::with_capacity(b2b_iterations);
    for _ in 0..b2b_iterations {
        let start = Instant::now();
        let r = sandbox.run(&request).expect("sandboxed run");
        back_to_back.push(start.elapsed());
        assert_eq!(r.status, RunStatus::Ok);
    }
    let (b10, b, b90) = quantiles(&mut bare);
    let (s10, s, s90) = quantiles(&mut boxed);
    println!(
        "sandbox overhead, {iterations} iterations each, alternating with {} us pauses (box made ahead: {}), load average {}:",
        pause.as_micros(),
        if ahead { "on" } else { "off" },
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split(' ')
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("                                     p10         median      p90");
    println!(
        "  bare fork+exec+wait /bin/true : {:8.3} ms {:8.3} ms {:8.3} ms",
        ms(b10),
        ms(b),
        ms(b90)
    );
    println!(
        "  sandboxed trivial static run  : {:8.3} ms {:8.3} ms {:8.3} ms",
        ms(s10),
        ms(s),
        ms(s90)
    );
    println!(
        "  ratio sandboxed / bare        : {:8.2}x    {:8.2}x",
        ms(s10) / ms(b10),
        ms(s) / ms(b)
    );
    let (t10, t, t90) = quantiles(&mut back_to_back);
    println!(
        "  sandboxed, back to back       : {:8.3} ms {:8.3} ms {:8.3} ms ({:.2}x / {:.2}x bare)",
        ms(t10),
        ms(t),
        ms(t90),
        ms(t10) / ms(b10),
        ms(t) / ms(b)
    );
}
