//! Solver benchmarks: `cargo bench --bench solvers` (all sections), or name sections:
//! `cargo bench --bench solvers -- target binary`.
//!
//! - sudoku: puzzles/s of `sudoku::count_solutions` (the box-and-band core where the machine
//!   has AVX-512 or AVX2), of `boxband`'s AVX2 build forced (where the dispatch picks the
//!   AVX-512 one) and of the fast solver against the naive baseline (all counting up to 2
//!   solutions) on a fixed sample of randomly permuted puzzles from each list in
//!   datasets/, median of several passes, and their ratio;
//! - target-sudoku: branch and bound against plain exhaustive enumeration on NOIP-like cases
//!   (24-30 givens) generated from fixed seeds, plus 20-given stress cases;
//! - binary-sudoku: time per grid, parsing included;
//! - paired: whole-process against tdoku's example solver (built `-march=native` and
//!   `-march=haswell`, its AVX2 code) on each list, ours as judged, with each `boxband`
//!   build forced and with `fast`, when `TDOKU_DIR` names a copy of tdoku (`paired.rs`;
//!   skipped otherwise).
//!
//! Every figure is the median of several passes measured in this run.

#[path = "solvers/paired.rs"]
mod paired;
mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudojudge::solvers::{binary, sudoku, target};

/// SplitMix64: a tiny, fixed-seed PRNG so every run measures the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A random validity-preserving transformation: digits relabelled, rows within bands,
/// bands, columns within stacks, stacks, and a transpose.
fn permute(grid: &sudoku::Grid, rng: &mut Rng) -> sudoku::Grid {
    let mut digits: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits[1..]);
    let lines = |rng: &mut Rng| {
        let mut bands = [0usize, 1, 2];
        rng.shuffle(&mut bands);
        let mut order = [0usize; 9];
        for (b, &band) in bands.iter().enumerate() {
            let mut rows = [0usize, 1, 2];
            rng.shuffle(&mut rows);
            for (k, &r) in rows.iter().enumerate() {
                order[b * 3 + k] = band * 3 + r;
            }
        }
        order
    };
    let rows = lines(rng);
    let cols = lines(rng);
    let transpose = rng.below(2) == 1;
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            out[r * 9 + c] = digits[usize::from(grid[sr * 9 + sc])];
        }
    }
    out
}

/// One puzzle line: 81 characters, `1`-`9` or `.`/`0`.
fn parse_line(line: &str) -> Option<sudoku::Grid> {
    let bytes = line.trim().as_bytes();
    if bytes.len() != 81 {
        return None;
    }
    let mut grid = [0u8; 81];
    for (cell, &b) in grid.iter_mut().zip(bytes) {
        *cell = match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' => 0,
            _ => return None,
        };
    }
    Some(grid)
}

/// Wall time of one run of `work`.
fn time(work: impl FnOnce()) -> Duration {
    let start = Instant::now();
    work();
    start.elapsed()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Median wall time of `passes` runs of `work`.
fn median_time(passes: usize, mut work: impl FnMut()) -> Duration {
    median((0..passes).map(|_| time(&mut work)).collect())
}

const SAMPLE: usize = 2000;
const LISTS: [(&str, &str); 3] = [
    ("17-clue", "puzzles2_17_clue.txt"),
    ("top1465", "puzzles3_magictour_top1465.txt"),
    ("1905_11+", "puzzles5_forum_hardest_1905_11+.txt"),
];

/// Whether `sudoku::count_solutions` runs the box-and-band core on this machine.
fn boxband_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        sudoku::boxband::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// `boxband`'s AVX2 build counting to 2, when this machine runs it and the dispatch picks
/// another build.
fn avx2_build_apart() -> Option<fn(&sudoku::Grid) -> usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use sudoku::boxband::{self, Level};
        if Level::Avx2.supported() && boxband::level() != Some(Level::Avx2) {
            return Some(|p| boxband::count_solutions_at(Level::Avx2, p, 2).unwrap_or(0));
        }
    }
    None
}

