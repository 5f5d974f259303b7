//! `sudojudge user list` shows each user's roster group (issue 30's leftover): the table's
//! `group` column and the JSON's `group`, `-`/`null` for a user in none.

use crate::fixtures::{accounts, daemon};

use accounts::{succeeded, user_cmd};
use daemon::{trimmed_problems, write_config};
use serde_json::{json, Value};

#[test]
fn user_list_shows_each_users_roster_group() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let db = dir.path().join("judge.db");
    let config = write_config(dir.path(), &problems, "");
    let roster = dir.path().join("class.csv");
    std::fs::write(
        &roster,
        "name,display name,group\nann,Ann Lee,class-7b\nbob,Bob,class-7c\ncy,Cy,\n",
    )
    .unwrap();
    succeeded(&user_cmd(
        &config,
        &db,
        &["import", roster.to_str().unwrap()],
        "",
    ));
    succeeded(&user_cmd(&config, &db, &["add", "root", "--admin"], ""));

    let list = user_cmd(&config, &db, &["list", "--json"], "");
    succeeded(&list);
    let users: Value = serde_json::from_slice(&list.stdout).unwrap();
    let groups: Vec<(String, Value)> = users
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["name"].as_str().unwrap().to_string(), u["group"].clone()))
        .collect();
    let mut groups = groups;
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        groups,
        vec![
            ("ann".to_string(), json!("class-7b")),
            ("bob".to_string(), json!("class-7c")),
            ("cy".to_string(), Value::Null),
            ("root".to_string(), Value::Null),
        ]
    );

    let table = user_cmd(&config, &db, &["list"], "");
    succeeded(&table);
    let text = String::from_utf8_lossy(&table.stdout);
    let header = text.lines().next().unwrap();
    assert!(header.contains("group"), "{text}");
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}: {text}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // name, role, state, created, group, display name...
    assert_eq!(row("ann")[4], "class-7b", "{text}");
    assert_eq!(row("bob")[4], "class-7c", "{text}");
    assert_eq!(row("cy")[4], "-", "{text}");
    assert_eq!(row("root")[4], "-", "{text}");
}
