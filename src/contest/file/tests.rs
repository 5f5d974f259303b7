//! The contest file's parsing and its error messages.

use super::*;

const FIXED: &str = r#"
title = "Spring practice"
format = "icpc"
freeze_minutes = 60
participants = ["alice", "bob"]
rate = { submissions = 10, per_minutes = 5 }

[timing]
kind = "fixed"
start = 2026-03-01T10:00:00+01:00
duration = "5h"

[[problems]]
label = "A"
problem = "sudoku"

[[problems]]
label = "B"
problem = "binary-sudoku"
"#;

fn parse(text: &str) -> Result<Contest, ContestError> {
    Contest::parse(Path::new("contests/spring.toml"), text)
}

fn error(text: &str) -> String {
    parse(text).expect_err("must be refused").to_string()
}

#[test]
fn a_full_file_parses_into_typed_fields() {
    let c = parse(FIXED).unwrap();
    assert_eq!(c.id.as_str(), "spring");
    assert_eq!(c.format, Format::Icpc);
    assert_eq!(
        c.timing,
        Timing::Fixed {
            start: "2026-03-01T09:00:00Z".parse().unwrap(),
            duration: SignedDuration::from_hours(5),
        }
    );
    assert_eq!(c.freeze_from(), Some(SignedDuration::from_hours(4)));
    assert!(c.participants.admits("alice") && !c.participants.admits("carol"));
    assert_eq!(
        c.rate.map(|r| (r.submissions, r.per)),
        Some((10, SignedDuration::from_mins(5)))
    );
    assert_eq!(
        c.problem("B").map(|p| p.problem.as_str()),
        Some("binary-sudoku")
    );
    assert_eq!(c.problem("sudoku").map(|p| p.label.as_str()), Some("A"));
    assert!(c.problem("C").is_none());
    assert!(
        !c.public_board,
        "the board is for signed-in callers unless the file says"
    );
    let public = parse(&FIXED.replace(
        "format = \"icpc\"",
        "format = \"icpc\"\npublic_board = true",
    ));
    assert!(public.unwrap().public_board);
    assert!(error(&FIXED.replace(
        "format = \"icpc\"",
        "format = \"icpc\"\npublic_board = \"yes\""
    ))
    .contains("public_board"));
}

#[test]
fn each_mistake_names_the_file_and_the_key() {
    let cases: &[(&str, &str, &str)] = &[
        ("format = \"icpc\"", "format = \"acm\"", "key `format`"),
        ("kind = \"fixed\"", "kind = \"later\"", "key `timing.kind`"),
        (
            "duration = \"5h\"",
            "duration = \"-5h\"",
            "key `timing.duration`",
        ),
        (
            "duration = \"5h\"",
            "duration = \"five hours\"",
            "key `timing.duration`",
        ),
        (
            "start = 2026-03-01T10:00:00+01:00",
            "start = 2026-03-01T10:00:00",
            "key `timing.start`",
        ),
        (
            "label = \"B\"",
            "label = \"A\"",
            "key `problems[1].label`: duplicate label A",
        ),
        ("label = \"B\"", "label = \"b\"", "key `problems[1].label`"),
        (
            "problem = \"binary-sudoku\"",
            "problem = \"sudoku\"",
            "key `problems[1].problem`",
        ),
        (
            "freeze_minutes = 60",
            "freeze_minutes = 300",
            "key `freeze_minutes`",
        ),
        (
            "participants = [\"alice\", \"bob\"]",
            "participants = [\"alice\", \"alice\"]",
            "key `participants[1]`",
        ),
        (
            "participants = [\"alice\", \"bob\"]",
            "participants = \"everyone\"",
            "key `participants`",
        ),
        (
            "participants = [\"alice\", \"bob\"]",
            "participants = [\"alice\", \"Bob\"]",
            "key `participants[1]`: invalid user name \"Bob\"",
        ),
        (
            "participants = [\"alice\", \"bob\"]",
            "participants = [\"alice\", 7]",
            "key `participants[1]`: expected a user name",
        ),
        (
            "per_minutes = 5",
            "per_minutes = 0",
            "key `rate.per_minutes`",
        ),
        (
            "format = \"icpc\"",
            "format = \"ioi\"",
            "only icpc contests freeze",
        ),
        (
            "title = \"Spring practice\"",
            "titel = \"x\"",
            "unknown field `titel`",
        ),
    ];
    for (from, to, expected) in cases {
        assert!(FIXED.contains(from), "{from}");
        let message = error(&FIXED.replacen(from, to, 1));
        assert!(message.starts_with("contests/spring.toml: "), "{message}");
        assert!(message.contains(expected), "{to}: {message}");
    }
}

