//! A scoring problem's promises on scores: `accepted/` gets the maximum of the problem's
//! range, `partially_accepted/` less (and an accepted verdict), and every group's score stays
//! in that group's range (problemtools checks the same).

use crate::judge::{JudgeReport, Points, Verdict};
use crate::problem::Problem;

use super::expectation::Expectation;

/// Why `report` breaks the score promises of `expected` on `problem` (`path` names the
/// solution); empty when it keeps them.
pub fn score_failures(
    path: &str,
    expected: Expectation,
    problem: &Problem,
    report: &JudgeReport,
) -> Vec<String> {
    let Some(scoring) = problem.scoring() else {
        return if expected == Expectation::PartiallyAccepted {
            vec![format!(
                "{path}: partially_accepted/ is for scoring problems (type: scoring); this one \
                 is pass-fail"
            )]
        } else {
            Vec::new()
        };
    };
    let mut out = Vec::new();
    let Some(points) = report.points else {
        return out;
    };
    let (_, max) = scoring.range();
    let of = if max.is_finite() {
        format!(" of {}", Points(max).shown())
    } else {
        String::new()
    };
    let full = max.is_finite() && points.0 >= max;
    match expected {
        Expectation::Accepted | Expectation::SlowAccepted
            if report.verdict == Verdict::AC && max.is_finite() && !full =>
        {
            out.push(format!(
                "{path}: accepted, but scores {}{of}: an accepted solution gets the maximum \
                 (move it to partially_accepted/?)",
                points.shown()
            ));
        }
        Expectation::PartiallyAccepted if report.verdict == Verdict::AC && full => {
            out.push(format!(
                "{path}: scores the maximum {}: a partially accepted solution scores less",
                points.shown()
            ));
        }
        _ => {}
    }
    for g in &report.groups {
        let Some(group) = scoring.root.find(&g.name) else {
            continue;
        };
        let (lo, hi) = group.rules.range;
        if g.verdict.is_some() && !(lo <= g.score.0 && g.score.0 <= hi) {
            let name = if g.name.is_empty() { "data" } else { &g.name };
            out.push(format!(
                "{path}: scores {} on group {name}, outside its range [{lo}, {hi}]",
                g.score.shown()
            ));
        }
    }
    out
}
