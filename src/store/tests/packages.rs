//! The uploaded packages ([`PackageStore`]) on both backends: a package is stored once by
//! id, fetched only by its id and hash, and a node's hashes in `nodes` follow what it serves;
//! a node whose data gains the problem claims its submissions from then on.

use std::collections::BTreeMap;

use super::backends::{both, Backend};
use crate::store::*;

both!(
    a_package_is_stored_once_and_fetched_by_its_hash,
    a_node_takes_a_problem_once_it_serves_it,
);

async fn a_package_is_stored_once_and_fetched_by_its_hash(b: &Backend) {
    let s = b.open().await;
    let zip: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    let new = |hash, zip| NewPackage {
        problem: "sum",
        data_hash: hash,
        zip,
        uploaded_by: Some("boss"),
    };
    assert!(s.put_package(new("aa", &zip)).await.unwrap());
    assert!(
        !s.put_package(new("bb", b"other")).await.unwrap(),
        "an id is never replaced"
    );
    let stored = s.stored_packages().await.unwrap();
    assert_eq!(
        stored,
        vec![StoredPackage {
            problem: "sum".into(),
            data_hash: "aa".into()
        }]
    );
    assert_eq!(s.package_zip("sum", "aa").await.unwrap(), Some(zip));
    assert_eq!(s.package_zip("sum", "bb").await.unwrap(), None);
    assert_eq!(s.package_zip("other", "aa").await.unwrap(), None);
}

async fn a_node_takes_a_problem_once_it_serves_it(b: &Backend) {
    let node = b.node("b", 30_000).await;
    let data = NodeData::new(BTreeMap::from([("sudoku".to_string(), "aa".to_string())]));
    let node = match node {
        Store::Sqlite(s) => Store::Sqlite(s.with_data(data.clone())),
        Store::Postgres(s) => Store::Postgres(s.with_data(data.clone())),
    };
    node.register_node(&NodeRegistration {
        kind: NodeKind::Worker,
        slots: 1,
        hashes: data.hashes(),
    })
    .await
    .unwrap();
    let id = node
        .enqueue(NewSubmission {
            problem: "sum".into(),
            language: "c".into(),
            source: "int main(){}".into(),
            owner: None,
            data_hash: Some("cc".into()),
        })
        .await
        .unwrap();
    assert!(node.claim("w0").await.unwrap().is_none(), "not served yet");
    // The node fetched the package: its data (shared with every clone) and its row.
    data.insert("sum", "cc");
    node.set_node_hashes(&data.hashes()).await.unwrap();
    assert_eq!(node.claim("w0").await.unwrap().map(|c| c.id), Some(id));
    let row = node.list_nodes().await.unwrap();
    assert_eq!(row[0].hashes.get("sum").map(String::as_str), Some("cc"));
}
