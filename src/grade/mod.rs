//! `sudojudge grade`: a teacher's class folder of student submissions to a table, a CSV and
//! a similarity report.
//!
//! - [`discover`]: folders to students (one file each, or one subfolder each, LMS exports
//!   included); what cannot be judged says why.
//! - [`files`]: reading a folder a student prepared: no link followed, only regular files
//!   of ordinary file systems read, with a bounded non-blocking read.
//! - [`text`]: students' names shown safely: control characters escaped, CSV formula cells
//!   neutralised.
//! - [`class`]: judging the students on the sandbox slots in parallel, with the re-run cache
//!   and a stop request.
//! - [`row`]: one student's result; [`summary`]: counts per verdict, mean and median score.
//! - [`cache`]: content hashes and the cache beside the CSV, so a re-run judges only
//!   changed files.
//! - [`csvfile`], [`table`]: the CSV files and the table; the JSON is [`Output`].
//! - [`similarity`]: normalised tokens, winnowed fingerprints, similar pairs.
//! - [`assignment`]: several problems in one run (`--assignment FILE`, `PROBLEM=DIR`);
//!   [`gradebook`]: one row per student across them, with the weighted total;
//!   [`outputs`]: the files' names, and no run overwriting another's; [`lms`]: Moodle's
//!   and Canvas's export names and gradebook layouts.
//! - [`html`]: the self-contained HTML report (`--report`): tables, histograms, and the
//!   suspicious pairs side by side with their matching regions.

pub mod assignment;
pub mod cache;
pub mod class;
pub mod csvfile;
pub mod discover;
pub mod files;
pub mod gradebook;
pub mod html;
pub mod lms;
pub mod outputs;
pub mod row;
pub mod similarity;
pub mod summary;
pub mod table;
pub mod text;

use serde::Serialize;

pub use class::{grade_class, Graded, OnRow};
pub use discover::{DiscoverOptions, Found, Student};
pub use row::Row;
pub use summary::Summary;

/// Everything `sudojudge grade --json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Output {
    /// The problem id.
    pub problem: String,
    /// One row per student, sorted by student, each with its judge report (per-test results).
    pub students: Vec<Row>,
    /// Counts per verdict, mean and median score.
    pub summary: Summary,
    /// Students judged in this run.
    pub judged: usize,
    /// Students whose verdict came from the re-run cache.
    pub reused: usize,
    /// Students left out by Ctrl-C.
    pub interrupted: usize,
    /// The similar pairs (with `--similarity`), most similar first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<Vec<similarity::Pair>>,
    /// The class's distribution of pairwise similarity (with `--similarity`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity_distribution: Option<similarity::Distribution>,
}
