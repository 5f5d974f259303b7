//! A run-time error's stderr tail is stored with its test's result and read back with it, on
//! both backends; a rejudge's results replace it.

use super::backends::{both, Backend};
use crate::judge::{CompileInfo, JudgeReport, TestResult, Verdict};
use crate::store::*;

fn test(name: &str, verdict: Verdict, tail: Option<&str>) -> TestResult {
    TestResult {
        name: name.into(),
        verdict,
        time_ms: 1,
        wall_ms: 1,
        memory_kib: 10,
        exit_code: Some(1),
        signal: None,
        message: None,
        stderr_tail: tail.map(str::to_string),
        team_message: None,
    }
}

fn report(tests: Vec<TestResult>) -> JudgeReport {
    JudgeReport::from_tests(
        "sudoku",
        "python",
        CompileInfo {
            ok: true,
            log: String::new(),
            cached: false,
        },
        tests,
        false,
    )
}

both!(tails_are_stored_per_test_and_replaced_by_a_rejudge);

async fn tails_are_stored_per_test_and_replaced_by_a_rejudge(b: &Backend) {
    let s = b.open().await;
    let id = s
        .enqueue(NewSubmission {
            data_hash: None,
            problem: "sudoku".into(),
            language: "python".into(),
            source: "raise ValueError".into(),
            owner: None,
        })
        .await
        .unwrap();
    let claimed = s.claim("w").await.unwrap().unwrap();
    let traceback = "Traceback (most recent call last):\n  File \"main.py\", line 1\nValueError: é";
    let tests = vec![
        test("sample/1", Verdict::AC, None),
        test("secret/1", Verdict::RE, Some(traceback)),
        test("secret/2", Verdict::RE, Some("thread 'main' panicked")),
    ];
    assert!(s
        .complete(id, claimed.attempt, &report(tests.clone()))
        .await
        .unwrap());
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(got.tests, tests, "every field, the tails included");
    // A rejudge: the new results have no tail.
    assert_eq!(s.rejudge(id).await.unwrap(), RejudgeOutcome::Requeued);
    let again = s.claim("w").await.unwrap().unwrap();
    let clean = vec![test("sample/1", Verdict::AC, None)];
    assert!(s
        .complete(id, again.attempt, &report(clean.clone()))
        .await
        .unwrap());
    assert_eq!(s.get(id).await.unwrap().unwrap().tests, clean);
}
