//! `sudojudge verify` on a scoring package whose scores go below 0 (issue 29: a score's
//! range comes from the package): `negsum` (each secret test 5 points, -5 when rejected,
//! range -15 15) reports a solution's negative score as it is, not 0, and checks it against
//! the range's negative lower bound.

use crate::kattis_verify::{assert_scores, verify, verify_ok};

#[test]
fn verify_keeps_a_negative_score_and_checks_it_against_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let (package, config, json) = verify_ok(dir.path(), "negsum");
    assert_scores(
        &json,
        &[
            ("accepted/sum.py", "AC", 15.0),
            // Right on one secret test, wrong on two: 5 - 5 - 5.
            ("wrong_answer/absolute.py", "WA", -5.0),
        ],
    );

    // A range whose floor is above that score: verify names the group and fails.
    for file in ["data/testdata.yaml", "data/secret/testdata.yaml"] {
        let path = package.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("range: -15 15", "range: -2 15")).unwrap();
    }
    let (out, json) = verify(&config, &[&package]);
    assert!(!out.status.success(), "{json:#}");
    let text = json.to_string();
    assert!(
        text.contains(
            "wrong_answer/absolute.py: scores -5 on group secret, outside its range [-2, 15]"
        ),
        "{json:#}"
    );
}
