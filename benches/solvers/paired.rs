//! The paired whole-process bench against tdoku (`TDOKU_DIR=/path/to/tdoku cargo bench
//! --bench solvers -- paired`): tdoku's example solver is built from that copy outside the
//! repository (`-O3 -march=native`), and both it and this bench binary in its
//! `--solve-lines` mode (the same contract: count up to 2 solutions, solve again when
//! there is exactly one, print `puzzle:count:solution`) read each list on stdin as a whole
//! process. Every pass runs each of them once, starting with the next one each pass; the
//! figure of each is its median, the ratio tdoku's median time over ours. With
//! `SUDOJUDGE_SOLVER_BASELINE` naming another build of this bench binary (say, main's), that
//! build runs in the same passes too: the before and after of a change to the solver.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudojudge::solvers::sudoku;

use super::{median, parse_line, LISTS};

/// The argument that turns this bench binary into our side of the pairing.
pub const SOLVE_LINES: &str = "--solve-lines";

/// Our side: what tdoku's `example/solve.c` does with a limit of 2, over stdin to stdout.
/// Lines shorter than 81 characters or starting with `#` are skipped, as tdoku skips them.
pub fn solve_lines() -> std::io::Result<()> {
    let mut text = String::new();
    std::io::stdin().lock().read_to_string(&mut text)?;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    for line in text.lines() {
        if line.len() < 81 || line.starts_with('#') {
            continue;
        }
        let head = &line.as_bytes()[..81];
        // What is not a puzzle has no solution (tdoku does not check its input).
        let grid = std::str::from_utf8(head)
            .ok()
            .and_then(parse_line)
            .unwrap_or([10; 81]);
        let count = sudoku::count_solutions(&grid, 2);
        out.write_all(head)?;
        write!(out, ":{count}:")?;
        if count == 1 {
            if let Some(sol) = sudoku::solve(&grid) {
                out.write_all(&sol.map(|d| b'0' + d))?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Builds tdoku's example solver from `src` into `out`, returning its path.
fn build_tdoku(src: &Path, out: &Path) -> Result<PathBuf, String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let flags = ["-O3", "-march=native"];
    let steps: [(&str, &[&str], &str, &str); 3] = [
        (
            &cxx,
            &["-std=c++14"],
            "src/solver_dpll_triad_simd.cc",
            "solver.o",
        ),
        (&cxx, &["-std=c++14"], "src/util.cc", "util.o"),
        (&cc, &[], "example/solve.c", "solve.o"),
    ];
    for (compiler, std, file, object) in steps {
        let source = src.join(file);
        if !source.is_file() {
            return Err(format!("{} is missing", source.display()));
        }
        run_compiler(
            Command::new(compiler)
                .args(std)
                .args(flags)
                .arg("-c")
                .arg(&source)
                .arg("-o")
                .arg(out.join(object)),
        )?;
    }
    let binary = out.join("tdoku-solve");
    run_compiler(
        Command::new(&cxx)
            .args(["solve.o", "solver.o", "util.o", "-o"])
            .arg(&binary)
            .current_dir(out),
    )?;
    Ok(binary)
}

fn run_compiler(command: &mut Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{shown} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
}

/// One whole-process run of `program` on `list`: its wall time and what it printed.
fn run(program: &Path, args: &[&str], list: &Path, keep: bool) -> (Duration, Vec<u8>) {
    let input = std::fs::File::open(list).expect("the list was read before");
    let mut command = Command::new(program);
    command.args(args).stdin(input).stderr(Stdio::inherit());
    command.stdout(if keep { Stdio::piped() } else { Stdio::null() });
    let start = Instant::now();
    let output = command.output().expect("the solver process starts");
    let elapsed = start.elapsed();
    assert!(
        output.status.success(),
        "{program:?} failed: {:?}",
        output.status
    );
    (elapsed, output.stdout)
}

/// The paired section; skipped with a message when `TDOKU_DIR` names no copy.
pub fn bench(datasets: &Path, passes: usize) {
    println!("\n## paired with tdoku, whole process");
    let Some(src) = std::env::var_os("TDOKU_DIR").map(PathBuf::from) else {
        println!(
            "skipped: set TDOKU_DIR to a copy of tdoku (e.g. `git clone \
             https://github.com/t-dillon/tdoku /tmp/tdoku`, then TDOKU_DIR=/tmp/tdoku)"
        );
        return;
    };
    let build = match tempfile::Builder::new().prefix("tdoku-build").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            println!("skipped: no temporary folder for the build: {e}");
            return;
        }
    };
    let tdoku = match build_tdoku(&src, build.path()) {
        Ok(binary) => binary,
        Err(e) => {
            println!("skipped: tdoku did not build from {}: {e}", src.display());
            return;
        }
    };
    let commit = Command::new("git")
        .args(["-C"])
        .arg(&src)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown commit".into());
    let ours = std::env::current_exe().expect("the bench binary knows its path");
    // An older build of this bench (e.g. main's) run the same way: the before of a change.
    let baseline = std::env::var_os("SUDOJUDGE_SOLVER_BASELINE").map(PathBuf::from);
    println!(
        "tdoku {commit} from {} (example/solve.c, -O3 -march=native) against this binary's \
         {SOLVE_LINES} mode{}; each list whole on stdin, limit 2, solved again when unique; \
         {passes} passes each ($SUDOJUDGE_BENCH_ROUNDS; three times as many for a list done \
         in under 0.2 s), interleaved, medians",
        src.display(),
        match &baseline {
            Some(b) => format!(" and the baseline build {}'s", b.display()),
            None => String::new(),
        }
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    println!("load average at the start: {}", load.join(" "));
    let mut contenders: Vec<(&Path, &[&str])> = vec![(ours.as_path(), &[SOLVE_LINES][..])];
    if let Some(b) = &baseline {
        contenders.push((b.as_path(), &[SOLVE_LINES][..]));
    }
    contenders.push((tdoku.as_path(), &["2"][..]));
    if baseline.is_some() {
        println!(
            "| list | puzzles | passes | ours (median) | baseline (median) | tdoku (median) \
             | ours / tdoku speed | baseline / tdoku | ours / baseline |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
    } else {
        println!(
            "| list | puzzles | passes | ours (median) | tdoku (median) | ours / tdoku speed |"
        );
        println!("|---|---|---|---|---|---|");
    }
    for (name, file) in LISTS {
        let list = datasets.join(file);
        if !list.is_file() {
            println!("| {name} | dataset missing: {} |", list.display());
            continue;
        }
        // All print the same lines, or the comparison is void.
        let outputs: Vec<(Duration, Vec<u8>)> = contenders
            .iter()
            .map(|(program, args)| run(program, args, &list, true))
            .collect();
        for ((program, _), (_, out)) in contenders.iter().zip(&outputs) {
            assert!(
                *out == outputs[0].1,
                "{name}: {} printed other lines than this binary (counts or solutions)",
                program.display()
            );
        }
        let puzzles = outputs[0].1.iter().filter(|&&b| b == b'\n').count();
        // A list solved in a blink gets more passes: its figures are the noisiest.
        let passes = if outputs[0].0 < Duration::from_millis(200) {
            passes * 3
        } else {
            passes
        };
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); contenders.len()];
        for pass in 0..passes {
            // Each pass starts with the next contender, so none always runs first.
            for k in 0..contenders.len() {
                let c = (pass + k) % contenders.len();
                let (program, args) = contenders[c];
                times[c].push(run(program, args, &list, false).0);
            }
        }
        let medians: Vec<Duration> = times.into_iter().map(median).collect();
        let cell = |d: Duration| {
            format!(
                "{:.1} ms, {:.0}/s",
                d.as_secs_f64() * 1e3,
                puzzles as f64 / d.as_secs_f64()
            )
        };
        let speed = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64();
        let (us, them) = (medians[0], medians[medians.len() - 1]);
        if medians.len() == 3 {
            let before = medians[1];
            println!(
                "| {name} | {puzzles} | {passes} | {} | {} | {} | {:.2}x | {:.2}x | {:.2}x |",
                cell(us),
                cell(before),
                cell(them),
                speed(us, them),
                speed(before, them),
                speed(us, before)
            );
        } else {
            println!(
                "| {name} | {puzzles} | {passes} | {} | {} | {:.2}x |",
                cell(us),
                cell(them),
                speed(us, them)
            );
        }
    }
}
