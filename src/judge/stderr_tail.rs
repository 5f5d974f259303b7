//! The last lines of a run-time error's stderr (a Python traceback's exception, a Rust panic's
//! message, a sanitizer's report), kept with the test's result: what a student needs to see
//! beyond `exit code 1`. Bounded in lines and bytes, cut on a character boundary, and made
//! of valid UTF-8 whatever the program wrote.

/// Most lines kept (a traceback's last frames and its exception).
pub const MAX_LINES: usize = 12;

/// Most bytes kept.
pub const MAX_BYTES: usize = 2048;

/// The tail of `stderr`: its last [`MAX_LINES`] non-blank-ended lines, at most [`MAX_BYTES`]
/// bytes (cut at the front, on a character boundary), invalid UTF-8 replaced; `None` when
/// the program wrote nothing but white space.
pub fn tail(stderr: &[u8]) -> Option<String> {
    let end = stderr
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map(|p| p + 1)?;
    let body = &stderr[..end];
    // The start of the last MAX_LINES lines.
    let mut start = 0;
    let mut newlines = 0;
    for (i, &b) in body.iter().enumerate().rev() {
        if b == b'\n' {
            newlines += 1;
            if newlines == MAX_LINES {
                start = i + 1;
                break;
            }
        }
    }
    let mut start = start.max(end.saturating_sub(MAX_BYTES));
    // Not in the middle of a UTF-8 sequence (continuation bytes are 0b10xxxxxx).
    while start < end && body[start] & 0xC0 == 0x80 {
        start += 1;
    }
    let text = String::from_utf8_lossy(&body[start..]).into_owned();
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceback_keeps_its_last_lines_and_its_exception() {
        let mut err = String::new();
        for i in 0..40 {
            err.push_str(&format!("  File \"main.py\", line {i}, in f\n"));
        }
        err.push_str("ValueError: invalid literal for int() with base 10: 'x'\n\n");
        let t = tail(err.as_bytes()).unwrap();
        assert_eq!(t.lines().count(), MAX_LINES);
        assert!(t.ends_with("ValueError: invalid literal for int() with base 10: 'x'"));
        assert_eq!(tail(b" \n\t\n"), None);
        assert_eq!(tail(b""), None);
    }

    #[test]
    fn bytes_are_bounded_and_the_cut_is_valid_utf8() {
        let long = "é".repeat(5000);
        let t = tail(long.as_bytes()).unwrap();
        assert!(t.len() <= MAX_BYTES, "{}", t.len());
        assert!(t.chars().all(|c| c == 'é'), "cut on a character boundary");
        let t = tail(b"\xff\xfepanicked at 'boom'").unwrap();
        assert!(t.ends_with("panicked at 'boom'"));
    }
}
