//! The OpenAPI document at `/api/openapi.json`: every route of the router is in it (and every
//! operation in it is routed), it validates as OpenAPI 3 (openapi-spec-validator), and a
//! property-based run over it (schemathesis) as an admin, as a contestant and anonymously
//! finds no 5xx and no response that contradicts it. The Python tools are installed by
//! `.ci/run` (`pip install -r scripts/openapi-requirements.txt`); without them the second
//! test fails and says so.

use crate::fixtures::{accounts, daemon};

use std::path::Path;
use std::process::Command;

use accounts::{add_user, start_judge, user_cmd, Judge};
use daemon::{client, get_json, trimmed_problems, Daemon};
use serde_json::Value;

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_is_in_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    let d = Daemon::start(dir.path(), &dir.path().join("judge.db"), &problems, 1);
    let c = client();
    let doc = get_json(&c, d.url("/api/openapi.json")).await;
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3."),
        "{}",
        doc["openapi"]
    );
    let documented = doc["paths"].as_object().unwrap();

    let routes = sudojudge::server::route_paths();
    assert!(routes.len() >= 11, "{routes:?}");
    let mut routed = 0;
    for path in &routes {
        // Axum answers 405 for a method a path does not have; anything else is a route.
        let concrete = path.replace("{id}", "1");
        for method in METHODS {
            let r = c
                .request(method.parse().unwrap(), d.url(&concrete))
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .unwrap();
            let is_route = r.status() != 405;
            let in_doc = documented
                .get(*path)
                .and_then(|p| p.get(method.to_lowercase()))
                .is_some();
            assert_eq!(
                is_route,
                in_doc,
                "{method} {path}: routed {is_route} (HTTP {}), documented {in_doc}",
                r.status()
            );
            routed += usize::from(is_route);
        }
    }
    // And nothing is documented that is not routed.
    let ops: usize = documented
        .values()
        .map(|p| {
            p.as_object()
                .unwrap()
                .keys()
                .filter(|k| METHODS.contains(&k.to_uppercase().as_str()))
                .count()
        })
        .sum();
    assert_eq!(ops, routed, "documented operations vs routed ones");
    assert_eq!(documented.len(), routes.len());
}

fn python_tool(args: &[&str], cwd: &Path) -> std::process::Output {
    let out = Command::new("python3")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("python3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named"),
        "{stderr}\ninstall the OpenAPI tools: pip install -r scripts/openapi-requirements.txt"
    );
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_validates_and_schemathesis_finds_nothing() {
    // The repository's contests (practice, noip-2009), so the contest routes answer with
    // contests, not only 404s.
    let contests = daemon::root().join("contests");
    let Judge { d, db, config, dir } = start_judge(
        1,
        &format!("[contests]\ndir = {:?}\n", contests.display().to_string()),
    );
    let c = client();

    let doc: Value = get_json(&c, d.url("/api/openapi.json")).await;
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let out = python_tool(
        &["-m", "openapi_spec_validator", file.to_str().unwrap()],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "openapi-spec-validator: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    add_user(&config, &db, "host", true, "correct horse battery");
    add_user(&config, &db, "alice", false, "correct horse battery");
    let token = |name: &str| {
        let out = user_cmd(&config, &db, &["token", name], "");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let (admin, contestant) = (token("host"), token("alice"));
    for (who, token) in [
        ("anonymous", None),
        ("admin", Some(&admin)),
        ("contestant", Some(&contestant)),
    ] {
        let header = token.map(|t| format!("Authorization: Bearer {t}"));
        let mut args = vec![
            "-m",
            "schemathesis.cli",
            "run",
            "--experimental=openapi-3.1",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance",
            // Schema-valid requests and invalid ones (wrong types, missing fields).
            "--data-generation-method",
            "all",
            "--hypothesis-max-examples",
            "15",
            "--hypothesis-seed",
            "1",
            "--hypothesis-database",
            "none",
            "--request-timeout",
            "30000",
            "--no-color",
            // Credentials are the run's own (`-H`) or none: made-up Authorization values with
            // control characters are refused by the HTTP parser itself (a bare 400), before the
            // API; well-formed bad tokens are tested in api_accounts.
            "--generation-with-security-parameters",
            "false",
        ];
        let url = d.url("/api/openapi.json");
        args.push(&url);
        if let Some(h) = &header {
            // Logging out would revoke the run's own token halfway; the anonymous run covers it.
            args.extend(["-H", h, "--exclude-path", "/api/logout"]);
        }
        let out = python_tool(&args, dir.path());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "schemathesis as {who}:\n{stdout}\n{}\ndaemon log:\n{}",
            String::from_utf8_lossy(&out.stderr),
            d.log()
        );
        assert!(stdout.contains("not_a_server_error"), "{stdout}");
        assert!(
            !stdout.contains("FAILED") && !stdout.contains("errored"),
            "{stdout}"
        );
    }
    assert!(!d.log().contains(" ERROR "), "{}", d.log());
}
