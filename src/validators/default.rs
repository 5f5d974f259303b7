//! The Kattis format's default output validator: the output and the answer compared token
//! by token, as problemtools' `default_validator` does, with its flags
//! ([`DefaultFlags`]). A wrong answer's message names the first differing token, its
//! number and its line in both files, for the jury.

use crate::checkers::CheckOutcome;
use crate::problem::validator::DefaultFlags;

/// A token with where it stands.
struct Token<'a> {
    /// The whitespace before it (the run at the end of the file: a token of zero length).
    space: &'a [u8],
    text: &'a [u8],
    /// 1-based line of its first byte.
    line: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The tokens of `bytes`, and at the end a token of zero length holding the trailing
/// whitespace (so `space_change_sensitive` sees it too).
fn tokens(bytes: &[u8]) -> impl Iterator<Item = Token<'_>> {
    let mut at = 0;
    let mut line = 1;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let start = at;
        while at < bytes.len() && is_space(bytes[at]) {
            if bytes[at] == b'\n' {
                line += 1;
            }
            at += 1;
        }
        let space = &bytes[start..at];
        let text_start = at;
        while at < bytes.len() && !is_space(bytes[at]) {
            at += 1;
        }
        if text_start == at {
            done = true;
        }
        Some(Token {
            space,
            text: &bytes[text_start..at],
            line,
        })
    })
}

/// A token as the message shows it: lossy UTF-8, at most 40 characters.
fn show(text: &[u8]) -> String {
    let s = String::from_utf8_lossy(text);
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.into_owned()
    }
}

fn as_float(text: &[u8]) -> Option<f64> {
    let v: f64 = std::str::from_utf8(text).ok()?.parse().ok()?;
    v.is_finite().then_some(v)
}

/// Whether `out` matches the judge's `ans` token under `flags`.
fn same_token(flags: &DefaultFlags, ans: &[u8], out: &[u8]) -> bool {
    let tolerant =
        flags.float_absolute_tolerance.is_some() || flags.float_relative_tolerance.is_some();
    if tolerant {
        if let Some(expected) = as_float(ans) {
            let Some(found) = as_float(out) else {
                return false;
            };
            let diff = (expected - found).abs();
            let abs = flags
                .float_absolute_tolerance
                .is_some_and(|eps| diff <= eps);
            let rel = flags
                .float_relative_tolerance
                .is_some_and(|eps| diff <= eps * expected.abs());
            return abs || rel;
        }
    }
    if flags.case_sensitive {
        ans == out
    } else {
        ans.eq_ignore_ascii_case(out)
    }
}