fn bench_sudoku(datasets: &Path) {
    println!(
        "## sudoku: puzzles/s counting up to 2 solutions, {SAMPLE} permuted puzzles per list \
         (median of 9 passes for the solver in use and fast, 3 for naive, interleaved)"
    );
    let in_use = if cfg!(target_arch = "x86_64") && boxband_available() {
        "boxband"
    } else {
        "fast"
    };
    // The AVX2 build measured too where the dispatch picks another (it runs on more CPUs).
    let avx2 = avx2_build_apart();
    println!(
        "| list | sudoku::count_solutions ({in_use}, median) | boxband avx2 (median) | fast \
         (median) | naive (median) | in use / fast | avx2 / fast | fast / naive |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, file) in LISTS {
        let path = datasets.join(file);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                println!(
                    "| {name} | dataset missing: {} ({e}) | | | | | | |",
                    path.display()
                );
                continue;
            }
        };
        let all: Vec<sudoku::Grid> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(parse_line)
            .collect();
        if all.is_empty() {
            println!("| {name} | no puzzles in {} | | | | | | |", path.display());
            continue;
        }
        let mut rng = Rng(0x5eed_0001);
        let sample: Vec<sudoku::Grid> = (0..SAMPLE)
            .map(|_| {
                let grid = all[rng.below(all.len())];
                permute(&grid, &mut rng)
            })
            .collect();
        let unique = sample
            .iter()
            .filter(|p| sudoku::count_solutions(p, 2) == 1)
            .count();
        assert_eq!(
            unique, SAMPLE,
            "{name}: every sampled puzzle must be unique"
        );
        // Interleaved rounds, so that both solvers see the same machine load.
        let (mut used, mut fast, mut naive) = (Vec::new(), Vec::new(), Vec::new());
        let mut forced = Vec::new();
        for _ in 0..3 {
            for _ in 0..3 {
                used.push(time(|| {
                    for p in &sample {
                        black_box(sudoku::count_solutions(black_box(p), 2));
                    }
                }));
                if let Some(count) = avx2 {
                    forced.push(time(|| {
                        for p in &sample {
                            black_box(count(black_box(p)));
                        }
                    }));
                }
                fast.push(time(|| {
                    for p in &sample {
                        black_box(sudoku::fast::count_solutions(black_box(p), 2));
                    }
                }));
            }
            naive.push(time(|| {
                for p in &sample {
                    black_box(sudoku::naive::count_solutions(black_box(p), 2));
                }
            }));
        }
        let (used, fast, naive) = (median(used), median(fast), median(naive));
        let rate = |d: Duration| SAMPLE as f64 / d.as_secs_f64();
        let (forced_rate, forced_ratio) = if forced.is_empty() {
            ("-".to_string(), "-".to_string())
        } else {
            let forced = median(forced);
            (
                format!("{:.0}/s", rate(forced)),
                format!("{:.2}x", fast.as_secs_f64() / forced.as_secs_f64()),
            )
        };
        println!(
            "| {name} | {:.0}/s | {forced_rate} | {:.0}/s | {:.0}/s | {:.2}x | {forced_ratio} | {:.1}x |",
            rate(used),
            rate(fast),
            rate(naive),
            fast.as_secs_f64() / used.as_secs_f64(),
            naive.as_secs_f64() / fast.as_secs_f64()
        );
    }
}

/// The baseline for target-sudoku: every completion enumerated, the best score kept.
fn target_exhaustive(grid: &[u8; 81]) -> Option<u32> {
    fn go(g: &mut [u8; 81], best: &mut Option<u32>) {
        let mut pick = None;
        let mut pick_n = 10;
        for i in 0..81 {
            if g[i] == 0 {
                let n = (1..=9).filter(|&v| allowed(g, i, v)).count();
                if n < pick_n {
                    pick_n = n;
                    pick = Some(i);
                }
            }
        }
        let Some(i) = pick else {
            let score = (0..81)
                .map(|k| target::weight(k / 9, k % 9) * u32::from(g[k]))
                .sum();
            if best.is_none_or(|b| score > b) {
                *best = Some(score);
            }
            return;
        };
        for v in 1..=9 {
            if allowed(g, i, v) {
                g[i] = v;
                go(g, best);
                g[i] = 0;
            }
        }
    }
    fn allowed(g: &[u8; 81], i: usize, v: u8) -> bool {
        let (r, c) = (i / 9, i % 9);
        (0..9).all(|k| {
            g[r * 9 + k] != v
                && g[k * 9 + c] != v
                && g[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] != v
        })
    }
    let mut g = *grid;
    let mut best = None;
    go(&mut g, &mut best);
    best
}

