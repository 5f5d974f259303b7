//! `cargo bench --bench grade`: a class of 100 students with one C++ file each on
//! binary-sudoku (85 renamed copies of an accepted solution, 15 wrong ones), graded on the
//! configured sandbox slots as `sudojudge grade --csv` does, then the similarity pass (five
//! times, the median shown) and the HTML report of the class.
//!
//! Overhead: the grade's wall time (discovery, hashing, judging, rows, CSV and cache
//! written) against the ideal, which is the sum of the wall times of every sandboxed compile
//! and run, measured inside the executor in the same run, divided by the number of slots.
//! `overhead = wall / ideal - 1`: what the grader adds (checking, task hand-offs, the slots'
//! idle time at the end) over perfect packing of the sandbox work on the slots.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use sudojudge::config::Config;
use sudojudge::grade::cache::{cache_path, package_hash, Cache};
use sudojudge::grade::csvfile::{grades_csv, write_atomically};
use sudojudge::grade::html::{render, ProblemInput};
use sudojudge::grade::similarity::{analyse, Settings, SourceFile};
use sudojudge::grade::{grade_class, DiscoverOptions, Found, Output, Summary};
use sudojudge::judge::{Judge, JudgeSettings, SandboxExecutor, Timed};
use sudojudge::languages::LanguageTable;

const STUDENTS: usize = 100;
const WRONG_EVERY: usize = 7; // 15 of 100 are wrong

const ORIGINAL: &str = include_str!("../tests/fixtures/grade/copies/original.cpp");

/// Student `i`'s file: the accepted solution with its names changed (so every compile is a
/// real one), or for one student in seven an answer that is off by one.
fn student_source(i: usize) -> String {
    let mut text = ORIGINAL.to_string();
    for name in [
        "grid",
        "readGrid",
        "boxParity",
        "evenRows",
        "solve",
        "best",
        "next",
        "rows",
    ] {
        text = text.replace(name, &format!("{name}_{i}"));
    }
    if i.is_multiple_of(WRONG_EVERY) {
        text = text.replace(
            &format!("return best_{i}[0];"),
            &format!("return best_{i}[0] + 1;"),
        );
    }
    format!("// student {i}\n{text}")
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
    if std::env::var_os("SUDOJUDGE_HELPER").is_none() {
        std::env::set_var("SUDOJUDGE_HELPER", env!("CARGO_BIN_EXE_sudojudge"));
    }
    let config = Config::embedded().expect("embedded config");
    let problem =
        sudojudge::problem::find(&config.problems.dir, "binary-sudoku").expect("binary-sudoku");
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    for i in 0..STUDENTS {
        std::fs::write(class.join(format!("student{i:03}.cpp")), student_source(i)).unwrap();
    }
    let slots = match config.server.workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let timed: Vec<Arc<Timed<SandboxExecutor>>> = (0..slots)
        .map(|_| {
            let executor = SandboxExecutor::any(&config).expect("the sandbox (run as root)");
            Arc::new(Timed::new(executor))
        })
        .collect();
    let settings = JudgeSettings::from_config(&config);
    let judges: Vec<Judge<Timed<SandboxExecutor>>> = timed
        .iter()
        .map(|t| Judge::new(Arc::clone(t), settings.clone()))
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let load_before = load_average();
    let languages = LanguageTable::from_config(&config);
    let csv = dir.path().join("grades.csv");

    let started = Instant::now();
    let options = DiscoverOptions {
        languages: languages.clone(),
        max_source_bytes: config.server.max_source_kib * 1024,
        skip: vec![csv.clone()],
    };
    let students = options.discover_all(std::slice::from_ref(&class)).unwrap();
    let package = package_hash(&problem, &languages).unwrap();
    let graded = runtime.block_on(grade_class(
        judges,
        Arc::new(problem.clone()),
        &students,
        None,
        Arc::new(AtomicBool::new(false)),
        Arc::new(|_| {}),
    ));
    let summary = Summary::of(&graded.rows);
    write_atomically(&csv, &grades_csv(&graded.rows).unwrap()).unwrap();
    Cache::new(&problem.id, &package, graded.rows.clone())
        .save(&cache_path(&csv))
        .unwrap();
    let wall = started.elapsed().as_secs_f64();

    let compile: f64 = timed
        .iter()
        .map(|t| t.compile_ns.load(Ordering::Relaxed) as f64 / 1e9)
        .sum();
    let runs: f64 = timed
        .iter()
        .map(|t| t.run_ns.load(Ordering::Relaxed) as f64 / 1e9)
        .sum();
    let count: u64 = timed.iter().map(|t| t.runs.load(Ordering::Relaxed)).sum();
    let ideal = (compile + runs) / slots as f64;
    assert_eq!(graded.judged, STUDENTS);
    let verdicts: Vec<String> = summary
        .verdicts
        .iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect();

    let files: Vec<SourceFile> = students
        .iter()
        .filter_map(|s| match &s.found {
            Found::Source { language, text } => Some(SourceFile {
                student: s.name.clone(),
                file: s.path.display().to_string(),
                language: language.clone(),
                text: text.clone(),
                against: false,
            }),
            Found::Unusable { .. } => None,
        })
        .collect();
    // The similarity pass (fingerprints, every pair, the flagged pairs' regions), five times.
    let mut times = Vec::new();
    let mut comparison = None;
    for _ in 0..5 {
        let t = Instant::now();
        comparison = Some(analyse(&files, &[], &Settings::default()));
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let similarity_ms = times[times.len() / 2];
    let comparison = comparison.unwrap();
    let pairs = &comparison.pairs;
    // The HTML report of the whole class (every pair listed, 50 side by side).
    let output = Output {
        problem: problem.id.clone(),
        summary,
        judged: graded.judged,
        reused: graded.reused,
        interrupted: graded.interrupted,
        similarity: Some(comparison.pairs.clone()),
        similarity_distribution: Some(comparison.distribution.clone()),
        students: graded.rows,
    };
    let t = Instant::now();
    let html = render(
        "bench",
        &[ProblemInput {
            output: &output,
            sources: &files,
            threshold: 50.0,
            max_score: 100,
        }],
        None,
    )
    .unwrap();
    let report_ms = t.elapsed().as_secs_f64() * 1e3;
    let load_after = load_average();

    println!(
        "grade: {STUDENTS} students x one C++ file on binary-sudoku ({} tests), {slots} slots\n  \
         verdicts: {}\n  \
         wall {wall:.2} s; inside the sandbox: compiles {compile:.2} s + {count} runs {runs:.2} s \
         = {:.2} s, / {slots} slots = {ideal:.2} s\n  \
         overhead: wall / ideal - 1 = {:.1}%\n  \
         similarity pass: {} files, {} pairs flagged, {similarity_ms:.0} ms (median of 5: {})\n  \
         HTML report: {report_ms:.0} ms, {} KB\n  \
         load average before {load_before}, after {load_after}",
        problem.tests.len(),
        verdicts.join(", "),
        compile + runs,
        (wall / ideal - 1.0) * 100.0,
        files.len(),
        pairs.len(),
        times
            .iter()
            .map(|t| format!("{t:.0}"))
            .collect::<Vec<_>>()
            .join(" "),
        html.len() / 1000,
    );
}
