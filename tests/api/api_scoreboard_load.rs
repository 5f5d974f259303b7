//! The scoreboard under load (a figure, not a check of a time limit): a big icpc contest,
//! 1,000 contestants x 4 problems x 20,000 judged submissions seeded in the database, read
//! by 200 concurrent clients (a contestant's token: the frozen public board), 20 reads each;
//! median and p99 latency next to `GET /api/health` read the same way in the same run, and
//! the board computed afresh after a change. The board is read three ways, each by the whole
//! crowd: as a browser asks (`Accept-Encoding: gzip, deflate, br, zstd`, the gzip body
//! decoded), plain JSON, and revalidated (`If-None-Match` with the current tag: 304). The
//! steps between them locate the cost of a read: health is the request and the caller's
//! token read from SQLite; 304 adds the board's version read from SQLite; gzip adds the
//! compressed body (and the client's decoding: also read undecoded, to weigh it, since the
//! clients share the daemon's cores); plain the whole JSON. Run it with
//!
//!     cargo test --release --test api api_scoreboard_load:: -- --ignored --nocapture
//!
//! It asserts only what must hold whatever the machine's load: every answer has its status
//! (200, or 304 when revalidated), every board has its 1,000 rows and every gzip body
//! decodes to the JSON's length.

use crate::fixtures::contests::fixed_five_hours;
use crate::fixtures::{accounts, daemon, rng};

use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use accounts::{add_user, login};
use daemon::{client, trimmed_problems, Daemon};
use rng::Rng;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::ConnectOptions;

const USERS: u64 = 1_000;
const SUBMISSIONS: u64 = 20_000;
const CLIENTS: usize = 200;
const READS: usize = 20;
const LABELS: [&str; 4] = ["A", "B", "C", "D"];
fn big() -> String {
    fixed_five_hours(
        "Big",
        "icpc",
        &["freeze_minutes = 60"],
        &[
            ("A", "sudoku"),
            ("B", "sudoku-hard"),
            ("C", "target-sudoku"),
            ("D", "binary-sudoku"),
        ],
    )
}

