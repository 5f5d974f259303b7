//! Users, tokens and submission owners ([`AccountStore`]), on both backends.

use std::time::Duration;

use super::backends::{both, Backend};
use super::sample::submission;
use crate::accounts::{Role, SubmissionScope, Token, UserName};
use crate::store::*;

fn new_user(name: &str, role: Role) -> NewUser {
    NewUser {
        name: UserName::parse(name).unwrap(),
        display_name: format!("{name} display"),
        role,
        password_hash: "$argon2id$stub".into(),
    }
}

both!(users_tokens_and_owners);

async fn users_tokens_and_owners(b: &Backend) {
    let s = b.open().await;
    assert!(!s.any_users().await.unwrap());
    let ids = s
        .add_users(&[
            new_user("ann", Role::Admin),
            new_user("bob", Role::Contestant),
        ])
        .await
        .unwrap();
    assert!(s.any_users().await.unwrap());
    // A duplicate, in the database or inside one batch: nothing written.
    for batch in [
        vec![
            new_user("cat", Role::Contestant),
            new_user("bob", Role::Contestant),
        ],
        vec![
            new_user("cat", Role::Contestant),
            new_user("cat", Role::Contestant),
        ],
    ] {
        match s.add_users(&batch).await {
            Err(StoreError::DuplicateUser(n)) => assert!(n == "bob" || n == "cat"),
            other => panic!("{other:?}"),
        }
    }
    let names: Vec<String> = s
        .list_users()
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.name.to_string())
        .collect();
    assert_eq!(names, ["ann", "bob"]);

    let bob = UserName::parse("bob").unwrap();
    let creds = s.credentials(&bob).await.unwrap().unwrap();
    assert_eq!(creds.user.id, ids[1]);
    assert_eq!(creds.user.role, Role::Contestant);
    assert!(s
        .credentials(&UserName::parse("nobody").unwrap())
        .await
        .unwrap()
        .is_none());

    let (api, login, expired) = (Token::generate(), Token::generate(), Token::generate());
    s.add_token(ids[1], &api.hash(), TokenKind::Api, None)
        .await
        .unwrap();
    s.add_token(
        ids[1],
        &login.hash(),
        TokenKind::Login,
        Some(Duration::from_secs(3600)),
    )
    .await
    .unwrap();
    s.add_token(
        ids[1],
        &expired.hash(),
        TokenKind::Login,
        Some(Duration::ZERO),
    )
    .await
    .unwrap();
    assert_eq!(s.token_user(&api.hash()).await.unwrap().unwrap().id, ids[1]);
    assert_eq!(
        s.token_user(&login.hash()).await.unwrap().unwrap().id,
        ids[1]
    );
    assert!(s.token_user(&expired.hash()).await.unwrap().is_none());
    assert!(s
        .token_user(&Token::generate().hash())
        .await
        .unwrap()
        .is_none());
    assert!(s.revoke_token(&login.hash()).await.unwrap());
    assert!(s.token_user(&login.hash()).await.unwrap().is_none());
    assert!(s.set_disabled(&bob, true).await.unwrap());
    assert!(s.token_user(&api.hash()).await.unwrap().is_none());
    assert!(s.set_disabled(&bob, false).await.unwrap());
    assert!(
        s.token_user(&api.hash()).await.unwrap().is_none(),
        "disabling revokes"
    );
    assert!(!s
        .set_disabled(&UserName::parse("zed").unwrap(), true)
        .await
        .unwrap());
    let fresh = Token::generate();
    s.add_token(ids[1], &fresh.hash(), TokenKind::Api, None)
        .await
        .unwrap();
    assert!(s.set_password(&bob, "$argon2id$new").await.unwrap());
    assert!(
        s.token_user(&fresh.hash()).await.unwrap().is_none(),
        "a new password revokes"
    );
    let stored = s.credentials(&bob).await.unwrap().unwrap();
    assert_eq!(stored.password_hash, "$argon2id$new");
    assert!(!s
        .set_password(&UserName::parse("zed").unwrap(), "$argon2id$x")
        .await
        .unwrap());

    let open = s.enqueue(submission("sudoku")).await.unwrap();
    let owned = s
        .enqueue(NewSubmission {
            owner: Some(ids[1]),
            ..submission("sudoku")
        })
        .await
        .unwrap();
    assert_eq!(s.submission_owner(open).await.unwrap(), Some(None));
    assert_eq!(s.submission_owner(owned).await.unwrap(), Some(Some(ids[1])));
    assert_eq!(s.submission_owner(999).await.unwrap(), None);
    let got = s.get(owned).await.unwrap().unwrap();
    assert_eq!(
        (got.owner, got.user.as_deref()),
        (Some(ids[1]), Some("bob"))
    );
    let mine = s
        .list_scoped(SubmissionScope::Owner(ids[1]), None, 10, None)
        .await
        .unwrap();
    assert_eq!(mine.iter().map(|s| s.id).collect::<Vec<_>>(), [owned]);
    assert_eq!(mine[0].user.as_deref(), Some("bob"));
    let all = s
        .list_scoped(SubmissionScope::All, None, 10, None)
        .await
        .unwrap();
    assert_eq!(all.len(), 2);
}
