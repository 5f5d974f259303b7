//! Whitespace tokens of an output, borrowed (never copied) from the bytes.

/// Whether `b` separates tokens: space, tab, LF, CR, vertical tab or form feed (C's `isspace`,
/// so a C++ `cin >>` and this checker agree on what a token is).
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The whitespace-separated tokens of `bytes`, in order.
pub fn tokens(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| is_space(b)).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_whitespace_separates() {
        let got: Vec<_> = tokens(b"  12\r\n-1\t\x0b 7  ").collect();
        assert_eq!(got, vec![&b"12"[..], b"-1", b"7"]);
        assert_eq!(tokens(b"").count(), 0);
        assert_eq!(tokens(b" \r\n ").count(), 0);
    }
}