/// Compares `output` with `answer` under `flags`.
pub fn check(flags: &DefaultFlags, output: &[u8], answer: &[u8]) -> CheckOutcome {
    let mut expected = tokens(answer);
    let mut found = tokens(output);
    let mut index = 0usize;
    loop {
        let (Some(a), Some(o)) = (expected.next(), found.next()) else {
            return CheckOutcome::Accepted;
        };
        if flags.space_change_sensitive && a.space != o.space {
            return CheckOutcome::WrongAnswer(format!(
                "whitespace differs before token {} (output line {}, answer line {})",
                index + 1,
                o.line,
                a.line
            ));
        }
        match (a.text.is_empty(), o.text.is_empty()) {
            (true, true) => return CheckOutcome::Accepted,
            (true, false) => {
                return CheckOutcome::WrongAnswer(format!(
                "trailing output: token {} `{}` (output line {}) after the answer's {index} tokens",
                index + 1,
                show(o.text),
                o.line
            ))
            }
            (false, true) => {
                return CheckOutcome::WrongAnswer(format!(
                    "output ended after {index} tokens; expected token {} `{}` (answer line {})",
                    index + 1,
                    show(a.text),
                    a.line
                ))
            }
            (false, false) => {}
        }
        index += 1;
        if !same_token(flags, a.text, o.text) {
            return CheckOutcome::WrongAnswer(format!(
                "token {index} differs: expected `{}` (answer line {}), found `{}` (output line {})",
                show(a.text),
                a.line,
                show(o.text),
                o.line
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::validator::split_flags;

    fn run(flags: &str, output: &str, answer: &str) -> CheckOutcome {
        check(
            &DefaultFlags::parse(&split_flags(flags)).unwrap(),
            output.as_bytes(),
            answer.as_bytes(),
        )
    }

    fn wa(outcome: CheckOutcome) -> String {
        match outcome {
            CheckOutcome::WrongAnswer(m) => m,
            other => panic!("expected WA, got {other:?}"),
        }
    }

    #[test]
    fn whitespace_and_case_are_free_by_default() {
        assert_eq!(run("", "1  2\r\n3", "1 2\n3\n"), CheckOutcome::Accepted);
        assert_eq!(
            run("", "Hello World!", "hello world!\n"),
            CheckOutcome::Accepted
        );
        assert_eq!(run("", "", ""), CheckOutcome::Accepted);
        let m = wa(run("case_sensitive", "Hello World!", "hello world!\n"));
        assert_eq!(
            m,
            "token 1 differs: expected `hello` (answer line 1), found `Hello` (output line 1)"
        );
    }

    #[test]
    fn messages_name_the_first_differing_token_and_its_lines() {
        let m = wa(run("", "1\n2\n4\n", "1\n2\n3\n"));
        assert_eq!(
            m,
            "token 3 differs: expected `3` (answer line 3), found `4` (output line 3)"
        );
        let m = wa(run("", "1 2 3 4", "1 2 3\n"));
        assert!(m.starts_with("trailing output: token 4 `4`"), "{m}");
        let m = wa(run("", "1\n", "1\n2\n"));
        assert_eq!(
            m,
            "output ended after 1 tokens; expected token 2 `2` (answer line 2)"
        );
        let long = "x".repeat(100);
        let m = wa(run("", &long, "y"));
        assert!(m.len() < 150, "{m}");
    }

    #[test]
    fn space_change_sensitive_compares_every_run_of_whitespace() {
        assert_eq!(
            run("space_change_sensitive", "1 2\n", "1 2\n"),
            CheckOutcome::Accepted
        );
        let m = wa(run("space_change_sensitive", "1  2\n", "1 2\n"));
        assert!(m.contains("whitespace differs before token 2"), "{m}");
        let m = wa(run("space_change_sensitive", "1 2", "1 2\n"));
        assert!(m.contains("whitespace differs before token 3"), "{m}");
    }

    #[test]
    fn float_tolerances_are_absolute_or_relative() {
        assert_eq!(
            run("float_tolerance 1e-6", "3.1415927", "3.14159265\n"),
            CheckOutcome::Accepted
        );
        assert_eq!(
            run("float_tolerance 1e-6", "0.0314e2", "3.14\n"),
            CheckOutcome::Accepted
        );
        assert!(matches!(
            run("float_tolerance 1e-6", "3.1416", "3.14159265\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        assert_eq!(
            run("float_absolute_tolerance 0.5", "10.4", "10\n"),
            CheckOutcome::Accepted
        );
        assert!(matches!(
            run("float_absolute_tolerance 0.5", "10.6", "10\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        assert_eq!(
            run("float_relative_tolerance 0.1", "1090", "1000\n"),
            CheckOutcome::Accepted
        );
        assert!(matches!(
            run("float_relative_tolerance 0.1", "1110", "1000\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        assert!(matches!(
            run("float_tolerance 1", "abc", "1.5\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        assert!(matches!(
            run("float_tolerance 1", "nan", "1.5\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        // Without a tolerance, numbers are plain tokens.
        assert!(matches!(
            run("", "3.140", "3.14\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        // Words stay words under a tolerance.
        assert_eq!(
            run("float_tolerance 1e-6", "YES 1.0", "yes 1\n"),
            CheckOutcome::Accepted
        );
    }
}
