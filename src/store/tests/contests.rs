//! Contest store tests, each run on a SQLite file and on a PostgreSQL database (`both!`).

use jiff::{SignedDuration, Timestamp};

use super::backends::{both, Backend};
use super::sample::report;
use crate::accounts::{Role, UserName};
use crate::contest::Rate;
use crate::judge::Verdict;
use crate::store::*;

both!(
    a_start_is_kept_and_starting_again_does_not_restart_the_timer,
    the_rate_counts_stored_submissions_and_survives_a_restart,
    every_change_a_board_shows_bumps_the_version_and_admins_stay_off_the_board,
    clarifications_are_private_until_answered_to_all,
    questions_are_rated_per_author_and_listed_by_pages,
);

fn t0() -> Timestamp {
    "2026-03-01T09:00:00Z".parse().unwrap()
}

fn at(secs: i64) -> Timestamp {
    t0() + SignedDuration::from_secs(secs)
}

async fn store_with_users(b: &Backend) -> (Store, i64, i64, i64) {
    let s = b.open().await;
    let user = |name: &str, role| NewUser {
        name: UserName::parse(name).unwrap(),
        display_name: String::new(),
        role,
        password_hash: "$argon2id$stub".into(),
    };
    let ids = s
        .add_users(&[
            user("alice", Role::Contestant),
            user("bob", Role::Contestant),
            user("boss", Role::Admin),
        ])
        .await
        .unwrap();
    (s, ids[0], ids[1], ids[2])
}

fn new(owner: i64, label: &str, secs: i64, rate: Option<Rate>) -> NewContestSubmission {
    NewContestSubmission {
        submission: NewSubmission {
            problem: "sudoku".into(),
            language: "c".into(),
            source: "int main(){}".into(),
            owner: Some(owner),
            data_hash: Some("c".repeat(64)),
        },
        contest: "spring".into(),
        label: label.into(),
        at: at(secs),
        rate,
        max_queued: 100,
        max_per_user: None,
        register: true,
    }
}

fn stored(e: ContestEnqueue) -> i64 {
    match e {
        ContestEnqueue::Stored(id) => id,
        other => panic!("not stored: {other:?}"),
    }
}

async fn a_start_is_kept_and_starting_again_does_not_restart_the_timer(b: &Backend) {
    let (s, alice, _, _) = store_with_users(b).await;
    assert_eq!(s.participation("spring", alice).await.unwrap(), None);
    assert_eq!(
        s.contest_state("spring").await.unwrap(),
        ContestState::default()
    );
    assert_eq!(
        s.start_participation("spring", alice, at(10))
            .await
            .unwrap(),
        (at(10), true)
    );
    assert_eq!(
        s.start_participation("spring", alice, at(500))
            .await
            .unwrap(),
        (at(10), false)
    );
    assert_eq!(
        s.participation("spring", alice).await.unwrap(),
        Some(at(10))
    );
    assert_eq!(s.participation("other", alice).await.unwrap(), None);
    assert_eq!(s.contest_state("spring").await.unwrap().version, 1);
}

async fn the_rate_counts_stored_submissions_and_survives_a_restart(b: &Backend) {
    let (s, alice, bob, _) = store_with_users(b).await;
    let rate = Some(Rate {
        submissions: 2,
        per: SignedDuration::from_mins(1),
    });
    stored(s.enqueue_contest(new(alice, "A", 0, rate)).await.unwrap());
    stored(s.enqueue_contest(new(alice, "B", 10, rate)).await.unwrap());
    // Bob has his own budget.
    stored(s.enqueue_contest(new(bob, "A", 15, rate)).await.unwrap());
    drop(s);
    let s = b.open().await;
    assert_eq!(
        s.enqueue_contest(new(alice, "A", 20, rate)).await.unwrap(),
        ContestEnqueue::RateLimited(SignedDuration::from_secs(40))
    );
    stored(s.enqueue_contest(new(alice, "A", 60, rate)).await.unwrap());
    // The refused one was not stored: three of alice's, one of bob's.
    let board = s.board_data("spring").await.unwrap();
    assert_eq!(board.submissions.len(), 4);
    // A contest's submissions list: only its own, never a plain one; newest first.
    s.enqueue(new(alice, "A", 0, None).submission)
        .await
        .unwrap();
    let of = |contest: &str| ListFilter {
        contest: Some(contest.into()),
        ..ListFilter::default()
    };
    let listed = s
        .list_filtered(None, &of("spring"), 10, None)
        .await
        .unwrap();
    assert_eq!(listed.len(), 4);
    assert!(listed.windows(2).all(|w| w[0].id > w[1].id));
    assert!(listed
        .iter()
        .all(|x| x.contest.as_deref() == Some("spring")));
    let mine = s
        .list_filtered(Some(bob), &of("spring"), 10, None)
        .await
        .unwrap();
    assert_eq!(mine.len(), 1);
    assert!(s
        .list_filtered(None, &of("autumn"), 10, None)
        .await
        .unwrap()
        .is_empty());
    // The first submission registered each of them, from its instant.
    let mut participants = board.participants.clone();
    participants.sort_by(|a, b| a.user.cmp(&b.user));
    assert_eq!(
        participants,
        vec![
            Participant {
                user: "alice".into(),
                started_at: at(0)
            },
            Participant {
                user: "bob".into(),
                started_at: at(15)
            },
        ]
    );
    let mut full = new(bob, "A", 100, None);
    full.max_queued = 4;
    assert_eq!(
        s.enqueue_contest(full).await.unwrap(),
        ContestEnqueue::QueueFull
    );
}