#[test]
fn a_window_that_ends_before_it_starts_is_refused() {
    let text = r#"
title = "USACO-style"
format = "ioi"
[timing]
kind = "window"
window_start = 2026-03-04T00:00:00Z
window_end = 2026-03-01T00:00:00Z
duration = "4h"
[[problems]]
label = "A"
problem = "sudoku"
"#;
    let message = error(text);
    assert!(message.contains("key `timing.window_end`"), "{message}");
    assert!(message.contains("ends before it starts"), "{message}");
    let fixed = text.replace("2026-03-01T00", "2026-03-07T00");
    let c = parse(&fixed).unwrap();
    assert!(matches!(c.timing, Timing::Window { .. }));
    assert_eq!(c.participants, Participants::Anyone);
}

#[test]
fn oi_needs_an_end_and_open_timing_takes_no_times() {
    let open = "title = \"t\"\nformat = \"oi\"\n[timing]\nkind = \"open\"\n[[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n";
    assert!(error(open).contains("key `timing.kind`"));
    let ioi = open.replace("\"oi\"", "\"ioi\"");
    assert_eq!(parse(&ioi).unwrap().timing, Timing::Open);
    let with_start = ioi.replace(
        "kind = \"open\"",
        "kind = \"open\"\nstart = 2026-01-01T00:00:00Z",
    );
    assert!(error(&with_start).contains("key `timing.start`: not used by open timing"));
    let no_problems = "title = \"t\"\nformat = \"ioi\"\n[timing]\nkind = \"open\"\n";
    assert!(error(no_problems).contains("key `problems`"));
    let bad_name = Contest::parse(Path::new("contests/Bad Name.toml"), &ioi).unwrap_err();
    assert!(
        bad_name.to_string().contains("key `(file name)`"),
        "{bad_name}"
    );
}

#[test]
fn participants_mix_names_and_roster_groups() {
    let c = parse(&FIXED.replacen(
        "participants = [\"alice\", \"bob\"]",
        "participants = [\"group:class-7b\", \"alice\", \"group:7a\"]",
        1,
    ))
    .unwrap();
    assert_eq!(
        c.groups.iter().map(String::as_str).collect::<Vec<_>>(),
        ["7a", "class-7b"]
    );
    assert!(c.admits("alice", None));
    assert!(c.admits("zoe", Some("class-7b")));
    assert!(!c.admits("zoe", Some("class-7c")) && !c.admits("zoe", None));
    for (to, expected) in [
        (
            "[\"group:7a\", \"group:7a\"]",
            "key `participants[1]`: \"group:7a\" is listed twice",
        ),
        ("[\"group:\"]", "key `participants[0]`: group \"\""),
        (
            "[\"group:Class 7B\"]",
            "key `participants[0]`: group \"Class 7B\"",
        ),
    ] {
        let message = error(&FIXED.replacen(
            "participants = [\"alice\", \"bob\"]",
            &format!("participants = {to}"),
            1,
        ));
        assert!(message.contains(expected), "{to}: {message}");
    }
    assert!(parse(FIXED).unwrap().groups.is_empty());
}
