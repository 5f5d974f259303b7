//! One problem of `sudojudge grade`: discovery, judging on the sandbox slots with the re-run
//! cache, the similarity pass, and the problem's files (grades CSV, cache, similar pairs).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::grade::cache::{package_hash, Cache};
use sudojudge::grade::csvfile::{grades_csv, similarity_csv, write_atomically};
use sudojudge::grade::outputs::ProblemFiles;
use sudojudge::grade::similarity::{self, Comparison, Settings, SourceFile};
use sudojudge::grade::{class, grade_class, DiscoverOptions, Found, Output, Row, Student, Summary};
use sudojudge::languages::LanguageTable;

use super::judging::{slot_judges, worker_count, Progress};

/// What one problem's grade takes.
pub struct Task {
    /// The problem id.
    pub problem: String,
    /// Class folders or single files.
    pub paths: Vec<PathBuf>,
    /// Where its files go (with `--csv`).
    pub files: Option<ProblemFiles>,
    /// Code handed out.
    pub base: Vec<PathBuf>,
    /// Earlier years' folders.
    pub against: Vec<PathBuf>,
}

/// The settings every problem of a run shares.
pub struct Shared<'a> {
    /// The configuration.
    pub config: &'a Config,
    /// Its languages.
    pub languages: LanguageTable,
    /// `--jobs`.
    pub jobs: Option<usize>,
    /// `--force`.
    pub force: bool,
    /// `--language`: the id every source is compiled as (checked), else each file's own.
    pub language: Option<String>,
    /// `--similarity` with `--threshold`.
    pub similarity: Option<f64>,
    /// Files never taken for a student's (every output of the run).
    pub skip: Vec<PathBuf>,
    /// Set by Ctrl-C.
    pub stop: Arc<AtomicBool>,
}

