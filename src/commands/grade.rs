//! `sudojudge grade`: a class folder to a table, a CSV and JSON, with a similarity report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::grade::cache::{cache_path, package_hash, Cache};
use sudojudge::grade::csvfile::{grades_csv, similarity_csv, similarity_path, write_atomically};
use sudojudge::grade::similarity::{self, Settings, SourceFile};
use sudojudge::grade::{class, grade_class, table, DiscoverOptions, Found, Output, Row, Summary};
use sudojudge::languages::LanguageTable;

use super::judging::{runtime, slot_judges, worker_count, Progress};

/// Arguments of `sudojudge grade`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id.
    pub problem: String,
    /// Class folders (one file or one subfolder per student) or single files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write the table as CSV here (and `similarity.csv` beside it); a re-run with the same
    /// file judges only the students whose file changed.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Print everything as one JSON object, per-test results included.
    #[arg(long)]
    pub json: bool,
    /// Students judged at once, each on its own sandbox slot (default: the configured workers).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Judge every student again, ignoring the re-run cache.
    #[arg(long)]
    pub force: bool,
    /// Compare the class's sources pairwise and report the similar pairs.
    #[arg(long)]
    pub similarity: bool,
    /// Report pairs from this share of shared fingerprints, in percent.
    #[arg(long, default_value_t = 50.0)]
    pub threshold: f64,
    /// Code handed out to the class: its fingerprints never count as a match.
    #[arg(long, num_args = 1..)]
    pub base: Vec<PathBuf>,
    /// Earlier years' or other sections' folders, compared with this class only.
    #[arg(long, num_args = 1..)]
    pub against: Vec<PathBuf>,
}

/// Ctrl-C sets `stop` (the runs in progress end, the rest is left out); a second one exits.
fn watch_ctrl_c(runtime: &tokio::runtime::Runtime, stop: Arc<AtomicBool>) {
    runtime.spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stop.store(true, Ordering::SeqCst);
            eprintln!("\ninterrupted: finishing the runs in progress (Ctrl-C again to quit now)");
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
}

/// Largest `--base` file read.
const BASE_MAX_BYTES: u64 = 16 << 20;

fn read_base(
    languages: &LanguageTable,
    files: &[PathBuf],
) -> anyhow::Result<Vec<(String, String)>> {
    files
        .iter()
        .map(|path| {
            let language = languages
                .guess(path)
                .with_context(|| format!("--base {}: unknown language", path.display()))?
                .id
                .clone();
            // The teacher's file (a link is followed), but still only a regular file of an
            // ordinary file system, and bounded: a FIFO must not hang the run.
            let bytes = sudojudge::grade::files::read_path(path, BASE_MAX_BYTES, true)
                .with_context(|| format!("reading --base {}", path.display()))?;
            let text = String::from_utf8(bytes)
                .with_context(|| format!("reading --base {}: not UTF-8 text", path.display()))?;
            Ok((language, text))
        })
        .collect()
}

/// The class's sources and the `--against` folders' (named `folder/student`).
fn similarity_sources(
    options: &DiscoverOptions,
    class: &[sudojudge::grade::Student],
    against: &[PathBuf],
) -> anyhow::Result<Vec<SourceFile>> {
    let source = |s: &sudojudge::grade::Student, prefix: Option<&str>| match &s.found {
        Found::Source { language, text } => Some(SourceFile {
            student: match prefix {
                Some(p) => format!("{p}/{}", s.name),
                None => s.name.clone(),
            },
            file: s.path.display().to_string(),
            language: language.clone(),
            text: text.clone(),
            against: prefix.is_some(),
        }),
        Found::Unusable { .. } => None,
    };
    let mut files: Vec<SourceFile> = class.iter().filter_map(|s| source(s, None)).collect();
    for dir in against {
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let students = options
            .discover(dir)
            .with_context(|| format!("--against {}", dir.display()))?;
        files.extend(students.iter().filter_map(|s| source(s, Some(&name))));
    }
    Ok(files)
}

