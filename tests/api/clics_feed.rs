//! The ICPC Contest API (CLICS 2023-06, `/clics/`) against the real daemon, its contest
//! clock driven through `[contests] clock_file` (issue 30, point 1): an icpc contest with
//! runs, a freeze, judgements and an unfreeze. The event feed is checked against the
//! specification (every event type's required fields and their types), the board computed
//! from the feed alone equals the judge's own board before and after the unfreeze, a
//! contestant's feed hides what the freeze hides, `since_token` resumes without loss or
//! repetition, a live feed sees the same events and keep-alive newlines, and feeds are
//! bounded per caller.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use serde_json::Value;

use crate::fixtures::{contests, daemon};

use contests::{at, start, Contest, SPRING};
use daemon::fixture;

/// Whether `s` is a CLICS `TIME` (`yyyy-mm-ddThh:mm:ss(.uuu)?(Z|+hh(:mm)?)`).
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && (s.ends_with('Z') || s[19..].contains(['+', '-']))
        && s.parse::<jiff::Timestamp>().is_ok()
}

/// Whether `s` is a CLICS `RELTIME` (`(-)?(h)*h:mm:ss(.uuu)?`).
fn is_reltime(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (main, frac) = s.split_once('.').unwrap_or((s, "000"));
    let parts: Vec<&str> = main.split(':').collect();
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit());
    parts.len() == 3
        && digits(parts[0])
        && parts[1].len() == 2
        && parts[2].len() == 2
        && digits(parts[1])
        && digits(parts[2])
        && parts[1] < "60"
        && parts[2] < "60"
        && frac.len() == 3
        && digits(frac)
}

/// Whether `v` is a CLICS `ID`: `[a-zA-Z0-9_.-]`, at most 36, not starting with `-` or `.`,
/// not ending with `.`.
fn is_id(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        !s.is_empty()
            && s.len() <= 36
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
            && !s.starts_with(['-', '.'])
            && !s.ends_with('.')
    })
}

fn time_or_null(v: &Value) -> bool {
    v.is_null() || v.as_str().is_some_and(is_time)
}

