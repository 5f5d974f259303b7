//! Roster groups ([`GroupStore`]) and the users' triggers on the boards' versions, on both
//! backends.

use super::backends::{both, Backend};
use crate::accounts::{Role, UserName};
use crate::store::groups::*;
use crate::store::{AccountStore, ContestStore, NewUser};

fn user(name: &str, display: &str) -> NewUser {
    NewUser {
        name: UserName::parse(name).unwrap(),
        display_name: display.into(),
        role: Role::Contestant,
        password_hash: "$argon2id$stub".into(),
    }
}

async fn groups_and_the_versions_users_move(b: &Backend) {
    let s = b.open().await;
    let ids = s
        .add_users(&[user("ann", "Ann"), user("bo", ""), user("cy", "")])
        .await
        .unwrap();
    s.set_groups(&[
        ("ann".into(), "class-7b".into()),
        ("bo".into(), "class-7b".into()),
        ("cy".into(), "class-7a".into()),
        ("nobody".into(), "class-7b".into()),
    ])
    .await
    .unwrap();
    assert_eq!(s.members("class-7b").await.unwrap(), ["ann", "bo"]);
    assert_eq!(
        s.group_of(ids[2]).await.unwrap().as_deref(),
        Some("class-7a")
    );
    // Moved to another group.
    s.set_groups(&[("cy".into(), "class-7b".into())])
        .await
        .unwrap();
    assert_eq!(s.members("class-7b").await.unwrap(), ["ann", "bo", "cy"]);
    assert!(s.members("class-7a").await.unwrap().is_empty());
    assert_eq!(s.group_of(-1).await.unwrap(), None);

    // A tracked contest's version moves when a user is added or grouped.
    assert_eq!(s.contest_state("cup").await.unwrap().version, 0);
    s.track_contest("cup").await.unwrap();
    s.track_contest("cup").await.unwrap();
    assert_eq!(s.contest_state("cup").await.unwrap().version, 0);
    s.add_users(&[user("dee", "Dee")]).await.unwrap();
    let after_add = s.contest_state("cup").await.unwrap().version;
    assert!(after_add > 0);
    s.set_groups(&[("dee".into(), "class-7b".into())])
        .await
        .unwrap();
    assert!(s.contest_state("cup").await.unwrap().version > after_add);
    assert!(!s.contest_state("cup").await.unwrap().unfrozen);
}

both!(groups_and_the_versions_users_move);