async fn every_change_a_board_shows_bumps_the_version_and_admins_stay_off_the_board(b: &Backend) {
    let (s, alice, _, boss) = store_with_users(b).await;
    let mut jury = new(boss, "A", 0, None);
    jury.register = false;
    stored(s.enqueue_contest(jury).await.unwrap());
    let id = stored(s.enqueue_contest(new(alice, "A", 5, None)).await.unwrap());
    let board = s.board_data("spring").await.unwrap();
    assert_eq!(
        board.submissions.len(),
        1,
        "the admin's is not on the board"
    );
    assert_eq!(board.participants.len(), 1);
    assert_eq!(board.submissions[0].user, "alice");
    assert_eq!(board.submissions[0].at, at(5));
    let mut version = s.contest_state("spring").await.unwrap().version;
    let mut bumped = |v: u64| {
        assert!(v > version, "{v} after {version}");
        version = v;
    };
    // Claim both (the admin's first), complete alice's.
    let first = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(first.contest.as_deref(), Some("spring"));
    // A contest submission keeps the data hash the API node had, like any other.
    assert_eq!(first.submitted_data_hash, Some("c".repeat(64)));
    bumped(s.contest_state("spring").await.unwrap().version);
    let claimed = s.claim("w0").await.unwrap().unwrap();
    assert_eq!(claimed.id, id);
    let report = report(Verdict::SE, 0);
    assert!(s.complete(id, claimed.attempt, &report).await.unwrap());
    bumped(s.contest_state("spring").await.unwrap().version);
    let entry = &s.board_data("spring").await.unwrap().submissions[0];
    assert_eq!(entry.status, Status::Done);
    assert_eq!(entry.verdict, Some(report.verdict));
    s.set_unfrozen("spring", true).await.unwrap();
    let state = s.contest_state("spring").await.unwrap();
    assert!(state.unfrozen);
    bumped(state.version);
    // A contest-wide rejudge of A: alice's (done) is queued again, the admin's (compiling)
    // is left alone and counted.
    assert_eq!(
        s.rejudge_label("spring", "A").await.unwrap(),
        RejudgeCount {
            requeued: 1,
            pending: 1
        }
    );
    bumped(s.contest_state("spring").await.unwrap().version);
    assert_eq!(s.get(id).await.unwrap().unwrap().status, Status::Queued);
    assert_eq!(
        s.rejudge_label("spring", "B").await.unwrap(),
        RejudgeCount::default()
    );
}

