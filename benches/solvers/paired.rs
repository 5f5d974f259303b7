//! The paired whole-process bench against tdoku (`TDOKU_DIR=/path/to/tdoku cargo bench
//! --bench solvers -- paired`): tdoku's example solver is built twice from that copy outside
//! the repository, `-O3 -march=native` and `-O3 -march=haswell` (its AVX2 code, no
//! AVX-512), and both builds and this bench binary in its `--solve-lines` mode (the same
//! contract: count up to 2 solutions, solve again when there is exactly one, print
//! `puzzle:count:solution`) read each list on stdin as a whole process. Ours runs as the
//! judge would (`--solve-lines`), and with each build of `boxband` this machine has forced
//! (`--solve-lines avx512`, `--solve-lines avx2`) and with `fast` (`--solve-lines fast`).
//! Every pass runs each of them once, starting with the next one each pass; the figure of
//! each is its median, the ratios tdoku's median times over its. With
//! `SUDOJUDGE_SOLVER_BASELINE` naming another build of this bench binary (say, main's), that
//! build runs in the same passes too: the before and after of a change to the solver.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[cfg(target_arch = "x86_64")]
use sudojudge::solvers::sudoku::boxband::{self, Level};
use sudojudge::solvers::sudoku::{self, Grid};

use super::{median, parse_line, LISTS};

/// The argument that turns this bench binary into our side of the pairing.
pub const SOLVE_LINES: &str = "--solve-lines";

/// Which solver `--solve-lines` runs: as the judge does, or one build forced (bench only).
#[derive(Clone, Copy)]
pub enum Solver {
    /// `sudoku::count_solutions` and `sudoku::solve`, as the judge calls them.
    Judge,
    /// One build of `boxband`, whatever the dispatch would pick.
    #[cfg(target_arch = "x86_64")]
    Boxband(Level),
    /// `sudoku::fast`.
    Fast,
}

impl Solver {
    /// From `--solve-lines`' optional argument; `Err` names what was not understood or
    /// what this machine cannot run.
    pub fn from_arg(arg: Option<&str>) -> Result<Solver, String> {
        match arg {
            None => Ok(Solver::Judge),
            Some("fast") => Ok(Solver::Fast),
            #[cfg(target_arch = "x86_64")]
            Some(name) => {
                let level = Level::ALL
                    .into_iter()
                    .find(|l| l.name() == name)
                    .ok_or_else(|| format!("unknown solver {name:?}"))?;
                if !level.supported() {
                    return Err(format!("this machine cannot run the {name} build"));
                }
                Ok(Solver::Boxband(level))
            }
            #[cfg(not(target_arch = "x86_64"))]
            Some(name) => Err(format!("unknown solver {name:?}")),
        }
    }

    fn count(self, grid: &Grid) -> usize {
        match self {
            Solver::Judge => sudoku::count_solutions(grid, 2),
            #[cfg(target_arch = "x86_64")]
            Solver::Boxband(level) => boxband::count_solutions_at(level, grid, 2).unwrap_or(0),
            Solver::Fast => sudoku::fast::count_solutions(grid, 2),
        }
    }

    fn solve(self, grid: &Grid) -> Option<Grid> {
        match self {
            Solver::Judge => sudoku::solve(grid),
            #[cfg(target_arch = "x86_64")]
            Solver::Boxband(level) => boxband::solve_at(level, grid).flatten(),
            Solver::Fast => sudoku::fast::solve(grid),
        }
    }
}

