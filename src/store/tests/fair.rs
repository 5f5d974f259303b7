//! The fair claim, on both backends: the unit case from issue 13, and `contest::pick` as the
//! oracle of the SQL order on random queues (plain and contest submissions).

use std::collections::HashMap;

use proptest::prelude::*;

use super::backends::{both, Backend};
use super::sample::runtime;
use super::sample::{owned, report};
use crate::accounts::{Role, UserName};
use crate::contest::{pick, Queued};
use crate::judge::{JudgeReport, Verdict};
use crate::store::*;

/// A store with `users` accounts; returns their ids.
async fn store_with_users(b: &Backend, users: usize) -> (Store, Vec<i64>) {
    let s = b.open().await;
    let new: Vec<NewUser> = (0..users)
        .map(|i| NewUser {
            name: UserName::parse(&format!("user{i}")).unwrap(),
            display_name: String::new(),
            role: Role::Contestant,
            password_hash: "x".into(),
        })
        .collect();
    let ids = s.add_users(&new).await.unwrap();
    (s, ids)
}

both!(
    another_users_first_submission_overtakes_a_flood,
    a_contest_submission_overtakes_a_plain_flood_even_with_one_worker,
    a_released_submission_keeps_its_owners_place,
);

fn done() -> JudgeReport {
    report(Verdict::SE, 0)
}

async fn another_users_first_submission_overtakes_a_flood(b: &Backend) {
    let (s, users) = store_with_users(b, 2).await;
    let mut flood = Vec::new();
    for _ in 0..50 {
        flood.push(s.enqueue(owned(Some(users[0]))).await.unwrap());
    }
    let late = s.enqueue(owned(Some(users[1]))).await.unwrap();
    // Nobody judging: the oldest overall.
    let first = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(first.id, flood[0]);
    // One of A's in flight: B's, though 49 of A's are older.
    assert_eq!(s.claim("w1").await.unwrap().unwrap().id, late);
    // One each in flight: A's next oldest.
    assert_eq!(s.claim("w2").await.unwrap().unwrap().id, flood[1]);
    // Open-mode submissions (no owner) count as one more user, with nothing in flight.
    let open = s.enqueue(owned(None)).await.unwrap();
    assert_eq!(s.claim("w3").await.unwrap().unwrap().id, open);
    // B done, A still with two in flight: with B's queue empty, A's next.
    assert!(s.complete(late, 1, &done()).await.unwrap());
    assert_eq!(s.claim("w1").await.unwrap().unwrap().id, flood[2]);
    assert_eq!(s.depth().await.unwrap(), 47);
}

async fn a_contest_submission_overtakes_a_plain_flood_even_with_one_worker(b: &Backend) {
    let (s, users) = store_with_users(b, 2).await;
    let mut flood = Vec::new();
    for _ in 0..20 {
        flood.push(s.enqueue(owned(Some(users[0]))).await.unwrap());
    }
    let first = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(first.id, flood[0]);
    let new = NewContestSubmission::registered(
        owned(Some(users[1])),
        "spring",
        "A",
        "2026-03-01T09:00:00Z".parse().unwrap(),
    );
    let ContestEnqueue::Stored(late) = s.enqueue_contest(new).await.unwrap() else {
        panic!("not stored");
    };
    // The one worker finishes the flood's first: with nothing in flight for anyone, the
    // contest submission goes next, not the flood's 19 older ones.
    assert!(s.complete(first.id, first.attempt, &done()).await.unwrap());
    assert_eq!(s.claim("w0").await.unwrap().unwrap().id, late);
    assert_eq!(s.claim("w0").await.unwrap().unwrap().id, flood[1]);
}

async fn a_released_submission_keeps_its_owners_place(b: &Backend) {
    let (s, users) = store_with_users(b, 2).await;
    let a = s.enqueue(owned(Some(users[0]))).await.unwrap();
    let b = s.enqueue(owned(Some(users[1]))).await.unwrap();
    let claimed = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(claimed.id, a);
    s.release(a, claimed.attempt).await.unwrap();
    // Nothing in flight again: A's is older than B's.
    let again = s.claim("w0").await.unwrap().unwrap();
    assert_eq!((again.id, again.attempt), (a, 2));
    assert_eq!(s.claim("w1").await.unwrap().unwrap().id, b);
}