async fn clarifications_are_private_until_answered_to_all(b: &Backend) {
    let (s, alice, bob, boss) = store_with_users(b).await;
    let ask = |author: i64, text: &str| NewClarification {
        contest: "spring".into(),
        author: Some(author),
        label: Some("A".into()),
        question: Some(text.into()),
        answer: None,
        public: false,
        at: at(60),
    };
    let q1 = added(
        s.add_clarification(ask(alice, "Is 0 a digit?"), None)
            .await
            .unwrap(),
    );
    let q2 = added(
        s.add_clarification(ask(bob, "May I use C++20?"), None)
            .await
            .unwrap(),
    );
    let news = added(
        s.add_clarification(
            NewClarification {
                contest: "spring".into(),
                author: Some(boss),
                label: None,
                question: None,
                answer: Some("Problem B's limit is 2 s.".into()),
                public: true,
                at: at(120),
            },
            None,
        )
        .await
        .unwrap(),
    );
    let ids = |v: Vec<Clarification>| v.iter().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.clarifications("spring", Some(alice), ALL).await.unwrap()),
        [q1, news]
    );
    assert_eq!(
        ids(s.clarifications("spring", Some(bob), ALL).await.unwrap()),
        [q2, news]
    );
    assert_eq!(
        ids(s.clarifications("spring", None, ALL).await.unwrap()),
        [q1, q2, news]
    );
    assert!(s
        .answer_clarification("spring", q1, "No: 1 to 9.", true, Some(boss), at(200))
        .await
        .unwrap());
    assert!(!s
        .answer_clarification("other", q2, "x", true, Some(boss), at(200))
        .await
        .unwrap());
    let bobs = s.clarifications("spring", Some(bob), ALL).await.unwrap();
    assert_eq!(ids(bobs.clone()), [q1, q2, news]);
    assert_eq!(bobs[0].answer.as_deref(), Some("No: 1 to 9."));
    assert_eq!(bobs[0].author.as_deref(), Some("alice"));
    assert_eq!(
        bobs[0].answered_at.as_deref(),
        Some("2026-03-01T09:03:20.000Z")
    );
    assert_eq!(
        bobs[2].answered_at.as_deref(),
        Some("2026-03-01T09:02:00.000Z")
    );
    assert!(!bobs[1].public);
}

const ALL: ClarificationPage = ClarificationPage {
    after: None,
    before: None,
    limit: 500,
    newest_first: false,
};

fn added(a: ClarificationAdded) -> i64 {
    let ClarificationAdded::Stored(id) = a else {
        panic!("not stored: {a:?}");
    };
    id
}

async fn questions_are_rated_per_author_and_listed_by_pages(b: &Backend) {
    let (s, alice, bob, boss) = store_with_users(b).await;
    let ask = |author: i64, secs: i64| NewClarification {
        contest: "spring".into(),
        author: Some(author),
        label: None,
        question: Some(format!("question at {secs}")),
        answer: None,
        public: false,
        at: at(secs),
    };
    let rate = Some(Rate {
        submissions: 2,
        per: SignedDuration::from_mins(10),
    });
    // Six at once from alice: exactly two stored (counted in the insert's transaction).
    let tries: Vec<_> = (0..6)
        .map(|_| {
            let s = s.clone();
            let q = ask(alice, 0);
            tokio::spawn(async move { s.add_clarification(q, rate).await.unwrap() })
        })
        .collect();
    let mut answers = Vec::new();
    for t in tries {
        answers.push(t.await.unwrap());
    }
    let stored = answers
        .iter()
        .filter(|a| matches!(a, ClarificationAdded::Stored(_)))
        .count();
    assert_eq!(stored, 2, "{answers:?}");
    assert!(
        answers.contains(&ClarificationAdded::RateLimited(SignedDuration::from_mins(
            10
        )))
    );
    // Bob's own span; announcements are never limited; ten minutes later alice fits again.
    added(s.add_clarification(ask(bob, 60), rate).await.unwrap());
    for secs in [61, 62, 63] {
        let news = NewClarification {
            author: Some(boss),
            question: None,
            answer: Some("news".into()),
            public: true,
            ..ask(boss, secs)
        };
        added(s.add_clarification(news, rate).await.unwrap());
    }
    added(s.add_clarification(ask(alice, 600), rate).await.unwrap());
    assert_eq!(s.unanswered("spring").await.unwrap(), 4);

    // Pages: oldest first after an id, newest first before one.
    let ids = |v: Vec<Clarification>| v.iter().map(|c| c.id).collect::<Vec<_>>();
    let all = ids(s.clarifications("spring", None, ALL).await.unwrap());
    assert_eq!(all.len(), 7);
    let page = |after, before, newest_first| ClarificationPage {
        after,
        before,
        limit: 3,
        newest_first,
    };
    let newest: Vec<i64> = all.iter().rev().copied().collect();
    let pages = [
        (page(None, None, false), &all[..3]),
        (page(Some(all[2]), None, false), &all[3..6]),
        (page(None, None, true), &newest[..3]),
        (page(None, Some(newest[2]), true), &newest[3..6]),
    ];
    for (page, want) in pages {
        let got = ids(s.clarifications("spring", None, page).await.unwrap());
        assert_eq!(got, want, "{page:?}");
    }
    // A contestant's pages hold their own and the public ones only.
    let bobs = ids(s.clarifications("spring", Some(bob), ALL).await.unwrap());
    assert_eq!(bobs.len(), 4, "{bobs:?}");
}