/// Checks one event line against the 2023-06 notification format and its object's
/// required properties and types; panics naming what is wrong.
fn check_event(e: &Value) {
    let kinds = [
        "contest",
        "judgement-types",
        "languages",
        "problems",
        "teams",
        "state",
        "submissions",
        "judgements",
    ];
    let kind = e["type"].as_str().unwrap_or_else(|| panic!("no type: {e}"));
    assert!(kinds.contains(&kind), "unknown type {kind}: {e}");
    assert!(e.get("id").is_some() && e.get("data").is_some(), "{e}");
    assert!(e["token"].is_string(), "every event carries a token: {e}");
    let d = &e["data"];
    let has = |k: &str| d.get(k).is_some();
    match kind {
        "contest" | "state" => assert!(e["id"].is_null(), "{e}"),
        _ => assert_eq!(e["id"], d["id"], "the event's id is its object's: {e}"),
    }
    match kind {
        "contest" => {
            assert!(is_id(&d["id"]) && d["name"].is_string(), "{e}");
            assert!(d["duration"].as_str().is_some_and(is_reltime), "{e}");
            assert!(time_or_null(&d["start_time"]), "{e}");
            assert_eq!(d["scoreboard_type"], "pass-fail", "{e}");
            assert!(
                d["penalty_time"].is_u64(),
                "pass-fail needs penalty_time: {e}"
            );
            assert!(
                d["scoreboard_freeze_duration"]
                    .as_str()
                    .is_some_and(is_reltime),
                "{e}"
            );
        }
        "judgement-types" => {
            assert!(is_id(&d["id"]) && d["name"].is_string(), "{e}");
            assert!(d["solved"].is_boolean() && d["penalty"].is_boolean(), "{e}");
        }
        "languages" => {
            assert!(is_id(&d["id"]) && d["name"].is_string(), "{e}");
            assert_eq!(d["entry_point_required"], false, "{e}");
            assert!(!has("entry_point_name"), "{e}");
            assert!(
                d["extensions"]
                    .as_array()
                    .is_some_and(|a| a.iter().all(Value::is_string)),
                "{e}"
            );
        }
        "problems" => {
            assert!(
                is_id(&d["id"]) && d["label"].is_string() && d["name"].is_string(),
                "{e}"
            );
            assert!(
                d["ordinal"].is_u64() && d["test_data_count"].is_u64(),
                "{e}"
            );
            assert!(d["time_limit"].is_number(), "{e}");
        }
        "teams" => assert!(
            is_id(&d["id"]) && d["name"].is_string() && d["label"].is_string(),
            "{e}"
        ),
        "state" => {
            for k in [
                "started",
                "ended",
                "finalized",
                "end_of_updates",
                "frozen",
                "thawed",
            ] {
                assert!(has(k) && time_or_null(&d[k]), "state.{k}: {e}");
            }
        }
        "submissions" => {
            for k in ["id", "language_id", "problem_id", "team_id"] {
                assert!(is_id(&d[k]), "submission.{k}: {e}");
            }
            assert!(d["time"].as_str().is_some_and(is_time), "{e}");
            assert!(d["contest_time"].as_str().is_some_and(is_reltime), "{e}");
            assert!(d["files"].is_array(), "{e}");
        }
        "judgements" => {
            assert!(is_id(&d["id"]) && is_id(&d["submission_id"]), "{e}");
            assert!(d["start_time"].as_str().is_some_and(is_time), "{e}");
            assert!(
                d["start_contest_time"].as_str().is_some_and(is_reltime),
                "{e}"
            );
            // Completed: the type and both end times together.
            assert!(is_id(&d["judgement_type_id"]), "{e}");
            assert!(d["end_time"].as_str().is_some_and(is_time), "{e}");
            assert!(
                d["end_contest_time"].as_str().is_some_and(is_reltime),
                "{e}"
            );
        }
        _ => unreachable!(),
    }
}

/// The feed's events (`stream=false`), after `since` when given, each checked.
async fn feed(j: &Contest, token: &str, since: Option<&str>) -> Vec<Value> {
    let mut url = j.d.url("/clics/contests/spring/event-feed?stream=false");
    if let Some(t) = since {
        url.push_str(&format!("&since_token={t}"));
    }
    let r = j.c.get(url).bearer_auth(token).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    let text = r.text().await.unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    events.iter().for_each(check_event);
    events
}

fn millis(reltime: &str) -> i64 {
    let (main, frac) = reltime.split_once('.').unwrap();
    let p: Vec<i64> = main.split(':').map(|x| x.parse().unwrap()).collect();
    ((p[0] * 60 + p[1]) * 60 + p[2]) * 1000 + frac.parse::<i64>().unwrap()
}

/// The icpc board from the feed alone, in the judge's terms: per team (rank, solved,
/// penalty) and per cell (attempts, pending, minute of the AC).
type FeedBoard = BTreeMap<String, (u64, u64, i64, Vec<FeedCell>)>;

/// A cell: attempts, pending, the minute of the AC.
type FeedCell = (u64, u64, Option<i64>);

