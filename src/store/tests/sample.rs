//! What the store's tests store and report: a plain submission and a judged report.

use crate::accounts::{Role, UserName};
use crate::judge::{CompileInfo, JudgeReport, TestResult, Verdict};
use crate::store::{AccountStore, NewSubmission, NewUser, Queue, Store};

/// A C submission to `problem`, in open mode (no owner), without a data hash.
pub(super) fn submission(problem: &str) -> NewSubmission {
    NewSubmission {
        data_hash: None,
        problem: problem.into(),
        language: "c".into(),
        source: "int main(){}".into(),
        owner: None,
    }
}

/// A C submission to `sudoku` by `owner` (`None`: open mode), without a data hash.
pub(super) fn owned(owner: Option<i64>) -> NewSubmission {
    NewSubmission {
        owner,
        ..submission("sudoku")
    }
}

/// A compiled submission's report with `verdict`, over `tests` tests of that verdict.
pub(super) fn report(verdict: Verdict, tests: usize) -> JudgeReport {
    let tests = (0..tests)
        .map(|i| TestResult {
            name: format!("secret/{i}"),
            verdict,
            time_ms: i as u64,
            wall_ms: 1,
            memory_kib: 10,
            exit_code: Some(0),
            signal: None,
            message: None,
            stderr_tail: None,
            team_message: None,
            score: None,
        })
        .collect();
    let compile = CompileInfo {
        ok: true,
        log: String::new(),
        cached: false,
    };
    let mut report = JudgeReport::from_tests("sudoku", "c", compile, tests, false);
    report.verdict = verdict;
    report
}

/// Whether `s` stores the report of claim `attempt` of submission `id` with `verdict` over
/// `tests` tests (`false`: the claim was stale).
pub(super) async fn complete(
    s: &Store,
    (id, attempt): (i64, i64),
    verdict: Verdict,
    tests: usize,
) -> bool {
    s.complete(id, attempt, &report(verdict, tests))
        .await
        .unwrap()
}

/// Contestants named `names`, added in one batch: their ids, in that order.
pub(super) async fn contestants(s: &Store, names: &[impl AsRef<str>]) -> Vec<i64> {
    let new: Vec<NewUser> = names
        .iter()
        .map(|name| NewUser {
            name: UserName::parse(name.as_ref()).unwrap(),
            display_name: String::new(),
            role: Role::Contestant,
            password_hash: "x".into(),
        })
        .collect();
    s.add_users(&new).await.unwrap()
}

/// `user0`, `user1`, ... as contestants: their ids.
pub(super) async fn numbered_contestants(s: &Store, n: usize) -> Vec<i64> {
    let names: Vec<String> = (0..n).map(|i| format!("user{i}")).collect();
    contestants(s, &names).await
}

/// A one-thread runtime for a proptest's async body.
pub(super) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}
