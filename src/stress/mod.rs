//! `sudojudge stress`: a solution against the reference answers on random inputs, until
//! the first disagreement, then that input shrunk to a minimal one that still disagrees.
//!
//! - [`inputs`]: the random inputs of each built-in problem kind, their promises, and the
//!   inputs one step smaller.
//! - [`package`]: a Kattis package's own generator, input validators, reference solution
//!   and output validator.
//! - [`text`]: the generic shrink of a package's text input (lines, tokens, numbers).
//!
//! The reference answers come from the kind's reference solver (`crate::problem::answer`),
//! the verdicts from the problem's own checker, each run in the sandbox under the problem's
//! limits. A disagreement is any verdict but `AC`. Shrinking removes one given (resets one
//! cell) at a time, keeping each step that still disagrees the same way (the same verdict)
//! and still keeps the statement's promises, until a whole pass over the input changes
//! nothing: then no given or cell of it can go without the disagreement going away (or
//! turning into another verdict) or the input breaking a promise. A Kattis package's input
//! is shrunk by [`text`] instead, its validators standing for the promises.

pub mod inputs;
pub mod package;
pub mod text;

use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::checkers::CheckOutcome;
use crate::judge::verdict::status_verdict;
use crate::judge::{Executor, Verdict};
use crate::problem::answer::reference_answer;
use crate::problem::rng::SplitMix64;
use crate::problem::{CheckerKind, Problem};
use crate::sandbox::Limits;

pub use inputs::InputKind;

/// Most sandbox runs one shrink may take (a bound, not a target: a 9x9 input takes a few
/// hundred).
pub const MAX_SHRINK_RUNS: usize = 20_000;

/// Why `stress` could not run.
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The problem has no generator and reference solver this command knows.
    #[error(
        "problem {0} has no built-in generator and reference solver (stress knows the \
         sudoku, target-sudoku and binary-sudoku kinds)"
    )]
    NoGenerator(String),
    /// The package cannot be stressed, or its own program failed (no generator, a generator
    /// crash, a generated input its validators reject, a failing reference solution).
    #[error("{0}")]
    Package(String),
    /// The judge's own fault (the sandbox, the reference solver, a temporary file).
    #[error("{0}")]
    Judge(String),
}

/// One input judged.
#[derive(Debug, Clone, Serialize)]
pub struct Judged {
    /// The input.
    pub input: String,
    /// The reference answer.
    pub expected: String,
    /// What the solution printed (its output file, for packages naming one).
    pub output: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The checker's or the run's message.
    pub message: Option<String>,
}

/// The first disagreement and its shrunk form.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    /// The input that first disagreed.
    pub original: Judged,
    /// The shrunk input, which still disagrees.
    pub shrunk: Judged,
    /// Givens (ones) of the first input and of the shrunk one.
    pub sizes: (usize, usize),
    /// What the sizes count (`givens`, `ones`).
    pub unit: &'static str,
    /// Sandbox runs the shrinking took.
    pub shrink_runs: usize,
    /// Whether a whole pass found nothing more to remove (`false` only when
    /// [`MAX_SHRINK_RUNS`], or for a package the time, ran out first).
    pub minimal: bool,
    /// A package's generator seed that printed the first input (`gen SEED` prints it again).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generator_seed: Option<u64>,
}

