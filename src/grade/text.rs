//! Names a student chose (file and folder names, and the messages that quote them) shown to
//! the teacher: control characters escaped wherever they are printed, and CSV cells that a
//! spreadsheet would take for a formula neutralised.

use std::borrow::Cow;

/// Characters a terminal acts on, or that reorder what it shows: the C0 and C1 controls
/// and DEL (`char::is_control`: ESC starts a terminal sequence, CR and newline rewrite the
/// line, U+009B is a one-byte CSI on some terminals), and the bidirectional embeddings,
/// overrides, isolates and marks (a name that displays as another).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with every control character escaped, so it prints as one inert line: `\n`, `\r`,
/// `\t`, `\x1b` for the other ASCII controls, `\u{9b}` beyond ASCII.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unsafe_char(c) && c.is_ascii() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A cell a spreadsheet would evaluate (OWASP's CSV injection rule: a cell starting with
/// `=`, `+`, `-`, `@`, tab or carriage return) gets a leading `'`, which makes it text.
pub fn formula_safe(s: &str) -> Cow<'_, str> {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => Cow::Owned(format!("'{s}")),
        _ => Cow::Borrowed(s),
    }
}

/// A CSV cell of text that a student may have chosen: control characters escaped (a `cat`
/// of the file prints nothing a terminal acts on), then made formula-safe.
pub fn csv_text(s: &str) -> String {
    formula_safe(&printable(s)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_print_escaped() {
        assert_eq!(printable("alice"), "alice");
        assert_eq!(printable("Zoë Ñ 李"), "Zoë Ñ 李");
        assert_eq!(
            printable("\x1b[2J\x1b[HALL STUDENTS AC 100\nx\ty\r\u{7f}"),
            "\\x1b[2J\\x1b[HALL STUDENTS AC 100\\nx\\ty\\r\\x7f"
        );
        assert_eq!(printable("a\u{9b}2Jb"), "a\\u{9b}2Jb");
        assert_eq!(printable("evil\u{202e}c.exe"), "evil\\u{202e}c.exe");
    }

    #[test]
    fn formula_cells_are_neutralised() {
        for cell in ["=1+1", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(formula_safe(cell), format!("'{cell}"));
        }
        for cell in ["alice", "'=1", "1-2", "", " =1"] {
            assert_eq!(formula_safe(cell), cell);
        }
        assert_eq!(
            csv_text("=HYPERLINK(\"https:evil\",\"y\")"),
            "'=HYPERLINK(\"https:evil\",\"y\")"
        );
        // Escaped first: a tab-led name starts with a backslash, which no spreadsheet runs.
        assert_eq!(csv_text("\t=1"), "\\t=1");
        assert_eq!(csv_text("=\x1b[2J"), "'=\\x1b[2J");
    }
}
