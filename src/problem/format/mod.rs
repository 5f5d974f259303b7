//! The three input formats, parsed strictly (data validation and the `solve` command rely on
//! them) and written canonically (the generators write what these parsers read).
//!
//! Parsers accept LF or CRLF line ends, trailing spaces and a missing final newline, so a
//! hand-typed input still solves; `verify` additionally requires committed data to be in the
//! canonical form the writers produce.

pub mod binary;
pub mod sudoku;
pub mod target;

/// A malformed input, with the 1-based line where the fault is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FormatError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl FormatError {
    fn at(line: usize, message: impl Into<String>) -> FormatError {
        FormatError {
            line,
            message: message.into(),
        }
    }
}

/// Splits `input` into lines (LF or CRLF) with trailing whitespace removed, numbered from 1.
/// A final line ending does not start a new empty line.
fn lines(input: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    let mut all = body.split(|&b| b == b'\n');
    // An empty input has no lines at all, not one empty line.
    if input.is_empty() {
        all.next();
    }
    all.enumerate().map(|(i, line)| (i + 1, trim_end(line)))
}

fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &line[..end]
}

/// Fails on the first non-empty line among `rest`: nothing may follow the input proper.
fn expect_only_blank<'a>(
    mut rest: impl Iterator<Item = (usize, &'a [u8])>,
    after: &str,
) -> Result<(), FormatError> {
    match rest.find(|(_, line)| !line.is_empty()) {
        Some((n, line)) => Err(FormatError::at(
            n,
            format!("unexpected text after {after}: {}", show(line)),
        )),
        None => Ok(()),
    }
}

/// A short, printable rendering of untrusted bytes for error messages (never megabytes).
pub fn show(bytes: &[u8]) -> String {
    const MAX: usize = 24;
    let mut out = String::from("\"");
    for &b in bytes.iter().take(MAX) {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    if bytes.len() > MAX {
        out.push_str(&format!("... ({} bytes)", bytes.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_handle_crlf_trailing_space_and_missing_newline() {
        let got: Vec<_> = lines(b"ab \r\ncd\r\nef").collect();
        assert_eq!(got, vec![(1, &b"ab"[..]), (2, &b"cd"[..]), (3, &b"ef"[..])]);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"x\n").count(), 1);
        assert_eq!(lines(b"x\n\n").count(), 2);
    }

    #[test]
    fn show_truncates_and_escapes() {
        assert_eq!(show(b"a\x00\""), "\"a\\x00\\\"\"");
        let long = vec![b'7'; 1000];
        let s = show(&long);
        assert!(s.len() < 60, "{s}");
        assert!(s.ends_with("(1000 bytes)"), "{s}");
    }
}