/// What a stress run found.
#[derive(Debug, Clone, Serialize)]
pub struct StressReport {
    /// The problem.
    pub problem: String,
    /// The seed of the random inputs (`--seed` repeats the run).
    pub seed: u64,
    /// Random inputs judged before the first disagreement (or in all).
    pub tried: usize,
    /// Seconds spent looking.
    pub search_s: f64,
    /// The disagreement, if any.
    pub found: Option<Found>,
    /// A package's generator (absent for the built-in kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// A package's reference solution (absent for the built-in kinds: their solver).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// The settings of one stress run.
#[derive(Debug, Clone, Copy)]
pub struct StressSettings {
    /// Seed of the random inputs.
    pub seed: u64,
    /// How long to look for a disagreement (for a package, also the most its shrink takes).
    pub time: Duration,
    /// The limits each run gets (the problem's).
    pub limits: Limits,
}

/// The input rules of `problem`, if stress knows its kind.
pub fn input_kind(problem: &Problem) -> Result<InputKind, StressError> {
    let kind = problem
        .validator
        .builtin()
        .ok_or_else(|| StressError::NoGenerator(problem.id.clone()))?;
    Ok(InputKind {
        kind,
        no_clash: kind == CheckerKind::TargetSudoku
            && matches!(problem.gen_profile.as_deref(), None | Some("noip")),
    })
}

/// Judges the compiled solution `program` on `input` (blocking).
pub fn judge_one<E: Executor>(
    executor: &E,
    program: &E::Program,
    problem: &Problem,
    kind: InputKind,
    input: &[u8],
    limits: Limits,
    work: &Path,
) -> Result<Judged, StressError> {
    let expected = reference_answer(kind.kind, input)
        .map_err(|e| StressError::Judge(format!("the reference solver: {e}")))?;
    let path = work.join("input.txt");
    std::fs::write(&path, input)
        .map_err(|e| StressError::Judge(format!("writing {}: {e}", path.display())))?;
    let report = executor
        .run_test(program, &path, &problem.file_io, limits)
        .map_err(|e| StressError::Judge(format!("the sandbox: {e}")))?;
    let (verdict, message) = match status_verdict(&report, &limits) {
        Some(fault) => fault,
        None => match crate::validators::check(
            &problem.validator,
            &[],
            input,
            &report.stdout,
            &expected,
        ) {
            CheckOutcome::Accepted => (Verdict::AC, None),
            CheckOutcome::WrongAnswer(m) => (Verdict::WA, Some(m)),
            CheckOutcome::JudgeError(m) => return Err(StressError::Judge(format!("checker: {m}"))),
        },
    };
    let text = |b: &[u8]| String::from_utf8_lossy(&b[..b.len().min(64 << 10)]).into_owned();
    Ok(Judged {
        input: text(input),
        expected: text(&expected),
        output: text(&report.stdout),
        verdict,
        message,
    })
}

/// Random inputs until the first disagreement (or `settings.time`), then shrinks it.
/// `progress` hears of each input tried.
pub fn stress<E: Executor>(
    executor: &E,
    program: &E::Program,
    problem: &Problem,
    settings: StressSettings,
    mut progress: impl FnMut(usize),
) -> Result<StressReport, StressError> {
    let kind = input_kind(problem)?;
    let work =
        tempfile::tempdir().map_err(|e| StressError::Judge(format!("a temporary folder: {e}")))?;
    let mut rng = SplitMix64::new(settings.seed);
    let started = Instant::now();
    let mut tried = 0;
    let mut found = None;
    while started.elapsed() < settings.time {
        let input = kind.random(&mut rng);
        tried += 1;
        progress(tried);
        let judged = judge_one(
            executor,
            program,
            problem,
            kind,
            input.as_slice(),
            settings.limits,
            work.path(),
        )?;
        if judged.verdict != Verdict::AC {
            found = Some((input, judged));
            break;
        }
    }
    let search_s = started.elapsed().as_secs_f64();
    let found = match found {
        None => None,
        Some((input, judged)) => Some(shrink(kind, input, judged, |candidate| {
            judge_one(
                executor,
                program,
                problem,
                kind,
                candidate,
                settings.limits,
                work.path(),
            )
        })?),
    };
    Ok(StressReport {
        problem: problem.id.clone(),
        seed: settings.seed,
        tried,
        search_s,
        found,
        generator: None,
        reference: None,
    })
}

/// Shrinks the disagreeing `input` (judged `first`) one given at a time while `judge`
/// still disagrees the same way (the same verdict: a wrong answer does not shrink into a
/// time limit) on the smaller input and the input keeps its promises.
pub fn shrink(
    kind: InputKind,
    input: Vec<u8>,
    first: Judged,
    mut judge: impl FnMut(&[u8]) -> Result<Judged, StressError>,
) -> Result<Found, StressError> {
    let original_size = kind.size(&input);
    let mut current = (input, first.clone());
    let mut runs = 0;
    let mut minimal = false;
    'passes: while runs < MAX_SHRINK_RUNS {
        let mut changed = false;
        let mut i = 0;
        loop {
            let candidates = kind.smaller(&current.0);
            let Some(candidate) = candidates.into_iter().nth(i) else {
                break;
            };
            if !kind.is_valid(&candidate) {
                i += 1;
                continue;
            }
            if runs >= MAX_SHRINK_RUNS {
                break 'passes;
            }
            runs += 1;
            let judged = judge(&candidate)?;
            if judged.verdict == first.verdict {
                // The candidate at `i` is gone from the smaller list: `i` is now the next.
                current = (candidate, judged);
                changed = true;
            } else {
                i += 1;
            }
        }
        if !changed {
            minimal = true;
            break;
        }
    }
    Ok(Found {
        original: first,
        sizes: (original_size, kind.size(&current.0)),
        shrunk: current.1,
        unit: kind.unit(),
        shrink_runs: runs,
        minimal,
        generator_seed: None,
    })
}
