//! An output validator's team message is stored with its test's result, apart from the
//! jury's message, and read back with it on both backends; a rejudge's results replace it.

use super::backends::{both, Backend};
use crate::judge::{CompileInfo, JudgeReport, TestResult, Verdict};
use crate::store::*;

fn test(name: &str, verdict: Verdict, jury: Option<&str>, team: Option<&str>) -> TestResult {
    TestResult {
        name: name.into(),
        verdict,
        time_ms: 1,
        wall_ms: 1,
        memory_kib: 10,
        exit_code: Some(0),
        signal: None,
        message: jury.map(str::to_string),
        stderr_tail: None,
        team_message: team.map(str::to_string),
    }
}

fn report(tests: Vec<TestResult>) -> JudgeReport {
    JudgeReport::from_tests(
        "sum",
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

both!(team_messages_are_stored_apart_from_the_jurys_and_replaced_by_a_rejudge);

async fn team_messages_are_stored_apart_from_the_jurys_and_replaced_by_a_rejudge(b: &Backend) {
    let s = b.open().await;
    let id = s
        .enqueue(NewSubmission {
            data_hash: None,
            problem: "sum".into(),
            language: "python".into(),
            source: "print(3)".into(),
            owner: None,
        })
        .await
        .unwrap();
    let claimed = s.claim("w").await.unwrap().unwrap();
    let tests = vec![
        test("sample/1", Verdict::AC, None, Some("well done")),
        test(
            "secret/1",
            Verdict::WA,
            Some("expected 5, got 4; team message: fake"),
            Some("the sum is off by one: é"),
        ),
        test("secret/2", Verdict::WA, Some("expected 9"), None),
    ];
    assert!(s
        .complete(id, claimed.attempt, &report(tests.clone()))
        .await
        .unwrap());
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(got.tests, tests, "every field, both messages apart");
    assert_eq!(s.rejudge(id).await.unwrap(), RejudgeOutcome::Requeued);
    let again = s.claim("w").await.unwrap().unwrap();
    let clean = vec![test("sample/1", Verdict::AC, None, None)];
    assert!(s
        .complete(id, again.attempt, &report(clean.clone()))
        .await
        .unwrap());
    assert_eq!(s.get(id).await.unwrap().unwrap().tests, clean);
}
