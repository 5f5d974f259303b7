//! A problem's full score: what "solved" means for a scored cell of an ioi or oi board, and
//! the Contest API's `max_score`. A pass-fail problem is scored by the share of tests passed,
//! so its full score is 100; a scoring package's comes from its groups.

use crate::problem::Problem;

use super::grading::{grade, TestOutcome};
use super::points::Points;
use super::verdict::Verdict;

/// The full score of a pass-fail problem (every test passed).
pub const PASS_FAIL: i64 = 100;

/// The most a submission to `problem` scores, in the whole points a submission stores and
/// boards show: [`PASS_FAIL`] for a pass-fail problem; for a scoring package, the top of its
/// scored group's `range` (2025-09: its groups' `max_score`s), or, when that range has no
/// top, what every test accepted gives (each scoring its `accept_score`: what a validator's
/// `score.txt` would add is unknown ahead).
pub fn max_score(problem: &Problem) -> i64 {
    let Some(scoring) = problem.scoring() else {
        return PASS_FAIL;
    };
    let (_, top) = scoring.range();
    if top.is_finite() {
        return Points(top).whole();
    }
    let accepted = TestOutcome {
        verdict: Verdict::AC,
        score: None,
    };
    grade(scoring, &vec![Some(accepted); problem.tests.len()])
        .score
        .whole()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn fixture(name: &str) -> Problem {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kattis");
        crate::problem::load(&dir.join(name)).unwrap()
    }

    #[test]
    fn a_scoring_packages_maximum_is_its_ranges_top_and_pass_fail_is_100() {
        assert_eq!(max_score(&fixture("negsum")), 15);
        assert_eq!(max_score(&fixture("groupsum")), 100);
        assert_eq!(max_score(&fixture("sum")), PASS_FAIL);
    }

    #[test]
    fn a_range_without_top_gives_what_every_test_accepted_scores() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("open");
        let files = [
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: O\nuuid: u\ntype: scoring\n\
                 limits:\n  time_limit: 1\n",
            ),
            ("statement/problem.en.md", "x\n"),
            ("data/secret/testdata.yaml", "accept_score: 7\n"),
            ("data/secret/1.in", "1\n"),
            ("data/secret/1.ans", "1\n"),
            ("data/secret/2.in", "2\n"),
            ("data/secret/2.ans", "2\n"),
        ];
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let p = crate::problem::load(&root).unwrap();
        assert!(p.scoring().unwrap().range().1.is_infinite());
        assert_eq!(max_score(&p), 14);
    }
}
