//! The clarifications a page's live banners announce ([`NoticeStore`]), on both backends.

use jiff::Timestamp;

use super::backends::{both, Backend};
use crate::accounts::{Role, UserName};
use crate::store::notices::*;
use crate::store::{AccountStore, ContestStore, NewClarification, NewUser};

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

async fn answers_for_contestants_and_questions_for_the_jury(b: &Backend) {
    let s = b.open().await;
    let ids = s
        .add_users(&[
            NewUser {
                name: UserName::parse("alice").unwrap(),
                display_name: "Alice A.".into(),
                role: Role::Contestant,
                password_hash: "$argon2id$stub".into(),
            },
            NewUser {
                name: UserName::parse("bob").unwrap(),
                display_name: String::new(),
                role: Role::Contestant,
                password_hash: "$argon2id$stub".into(),
            },
        ])
        .await
        .unwrap();
    let (alice, bob) = (ids[0], ids[1]);
    let ask = |author: i64, at: &str| NewClarification {
        contest: "cup".into(),
        author: Some(author),
        label: Some("A".into()),
        question: Some("why?".into()),
        answer: None,
        public: false,
        at: t(at),
    };
    let add = |n| async { s.add_clarification(n, None).await.unwrap() };
    let crate::store::ClarificationAdded::Stored(q1) =
        add(ask(alice, "2026-03-01T10:00:00Z")).await
    else {
        panic!("stored")
    };
    let crate::store::ClarificationAdded::Stored(q2) = add(ask(bob, "2026-03-01T10:05:00Z")).await
    else {
        panic!("stored")
    };
    let jury = |since| s.notices("cup", NoticeReader::Jury, t(since), 5);
    let waiting = jury("2026-03-01T10:00:00Z").await.unwrap();
    assert_eq!(waiting.iter().map(|r| r.id).collect::<Vec<_>>(), [q2, q1]);
    assert_eq!(waiting[1].author.as_deref(), Some("alice"));
    assert_eq!(waiting[1].author_display.as_deref(), Some("Alice A."));
    assert!(waiting.iter().all(|r| r.asked));
    assert_eq!(jury("2026-03-01T10:01:00Z").await.unwrap().len(), 1);
    assert!(s
        .notices("other", NoticeReader::Jury, t("2026-03-01T09:00:00Z"), 5)
        .await
        .unwrap()
        .is_empty());

    // alice's question answered privately: hers, not bob's; no longer waiting for the jury.
    assert!(s
        .answer_clarification("cup", q1, "because", false, None, t("2026-03-01T10:10:00Z"))
        .await
        .unwrap());
    let of = |user, since| s.notices("cup", NoticeReader::Contestant(user), t(since), 5);
    let hers = of(alice, "2026-03-01T10:10:00Z").await.unwrap();
    assert_eq!(hers.len(), 1);
    assert!(hers[0].mine && hers[0].asked && !hers[0].public);
    assert!(of(alice, "2026-03-01T10:10:00.001Z")
        .await
        .unwrap()
        .is_empty());
    assert!(of(bob, "2026-03-01T09:00:00Z").await.unwrap().is_empty());
    assert_eq!(jury("2026-03-01T09:00:00Z").await.unwrap().len(), 1);

    // An announcement and bob's question answered for everyone reach alice.
    add(NewClarification {
        contest: "cup".into(),
        author: None,
        label: None,
        question: None,
        answer: Some("read the statement".into()),
        public: true,
        at: t("2026-03-01T10:20:00Z"),
    })
    .await;
    s.answer_clarification("cup", q2, "yes", true, None, t("2026-03-01T10:30:00Z"))
        .await
        .unwrap();
    let news = of(alice, "2026-03-01T10:15:00Z").await.unwrap();
    assert_eq!(news.len(), 2, "{news:?}");
    assert!(news[0].asked && news[0].public && !news[0].mine, "{news:?}");
    assert!(!news[1].asked && news[1].public, "{news:?}");
    assert!(of(bob, "2026-03-01T10:15:00Z").await.unwrap()[0].mine);
    assert_eq!(
        s.notices(
            "cup",
            NoticeReader::Contestant(alice),
            t("2026-03-01T09:00:00Z"),
            2
        )
        .await
        .unwrap()
        .len(),
        2,
        "bounded by the limit"
    );
}

both!(answers_for_contestants_and_questions_for_the_jury);
