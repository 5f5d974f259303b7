//! `cargo bench --bench rejudge`: a rejudge of 200 submissions (100 C, 100 C++, each a
//! distinct source: an accepted binary-sudoku solution with its own first line) on the
//! configured sandbox slots, with the compile cache off and on, alternating, in one run.
//!
//! Before the rounds every source is judged once with the cache on (a contest's first
//! judging, which fills the cache). Each round then rejudges all 200: cache off (every
//! source compiled again, as before the cache) and cache on (every program taken from the
//! cache). Printed: the median wall time of each and their ratio, with the time spent in
//! compiles. The problem keeps its sample and first four secret tests, so the figure is
//! about compiles, not about the solutions' own run time.
//!
//! `SUDOJUDGE_BENCH_ROUNDS` (default 3) changes the number of rounds. Needs root and a
//! usable sandbox.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use sudojudge::config::Config;
use sudojudge::judge::{run_jobs, Judge, JudgeReport, JudgeSettings, SandboxExecutor, Timed};
use sudojudge::problem::Problem;

mod support;

use support::{env_or, median, rounds};

const ORIGINAL_C: &str = include_str!("../tests/fixtures/binary-sudoku/ac.c");
const ORIGINAL_CPP: &str = include_str!("../tests/fixtures/grade/copies/original.cpp");

type Judges = Vec<Judge<Timed<SandboxExecutor>>>;

fn submissions(n: usize) -> Vec<(String, Vec<u8>)> {
    (0..n)
        .map(|i| {
            let (language, text) = if i % 2 == 0 {
                ("c", ORIGINAL_C)
            } else {
                ("cpp", ORIGINAL_CPP)
            };
            (
                language.to_string(),
                format!("/* submission {i} */\n{text}").into_bytes(),
            )
        })
        .collect()
}

fn judges(config: &Config, slots: usize) -> Judges {
    let settings = JudgeSettings::from_config(config);
    (0..slots)
        .map(|_| {
            let mut sandbox =
                sudojudge::sandbox::Sandbox::any(&config.sandbox).expect("the sandbox (as root)");
            sandbox.set_helper(env!("CARGO_BIN_EXE_sudojudge"));
            let executor = SandboxExecutor::with_sandbox(sandbox, config);
            Judge::new(Arc::new(Timed::new(executor)), settings.clone())
        })
        .collect()
}

/// Judges every submission once on `judges`; returns the wall time and the compile time
/// summed over the slots, in seconds.
fn rejudge(
    runtime: &tokio::runtime::Runtime,
    judges: &Judges,
    problem: &Arc<Problem>,
    subs: &[(String, Vec<u8>)],
) -> (f64, f64) {
    let compile_before: u64 = judges
        .iter()
        .map(|j| j.executor().compile_ns.load(Ordering::Relaxed))
        .sum();
    let started = Instant::now();
    let problem = Arc::clone(problem);
    let reports: Vec<Option<JudgeReport>> = runtime.block_on(run_jobs(
        judges.clone(),
        subs.to_vec(),
        Arc::new(AtomicBool::new(false)),
        move |judge, (language, source)| {
            let problem = Arc::clone(&problem);
            async move { judge.judge(&problem, &language, source).await }
        },
    ));
    let wall = started.elapsed().as_secs_f64();
    for r in &reports {
        let r = r.as_ref().expect("every submission judged");
        assert_eq!(r.verdict.as_str(), "AC", "{r:?}");
    }
    let compile_after: u64 = judges
        .iter()
        .map(|j| j.executor().compile_ns.load(Ordering::Relaxed))
        .sum();
    (wall, (compile_after - compile_before) as f64 / 1e9)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() {
    // `cargo bench` passes `--bench`; with `cargo test --benches` the bench is only built.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let cache = tempfile::tempdir().expect("a temporary folder");
    let mut on = Config::embedded().expect("embedded config");
    on.compile.cache_dir = cache.path().join("programs");
    let mut off = on.clone();
    off.compile.cache_mb = 0;
    let mut problem =
        sudojudge::problem::find(&on.problems.dir, "binary-sudoku").expect("binary-sudoku");
    problem.tests.truncate(5);
    let problem = Arc::new(problem);
    let slots = match on.server.workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let count = env_or("SUDOJUDGE_REJUDGE_SUBMISSIONS", 200);
    let subs = submissions(count);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let cached = judges(&on, slots);
    let uncached = judges(&off, slots);
    assert!(
        cached[0].executor().inner.cache().is_some(),
        "the cache opens"
    );
    let load_before = load_average();

    let (first, first_compile) = rejudge(&runtime, &cached, &problem, &subs);
    let (mut walls_off, mut walls_on, mut compiles_off, mut compiles_on) =
        (vec![], vec![], vec![], vec![]);
    for _ in 0..rounds(3) {
        let (wall, compile) = rejudge(&runtime, &uncached, &problem, &subs);
        walls_off.push(wall);
        compiles_off.push(compile);
        let (wall, compile) = rejudge(&runtime, &cached, &problem, &subs);
        walls_on.push(wall);
        compiles_on.push(compile);
    }
    let n = walls_on.len();
    let (off_wall, on_wall) = (median(&mut walls_off), median(&mut walls_on));
    println!(
        "rejudge: {count} submissions (C and C++ alternating) on binary-sudoku ({} tests), \
         {slots} slots, {n} rounds\n  \
         first judging (cache filled): {first:.2} s wall, compiles {first_compile:.2} s\n  \
         cache off: {off_wall:.2} s median wall, compiles {:.2} s\n  \
         cache on:  {on_wall:.2} s median wall, compiles {:.2} s\n  \
         cache on / off = {:.3} ({:.1}x faster)\n  \
         load average before {load_before}, after {}",
        problem.tests.len(),
        median(&mut compiles_off),
        median(&mut compiles_on),
        on_wall / off_wall,
        off_wall / on_wall,
        load_average(),
    );
}