/// One step of a random run: a user (index; `users` means no owner) submits, a worker claims,
/// or the k-th submission in flight finishes or is released.
#[derive(Debug, Clone)]
enum Step {
    Submit(usize),
    SubmitToContest(usize),
    Claim,
    Finish(usize),
    Release(usize),
}

fn steps(users: usize) -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        3 => (0..=users).prop_map(Step::Submit),
        1 => (0..=users).prop_map(Step::SubmitToContest),
        3 => Just(Step::Claim),
        1 => any::<usize>().prop_map(Step::Finish),
        1 => any::<usize>().prop_map(Step::Release),
    ];
    prop::collection::vec(step, 1..60)
}

/// Runs `steps` on a store and on a model that chooses with `contest::pick`; every claim must
/// take what `pick` takes.
async fn claims_follow_pick(
    b: &Backend,
    steps: Vec<Step>,
    users: usize,
) -> Result<(), TestCaseError> {
    let (s, ids) = store_with_users(b, users).await;
    let name = |owner: Option<i64>| owner.map_or("nobody".to_string(), |o| format!("u{o}"));
    // The model: who owns each submission, what waits, what is being judged (id, attempt).
    let mut owners: HashMap<i64, (String, bool)> = HashMap::new();
    let mut queued: Vec<Queued> = Vec::new();
    let mut flight: Vec<(i64, i64)> = Vec::new();
    let waiting = |id: i64, owners: &HashMap<i64, (String, bool)>| {
        let (user, contest) = owners.get(&id).cloned().unwrap_or_default();
        Queued {
            id: id as u64,
            user,
            contest,
        }
    };
    for step in steps {
        match step {
            Step::Submit(u) => {
                let owner = ids.get(u).copied();
                let id = s.enqueue(owned(owner)).await.unwrap();
                owners.insert(id, (name(owner), false));
                queued.push(waiting(id, &owners));
            }
            Step::SubmitToContest(u) => {
                let owner = ids.get(u).copied();
                let new = NewContestSubmission {
                    submission: owned(owner),
                    contest: "spring".into(),
                    label: "A".into(),
                    at: "2026-03-01T09:00:00Z".parse().unwrap(),
                    rate: None,
                    max_queued: u64::MAX,
                    max_per_user: None,
                    register: false,
                };
                let ContestEnqueue::Stored(id) = s.enqueue_contest(new).await.unwrap() else {
                    panic!("not stored");
                };
                owners.insert(id, (name(owner), true));
                queued.push(waiting(id, &owners));
            }
            Step::Claim => {
                let mut in_flight = HashMap::new();
                for (id, _) in &flight {
                    *in_flight.entry(waiting(*id, &owners).user).or_insert(0) += 1;
                }
                let expected = pick(&queued, &in_flight).map(|q| q.id as i64);
                let got = s.claim("w").await.unwrap();
                prop_assert_eq!(got.as_ref().map(|c| c.id), expected);
                if let Some(c) = got {
                    queued.retain(|q| q.id as i64 != c.id);
                    flight.push((c.id, c.attempt));
                }
            }
            Step::Finish(k) | Step::Release(k) if !flight.is_empty() => {
                let (id, attempt) = flight.remove(k % flight.len());
                if matches!(step, Step::Finish(_)) {
                    prop_assert!(s.complete(id, attempt, &done()).await.unwrap());
                } else {
                    // Back in the queue with its old place (its queued_at is kept).
                    s.release(id, attempt).await.unwrap();
                    queued.push(waiting(id, &owners));
                }
            }
            Step::Finish(_) | Step::Release(_) => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_sqlite_claim_takes_what_contest_pick_takes(steps in steps(3)) {
        runtime().block_on(claims_follow_pick(&Backend::sqlite(), steps, 3))?;
    }
}

proptest! {
    // A database per case on the shared cluster: fewer cases, the same property.
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn the_postgres_claim_takes_what_contest_pick_takes(steps in steps(3)) {
        if let Some(backend) = Backend::postgres() {
            runtime().block_on(claims_follow_pick(&backend, steps, 3))?;
        }
    }
}
