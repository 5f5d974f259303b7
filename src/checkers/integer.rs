//! One-integer checker: the output must be exactly one integer equal to the reference answer.

use super::tokens::tokens;
use super::CheckOutcome;
use crate::problem::format::show;

/// Parses a decimal integer token (`-` allowed, no `+`, at most 18 digits so it cannot overflow).
fn parse_integer(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = digits
        .iter()
        .fold(0i64, |acc, &d| acc * 10 + i64::from(d - b'0'));
    Some(if negative { -value } else { value })
}

/// Checks that `output` holds one integer, the one in `answer`.
pub fn check(output: &[u8], answer: &[u8]) -> CheckOutcome {
    let mut expected = tokens(answer);
    let want = match (
        expected.next().map(|t| (t, parse_integer(t))),
        expected.next(),
    ) {
        (Some((_, Some(value))), None) => value,
        (Some((token, None)), _) => {
            return CheckOutcome::JudgeError(format!(
                "answer file holds {}, not an integer",
                show(token)
            ))
        }
        (None, _) => return CheckOutcome::JudgeError("answer file is empty".to_string()),
        (Some(_), Some(_)) => {
            return CheckOutcome::JudgeError("answer file holds more than one token".to_string())
        }
    };
    let mut found = tokens(output);
    let Some(token) = found.next() else {
        return CheckOutcome::WrongAnswer("empty output, expected one integer".to_string());
    };
    let Some(got) = parse_integer(token) else {
        return CheckOutcome::WrongAnswer(format!("expected an integer, found {}", show(token)));
    };
    if got != want {
        return CheckOutcome::WrongAnswer(format!("expected {want}, found {got}"));
    }
    if let Some(extra) = found.next() {
        return CheckOutcome::WrongAnswer(format!(
            "extra output after the answer: {}",
            show(extra)
        ));
    }
    CheckOutcome::Accepted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wa(output: &[u8], answer: &[u8]) -> String {
        match check(output, answer) {
            CheckOutcome::WrongAnswer(m) => m,
            other => panic!("expected WA, got {other:?}"),
        }
    }

    #[test]
    fn accepts_the_answer_whatever_the_whitespace() {
        for out in [
            &b"2829\n"[..],
            b"2829",
            b"  2829  \r\n",
            b"\n\n2829\r\n\r\n",
        ] {
            assert_eq!(check(out, b"2829\n"), CheckOutcome::Accepted);
        }
        assert_eq!(check(b"-1\r\n", b"-1\n"), CheckOutcome::Accepted);
        assert_eq!(check(b"0", b"0\n"), CheckOutcome::Accepted);
    }

    #[test]
    fn each_fault_has_its_message() {
        assert_eq!(wa(b"", b"3\n"), "empty output, expected one integer");
        assert_eq!(wa(b" \r\n", b"3\n"), "empty output, expected one integer");
        assert_eq!(wa(b"4\n", b"3\n"), "expected 3, found 4");
        assert_eq!(wa(b"-1\n", b"2852\n"), "expected 2852, found -1");
        assert_eq!(wa(b"3 3\n", b"3\n"), "extra output after the answer: \"3\"");
        assert_eq!(wa(b"3.0\n", b"3\n"), "expected an integer, found \"3.0\"");
        assert_eq!(wa(b"+3\n", b"3\n"), "expected an integer, found \"+3\"");
        assert_eq!(wa(b"-\n", b"3\n"), "expected an integer, found \"-\"");
    }

    #[test]
    fn garbage_and_huge_output_give_a_short_message() {
        let msg = wa(b"\x00\xff\xfe\x01", b"3\n");
        assert!(
            msg.starts_with("expected an integer, found \"\\x00\\xff"),
            "{msg}"
        );

        let huge = vec![b'9'; 100 << 20];
        let msg = wa(&huge, b"3\n");
        assert!(msg.len() < 120, "{msg}");
        assert!(msg.contains("104857600 bytes"), "{msg}");
    }

    #[test]
    fn malformed_answer_is_the_judges_fault() {
        assert!(matches!(check(b"3", b""), CheckOutcome::JudgeError(_)));
        assert!(matches!(check(b"3", b"x\n"), CheckOutcome::JudgeError(_)));
        assert!(matches!(check(b"3", b"3 4\n"), CheckOutcome::JudgeError(_)));
    }
}