/// Our side: what tdoku's `example/solve.c` does with a limit of 2, over stdin to stdout.
/// Lines shorter than 81 characters or starting with `#` are skipped, as tdoku skips them.
pub fn solve_lines(solver: Solver) -> std::io::Result<()> {
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
        let count = solver.count(&grid);
        out.write_all(head)?;
        write!(out, ":{count}:")?;
        if count == 1 {
            if let Some(sol) = solver.solve(&grid) {
                out.write_all(&sol.map(|d| b'0' + d))?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Builds tdoku's example solver from `src` into `out` with `-O3` and `march`, returning
/// its path.
fn build_tdoku(src: &Path, out: &Path, march: &str) -> Result<PathBuf, String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let out = out.join(march);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot make {}: {e}", out.display()))?;
    let out = out.as_path();
    let march = format!("-march={march}");
    let flags = ["-O3", march.as_str()];
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

/// One program in the passes: its name in the table, its path and arguments.
struct Contender {
    name: String,
    program: PathBuf,
    args: Vec<&'static str>,
}

/// Ours as the judge runs it, then each build forced, then `fast`.
fn our_contenders(ours: &Path) -> Vec<Contender> {
    let mine = |name: String, arg: Option<&'static str>| Contender {
        name,
        program: ours.to_path_buf(),
        args: [SOLVE_LINES].into_iter().chain(arg).collect(),
    };
    #[cfg(target_arch = "x86_64")]
    let (judge, builds) = (
        format!(
            "ours, as judged ({})",
            boxband::level().map_or("fast", Level::name)
        ),
        Level::ALL
            .into_iter()
            .filter(|l| l.supported())
            .map(|l| mine(format!("ours, boxband {}", l.name()), Some(l.name())))
            .collect::<Vec<_>>(),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let (judge, builds) = ("ours, as judged (fast)".to_string(), Vec::new());
    let mut all = vec![mine(judge, None)];
    all.extend(builds);
    all.push(mine("ours, fast".into(), Some("fast")));
    all
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
    let native = match build_tdoku(&src, build.path(), "native") {
        Ok(binary) => binary,
        Err(e) => {
            println!("skipped: tdoku did not build from {}: {e}", src.display());
            return;
        }
    };
    // tdoku's AVX2 code (its simd_vectors.h picks it from the compiler's macros), run only
    // where our AVX2 build runs too.
    #[cfg(target_arch = "x86_64")]
    let haswell = if Level::Avx2.supported() {
        match build_tdoku(&src, build.path(), "haswell") {
            Ok(binary) => Some(binary),
            Err(e) => {
                println!("tdoku's AVX2 build failed, left out: {e}");
                None
            }
        }
    } else {
        None
    };
    #[cfg(not(target_arch = "x86_64"))]
    let haswell: Option<PathBuf> = None;
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
    let mut contenders = our_contenders(&ours);
    // An older build of this bench (e.g. main's) run the same way: the before of a change.
    if let Some(b) = std::env::var_os("SUDOJUDGE_SOLVER_BASELINE").map(PathBuf::from) {
        contenders.push(Contender {
            name: format!("baseline {}", b.display()),
            program: b,
            args: vec![SOLVE_LINES],
        });
    }
    contenders.push(Contender {
        name: "tdoku -march=native".into(),
        program: native,
        args: vec!["2"],
    });
    let tdoku_native = contenders.len() - 1;
    let tdoku_avx2 = haswell.map(|program| {
        contenders.push(Contender {
            name: "tdoku -march=haswell (AVX2)".into(),
            program,
            args: vec!["2"],
        });
        contenders.len() - 1
    });
    println!(
        "tdoku {commit} from {} (example/solve.c, -O3, built -march=native and -march=haswell) \
         against this binary's {SOLVE_LINES} mode; each list whole on stdin, limit 2, solved \
         again when unique; {passes} passes each ($SUDOJUDGE_BENCH_ROUNDS; three times as many \
         for a list done in under 0.2 s), interleaved, medians; a ratio is the speed of the \
         row's program over that tdoku build's",
        src.display(),
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    println!("load average at the start: {}", load.join(" "));
    println!(
        "| list | puzzles | passes | program | median | puzzles/s | / tdoku native | / tdoku AVX2 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, file) in LISTS {
        let list = datasets.join(file);
        if !list.is_file() {
            println!("| {name} | dataset missing: {} |", list.display());
            continue;
        }
        // All print the same lines, or the comparison is void.
        let outputs: Vec<(Duration, Vec<u8>)> = contenders
            .iter()
            .map(|c| run(&c.program, &c.args, &list, true))
            .collect();
        for (c, (_, out)) in contenders.iter().zip(&outputs) {
            assert!(
                *out == outputs[0].1,
                "{name}: {} printed other lines than this binary (counts or solutions)",
                c.name
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
                times[c].push(run(&contenders[c].program, &contenders[c].args, &list, false).0);
            }
        }
        let medians: Vec<Duration> = times.into_iter().map(median).collect();
        let speed = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64();
        for (c, &m) in contenders.iter().zip(&medians) {
            let against_avx2 = tdoku_avx2
                .map(|t| format!("{:.2}x", speed(m, medians[t])))
                .unwrap_or_else(|| "-".into());
            println!(
                "| {name} | {puzzles} | {passes} | {} | {:.1} ms | {:.0} | {:.2}x | {against_avx2} |",
                c.name,
                m.as_secs_f64() * 1e3,
                puzzles as f64 / m.as_secs_f64(),
                speed(m, medians[tdoku_native]),
            );
        }
    }
}
