//! The class summary under the table: students per verdict, mean and median score.

use serde::Serialize;

use crate::judge::Verdict;

use super::row::Row;

/// Students per verdict, and the scores of the judged ones.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Every student.
    pub students: usize,
    /// `(verdict, students)` in the order AC WA TLE MLE OLE RE CE SE `-`, zeros left out.
    pub verdicts: Vec<(String, usize)>,
    /// Mean score over the students with a verdict (`-` rows are not counted); `None`
    /// when nobody was judged.
    pub mean_score: Option<f64>,
    /// Median score over the same students.
    pub median_score: Option<f64>,
}

impl Summary {
    /// The summary of `rows`.
    pub fn of(rows: &[Row]) -> Summary {
        let mut verdicts: Vec<(String, usize)> = Verdict::ALL
            .iter()
            .map(|v| {
                let n = rows.iter().filter(|r| r.verdict == Some(*v)).count();
                (v.as_str().to_string(), n)
            })
            .collect();
        verdicts.push((
            "-".into(),
            rows.iter().filter(|r| r.verdict.is_none()).count(),
        ));
        verdicts.retain(|(_, n)| *n > 0);
        let mut scores: Vec<i64> = rows
            .iter()
            .filter(|r| r.verdict.is_some())
            .map(|r| r.score)
            .collect();
        scores.sort_unstable();
        let n = scores.len();
        let mean = (n > 0).then(|| scores.iter().map(|&s| s as f64).sum::<f64>() / n as f64);
        let median = (n > 0).then(|| {
            if n % 2 == 1 {
                scores[n / 2] as f64
            } else {
                (scores[n / 2 - 1] as f64 + scores[n / 2] as f64) / 2.0
            }
        });
        Summary {
            students: rows.len(),
            verdicts,
            mean_score: mean,
            median_score: median,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(verdict: Option<Verdict>, score: i64) -> Row {
        crate::grade::row::test_row("s", verdict, score)
    }

    #[test]
    fn counts_verdicts_and_scores_judged_students_only() {
        let rows = [
            row(Some(Verdict::AC), 100),
            row(Some(Verdict::WA), 50),
            row(Some(Verdict::WA), 0),
            row(Some(Verdict::CE), 0),
            row(None, 0),
        ];
        let s = Summary::of(&rows);
        assert_eq!(s.students, 5);
        assert_eq!(
            s.verdicts,
            [
                ("AC".into(), 1),
                ("WA".into(), 2),
                ("CE".into(), 1),
                ("-".into(), 1)
            ]
        );
        assert_eq!(s.mean_score, Some(37.5));
        assert_eq!(s.median_score, Some(25.0));
        assert_eq!(Summary::of(&[row(None, 0)]).mean_score, None);
    }
}
