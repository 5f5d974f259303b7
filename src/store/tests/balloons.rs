//! The jury's balloon marks ([`BalloonStore`]), on both backends.

use super::backends::{both, Backend};
use crate::accounts::{Role, UserName};
use crate::store::balloons::*;
use crate::store::{AccountStore, NewUser};

async fn marks_are_kept_per_contest_user_and_label(b: &Backend) {
    let s = b.open().await;
    s.add_users(&[NewUser {
        name: UserName::parse("alice").unwrap(),
        display_name: String::new(),
        role: Role::Contestant,
        password_hash: "$argon2id$stub".into(),
    }])
    .await
    .unwrap();
    assert!(s.delivered("cup").await.unwrap().is_empty());
    assert!(s.set_delivered("cup", "alice", "A", true).await.unwrap());
    assert!(s.set_delivered("cup", "alice", "A", true).await.unwrap());
    assert!(!s.set_delivered("cup", "nobody", "A", true).await.unwrap());
    let marked = s.delivered("cup").await.unwrap();
    assert_eq!(marked, [("alice".to_string(), "A".to_string())]);
    assert!(s.delivered("other").await.unwrap().is_empty());
    drop(s);
    let s = b.open().await;
    assert_eq!(
        s.delivered("cup").await.unwrap().len(),
        1,
        "kept across a restart"
    );
    assert!(s.set_delivered("cup", "alice", "A", false).await.unwrap());
    assert!(s.delivered("cup").await.unwrap().is_empty());
}

both!(marks_are_kept_per_contest_user_and_label);