fn board_from_feed(events: &[Value]) -> FeedBoard {
    let mut latest: HashMap<(String, String), Value> = HashMap::new();
    for e in events {
        let id = e["id"].as_str().unwrap_or("").to_string();
        latest.insert(
            (e["type"].as_str().unwrap().to_string(), id),
            e["data"].clone(),
        );
    }
    let of = |kind: &str| -> Vec<&Value> {
        let mut v: Vec<&Value> = latest
            .iter()
            .filter(|((k, _), _)| k == kind)
            .map(|(_, d)| d)
            .collect();
        v.sort_by_key(|d| d["id"].as_str().unwrap().to_string());
        v
    };
    let contest = &latest[&("contest".to_string(), String::new())];
    let penalty_time = contest["penalty_time"].as_i64().unwrap();
    let types: HashMap<&str, (bool, bool)> = of("judgement-types")
        .iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap(),
                (t["solved"] == true, t["penalty"] == true),
            )
        })
        .collect();
    let mut problems: Vec<&Value> = of("problems");
    problems.sort_by_key(|p| p["ordinal"].as_u64());
    let verdict: HashMap<&str, &str> = of("judgements")
        .iter()
        .map(|j| {
            (
                j["submission_id"].as_str().unwrap(),
                j["judgement_type_id"].as_str().unwrap(),
            )
        })
        .collect();
    let mut subs = of("submissions");
    subs.sort_by_key(|s| {
        (
            millis(s["contest_time"].as_str().unwrap()),
            s["id"].as_str().unwrap().parse::<i64>().unwrap(),
        )
    });
    let mut rows: Vec<(String, u64, i64, Vec<FeedCell>)> = Vec::new();
    for team in of("teams") {
        let t = team["id"].as_str().unwrap();
        let (mut solved, mut penalty) = (0u64, 0i64);
        let mut cells = Vec::new();
        for p in &problems {
            let (mut rejected, mut pending, mut minute) = (0u64, 0u64, None);
            for s in subs
                .iter()
                .filter(|s| s["team_id"] == t && s["problem_id"] == p["id"])
            {
                if minute.is_some() {
                    break;
                }
                match verdict.get(s["id"].as_str().unwrap()) {
                    None => pending += 1,
                    Some(v) => match types[v] {
                        (true, _) => {
                            let m = millis(s["contest_time"].as_str().unwrap()) / 60_000;
                            minute = Some(m);
                            solved += 1;
                            penalty += m + penalty_time * rejected as i64;
                        }
                        (false, true) => rejected += 1,
                        (false, false) => {}
                    },
                }
            }
            cells.push((rejected + u64::from(minute.is_some()), pending, minute));
        }
        rows.push((t.to_string(), solved, penalty, cells));
    }
    let mut out = FeedBoard::new();
    for (t, solved, penalty, cells) in &rows {
        let better = rows
            .iter()
            .filter(|r| (r.1 > *solved) || (r.1 == *solved && r.2 < *penalty))
            .count();
        out.insert(
            t.clone(),
            (better as u64 + 1, *solved, *penalty, cells.clone()),
        );
    }
    out
}

/// The judge's own board (`/api/contests/spring/scoreboard`) as `token` sees it, in the same
/// terms.
async fn judge_board(j: &Contest, token: &str) -> FeedBoard {
    let b = j.board("spring", token).await;
    b["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let cells = r["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let solved = c["state"] == "solved";
                    (
                        c["attempts"].as_u64().unwrap(),
                        c["pending"].as_u64().unwrap(),
                        if solved { c["minutes"].as_i64() } else { None },
                    )
                })
                .collect();
            (
                r["user"].as_str().unwrap().to_string(),
                (
                    r["rank"].as_u64().unwrap(),
                    r["solved"].as_u64().unwrap(),
                    r["penalty"].as_i64().unwrap(),
                    cells,
                ),
            )
        })
        .collect()
}

fn tokens(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["token"].as_str().unwrap())
        .collect()
}