/// Creates the schema (through the store), then users and submissions in one transaction.
async fn seed(db: &std::path::Path) {
    drop(sudojudge::store::SqliteStore::open(db).await.unwrap());
    let mut conn = SqliteConnectOptions::new()
        .filename(db)
        .connect()
        .await
        .unwrap();
    let mut tx = sqlx::Connection::begin(&mut conn).await.unwrap();
    for u in 0..USERS {
        sqlx::query("INSERT INTO users (name, role, password_hash) VALUES (?, 'contestant', 'x')")
            .bind(format!("user{u:04}"))
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO contest_participations (contest, user_id, started_at)
             VALUES ('big', last_insert_rowid(), '2026-03-01T09:00:00.000Z')",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    let mut rng = Rng(0x5eed_2026);
    let verdicts = ["AC", "WA", "TLE", "RE", "CE"];
    let t0: jiff::Timestamp = "2026-03-01T09:00:00Z".parse().unwrap();
    for _ in 0..SUBMISSIONS {
        let verdict = verdicts[rng.below(5) as usize];
        let score = if verdict == "AC" {
            100
        } else {
            rng.below(100) as i64
        };
        let user = rng.below(USERS) as i64 + 1;
        let label = LABELS[rng.below(4) as usize];
        let at = t0 + jiff::SignedDuration::from_secs(rng.below(5 * 3600) as i64);
        sqlx::query(
            "INSERT INTO submissions (problem, language, source, status, verdict, score, user_id,
                                      contest, label, submitted_at)
             VALUES ('sudoku', 'c', '', 'done', ?, ?, ?, 'big', ?, ?)",
        )
        .bind(verdict)
        .bind(score)
        .bind(user)
        .bind(label)
        .bind(at.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
}

/// How the crowd reads: extra headers, the status expected, and the decoded body's length
/// (`None`: any non-empty body; `Some(0)`: none).
#[derive(Clone, Copy)]
struct Ask {
    headers: &'static [(&'static str, &'static str)],
    status: u16,
    decoded_len: Option<usize>,
    /// Decode a gzip body (a browser does; off, to weigh the decoding in this process).
    decode: bool,
}

/// Plain GET, any non-empty 200 body.
const PLAIN: Ask = Ask {
    headers: &[],
    status: 200,
    decoded_len: None,
    decode: true,
};

/// 200 clients reading `path` `READS` times each at once: every latency, sorted. A gzip
/// answer is decoded within the timed read, as a browser does.
async fn crowd(c: &reqwest::Client, url: &str, token: &str, ask: Ask, etag: &str) -> Vec<Duration> {
    let url: Arc<str> = url.into();
    let token: Arc<str> = token.into();
    let etag: Arc<str> = etag.into();
    let start = Arc::new(tokio::sync::Barrier::new(CLIENTS));
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (c, url, token, start) = (c.clone(), url.clone(), token.clone(), start.clone());
            let etag = etag.clone();
            tokio::spawn(async move {
                start.wait().await;
                let mut times = Vec::with_capacity(READS);
                for _ in 0..READS {
                    let t = Instant::now();
                    let mut req = c.get(&*url).bearer_auth(&*token);
                    for (k, v) in ask.headers {
                        req = req.header(*k, if *v == "ETAG" { &*etag } else { *v });
                    }
                    let r = req.send().await.unwrap();
                    assert_eq!(r.status(), ask.status);
                    let gzip = r.headers().get("content-encoding").is_some();
                    let mut body = r.bytes().await.unwrap().to_vec();
                    if gzip && ask.decode {
                        let mut plain = Vec::with_capacity(body.len() * 10);
                        flate2::read::GzDecoder::new(&body[..])
                            .read_to_end(&mut plain)
                            .unwrap();
                        body = plain;
                    }
                    times.push(t.elapsed());
                    match ask.decoded_len {
                        Some(len) => assert_eq!(body.len(), len),
                        None => assert!(!body.is_empty()),
                    }
                }
                times
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort();
    all
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a load figure: run with --ignored --nocapture (see the file's doc)"]
async fn two_hundred_clients_read_a_big_scoreboard() {
    let dir = tempfile::tempdir().unwrap();
    let problems = trimmed_problems(dir.path(), 0);
    std::fs::create_dir_all(dir.path().join("contests")).unwrap();
    std::fs::write(dir.path().join("contests/big.toml"), big()).unwrap();
    std::fs::write(dir.path().join("clock.txt"), "2026-03-01T13:30:00Z").unwrap();
    let db = dir.path().join("judge.db");
    let seeding = Instant::now();
    seed(&db).await;
    let seeded = seeding.elapsed();
    let d = Daemon::start_with(
        dir.path(),
        &db,
        &problems,
        1,
        "[contests]\nclock_file = \"clock.txt\"\n[server]\nmax_connections = 1024\n",
    );
    let config = dir.path().join("config.toml");
    add_user(&config, &db, "boss", true, "correct horse battery");
    add_user(&config, &db, "alice", false, "correct horse battery");
    let c = client();
    let alice = login(&c, &d.base, "alice", "correct horse battery").await;
    let boss = login(&c, &d.base, "boss", "correct horse battery").await;
    let board_url = d.url("/api/contests/big/scoreboard");

    // Computed afresh: the first read, then after each of 10 changes (a jury submission
    // bumps the version).
    let mut fresh = Vec::new();
    for i in 0..11 {
        if i > 0 {
            let r = c
                .post(d.url("/api/contests/big/submissions"))
                .bearer_auth(&boss)
                .json(&serde_json::json!({"problem": "A", "language": "python", "source": "print(1)"}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 202);
        }
        let t = Instant::now();
        let r = c.get(&board_url).bearer_auth(&alice).send().await.unwrap();
        let board: serde_json::Value = r.json().await.unwrap();
        fresh.push(t.elapsed());
        assert_eq!(board["rows"].as_array().unwrap().len(), USERS as usize);
        assert_eq!(board["frozen"], true);
    }
    fresh.sort();
    // Let the jury submissions be judged, so the crowd reads one version.
    let waited = Instant::now();
    loop {
        let r = c
            .get(d.url("/api/submissions?limit=20"))
            .bearer_auth(&boss)
            .send()
            .await
            .unwrap();
        let list: serde_json::Value = r.json().await.unwrap();
        if list
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["status"] == "done")
        {
            break;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "jury submissions not judged"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // One read computes the board of the final version; the crowd reads it.
    let version = |c: reqwest::Client, url: String, token: String| async move {
        let r = c.get(&url).bearer_auth(&token).send().await.unwrap();
        let board: serde_json::Value = r.json().await.unwrap();
        board["version"].as_u64().unwrap()
    };
    let before = version(c.clone(), board_url.clone(), alice.clone()).await;
    // The final version's sizes and tag.
    let size = c
        .get(&board_url)
        .bearer_auth(&alice)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .len();
    let r = c
        .get(&board_url)
        .bearer_auth(&alice)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    let etag = r.headers()["etag"].to_str().unwrap().to_string();
    let gzipped = r.bytes().await.unwrap().len();
    println!("the board is {size} bytes of JSON, {gzipped} bytes gzipped");
    let health_url = d.url("/api/health");
    let browser = Ask {
        headers: &[("accept-encoding", "gzip, deflate, br, zstd")],
        status: 200,
        decoded_len: Some(size),
        decode: true,
    };
    let undecoded = Ask {
        decoded_len: Some(gzipped),
        decode: false,
        ..browser
    };
    let revalidated = Ask {
        headers: &[
            ("accept-encoding", "gzip, deflate, br, zstd"),
            ("if-none-match", "ETAG"),
        ],
        status: 304,
        decoded_len: Some(0),
        decode: true,
    };
    let plain = Ask {
        decoded_len: Some(size),
        ..PLAIN
    };
    let health = crowd(&c, &health_url, &alice, PLAIN, &etag).await;
    let gzip_boards = crowd(&c, &board_url, &alice, browser, &etag).await;
    let gzip_undecoded = crowd(&c, &board_url, &alice, undecoded, &etag).await;
    let boards = crowd(&c, &board_url, &alice, plain, &etag).await;
    let not_modified = crowd(&c, &board_url, &alice, revalidated, &etag).await;
    let after = version(c.clone(), board_url.clone(), alice.clone()).await;
    println!("board version {before} before the crowds, {after} after (equal: no recomputation)");
    let health_again = crowd(&c, &health_url, &alice, PLAIN, &etag).await;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "seeded {USERS} users and {SUBMISSIONS} submissions in {:.1} s",
        seeded.as_secs_f64()
    );
    println!(
        "board computed afresh (11 reads after a change): median {:.1} ms, max {:.1} ms",
        pct(&fresh, 0.5),
        pct(&fresh, 1.0)
    );
    for (what, t) in [
        ("GET /api/health", &health),
        ("GET scoreboard, gzip (browser)", &gzip_boards),
        ("GET scoreboard, gzip not decoded", &gzip_undecoded),
        ("GET scoreboard, plain JSON", &boards),
        ("GET scoreboard, If-None-Match: 304", &not_modified),
        ("GET /api/health again", &health_again),
    ] {
        println!(
            "{what}: {CLIENTS} clients x {READS}: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            pct(t, 0.5),
            pct(t, 0.99),
            pct(t, 1.0)
        );
    }
    for (what, t) in [
        ("gzip", &gzip_boards),
        ("gzip not decoded", &gzip_undecoded),
        ("plain", &boards),
        ("304", &not_modified),
    ] {
        println!(
            "scoreboard {what} / health: median {:.1}x, p99 {:.1}x",
            pct(t, 0.5) / pct(&health, 0.5),
            pct(t, 0.99) / pct(&health, 0.99),
        );
    }
    println!(
        "load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(!d.log().contains(" ERROR "), "{}", d.log());
}
