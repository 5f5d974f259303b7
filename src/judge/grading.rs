//! A scoring problem's score: its group tree ([`crate::problem::kattis::scoring`]) evaluated
//! over the tests' results the way problemtools' default grader does (tests score
//! `accept_score`, `reject_score` or their `score.txt`; a group aggregates its children's
//! verdicts and scores; `on_reject: break` ends a group at its first rejection), and which
//! tests still need to run.

use serde::{Deserialize, Serialize};

use crate::problem::kattis::scoring::{Aggregation, Group, Item, Scoring, VerdictRule};

use super::points::Points;
use super::verdict::Verdict;

/// One test's result as the grading needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestOutcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The validator's `score.txt`, if it wrote one.
    pub score: Option<Points>,
}

/// One group's result, shown beside the submission (contestants see the name and score).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GroupResult {
    /// The folder under `data/` (`secret/group1`); `""` is `data/` itself.
    pub name: String,
    /// The group's verdict; `None` when none of its tests ran (cut by `on_reject: break`).
    pub verdict: Option<Verdict>,
    /// Its score (0 when it did not run).
    #[schema(value_type = f64)]
    pub score: Points,
    /// The most it can score (its range's top), when finite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub max: Option<Points>,
}

/// A submission's grade: the scored group's verdict and score, and every group's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    /// The verdict of the group the score is (`data/`, or 2025-09's `secret`).
    pub verdict: Verdict,
    /// The submission's score.
    pub score: Points,
    /// Every group, depth first.
    pub groups: Vec<GroupResult>,
}

/// Whether test `next` is still to run, given the results so far (`None`: not run): not
/// when a group around it with `on_reject: break` already has a rejected child.
pub fn should_run(scoring: &Scoring, next: usize, results: &[Option<TestOutcome>]) -> bool {
    let mut walk = Walk {
        results,
        target: Some(next),
        groups: Vec::new(),
    };
    matches!(walk.group(&scoring.root), Step::Reached)
}

/// Whether the submission is rejected whatever the tests not run yet give (each counted
/// accepted): where only the verdict counts (an icpc contest), judging stops there, as it
/// stops at a pass-fail problem's first rejection. A rejection that a later acceptance may
/// still outweigh (`accept_if_any_accepted`, an ignored sample) does not stop it.
pub fn rejected_whatever_follows(scoring: &Scoring, results: &[Option<TestOutcome>]) -> bool {
    let best: Vec<Option<TestOutcome>> = results
        .iter()
        .map(|r| {
            r.or(Some(TestOutcome {
                verdict: Verdict::AC,
                score: None,
            }))
        })
        .collect();
    grade(scoring, &best).verdict != Verdict::AC
}

/// The grade of a submission whose tests gave `results` (by test index; `None`: not run).
pub fn grade(scoring: &Scoring, results: &[Option<TestOutcome>]) -> Graded {
    let mut walk = Walk {
        results,
        target: None,
        groups: Vec::new(),
    };
    walk.group(&scoring.root);
    let mut groups = Vec::new();
    for g in scoring.root.groups() {
        let found = walk.groups.iter().find(|r| r.name == g.name).cloned();
        groups.push(found.unwrap_or_else(|| GroupResult {
            name: g.name.clone(),
            verdict: None,
            score: Points(0.0),
            max: finite(g.rules.range.1),
        }));
    }
    let scored = groups
        .iter()
        .find(|r| r.name == scoring.scored)
        .cloned()
        .unwrap_or_else(|| GroupResult {
            name: String::new(),
            verdict: None,
            score: Points(0.0),
            max: None,
        });
    Graded {
        // Nothing of the scored group ran: the tests were cut before it, a rejection.
        verdict: scored.verdict.unwrap_or(Verdict::WA),
        score: scored.score,
        groups,
    }
}

fn finite(x: f64) -> Option<Points> {
    x.is_finite().then_some(Points(x))
}

enum Step {
    /// The walk reached the test asked about: it runs.
    Reached,
    /// The group ended; its (verdict, score), `None` when nothing of it ran.
    Done(Option<(Verdict, f64)>),
}

struct Walk<'a> {
    results: &'a [Option<TestOutcome>],
    target: Option<usize>,
    groups: Vec<GroupResult>,
}

impl Walk<'_> {
    fn group(&mut self, g: &Group) -> Step {
        let mut children: Vec<(Verdict, f64)> = Vec::new();
        for item in &g.items {
            let child = match item {
                Item::Test(i) => {
                    if self.target == Some(*i) {
                        return Step::Reached;
                    }
                    let Some(Some(o)) = self.results.get(*i) else {
                        continue;
                    };
                    let score = match (o.verdict, o.score) {
                        (Verdict::AC, Some(s)) => s.0,
                        (Verdict::AC, None) => g.rules.accept_score,
                        _ => g.rules.reject_score,
                    };
                    (o.verdict, score)
                }
                Item::Group(sub) => match self.group(sub) {
                    Step::Reached => return Step::Reached,
                    Step::Done(None) => continue,
                    Step::Done(Some(r)) => r,
                },
            };
            children.push(child);
            if child.0 != Verdict::AC && g.rules.on_reject_break {
                break;
            }
        }
        if children.is_empty() {
            return Step::Done(None);
        }
        let (verdict, score) = aggregate(g, &children);
        self.groups.push(GroupResult {
            name: g.name.clone(),
            verdict: Some(verdict),
            score: Points(score),
            max: finite(g.rules.range.1),
        });
        Step::Done(Some((verdict, score)))
    }
}

/// The default grader on one group's children.
fn aggregate(g: &Group, children: &[(Verdict, f64)]) -> (Verdict, f64) {
    let rules = &g.rules;
    let counted = if rules.ignore_sample && children.len() > 1 {
        &children[children.len() - 1..]
    } else {
        children
    };
    if counted.iter().any(|c| c.0 == Verdict::SE) {
        return (Verdict::SE, 0.0);
    }
    let all_ac = counted.iter().all(|c| c.0 == Verdict::AC);
    let verdict = if rules.accept_if_any_accepted && counted.iter().any(|c| c.0 == Verdict::AC) {
        Verdict::AC
    } else {
        match rules.verdicts {
            VerdictRule::AlwaysAccept => Verdict::AC,
            VerdictRule::FirstError => counted
                .iter()
                .map(|c| c.0)
                .find(|v| *v != Verdict::AC)
                .unwrap_or(Verdict::AC),
            VerdictRule::WorstError => counted
                .iter()
                .map(|c| c.0)
                .min_by_key(|v| severity(*v))
                .unwrap_or(Verdict::AC),
        }
    };
    let scores = counted.iter().map(|c| c.1);
    let score = match rules.aggregation {
        Aggregation::Sum => scores.sum(),
        Aggregation::Min => scores.fold(f64::INFINITY, f64::min),
        Aggregation::Max => scores.fold(f64::NEG_INFINITY, f64::max),
        Aggregation::Avg => scores.sum::<f64>() / counted.len() as f64,
        Aggregation::PassFail if all_ac => rules.range.1,
        Aggregation::PassFail => 0.0,
    };
    (verdict, score)
}

/// The default grader's `worst_error` order: smaller is worse.
fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::SE => 0,
        Verdict::CE => 1,
        Verdict::RE => 2,
        Verdict::MLE => 3,
        Verdict::TLE => 4,
        Verdict::OLE => 5,
        Verdict::WA => 6,
        Verdict::AC => 7,
    }
}

#[cfg(test)]
#[path = "grading_tests.rs"]
mod tests;
