use super::*;
use crate::problem::kattis::scoring::Rules;

fn rules(accept: f64, range: (f64, f64), aggregation: Aggregation, brk: bool) -> Rules {
    Rules {
        accept_score: accept,
        reject_score: 0.0,
        range,
        aggregation,
        verdicts: VerdictRule::WorstError,
        accept_if_any_accepted: false,
        ignore_sample: false,
        on_reject_break: brk,
    }
}

/// oddecho's shape: sample (tests 0-1, worth 0), secret with two `min` groups of 50 (tests
/// 2-4 and 5-7), the top ignoring the sample, secret accepting if any group is.
fn oddecho() -> Scoring {
    let group = |name: &str, tests: std::ops::Range<usize>| Group {
        name: name.into(),
        rules: rules(50.0, (0.0, 50.0), Aggregation::Min, true),
        items: tests.map(Item::Test).collect(),
    };
    let mut secret_rules = rules(1.0, (0.0, 100.0), Aggregation::Sum, false);
    secret_rules.verdicts = VerdictRule::FirstError;
    secret_rules.accept_if_any_accepted = true;
    let mut top = rules(1.0, (0.0, 100.0), Aggregation::Sum, false);
    top.ignore_sample = true;
    Scoring {
        root: Group {
            name: String::new(),
            rules: top,
            items: vec![
                Item::Group(Group {
                    name: "sample".into(),
                    rules: rules(0.0, (0.0, 0.0), Aggregation::Sum, false),
                    items: vec![Item::Test(0), Item::Test(1)],
                }),
                Item::Group(Group {
                    name: "secret".into(),
                    rules: secret_rules,
                    items: vec![
                        Item::Group(group("secret/g1", 2..5)),
                        Item::Group(group("secret/g2", 5..8)),
                    ],
                }),
            ],
        },
        scored: String::new(),
    }
}

fn ac() -> Option<TestOutcome> {
    Some(TestOutcome {
        verdict: Verdict::AC,
        score: None,
    })
}

fn wa() -> Option<TestOutcome> {
    Some(TestOutcome {
        verdict: Verdict::WA,
        score: None,
    })
}

fn group<'a>(g: &'a Graded, name: &str) -> &'a GroupResult {
    g.groups.iter().find(|r| r.name == name).unwrap()
}

#[test]
fn every_group_passed_is_the_full_score() {
    let s = oddecho();
    let g = grade(&s, &[ac(); 8]);
    assert_eq!((g.verdict, g.score), (Verdict::AC, Points(100.0)));
    assert_eq!(group(&g, "secret/g2").score, Points(50.0));
    assert_eq!(group(&g, "secret/g2").max, Some(Points(50.0)));
}

#[test]
fn a_failed_group_scores_nothing_and_stops_at_its_first_rejection() {
    let s = oddecho();
    let mut results = vec![ac(); 8];
    results[5] = wa();
    assert!(should_run(&s, 5, &results[..5]));
    assert!(!should_run(&s, 6, &results));
    assert!(!should_run(&s, 7, &results));
    results[6] = None;
    results[7] = None;
    let g = grade(&s, &results);
    // accept_if_any_accepted: g1 passed, so the verdict is AC with half the points.
    assert_eq!((g.verdict, g.score), (Verdict::AC, Points(50.0)));
    assert_eq!(group(&g, "secret/g2").verdict, Some(Verdict::WA));
    assert_eq!(group(&g, "secret/g2").score, Points(0.0));
}

#[test]
fn min_takes_the_worst_test_score_from_score_files() {
    let s = oddecho();
    let mut results = vec![ac(); 8];
    results[3] = Some(TestOutcome {
        verdict: Verdict::AC,
        score: Some(Points(20.0)),
    });
    let g = grade(&s, &results);
    assert_eq!(group(&g, "secret/g1").score, Points(20.0));
    assert_eq!(g.score, Points(70.0));
}

#[test]
fn nothing_passed_is_the_first_error_and_zero() {
    let s = oddecho();
    let mut results = vec![wa(); 8];
    results[0] = ac();
    results[1] = ac();
    let g = grade(&s, &results);
    assert_eq!((g.verdict, g.score), (Verdict::WA, Points(0.0)));
}

#[test]
fn worst_error_and_a_judge_error_propagate() {
    let mut s = oddecho();
    s.root.items.truncate(1);
    let sample = match &mut s.root.items[0] {
        Item::Group(g) => g,
        Item::Test(_) => unreachable!(),
    };
    sample.rules.reject_score = -1.0;
    let tle = Some(TestOutcome {
        verdict: Verdict::TLE,
        score: None,
    });
    let g = grade(&s, &[wa(), tle]);
    assert_eq!(group(&g, "sample").verdict, Some(Verdict::TLE));
    assert_eq!(group(&g, "sample").score, Points(-2.0));
    let se = Some(TestOutcome {
        verdict: Verdict::SE,
        score: None,
    });
    assert_eq!(grade(&s, &[ac(), se]).verdict, Verdict::SE);
}

#[test]
fn only_a_rejection_no_later_test_can_outweigh_ends_a_verdict_only_judging() {
    // oddecho: secret accepts if any group does, and the sample is ignored.
    let s = oddecho();
    let mut results = vec![None; 8];
    results[0] = wa();
    assert!(
        !rejected_whatever_follows(&s, &results),
        "an ignored sample"
    );
    results[0] = ac();
    results[1] = ac();
    results[2] = wa();
    assert!(
        !rejected_whatever_follows(&s, &results),
        "g2 may still pass"
    );
    results[5] = ac();
    results[6] = ac();
    results[7] = wa();
    assert!(
        rejected_whatever_follows(&s, &results),
        "both groups failed"
    );
    // Worst error everywhere: the first rejection decides.
    let mut strict = oddecho();
    strict.root.rules.ignore_sample = false;
    if let Item::Group(secret) = &mut strict.root.items[1] {
        secret.rules.accept_if_any_accepted = false;
    }
    let mut results = vec![None; 8];
    results[0] = ac();
    results[1] = ac();
    results[2] = wa();
    assert!(rejected_whatever_follows(&strict, &results));
    results[2] = ac();
    assert!(!rejected_whatever_follows(&strict, &results));
}