/// A random full grid, then `givens` of its cells kept at random.
fn random_puzzle(rng: &mut Rng, givens: usize) -> [u8; 81] {
    let mut base = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            base[r * 9 + c] = ((r * 3 + r / 3 + c) % 9) as u8 + 1;
        }
    }
    // Mixing in an actual solved puzzle gives grids that are not just a pattern's relabelling.
    let full = sudoku::solve(&permute(&base, rng)).unwrap_or(base);
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    let mut puzzle = [0u8; 81];
    for &i in &cells[..givens] {
        puzzle[i] = full[i];
    }
    puzzle
}

fn bench_target() {
    println!("\n## target-sudoku");
    let mut rng = Rng(0x007a_76e7);
    let noip: Vec<[u8; 81]> = (0..20)
        .map(|k| random_puzzle(&mut rng, 24 + k % 7))
        .collect();
    let completions: Vec<usize> = noip
        .iter()
        .map(|g| sudoku::count_solutions(g, usize::MAX))
        .collect();
    for g in &noip {
        assert_eq!(
            target::max_score(g),
            target_exhaustive(g),
            "solver disagrees"
        );
    }
    let (mut bb, mut ex) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        for _ in 0..3 {
            bb.push(time(|| {
                for g in &noip {
                    black_box(target::max_score(black_box(g)));
                }
            }));
        }
        ex.push(time(|| {
            for g in &noip {
                black_box(target_exhaustive(black_box(g)));
            }
        }));
    }
    let (bb, ex) = (median(bb), median(ex));
    println!(
        "20 NOIP-like cases (24-30 givens, {} to {} completions, {} in all):",
        completions.iter().min().unwrap_or(&0),
        completions.iter().max().unwrap_or(&0),
        completions.iter().sum::<usize>()
    );
    println!(
        "  branch and bound {:.2} ms (median of 9), exhaustive {:.2} ms (median of 3), \
         interleaved, ratio {:.1}x",
        bb.as_secs_f64() * 1e3,
        ex.as_secs_f64() * 1e3,
        ex.as_secs_f64() / bb.as_secs_f64()
    );
    let stress: Vec<[u8; 81]> = (0..5).map(|_| random_puzzle(&mut rng, 20)).collect();
    let t = median_time(3, || {
        for g in &stress {
            black_box(target::max_score(black_box(g)));
        }
    });
    println!(
        "5 stress cases with 20 givens: {:.1} ms in all (median of 3)",
        t.as_secs_f64() * 1e3
    );
}

fn bench_binary() {
    println!("\n## binary-sudoku");
    let mut rng = Rng(0x00b1_0a27);
    let inputs: Vec<String> = (0..200)
        .map(|_| {
            (0..9)
                .map(|_| {
                    (0..9)
                        .map(|_| if rng.below(2) == 1 { '1' } else { '0' })
                        .collect()
                })
                .collect::<Vec<String>>()
                .join("\n")
        })
        .collect();
    let parse = |text: &str| {
        let mut grid = [0u8; 81];
        for (cell, b) in grid
            .iter_mut()
            .zip(text.bytes().filter(|b| *b == b'0' || *b == b'1'))
        {
            *cell = b - b'0';
        }
        grid
    };
    let t = median_time(7, || {
        for text in &inputs {
            black_box(binary::min_flips(&parse(black_box(text))));
        }
    });
    println!(
        "{} random grids: {:.1} us per grid, parsing included (median of 7 passes)",
        inputs.len(),
        t.as_secs_f64() * 1e6 / inputs.len() as f64
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then only smoke-run.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(paired::SOLVE_LINES) {
        let solver = match paired::Solver::from_arg(args.get(1).map(String::as_str)) {
            Ok(solver) => solver,
            Err(e) => {
                eprintln!("solve-lines: {e}");
                std::process::exit(2);
            }
        };
        if let Err(e) = paired::solve_lines(solver) {
            eprintln!("solve-lines: {e}");
            std::process::exit(1);
        }
        return;
    }
    if !args.iter().any(|a| a == "--bench") {
        println!(
            "solvers bench: run with `cargo bench --bench solvers [sudoku|target|binary|paired]`"
        );
        return;
    }
    let wanted: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    let run = |section: &str| wanted.is_empty() || wanted.contains(&section);
    let datasets: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    if run("sudoku") {
        bench_sudoku(&datasets);
    }
    if run("target") {
        bench_target();
    }
    if run("binary") {
        bench_binary();
    }
    if run("paired") {
        paired::bench(&datasets, support::rounds(5));
    }
}
