//! The gradebook of an assignment: one row per student across its problems, a score per
//! problem and the weighted total, as a table and as CSV.

use std::collections::BTreeMap;

use serde::Serialize;

use super::lms::Lms;
use super::row::Row;
use super::text::csv_text;

/// One problem's column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Column {
    /// The problem id.
    pub problem: String,
    /// Its weight in the total.
    pub weight: f64,
    /// Its full score ([`crate::judge::max_score::max_score`]: 100 for a pass-fail problem,
    /// a scoring package's maximum): a score counts in the total as its share of this.
    pub max: i64,
}

/// One student's line of the gradebook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// The student's name.
    pub student: String,
    /// The student's id in the LMS, when the export gave one.
    pub id: Option<String>,
    /// The score of each problem (the columns' order); `None` when the student handed nothing
    /// judgeable in for it (counts 0 in the total).
    pub scores: Vec<Option<i64>>,
    /// The weighted total, 0-100: each score as a percentage of its problem's full score.
    pub total: f64,
}

/// One problem's column and its rows, each with the student's LMS id when known.
pub type Part = (Column, Vec<(Row, Option<String>)>);

/// The whole gradebook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gradebook {
    /// The problems, in the assignment's order.
    pub columns: Vec<Column>,
    /// One line per student, sorted by student.
    pub lines: Vec<Line>,
}

/// `score` as a percentage of `max`, a problem's full score (0 when it has none above 0):
/// what a score counts in the total, and where the report's score bars put it.
pub fn share(score: i64, max: i64) -> f64 {
    if max > 0 {
        score as f64 * 100.0 / max as f64
    } else {
        0.0
    }
}

impl Gradebook {
    /// The gradebook of `parts`: each problem's column and its rows. A student is matched
    /// across problems by id when both rows have one, else by name; the first name seen is
    /// kept. A row not judged (`-`) is `None`.
    pub fn of(parts: &[Part]) -> Gradebook {
        let columns: Vec<Column> = parts.iter().map(|(c, _)| c.clone()).collect();
        let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
        let mut lines: Vec<Line> = Vec::new();
        for (index, (_, rows)) in parts.iter().enumerate() {
            for (row, id) in rows {
                let key = match id {
                    Some(id) => format!("id:{id}"),
                    None => format!("name:{}", row.student),
                };
                let at = *by_key.entry(key).or_insert_with(|| {
                    lines.push(Line {
                        student: row.student.clone(),
                        id: id.clone(),
                        scores: vec![None; columns.len()],
                        total: 0.0,
                    });
                    lines.len() - 1
                });
                let score = row.verdict.map(|_| row.score);
                // A student with two entries for one problem keeps the better one.
                let cell = &mut lines[at].scores[index];
                *cell = (*cell).max(score);
            }
        }
        let weights: f64 = columns.iter().map(|c| c.weight).sum();
        for line in &mut lines {
            let sum: f64 = line
                .scores
                .iter()
                .zip(&columns)
                .map(|(s, c)| share(s.unwrap_or(0), c.max) * c.weight)
                .sum();
            line.total = if weights > 0.0 { sum / weights } else { 0.0 };
        }
        lines.sort_by(|a, b| (&a.student, &a.id).cmp(&(&b.student, &b.id)));
        Gradebook { columns, lines }
    }

    /// The generic CSV: `student,id,<problem>...,total`; a problem not handed in is empty.
    pub fn csv(&self) -> std::io::Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["student".to_string(), "id".to_string()];
        header.extend(self.columns.iter().map(|c| csv_text(&c.problem)));
        header.push("total".into());
        w.write_record(&header).map_err(std::io::Error::other)?;
        for line in &self.lines {
            let mut record = vec![
                csv_text(&line.student),
                csv_text(line.id.as_deref().unwrap_or("")),
            ];
            record.extend(
                line.scores
                    .iter()
                    .map(|s| s.map_or_else(String::new, |s| s.to_string())),
            );
            record.push(format!("{:.1}", line.total));
            w.write_record(&record).map_err(std::io::Error::other)?;
        }
        w.into_inner()
            .map_err(|e| std::io::Error::other(e.to_string()))
    }

    /// The gradebook as a table for the terminal.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let printable = |s: &str| super::text::printable(s).into_owned();
        let ws = self
            .lines
            .iter()
            .map(|l| printable(&l.student).chars().count())
            .max()
            .unwrap_or(0)
            .max("student".len());
        let mut out = String::new();
        let mut header = format!("{:<ws$}", "student");
        for c in &self.columns {
            let _ = write!(
                header,
                "  {:>w$}",
                printable(&c.problem),
                w = c.problem.len().max(5)
            );
        }
        let _ = writeln!(out, "\ngradebook\n{header}  total");
        for line in &self.lines {
            let mut s = format!("{:<ws$}", printable(&line.student));
            for (c, score) in self.columns.iter().zip(&line.scores) {
                let cell = score.map_or_else(|| "-".to_string(), |v| v.to_string());
                let _ = write!(s, "  {cell:>w$}", w = c.problem.len().max(5));
            }
            let _ = writeln!(s, "  {:>5.1}", line.total);
            out.push_str(&s);
        }
        let weights: Vec<String> = self
            .columns
            .iter()
            .map(|c| format!("{} x{}", printable(&c.problem), c.weight))
            .collect();
        let _ = writeln!(
            out,
            "{} students; total = weighted mean of the problems' scores ({}), a problem not handed in counting 0",
            self.lines.len(),
            weights.join(", ")
        );
        out
    }
}

