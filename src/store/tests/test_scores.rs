//! A scoring problem's test scores (a validator's `score.txt`) are stored with each test's
//! result and read back exactly, on both backends; a test without one reads back without.

use super::backends::{both, Backend};
use crate::judge::{CompileInfo, JudgeReport, Points, TestResult, Verdict};
use crate::store::*;

fn test(name: &str, verdict: Verdict, score: Option<f64>) -> TestResult {
    TestResult {
        name: name.into(),
        verdict,
        time_ms: 1,
        wall_ms: 1,
        memory_kib: 10,
        exit_code: Some(0),
        signal: None,
        message: None,
        stderr_tail: None,
        team_message: None,
        score: score.map(Points),
    }
}

both!(test_scores_are_stored_and_read_back);

async fn test_scores_are_stored_and_read_back(b: &Backend) {
    let s = b.open().await;
    let id = s
        .enqueue(NewSubmission {
            data_hash: None,
            problem: "groupsum".into(),
            language: "python".into(),
            source: "print(3)".into(),
            owner: None,
        })
        .await
        .unwrap();
    let claimed = s.claim("w").await.unwrap().unwrap();
    let tests = vec![
        test("sample/1", Verdict::AC, None),
        test("secret/g1/1", Verdict::AC, Some(12.5)),
        test("secret/g1/2", Verdict::AC, Some(0.0)),
        test("secret/g2/1", Verdict::WA, None),
    ];
    let report = JudgeReport::from_tests(
        "groupsum",
        "python",
        CompileInfo {
            ok: true,
            log: String::new(),
            cached: false,
        },
        tests.clone(),
        false,
    );
    assert!(s.complete(id, claimed.attempt, &report).await.unwrap());
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(
        got.tests, tests,
        "every score as stored, none where none was"
    );
}
