//! `sudojudge grade --report FILE`: one self-contained HTML file a teacher opens (no network,
//! no script but a few lines; CSS inline), rendered by askama (`templates/grade_report.html`,
//! which escapes every student's text): per problem the table with verdict counts and a score
//! histogram, the class's similarity distribution with its bound and the threshold marked,
//! and each suspicious pair side by side with its matching regions highlighted.
//!
//! - [`charts`]: the score bars and the similarity histogram's geometry.
//! - [`pairs`]: a pair's two files, line by line, with the regions marked.

pub mod charts;
pub mod pairs;

use std::collections::HashMap;
use std::path::Path;

use askama::Template;

use super::gradebook::Gradebook;
use super::similarity::SourceFile;
use super::Output;
use charts::{score_bars, DistributionChart, ScoreBar};
use pairs::{pair_views, PairView};

/// What the report shows of one problem.
pub struct ProblemInput<'a> {
    /// The problem's rows, summary and pairs.
    pub output: &'a Output,
    /// The sources the similarity pass compared (their text is shown side by side).
    pub sources: &'a [SourceFile],
    /// `--threshold`, in percent.
    pub threshold: f64,
    /// The problem's full score ([`crate::judge::max_score::max_score`]): the score bars
    /// are tenths of it, as the gradebook counts a score.
    pub max_score: i64,
}

struct StudentView {
    student: String,
    file: String,
    language: String,
    verdict: String,
    score: i64,
    passed: String,
    time_ms: u64,
    memory_kib: u64,
    message: String,
    stderr: String,
    team: String,
}

struct SimilarityView {
    pairs_compared: usize,
    median: String,
    mad: String,
    bound: String,
    threshold: String,
    chart: DistributionChart,
    pairs: Vec<PairView>,
    hidden: usize,
}

struct ProblemView {
    id: String,
    anchor: String,
    students: Vec<StudentView>,
    verdicts: Vec<(String, usize)>,
    mean: String,
    median: String,
    scores: Vec<ScoreBar>,
    max_score: i64,
    similarity: Option<SimilarityView>,
}

struct BookView {
    columns: Vec<String>,
    lines: Vec<(String, String, Vec<String>, String)>,
}

#[derive(Template)]
#[template(path = "grade_report.html")]
struct Report {
    script: &'static str,
    script_hash: String,
    title: String,
    problems: Vec<ProblemView>,
    gradebook: Option<BookView>,
}

/// The report's only script: a region's link scrolls both files to it. The page's
/// Content-Security-Policy allows this script by its hash and nothing else, so even a
/// student's text that escaped the escaping could not run.
const SCRIPT: &str = r#"
document.addEventListener("click", function (e) {
  var a = e.target.closest("a[data-b]");
  if (!a) return;
  e.preventDefault();
  [a.getAttribute("href").slice(1), a.dataset.b].forEach(function (id) {
    var line = document.getElementById(id);
    if (line) line.parentElement.scrollTop = line.offsetTop - line.parentElement.offsetTop - 20;
  });
});
"#;