/// The gradebook in the layout `lms` imports: Moodle's offline grading worksheet
/// (`Identifier,Full name,Grade,Maximum Grade`, the identifier `Participant ID`), or
/// Canvas's gradebook (`Student,ID,SIS User ID,SIS Login ID,Section,ASSIGNMENT`, with the
/// `Points Possible` row). A student with no LMS id cannot be matched by the LMS and is
/// left out; they are named on stderr by the caller.
pub fn lms_csv(book: &Gradebook, lms: Lms, assignment: &str) -> std::io::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let io = std::io::Error::other;
    match lms {
        Lms::Moodle => {
            w.write_record(["Identifier", "Full name", "Grade", "Maximum Grade"])
                .map_err(io)?;
            for line in &book.lines {
                if let Some(id) = &line.id {
                    w.write_record([
                        format!("Participant {id}"),
                        csv_text(&line.student),
                        format!("{:.2}", line.total),
                        "100.00".into(),
                    ])
                    .map_err(io)?;
                }
            }
        }
        Lms::Canvas => {
            let column = csv_text(assignment);
            w.write_record([
                "Student",
                "ID",
                "SIS User ID",
                "SIS Login ID",
                "Section",
                &column,
            ])
            .map_err(io)?;
            w.write_record(["    Points Possible", "", "", "", "", "100"])
                .map_err(io)?;
            for line in &book.lines {
                if let Some(id) = &line.id {
                    w.write_record([
                        csv_text(&line.student),
                        id.clone(),
                        String::new(),
                        String::new(),
                        String::new(),
                        format!("{:.2}", line.total),
                    ])
                    .map_err(io)?;
                }
            }
        }
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::row::test_row;
    use crate::judge::Verdict;

    #[test]
    fn one_line_per_student_with_the_weighted_total() {
        let column = |p: &str, w: f64| Column {
            problem: p.into(),
            weight: w,
            max: 100,
        };
        let a = vec![
            (test_row("ann", Some(Verdict::AC), 100), None),
            (test_row("bob", Some(Verdict::WA), 50), None),
            (test_row("cy", None, 0), None),
        ];
        let b = vec![
            (test_row("ann", Some(Verdict::WA), 40), None),
            (test_row("dee", Some(Verdict::AC), 100), None),
        ];
        let g = Gradebook::of(&[(column("p", 1.0), a), (column("q", 3.0), b)]);
        let names: Vec<&str> = g.lines.iter().map(|l| l.student.as_str()).collect();
        assert_eq!(names, ["ann", "bob", "cy", "dee"]);
        assert_eq!(g.lines[0].scores, [Some(100), Some(40)]);
        assert_eq!(g.lines[0].total, (100.0 + 3.0 * 40.0) / 4.0);
        assert_eq!(g.lines[2].scores, [None, None]);
        assert_eq!(g.lines[3].total, 75.0);
        let csv = String::from_utf8(g.csv().unwrap()).unwrap();
        assert!(
            csv.starts_with("student,id,p,q,total\nann,,100,40,55.0\n"),
            "{csv}"
        );
        assert!(csv.contains("\ncy,,,,0.0\n"), "{csv}");
        assert!(g.render().contains("4 students"));
    }

    #[test]
    fn ids_match_students_across_problems() {
        let column = |p: &str| Column {
            problem: p.into(),
            weight: 1.0,
            max: 100,
        };
        let a = vec![(
            test_row("Kim Lee", Some(Verdict::AC), 100),
            Some("4411".into()),
        )];
        let b = vec![(
            test_row("kimlee", Some(Verdict::AC), 50),
            Some("4411".into()),
        )];
        let g = Gradebook::of(&[(column("p"), a), (column("q"), b)]);
        assert_eq!(g.lines.len(), 1);
        assert_eq!(g.lines[0].student, "Kim Lee");
        assert_eq!(g.lines[0].scores, [Some(100), Some(50)]);
    }

    #[test]
    fn a_score_counts_as_its_share_of_the_problems_full_score() {
        let column = |p: &str, max: i64| Column {
            problem: p.into(),
            weight: 1.0,
            max,
        };
        // `negsum` maxes at 15: 15 is full marks, as 100 is on a pass-fail problem.
        let a = vec![
            (test_row("ann", Some(Verdict::AC), 15), None),
            (test_row("bob", Some(Verdict::WA), -5), None),
        ];
        let b = vec![
            (test_row("ann", Some(Verdict::AC), 100), None),
            (test_row("bob", Some(Verdict::WA), 50), None),
        ];
        let g = Gradebook::of(&[(column("negsum", 15), a), (column("sum", 100), b)]);
        assert_eq!(g.lines[0].scores, [Some(15), Some(100)]);
        assert_eq!(g.lines[0].total, 100.0);
        assert_eq!(g.lines[1].total, (-100.0 / 3.0 + 50.0) / 2.0);
    }
}
