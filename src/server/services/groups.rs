//! A scoring problem's group results beside a stored submission: computed when it is read,
//! from its tests' verdicts and scores and the package's groups, so that a contestant sees
//! each group's name and score while its secret tests stay numbers.

use crate::judge::grading::{grade, TestOutcome};
use crate::store::{Status, Submission};
use crate::worker::Problems;

/// `s` with its groups' results, when its problem is a scoring one and it is judged.
pub fn with_groups(problems: &Problems, mut s: Submission) -> Submission {
    let Some(problem) = problems.get(&s.problem) else {
        return s;
    };
    let Some(scoring) = problem.scoring() else {
        return s;
    };
    if s.status != Status::Done || s.tests.is_empty() {
        return s;
    }
    let mut outcomes: Vec<Option<TestOutcome>> = vec![None; problem.tests.len()];
    for t in &s.tests {
        // A test the package no longer has (rejudged data) counts for no group.
        if let Some(i) = problem.tests.iter().position(|p| p.name == t.name) {
            outcomes[i] = Some(TestOutcome {
                verdict: t.verdict,
                score: t.score,
            });
        }
    }
    s.groups = grade(scoring, &outcomes).groups;
    s
}