/// `sha256-...` of [`SCRIPT`], for the Content-Security-Policy.
fn script_hash() -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha256::digest(SCRIPT.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The mark the report carries, so that a re-run may replace a report and nothing else.
pub const GENERATOR: &str = r#"<meta name="generator" content="sudojudge grade">"#;

fn problem_view(index: usize, input: &ProblemInput) -> ProblemView {
    let out = input.output;
    let anchor = format!("p{index}");
    let students = out
        .students
        .iter()
        .map(|r| StudentView {
            student: r.student.clone(),
            file: r.file.clone(),
            language: r.language.clone(),
            verdict: r.verdict_name().to_string(),
            score: r.score,
            passed: if r.verdict.is_some() {
                format!("{}/{}", r.passed, r.total)
            } else {
                "-".into()
            },
            time_ms: r.time_ms,
            memory_kib: r.memory_kib,
            message: r.message_with_stderr(),
            stderr: r.stderr_tail().unwrap_or_default().to_string(),
            team: r.team_message().unwrap_or_default().to_string(),
        })
        .collect();
    let similarity = out.similarity_distribution.as_ref().map(|d| {
        let texts: HashMap<&str, &str> = input
            .sources
            .iter()
            .map(|s| (s.file.as_str(), s.text.as_str()))
            .collect();
        let pairs = out.similarity.as_deref().unwrap_or_default();
        let views = pair_views(&anchor, pairs, &texts);
        SimilarityView {
            pairs_compared: d.pairs,
            median: format!("{:.1}", d.median),
            mad: format!("{:.1}", d.mad),
            bound: d.bound.map_or_else(
                || {
                    format!(
                        "none (under {} pairs)",
                        super::similarity::distribution::MIN_PAIRS
                    )
                },
                |b| format!("{b:.1}%"),
            ),
            threshold: format!("{}", input.threshold),
            chart: DistributionChart::of(d, input.threshold),
            hidden: views.iter().filter(|p| !p.shown).count(),
            pairs: views,
        }
    });
    let number = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"));
    ProblemView {
        id: out.problem.clone(),
        anchor,
        students,
        verdicts: out.summary.verdicts.clone(),
        mean: number(out.summary.mean_score),
        median: number(out.summary.median_score),
        scores: score_bars(&out.students, input.max_score),
        max_score: input.max_score,
        similarity,
    }
}

fn book_view(book: &Gradebook) -> BookView {
    BookView {
        columns: book
            .columns
            .iter()
            .map(|c| format!("{} (x{})", c.problem, c.weight))
            .collect(),
        lines: book
            .lines
            .iter()
            .map(|l| {
                (
                    l.student.clone(),
                    l.id.clone().unwrap_or_default(),
                    l.scores
                        .iter()
                        .map(|s| s.map_or_else(|| "-".to_string(), |s| s.to_string()))
                        .collect(),
                    format!("{:.1}", l.total),
                )
            })
            .collect(),
    }
}

/// The report of `problems` (one, or an assignment's with its `gradebook`), titled `title`.
pub fn render(
    title: &str,
    problems: &[ProblemInput],
    gradebook: Option<&Gradebook>,
) -> Result<String, askama::Error> {
    Report {
        script: SCRIPT,
        script_hash: script_hash(),
        title: title.to_string(),
        problems: problems
            .iter()
            .enumerate()
            .map(|(i, p)| problem_view(i, p))
            .collect(),
        gradebook: gradebook.map(book_view),
    }
    .render()
}

/// Whether `path` may be written: it does not exist, or it is a report a grade wrote (it
/// carries [`GENERATOR`] near its top). Anything else is the teacher's and is kept.
pub fn may_write(path: &Path) -> bool {
    use std::io::Read;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return true;
    };
    // A regular file only (a FIFO must not block the run), and only its head is read.
    let mut head = Vec::new();
    meta.is_file()
        && std::fs::File::open(path)
            .and_then(|f| f.take(4096).read_to_end(&mut head))
            .is_ok()
        && String::from_utf8_lossy(&head).contains(GENERATOR)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::row::test_row;
    use crate::grade::similarity::{analyse, Settings};
    use crate::grade::Summary;
    use crate::judge::Verdict;

    fn source(student: &str, text: &str) -> SourceFile {
        SourceFile {
            student: student.into(),
            file: format!("class/{student}.py"),
            language: "python".into(),
            text: text.into(),
            against: false,
        }
    }

    #[test]
    fn students_text_is_escaped_and_copied_lines_are_marked() {
        let body: String = (0..30)
            .map(|i| {
                let args = vec!["a"; i % 5 + 1].join(", ");
                format!("x{i} = f({args}){}\n", " + b".repeat(i % 3))
            })
            .collect();
        let evil = format!("s = \"</pre><script>alert(1)</script>\"\n{body}");
        let sources = [source("<b>eve</b>", &evil), source("amy", &body)];
        let comparison = analyse(&sources, &[], &Settings::default());
        assert_eq!(comparison.pairs.len(), 1);
        let rows = vec![
            test_row("<b>eve</b>", Some(Verdict::AC), 100),
            test_row("amy", Some(Verdict::AC), 100),
        ];
        let output = Output {
            problem: "p".into(),
            summary: Summary::of(&rows),
            students: rows,
            judged: 2,
            reused: 0,
            interrupted: 0,
            similarity_distribution: Some(comparison.distribution.clone()),
            similarity: Some(comparison.pairs),
        };
        let html = render(
            "Grades of p",
            &[ProblemInput {
                output: &output,
                sources: &sources,
                threshold: 50.0,
                max_score: 100,
            }],
            None,
        )
        .unwrap();
        assert!(!html.contains("<script>alert"), "escaped");
        assert!(!html.contains("<b>eve"), "escaped");
        assert!(
            html.contains("&#60;/pre&#62;&#60;script&#62;"),
            "shown as text"
        );
        assert_eq!(html.matches("<script").count(), 1, "only the report's own");
        assert!(html.contains(&script_hash()));
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains(GENERATOR));
        // eve's copied lines are 2-31 (her line 1 is her own), amy's 1-30.
        assert!(html.contains(r#"data-lines-a="2-31" data-lines-b="1-30""#));
        assert!(
            html.contains(r#"data-line="1">s ="#),
            "eve's own line is not marked"
        );
        assert!(html.contains(r#"data-line="2" data-region="1">x0 ="#));
    }

    #[test]
    fn only_a_report_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.html");
        assert!(may_write(&path));
        std::fs::write(&path, "<html>the teacher's page</html>").unwrap();
        assert!(!may_write(&path));
        std::fs::write(&path, format!("<!DOCTYPE html>\n{GENERATOR}\n")).unwrap();
        assert!(may_write(&path));
    }
}