/// A problem graded.
pub struct Graded {
    /// Each row's student's LMS id (the rows' order).
    pub ids: Vec<Option<String>>,
    /// The JSON of the problem (rows with their reports, summary, pairs).
    pub output: Output,
    /// The similarity pass and the number of sources it compared.
    pub comparison: Option<(Comparison, usize)>,
    /// The sources it compared (the report shows the pairs' text).
    pub sources: Vec<SourceFile>,
    /// The problem's full score (the gradebook's share of it).
    pub max_score: i64,
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
    class: &[Student],
    against: &[PathBuf],
) -> anyhow::Result<Vec<SourceFile>> {
    let source = |s: &Student, prefix: Option<&str>| match &s.found {
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

/// The file that marks a folder as a zip this command extracted (so a re-run may replace it).
const EXTRACTED_MARK: &str = ".sudojudge-extracted";

fn is_zip(path: &std::path::Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// Extracts each zip of `paths` (an LMS export) into a folder of its own, safely
/// (`sudojudge::archive`): beside the problem's CSV, named after it and the zip
/// (`week3.sudoku.class/`), so a re-run finds the same paths; without `--csv`, into a
/// temporary folder. Other paths are kept as they are.
fn unpack(
    paths: &[PathBuf],
    files: Option<&ProblemFiles>,
    temp: &mut Vec<tempfile::TempDir>,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if !is_zip(path) {
            out.push(path.clone());
            continue;
        }
        let zip_stem = path
            .file_stem()
            .map_or_else(|| "class".into(), |s| s.to_string_lossy().into_owned());
        let dest = match files {
            Some(f) => {
                let csv_stem = f
                    .csv
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                let dest = f.csv.with_file_name(format!("{csv_stem}.{zip_stem}"));
                if std::fs::symlink_metadata(&dest).is_ok() {
                    anyhow::ensure!(
                        dest.join(EXTRACTED_MARK).is_file() && !dest.is_symlink(),
                        "{} exists and is not a zip this command extracted: remove it, or choose another --csv",
                        dest.display()
                    );
                    std::fs::remove_dir_all(&dest)
                        .with_context(|| format!("replacing {}", dest.display()))?;
                }
                dest
            }
            None => {
                let dir = tempfile::tempdir().context("making a temporary folder")?;
                let dest = dir.path().join(&zip_stem);
                temp.push(dir);
                dest
            }
        };
        let extracted =
            sudojudge::archive::extract(path, &dest, &sudojudge::archive::Limits::default())
                .with_context(|| format!("refusing {}", path.display()))?;
        std::fs::write(dest.join(EXTRACTED_MARK), path.display().to_string())
            .with_context(|| format!("writing {}", dest.display()))?;
        eprintln!(
            "{}: {} files ({} KiB) extracted to {}",
            path.display(),
            extracted.files.len(),
            extracted.bytes.div_ceil(1024),
            dest.display()
        );
        out.push(dest);
    }
    Ok(out)
}

/// What a task needs before judging starts: checked first, so that a mistake costs no run.
pub struct Prepared {
    problem: sudojudge::problem::Problem,
    options: DiscoverOptions,
    students: Vec<Student>,
    base: Vec<(String, String)>,
    package: String,
    /// Temporary folders of the zips extracted without `--csv`, kept for the run.
    _temp: Vec<tempfile::TempDir>,
}

/// Loads the problem, finds the students and reads `--base`, before anything is judged.
pub fn prepare(shared: &Shared, task: &Task) -> anyhow::Result<Prepared> {
    let problem = sudojudge::problem::find(&shared.config.problems.dir, &task.problem)
        .with_context(|| format!("loading problem {:?}", task.problem))?;
    let options = DiscoverOptions {
        languages: shared.languages.clone(),
        max_source_bytes: shared.config.server.max_source_kib.saturating_mul(1024),
        skip: shared.skip.clone(),
    };
    let mut temp = Vec::new();
    let paths = unpack(&task.paths, task.files.as_ref(), &mut temp)?;
    let mut students = options.discover_all(&paths)?;
    if let Some(id) = &shared.language {
        sudojudge::grade::discover::compile_all_as(&mut students, id);
    }
    anyhow::ensure!(
        !students.is_empty(),
        "{}: no student found in the given paths",
        task.problem
    );
    let base = read_base(&shared.languages, &task.base)?;
    for dir in &task.against {
        anyhow::ensure!(dir.is_dir(), "--against {}: not a folder", dir.display());
    }
    let package = package_hash(&problem, &shared.languages)?;
    Ok(Prepared {
        problem,
        options,
        students,
        base,
        package,
        _temp: temp,
    })
}

/// Grades one prepared problem and writes its files.
pub fn grade(
    shared: &Shared,
    runtime: &tokio::runtime::Runtime,
    task: &Task,
    prepared: Prepared,
) -> anyhow::Result<Graded> {
    let Prepared {
        problem,
        options,
        students,
        base,
        package,
        _temp,
    } = prepared;
    let max_score = sudojudge::judge::max_score::max_score(&problem);
    let cache = match (&task.files, shared.force) {
        (Some(files), false) if files.csv.exists() => {
            Cache::load(&files.cache, &problem.id, &package)
        }
        _ => None,
    };
    let to_judge = class::to_judge(&students, cache.as_ref());
    let workers = worker_count(shared.config, shared.jobs, to_judge);
    let judges = if to_judge == 0 {
        Vec::new()
    } else {
        slot_judges(shared.config, workers, "")?
    };
    let unusable = students
        .iter()
        .filter(|s| matches!(s.found, Found::Unusable { .. }))
        .count();
    eprintln!(
        "grading {} on {} students: {to_judge} to judge on {} sandbox slots, {} unchanged since the last run, {unusable} without a usable source",
        problem.id,
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
    let graded = runtime.block_on(grade_class(
        judges,
        Arc::new(problem.clone()),
        &students,
        cache.as_ref(),
        Arc::clone(&shared.stop),
        on_row,
    ));
    progress.finish();
    let summary = Summary::of(&graded.rows);
    let mut sources = Vec::new();
    let comparison = match shared.similarity {
        Some(threshold) => {
            let files = similarity_sources(&options, &students, &task.against)?;
            let settings = Settings {
                threshold_percent: threshold,
                ..Settings::default()
            };
            let started = Instant::now();
            let comparison = similarity::analyse(&files, &base, &settings);
            eprintln!(
                "similarity: {} sources compared in {} ms",
                files.len(),
                started.elapsed().as_millis()
            );
            let compared = files.len();
            sources = files;
            Some((comparison, compared))
        }
        None => None,
    };
    if let Some(files) = &task.files {
        let bytes = grades_csv(&graded.rows).context("encoding the CSV")?;
        write_atomically(&files.csv, &bytes)
            .with_context(|| format!("writing {}", files.csv.display()))?;
        Cache::new(&problem.id, &package, graded.rows.clone())
            .save(&files.cache)
            .context("writing the re-run cache")?;
        if let Some((comparison, _)) = &comparison {
            let bytes = similarity_csv(&comparison.pairs).context("encoding the similarity CSV")?;
            write_atomically(&files.similarity, &bytes)
                .with_context(|| format!("writing {}", files.similarity.display()))?;
        }
    }
    let output = Output {
        problem: problem.id.clone(),
        students: graded.rows,
        summary,
        judged: graded.judged,
        reused: graded.reused,
        interrupted: graded.interrupted,
        similarity_distribution: comparison.as_ref().map(|(c, _)| c.distribution.clone()),
        similarity: comparison.as_ref().map(|(c, _)| c.pairs.clone()),
    };
    let ids = students.iter().map(|s| s.id.clone()).collect();
    Ok(Graded {
        ids,
        output,
        comparison,
        sources,
        max_score,
    })
}