/// Reads a live feed for `span`: its event lines and how many bare newlines (keep-alives)
/// came.
async fn read_live(
    r: &mut reqwest::Response,
    buf: &mut String,
    span: Duration,
) -> (Vec<Value>, usize) {
    let (mut events, mut newlines) = (Vec::new(), 0);
    let until = tokio::time::Instant::now() + span;
    while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(until, r.chunk()).await {
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(i) = buf.find('\n') {
            let line: String = buf.drain(..=i).collect();
            if line == "\n" {
                newlines += 1;
            } else {
                events.push(serde_json::from_str(line.trim_end()).unwrap());
            }
        }
    }
    (events, newlines)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_feed_follows_the_spec_and_replays_the_freeze_and_the_unfreeze() {
    let mut j = start(&[("spring", SPRING)], &at(10)).await;
    let (ac, wa, re) = (
        fixture("sudoku", "ac.c"),
        fixture("sudoku", "wa.c"),
        fixture("binary-sudoku", "re.c"),
    );
    let b_ac = fixture("binary-sudoku", "ac.c");

    // Before the freeze: alice WA then AC on A; bob AC on A.
    let w = j.submit_ok("spring", &j.alice, "A", "c", &wa).await;
    let b1 = j.submit_ok("spring", &j.bob, "A", "c", &ac).await;
    j.wait_done(w).await;
    j.wait_done(b1).await;
    j.set_clock(&at(30));
    let a1 = j.submit_ok("spring", &j.alice, "A", "c", &ac).await;
    j.wait_done(a1).await;
    j.set_clock(&at(40));

    // A contestant's live feed, opened now.
    let mut live =
        j.c.get(j.d.url("/clics/contests/spring/event-feed"))
            .bearer_auth(&j.alice)
            .send()
            .await
            .unwrap();
    assert_eq!(live.status(), 200);
    let mut buf = String::new();
    let (mut live_events, _) = read_live(&mut live, &mut buf, Duration::from_secs(2)).await;

    // In the freeze (from 4:00): bob solves B, alice's B crashes.
    j.set_clock(&at(250));
    let b2 = j.submit_ok("spring", &j.bob, "B", "c", &b_ac).await;
    let a2 = j.submit_ok("spring", &j.alice, "B", "c", &re).await;
    j.wait_done(b2).await;
    j.wait_done(a2).await;
    j.set_clock(&at(301));

    // The contestant's feed: the in-freeze submissions without their judgements; its board
    // is the judge's public (frozen) board.
    let public = feed(&j, &j.alice, None).await;
    let judged: Vec<&str> = public
        .iter()
        .filter(|e| e["type"] == "judgements")
        .map(|e| e["data"]["submission_id"].as_str().unwrap())
        .collect();
    let submitted: Vec<&str> = public
        .iter()
        .filter(|e| e["type"] == "submissions")
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    let (b2s, a2s) = (b2.to_string(), a2.to_string());
    assert!(
        submitted.contains(&b2s.as_str()) && submitted.contains(&a2s.as_str()),
        "{submitted:?}"
    );
    assert!(
        !judged.contains(&b2s.as_str()) && !judged.contains(&a2s.as_str()),
        "{judged:?}"
    );
    assert_eq!(judged.len(), 3, "{judged:?}");
    let frozen = board_from_feed(&public);
    assert_eq!(frozen, judge_board(&j, &j.alice).await);
    assert_eq!(
        frozen["bob"].3[1],
        (0, 1, None),
        "bob's B is a pending try: {frozen:?}"
    );
    let state = public.iter().rev().find(|e| e["type"] == "state").unwrap();
    assert!(
        state["data"]["frozen"].is_string() && state["data"]["ended"].is_string(),
        "{state}"
    );
    assert!(
        state["data"]["finalized"].is_string() && state["data"]["thawed"].is_null(),
        "{state}"
    );

    // The jury's feed has every judgement; its board is the jury's.
    let jury = feed(&j, &j.boss, None).await;
    assert_eq!(jury.iter().filter(|e| e["type"] == "judgements").count(), 5);
    let whole = board_from_feed(&jury);
    assert_eq!(whole, judge_board(&j, &j.boss).await);
    assert_eq!(whole["bob"].1, 2, "{whole:?}");
    assert_ne!(whole, frozen);

    // Resuming after any event gives exactly the rest; a made-up token is a 400.
    for k in [0, 5, public.len() / 2, public.len() - 1] {
        let rest = feed(&j, &j.alice, public[k]["token"].as_str()).await;
        assert_eq!(
            tokens(&rest),
            tokens(&public[k + 1..]),
            "resuming after event {k}"
        );
        assert_eq!(rest, public[k + 1..]);
    }
    let r =
        j.c.get(j.d.url("/clics/contests/spring/event-feed?stream=false&since_token=nonsense"))
            .bearer_auth(&j.alice)
            .send()
            .await
            .unwrap();
    assert_eq!(r.status(), 400);

    // The unfreeze: after the last token the contestant gets exactly the two hidden
    // judgements and the thaw; the feed's board is the judge's again, now the whole one.
    let last = public.last().unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = j
        .post("/api/contests/spring/unfreeze", Some(&j.boss), None)
        .await;
    assert_eq!(s, 200, "{v}");
    let revealed = feed(&j, &j.alice, Some(&last)).await;
    let kinds: Vec<(&str, &str)> = revealed
        .iter()
        .map(|e| (e["type"].as_str().unwrap(), e["id"].as_str().unwrap_or("")))
        .collect();
    let mut hidden = [b2s.as_str(), a2s.as_str()];
    hidden.sort_by_key(|s| s.parse::<i64>().unwrap());
    assert_eq!(
        kinds,
        vec![
            ("judgements", hidden[0]),
            ("judgements", hidden[1]),
            ("state", "")
        ],
        "{revealed:?}"
    );
    assert!(revealed[2]["data"]["thawed"].is_string());
    let all = feed(&j, &j.alice, None).await;
    assert_eq!(
        all[..public.len()],
        public[..],
        "the unfreeze only adds events"
    );
    let thawed = board_from_feed(&all);
    assert_eq!(thawed, judge_board(&j, &j.alice).await);
    assert_eq!(thawed, whole);

    // The live feed saw the same events, each once, in order; then keep-alive newlines.
    let (more, newlines) = read_live(&mut live, &mut buf, Duration::from_secs(13)).await;
    live_events.extend(more);
    assert_eq!(tokens(&live_events), tokens(&all));
    assert!(
        newlines >= 1,
        "no keep-alive newline in 13 s, 10 s of them without events"
    );

    // The REST endpoints agree with the feed; the CLICS scoreboard is the judge's.
    let (s, subs) = j
        .get(
            "/clics/contests/spring/submissions?team_id=bob",
            Some(&j.alice),
        )
        .await;
    assert_eq!((s, subs.as_array().unwrap().len()), (200, 2), "{subs}");
    let (s, sb) = j
        .get("/clics/contests/spring/scoreboard", Some(&j.alice))
        .await;
    assert_eq!(s, 200, "{sb}");
    let rows = sb["rows"].as_array().unwrap();
    for r in rows {
        let t = r["team_id"].as_str().unwrap();
        assert_eq!(r["rank"].as_u64(), Some(thawed[t].0), "{sb}");
        assert_eq!(r["score"]["num_solved"].as_u64(), Some(thawed[t].1), "{sb}");
        assert_eq!(r["score"]["total_time"].as_i64(), Some(thawed[t].2), "{sb}");
    }
    let (s, api) = j.get("/clics", None).await;
    assert_eq!(
        (s, api["version"].as_str()),
        (200, Some("2023-06")),
        "{api}"
    );
    let (s, _) = j.get("/clics/contests/spring/teams", None).await;
    assert_eq!(
        s, 401,
        "anonymous callers are refused as on every contest route"
    );

    // Feeds are bounded per caller: alice holds one, three more fit, the fifth is 429.
    let mut held = Vec::new();
    for _ in 0..3 {
        let r =
            j.c.get(j.d.url("/clics/contests/spring/event-feed"))
                .bearer_auth(&j.alice)
                .send()
                .await
                .unwrap();
        assert_eq!(r.status(), 200);
        held.push(r);
    }
    let r =
        j.c.get(j.d.url("/clics/contests/spring/event-feed"))
            .bearer_auth(&j.alice)
            .send()
            .await
            .unwrap();
    assert_eq!(r.status(), 429);
    let r =
        j.c.get(j.d.url("/clics/contests/spring/event-feed"))
            .bearer_auth(&j.bob)
            .send()
            .await
            .unwrap();
    assert_eq!(r.status(), 200, "another caller has their own share");
    held.push(r);

    // Open feeds do not hold the daemon's stop.
    let status = j.d.terminate(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    drop(live);
}
