//! `sudojudge grade`: a class folder (or an assignment of several problems) to a table, CSV
//! files and JSON, with a similarity report and a gradebook.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use sudojudge::config::Config;
use sudojudge::grade::assignment::Assignment;
use sudojudge::grade::csvfile::write_atomically;
use sudojudge::grade::gradebook::{self, Column, Gradebook};
use sudojudge::grade::lms::Lms;
use sudojudge::grade::outputs::{
    assignment_owner, ensure_ours, lms_gradebook, lms_owner, ProblemFiles,
};
use sudojudge::grade::{cache::Cache, table};
use sudojudge::languages::LanguageTable;

use super::grade_problem::{self, Graded, Shared, Task};
use super::judging::runtime;

/// Arguments of `sudojudge grade`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `PROBLEM PATH...` (one problem: class folders or single files), or `PROBLEM=PATH...`
    /// (an assignment of several problems, equal weights).
    #[arg(required_unless_present = "assignment", value_name = "PROBLEM PATH...")]
    pub targets: Vec<PathBuf>,
    /// An assignment file (TOML): each `[[problem]]` with its `problem`, `path` and `weight`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["targets", "base", "against"])]
    pub assignment: Option<PathBuf>,
    /// Write the table as CSV here (one problem; its similar pairs beside it as
    /// `STEM.similarity.csv`), or the gradebook (an assignment; each problem's CSV beside it
    /// as `STEM.PROBLEM.csv`); a re-run with the same file judges only the changed files.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the gradebook in the layout this LMS imports (Moodle's grading worksheet,
    /// Canvas's gradebook): an assignment's instead of the plain one; one problem's beside
    /// its grades CSV, as `STEM.moodle.csv` or `STEM.canvas.csv`.
    #[arg(long, value_enum, requires = "csv")]
    pub lms: Option<Lms>,
    /// Print everything as one JSON object, per-test results included.
    #[arg(long)]
    pub json: bool,
    /// Students judged at once, each on its own sandbox slot (default: the configured workers).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Judge every student again, ignoring the re-run cache.
    #[arg(long)]
    pub force: bool,
    /// Compile every source as this language (an id such as cpp98, or an alias; `doctor`
    /// lists them); default: the language each file's extension selects (cpp17, c17...).
    #[arg(long)]
    pub language: Option<String>,
    /// Compare the class's sources pairwise and report the similar pairs.
    #[arg(long)]
    pub similarity: bool,
    /// Write a self-contained HTML report here: the table, the score histogram, the
    /// similarity distribution and each suspicious pair side by side (implies --similarity).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
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

/// What the command line asks for: one problem, or an assignment (with its weights).
enum Plan {
    One(Task),
    Assignment(Vec<(Task, f64)>),
}

fn plan(args: &Args) -> anyhow::Result<Plan> {
    let assignment = match (&args.assignment, args.targets.first()) {
        (Some(file), _) => Some(Assignment::load(file)?),
        (None, Some(first)) if first.to_string_lossy().contains('=') => {
            let pairs: Vec<String> = args
                .targets
                .iter()
                .map(|t| t.to_string_lossy().into_owned())
                .collect();
            anyhow::ensure!(
                args.base.is_empty() && args.against.is_empty(),
                "--base and --against name one problem's files: put them in an --assignment file's [[problem]]"
            );
            Some(Assignment::from_pairs(&pairs)?)
        }
        _ => None,
    };
    if let Some(assignment) = assignment {
        let tasks = assignment
            .parts
            .into_iter()
            .map(|part| {
                let files = args
                    .csv
                    .as_deref()
                    .map(|g| ProblemFiles::of_assignment(g, &part.problem));
                let task = Task {
                    problem: part.problem,
                    paths: vec![part.path],
                    files,
                    base: part.base,
                    against: part.against,
                };
                (task, part.weight)
            })
            .collect();
        return Ok(Plan::Assignment(tasks));
    }
    let (problem, paths) = args
        .targets
        .split_first()
        .context("name a PROBLEM and its PATHs")?;
    anyhow::ensure!(
        !paths.is_empty(),
        "name the class folders to grade after the problem"
    );
    Ok(Plan::One(Task {
        problem: problem.to_string_lossy().into_owned(),
        paths: paths.to_vec(),
        files: args.csv.as_deref().map(ProblemFiles::single),
        base: args.base.clone(),
        against: args.against.clone(),
    }))
}

