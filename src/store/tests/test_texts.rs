//! The texts a test's result carries beside its verdict (a run-time error's stderr tail, an
//! output validator's team message apart from the jury's message) are stored with it and
//! read back with it, on both backends; a rejudge's results replace them.

use super::backends::{both, Backend};
use crate::judge::{CompileInfo, JudgeReport, TestResult, Verdict};
use crate::store::*;

/// A test's texts: the jury's message, the stderr tail, the team message.
type Texts<'a> = (Option<&'a str>, Option<&'a str>, Option<&'a str>);

fn test(name: &str, verdict: Verdict, (jury, tail, team): Texts) -> TestResult {
    TestResult {
        name: name.into(),
        verdict,
        time_ms: 1,
        wall_ms: 1,
        memory_kib: 10,
        exit_code: Some(1),
        signal: None,
        message: jury.map(str::to_string),
        stderr_tail: tail.map(str::to_string),
        team_message: team.map(str::to_string),
        score: None,
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

/// Stores `tests` as a submission's results and checks every field reads back; then a
/// rejudge without texts replaces them.
async fn stored_and_replaced(b: &Backend, tests: Vec<TestResult>) {
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
    assert!(s
        .complete(id, claimed.attempt, &report(tests.clone()))
        .await
        .unwrap());
    let got = s.get(id).await.unwrap().unwrap();
    assert_eq!(got.tests, tests, "every field, every text apart");
    assert_eq!(s.rejudge(id).await.unwrap(), RejudgeOutcome::Requeued);
    let again = s.claim("w").await.unwrap().unwrap();
    let clean = vec![test("sample/1", Verdict::AC, (None, None, None))];
    assert!(s
        .complete(id, again.attempt, &report(clean.clone()))
        .await
        .unwrap());
    assert_eq!(s.get(id).await.unwrap().unwrap().tests, clean);
}

both!(tails_are_stored_per_test_and_replaced_by_a_rejudge);

async fn tails_are_stored_per_test_and_replaced_by_a_rejudge(b: &Backend) {
    let traceback = "Traceback (most recent call last):\n  File \"main.py\", line 1\nValueError: é";
    let tests = vec![
        test("sample/1", Verdict::AC, (None, None, None)),
        test("secret/1", Verdict::RE, (None, Some(traceback), None)),
        test(
            "secret/2",
            Verdict::RE,
            (None, Some("thread 'main' panicked"), None),
        ),
    ];
    stored_and_replaced(b, tests).await;
}

both!(team_messages_are_stored_apart_from_the_jurys_and_replaced_by_a_rejudge);

async fn team_messages_are_stored_apart_from_the_jurys_and_replaced_by_a_rejudge(b: &Backend) {
    let tests = vec![
        test("sample/1", Verdict::AC, (None, None, Some("well done"))),
        test(
            "secret/1",
            Verdict::WA,
            (
                Some("expected 5, got 4; team message: fake"),
                None,
                Some("the sum is off by one: é"),
            ),
        ),
        test("secret/2", Verdict::WA, (Some("expected 9"), None, None)),
    ];
    stored_and_replaced(b, tests).await;
}
