//! The scoreboard's HTTP side against the real daemon: the gzip body (compressed once per
//! board version) decodes to exactly the JSON body; `If-None-Match` answers 304 only for the
//! current board and 200 with the new one after any change (a submission, an unfreeze, a
//! freeze); an admin refreezes an unfrozen board (`POST /api/contests/{id}/freeze`), which
//! only admins may do.

use crate::fixtures::{contests, daemon};

use std::io::Read;

use contests::{at, code, row, start, Contest, SPRING};
use daemon::fixture;
use serde_json::json;

const BOARD: &str = "/api/contests/spring/scoreboard";

/// One read of the board as `token` with extra `headers`: status, headers, raw body.
async fn read(
    j: &Contest,
    token: &str,
    headers: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut r = j.c.get(j.d.url(BOARD)).bearer_auth(token);
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    (status, headers, r.bytes().await.unwrap().to_vec())
}

fn header<'a>(h: &'a reqwest::header::HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).map(|v| v.to_str().unwrap())
}

fn gunzip(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(body)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gzip_board_is_the_json_board_and_304_is_only_for_the_current_one() {
    let j = start(&[("spring", SPRING)], &at(10)).await;
    let ce = fixture("sudoku", "ce.c");
    // Judged before reading: a judging in between would move the version.
    let first = j.submit_ok("spring", &j.alice, "A", "c", &ce).await;
    j.wait_done(first).await;

    // Plain: no encoding, a weak tag, private and revalidated.
    let (s, plain_h, json) = read(&j, &j.alice, &[]).await;
    assert_eq!(s, 200);
    assert_eq!(header(&plain_h, "content-encoding"), None);
    assert_eq!(header(&plain_h, "content-type"), Some("application/json"));
    assert_eq!(header(&plain_h, "cache-control"), Some("private, no-cache"));
    assert!(header(&plain_h, "vary")
        .unwrap()
        .contains("accept-encoding"));
    let tag = header(&plain_h, "etag").unwrap().to_string();
    assert!(tag.starts_with("W/\""), "{tag}");
    let board: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(board["rows"].as_array().unwrap().len(), 1, "{board}");

    // As a browser asks: gzip, decoding to the very same bytes, under the same tag.
    let (s, gz_h, gz) = read(&j, &j.alice, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(s, 200);
    assert_eq!(header(&gz_h, "content-encoding"), Some("gzip"));
    assert_eq!(header(&gz_h, "etag"), Some(tag.as_str()));
    assert_eq!(gunzip(&gz), json);
    // Refused by quality 0, or not offered: the plain body.
    for refusal in ["gzip;q=0", "br, deflate", "identity"] {
        let (s, h, body) = read(&j, &j.alice, &[("accept-encoding", refusal)]).await;
        assert_eq!(
            (s, header(&h, "content-encoding")),
            (200, None),
            "{refusal}"
        );
        assert_eq!(body, json, "{refusal}");
    }

    // The current tag: 304, no body, whatever the encoding asked; a list holding it too.
    for asked in [tag.clone(), format!("\"stale\", {tag}")] {
        for encoding in ["gzip", "identity"] {
            let (s, h, body) = read(
                &j,
                &j.alice,
                &[("if-none-match", &asked), ("accept-encoding", encoding)],
            )
            .await;
            assert_eq!((s, body.len()), (304, 0), "{asked} {encoding}");
            assert_eq!(header(&h, "etag"), Some(tag.as_str()));
        }
    }
    // Another tag: the whole board.
    let (s, _, body) = read(&j, &j.alice, &[("if-none-match", "W/\"0000\"")]).await;
    assert_eq!((s, body), (200, json.clone()));

    // A change (a new submission bumps the version): the old tag gets the new board.
    let second = j.submit_ok("spring", &j.bob, "A", "c", &ce).await;
    j.wait_done(second).await;
    let (s, h, body) = read(&j, &j.alice, &[("if-none-match", &tag)]).await;
    assert_eq!(s, 200, "a stale tag must not get a 304");
    let newer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(newer["version"].as_u64() > board["version"].as_u64());
    assert_eq!(newer["rows"].as_array().unwrap().len(), 2, "{newer}");
    let new_tag = header(&h, "etag").unwrap().to_string();
    assert_ne!(new_tag, tag);
    let (s, _, _) = read(&j, &j.alice, &[("if-none-match", &new_tag)]).await;
    assert_eq!(s, 304);
    let (_, gz_h, gz) = read(&j, &j.alice, &[("accept-encoding", "gzip")]).await;
    assert_eq!(header(&gz_h, "etag"), Some(new_tag.as_str()));
    assert_eq!(gunzip(&gz), body);
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_refreezes_the_board_after_unfreezing_it() {
    let j = start(&[("spring", SPRING)], &at(4 * 60 + 10)).await;
    let (boss, alice) = (Some(j.boss.as_str()), Some(j.alice.as_str()));
    // Bob solves B in the freeze.
    let bobs_b = j.submit_binary_sudoku_ac("spring", &j.bob, "B").await;
    assert_eq!(j.wait_done(bobs_b).await.0["verdict"], "AC");
    let pending = |board: &serde_json::Value| {
        let b = &row(board, "bob")["cells"][1];
        (
            board["frozen"].clone(),
            b["state"].clone(),
            row(board, "bob")["solved"].clone(),
        )
    };
    let frozen = j.board("spring", &j.alice).await;
    assert_eq!(
        pending(&frozen),
        (json!(true), json!("pending"), json!(0)),
        "{frozen}"
    );
    let (_, h, _) = read(&j, &j.alice, &[]).await;
    let frozen_tag = header(&h, "etag").unwrap().to_string();

    // Only admins freeze; an unknown contest is 404.
    assert_eq!(
        j.post("/api/contests/spring/freeze", None, None).await.0,
        401
    );
    let (s, v) = j.post("/api/contests/spring/freeze", alice, None).await;
    assert_eq!((s, code(&v)), (403, "forbidden"), "{v}");
    assert_eq!(j.post("/api/contests/nope/freeze", boss, None).await.0, 404);

    // Unfrozen: everyone sees the solve, and the frozen board's tag gets the new board.
    let (s, v) = j.post("/api/contests/spring/unfreeze", boss, None).await;
    assert_eq!((s, v), (200, json!({"unfrozen": true})));
    let (s, _, body) = read(&j, &j.alice, &[("if-none-match", &frozen_tag)]).await;
    assert_eq!(s, 200);
    let open: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(pending(&open), (json!(false), json!("solved"), json!(1)));

    // Frozen again: the public board is the frozen one again, with the frozen board's
    // version and tag (a frozen board's version tags what it shows).
    let (s, v) = j.post("/api/contests/spring/freeze", boss, None).await;
    assert_eq!((s, v), (200, json!({"unfrozen": false})));
    let refrozen = j.board("spring", &j.alice).await;
    assert_eq!(
        pending(&refrozen),
        (json!(true), json!("pending"), json!(0)),
        "{refrozen}"
    );
    assert_eq!(refrozen["version"], frozen["version"]);
    assert_ne!(refrozen["version"], open["version"]);
    assert_eq!(refrozen["rows"], frozen["rows"]);
    let (s, _, _) = read(&j, &j.alice, &[("if-none-match", &frozen_tag)]).await;
    assert_eq!(s, 304, "the frozen board's tag is current again");
    let (_, spring) = j.get("/api/contests/spring", alice).await;
    assert_eq!(spring["unfrozen"], false);
    // Admins still see the whole board; a second freeze changes nothing the public sees.
    let whole = j.board("spring", &j.boss).await;
    assert_eq!(pending(&whole), (json!(false), json!("solved"), json!(1)));
    let (s, v) = j.post("/api/contests/spring/freeze", boss, None).await;
    assert_eq!((s, v), (200, json!({"unfrozen": false})));
    assert_eq!(j.board("spring", &j.alice).await["rows"], frozen["rows"]);
    assert!(!j.d.log().contains(" ERROR "), "{}", j.d.log());
}