/// Runs `sudojudge grade`: exit 0 when done, 130 when Ctrl-C cut it short.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).context("loading the configuration")?;
    let problem = sudojudge::problem::find(&config.problems.dir, &args.problem)
        .with_context(|| format!("loading problem {:?}", args.problem))?;
    let languages = LanguageTable::from_config(&config);
    let mut skip = Vec::new();
    if let Some(csv) = &args.csv {
        skip.extend([csv.clone(), cache_path(csv), similarity_path(csv)]);
    }
    let options = DiscoverOptions {
        languages: languages.clone(),
        max_source_bytes: config.server.max_source_kib.saturating_mul(1024),
        skip,
    };
    if let Some(parent) = args.csv.as_deref().and_then(Path::parent) {
        if !parent.as_os_str().is_empty() {
            // Before judging: a CSV that cannot be written must not cost a whole class's run.
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating the folder of --csv {}", parent.display()))?;
        }
    }
    let students = options.discover_all(&args.paths)?;
    anyhow::ensure!(!students.is_empty(), "no student found in the given paths");
    let base = read_base(&languages, &args.base)?;
    for dir in &args.against {
        // Checked before judging: a mistyped folder must not cost a whole class's run.
        anyhow::ensure!(dir.is_dir(), "--against {}: not a folder", dir.display());
    }
    let package = package_hash(&problem, &languages)?;
    let cache = match (&args.csv, args.force) {
        (Some(csv), false) if csv.exists() => Cache::load(&cache_path(csv), &problem.id, &package),
        _ => None,
    };
    let to_judge = class::to_judge(&students, cache.as_ref());
    let workers = worker_count(&config, args.jobs, to_judge);
    let judges = if to_judge == 0 {
        Vec::new()
    } else {
        slot_judges(&config, workers, "")?
    };
    let unusable = students
        .iter()
        .filter(|s| matches!(s.found, Found::Unusable { .. }))
        .count();
    eprintln!(
        "grading {} students: {to_judge} to judge on {} sandbox slots, {} unchanged since the last run, {unusable} without a usable source",
        students.len(),
        judges.len(),
        students.len() - to_judge - unusable
    );
    let progress = Progress::new(students.len() as u64, "students");
    let on_row = {
        let progress = progress.clone();
        Arc::new(move |r: &Row| {
            let student = sudojudge::grade::text::printable(&r.student);
            let line = format!("{student}: {} {}", r.verdict_name(), r.score);
            progress.done(&line, r.verdict == Some(sudojudge::judge::Verdict::SE));
        })
    };
    let runtime = runtime()?;
    let stop = Arc::new(AtomicBool::new(false));
    watch_ctrl_c(&runtime, Arc::clone(&stop));
    let graded = runtime.block_on(grade_class(
        judges,
        Arc::new(problem.clone()),
        &students,
        cache.as_ref(),
        Arc::clone(&stop),
        on_row,
    ));
    progress.finish();
    let summary = Summary::of(&graded.rows);
    let pairs = if args.similarity {
        let files = similarity_sources(&options, &students, &args.against)?;
        let settings = Settings {
            threshold_percent: args.threshold,
            ..Settings::default()
        };
        let started = Instant::now();
        let pairs = similarity::analyse(&files, &base, &settings);
        eprintln!(
            "similarity: {} sources compared in {} ms",
            files.len(),
            started.elapsed().as_millis()
        );
        Some((pairs, files.len()))
    } else {
        None
    };
    if let Some(csv) = &args.csv {
        let bytes = grades_csv(&graded.rows).context("encoding the CSV")?;
        write_atomically(csv, &bytes).with_context(|| format!("writing {}", csv.display()))?;
        Cache::new(&problem.id, &package, graded.rows.clone())
            .save(&cache_path(csv))
            .context("writing the re-run cache")?;
        if let Some((pairs, _)) = &pairs {
            let path = similarity_path(csv);
            let bytes = similarity_csv(&pairs.pairs).context("encoding the similarity CSV")?;
            write_atomically(&path, &bytes)
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    if args.json {
        let output = Output {
            problem: problem.id.clone(),
            students: graded.rows.clone(),
            summary,
            judged: graded.judged,
            reused: graded.reused,
            interrupted: graded.interrupted,
            similarity_distribution: pairs.as_ref().map(|(c, _)| c.distribution.clone()),
            similarity: pairs.map(|(c, _)| c.pairs),
        };
        println!(
            "{}",
            serde_json::to_string(&output).context("encoding the JSON")?
        );
    } else {
        print!("{}", table::render_rows(&graded.rows, &summary));
        if let Some((pairs, compared)) = &pairs {
            print!("{}", table::render_pairs(pairs, args.threshold, *compared));
        }
    }
    if graded.interrupted > 0 {
        eprintln!(
            "interrupted: {} students not graded (run again to grade them)",
            graded.interrupted
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