/// Runs `sudojudge grade`: exit 0 when done, 130 when Ctrl-C cut it short.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).context("loading the configuration")?;
    let plan = plan(&args)?;
    let tasks: Vec<&Task> = match &plan {
        Plan::One(task) => vec![task],
        Plan::Assignment(tasks) => tasks.iter().map(|(t, _)| t).collect(),
    };
    // Before judging: an output that cannot be written, or that another run made, must not
    // cost a whole class's run.
    let mut skip = Vec::new();
    if let Some(csv) = &args.csv {
        if let Some(parent) = csv.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating the folder of --csv {}", parent.display()))?;
        }
        if let Plan::Assignment(_) = &plan {
            let ids: Vec<&str> = tasks.iter().map(|t| t.problem.as_str()).collect();
            ensure_ours(csv, &assignment_owner(&ids))?;
            skip.extend([csv.clone(), sudojudge::grade::cache::cache_path(csv)]);
        }
    }
    for task in &tasks {
        if let Some(files) = &task.files {
            ensure_ours(&files.csv, &task.problem)?;
            skip.extend(files.all());
        }
    }
    if let (Plan::One(task), Some(csv), Some(kind)) = (&plan, &args.csv, args.lms) {
        let book = lms_gradebook(csv, kind);
        ensure_ours(&book, &lms_owner(&task.problem, kind))?;
        skip.extend([book.clone(), sudojudge::grade::cache::cache_path(&book)]);
    }
    if let Some(report) = &args.report {
        anyhow::ensure!(
            sudojudge::grade::html::may_write(report),
            "{} exists and is not a report of `sudojudge grade`: choose another --report, or remove it",
            report.display()
        );
        if let Some(parent) = report.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating the folder of --report {}", parent.display()))?;
        }
        skip.push(report.clone());
    }
    let languages = LanguageTable::from_config(&config);
    let language = match args.language.as_deref() {
        None => None,
        Some(id) => Some(languages.get(id).map(|l| l.id.clone()).with_context(|| {
            format!(
                "--language {id:?}: unknown language; known: {}",
                languages.known_ids().join(", ")
            )
        })?),
    };
    let shared = Shared {
        config: &config,
        languages,
        jobs: args.jobs,
        force: args.force,
        language,
        similarity: (args.similarity || args.report.is_some()).then_some(args.threshold),
        skip,
        stop: Arc::new(AtomicBool::new(false)),
    };
    let prepared = tasks
        .iter()
        .map(|t| grade_problem::prepare(&shared, t))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let runtime = runtime()?;
    watch_ctrl_c(&runtime, Arc::clone(&shared.stop));
    let mut done: Vec<Graded> = Vec::new();
    for (task, prepared) in tasks.iter().zip(prepared) {
        done.push(grade_problem::grade(&shared, &runtime, task, prepared)?);
    }
    let gradebook = match &plan {
        Plan::One(_) => None,
        Plan::Assignment(tasks) => {
            let parts: Vec<_> = tasks
                .iter()
                .zip(&done)
                .map(|((task, weight), graded)| {
                    let column = Column {
                        problem: task.problem.clone(),
                        weight: *weight,
                        max: graded.max_score,
                    };
                    let rows = graded
                        .output
                        .students
                        .iter()
                        .cloned()
                        .zip(graded.ids.iter().cloned())
                        .collect();
                    (column, rows)
                })
                .collect();
            Some(Gradebook::of(&parts))
        }
    };
    if let (Some(csv), Some(book)) = (&args.csv, &gradebook) {
        let ids: Vec<&str> = tasks.iter().map(|t| t.problem.as_str()).collect();
        write_gradebook(csv, book, args.lms, &assignment_owner(&ids), csv)?;
    }
    if let (Plan::One(task), Some(csv), Some(kind)) = (&plan, &args.csv, args.lms) {
        // One problem's gradebook in the LMS's layout, beside its grades.
        let column = Column {
            problem: task.problem.clone(),
            weight: 1.0,
            max: done[0].max_score,
        };
        let rows = done[0]
            .output
            .students
            .iter()
            .cloned()
            .zip(done[0].ids.iter().cloned())
            .collect();
        let book = Gradebook::of(&[(column, rows)]);
        let path = lms_gradebook(csv, kind);
        write_gradebook(
            &path,
            &book,
            Some(kind),
            &lms_owner(&task.problem, kind),
            csv,
        )?;
        eprintln!("{kind:?} gradebook: {}", path.display());
    }
    if let Some(path) = &args.report {
        write_report(path, &plan, &done, gradebook.as_ref(), args.threshold)?;
    }
    print_results(&args, &done, gradebook.as_ref())?;
    let interrupted: usize = done.iter().map(|g| g.output.interrupted).sum();
    if interrupted > 0 {
        eprintln!("interrupted: {interrupted} students not graded (run again to grade them)");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `book` at `path` (plain, or in `lms`'s layout, its grade column named after the
/// stem of `--csv` `named`), with the cache beside it that names `owner`.
fn write_gradebook(
    path: &Path,
    book: &Gradebook,
    lms: Option<Lms>,
    owner: &str,
    named: &Path,
) -> anyhow::Result<()> {
    let bytes = match lms {
        None => book.csv(),
        Some(kind) => {
            let name = named
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            for line in book.lines.iter().filter(|l| l.id.is_none()) {
                eprintln!(
                    "warning: {} has no LMS id (not named by the export): left out of the {kind:?} gradebook",
                    sudojudge::grade::text::printable(&line.student)
                );
            }
            gradebook::lms_csv(book, kind, &name)
        }
    }
    .context("encoding the gradebook")?;
    write_atomically(path, &bytes).with_context(|| format!("writing {}", path.display()))?;
    Cache::new(owner, "", Vec::new())
        .save(&sudojudge::grade::cache::cache_path(path))
        .context("writing the gradebook's cache")?;
    Ok(())
}

/// Writes the HTML report of every problem graded (and the assignment's gradebook).
fn write_report(
    path: &Path,
    plan: &Plan,
    done: &[Graded],
    gradebook: Option<&Gradebook>,
    threshold: f64,
) -> anyhow::Result<()> {
    use sudojudge::grade::html::{render, ProblemInput};
    let inputs: Vec<ProblemInput> = done
        .iter()
        .map(|g| ProblemInput {
            output: &g.output,
            sources: &g.sources,
            threshold,
            max_score: g.max_score,
        })
        .collect();
    let title = match plan {
        Plan::One(task) => format!("Grades of {}", task.problem),
        Plan::Assignment(tasks) => {
            let ids: Vec<&str> = tasks.iter().map(|(t, _)| t.problem.as_str()).collect();
            format!("Grades of the assignment {}", ids.join(", "))
        }
    };
    let html = render(&title, &inputs, gradebook).context("rendering the report")?;
    write_atomically(path, html.as_bytes())
        .with_context(|| format!("writing {}", path.display()))?;
    eprintln!("report: {}", path.display());
    Ok(())
}

fn print_results(
    args: &Args,
    done: &[Graded],
    gradebook: Option<&Gradebook>,
) -> anyhow::Result<()> {
    if args.json {
        let json = match gradebook {
            None => serde_json::to_string(&done[0].output),
            Some(book) => {
                let problems: Vec<_> = done.iter().map(|g| &g.output).collect();
                serde_json::to_string(&serde_json::json!({
                    "problems": problems,
                    "gradebook": book,
                }))
            }
        };
        println!("{}", json.context("encoding the JSON")?);
        return Ok(());
    }
    for graded in done {
        if gradebook.is_some() {
            println!(
                "== {} ==",
                sudojudge::grade::text::printable(&graded.output.problem)
            );
        }
        print!(
            "{}",
            table::render_rows(&graded.output.students, &graded.output.summary)
        );
        if let Some((comparison, compared)) = &graded.comparison {
            print!(
                "{}",
                table::render_pairs(comparison, args.threshold, *compared)
            );
        }
    }
    if let Some(book) = gradebook {
        print!("{}", book.render());
    }
    Ok(())
}
