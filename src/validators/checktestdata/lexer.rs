//! The script's tokens, as checktestdata's scanner reads them: uppercase keywords, lowercase
//! variable names, integer and float literals, strings with their escapes, operators; `#`
//! comments to the end of the line; whitespace ignored.

use super::CtdError;

/// One token and the script line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: Tok,
    /// Its line in the script, from 1.
    pub line: usize,
}

/// A token's kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// An uppercase keyword (`INT`, `REP`, `ISEOF`, `FIXED`...).
    Keyword(String),
    /// A variable name, `[a-z][a-z0-9]*`.
    Name(String),
    /// An integer literal's digits.
    Integer(String),
    /// A float literal's text.
    Float(String),
    /// A string literal, escapes resolved.
    Str(Vec<u8>),
    /// An operator or punctuation: `( ) [ ] , = + - * / % ^ < > <= >= == != && || !`.
    Op(&'static str),
}

const KEYWORDS: &[&str] = &[
    "ISEOF",
    "MATCH",
    "UNIQUE",
    "INARRAY",
    "STRLEN",
    "SPACE",
    "NEWLINE",
    "EOF",
    "INT",
    "FLOAT",
    "FLOATP",
    "STRING",
    "REGEX",
    "ASSERT",
    "SET",
    "UNSET",
    "REP",
    "WHILE",
    "REPI",
    "WHILEI",
    "IF",
    "ELSE",
    "END",
    "FIXED",
    "SCIENTIFIC",
];

const OPS: &[&str] = &[
    "<=", ">=", "==", "!=", "&&", "||", "(", ")", "[", "]", ",", "=", "+", "-", "*", "/", "%", "^",
    "<", ">", "!",
];

/// The tokens of `script`, or the first thing that is not one.
pub fn lex(script: &[u8]) -> Result<Vec<Token>, CtdError> {
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let err = |line: usize, message: String| CtdError::Script { line, message };
    while i < script.len() {
        let c = script[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' {
            while i < script.len() && script[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_uppercase() {
            let start = i;
            while i < script.len() && script[i].is_ascii_uppercase() {
                i += 1;
            }
            let word = String::from_utf8_lossy(&script[start..i]).into_owned();
            if !KEYWORDS.contains(&word.as_str()) {
                return Err(err(line, format!("unknown command `{word}`")));
            }
            tokens.push(Token {
                kind: Tok::Keyword(word),
                line,
            });
        } else if c.is_ascii_lowercase() {
            let start = i;
            while i < script.len() && (script[i].is_ascii_lowercase() || script[i].is_ascii_digit())
            {
                i += 1;
            }
            let name = String::from_utf8_lossy(&script[start..i]).into_owned();
            tokens.push(Token {
                kind: Tok::Name(name),
                line,
            });
        } else if c.is_ascii_digit() {
            let (kind, end) = number(script, i);
            tokens.push(Token { kind, line });
            i = end;
        } else if c == b'"' {
            let (text, end, lines) = string(script, i + 1).map_err(|m| err(line, m))?;
            tokens.push(Token {
                kind: Tok::Str(text),
                line,
            });
            line += lines;
            i = end;
        } else if let Some(op) = OPS.iter().find(|op| script[i..].starts_with(op.as_bytes())) {
            tokens.push(Token {
                kind: Tok::Op(op),
                line,
            });
            i += op.len();
        } else {
            return Err(err(
                line,
                format!("unexpected character {:?}", char::from(c)),
            ));
        }
    }
    Ok(tokens)
}

/// `[0-9]+`, a float when a `.` or an exponent follows (`[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?`,
/// `[0-9]+[eE][+-]?[0-9]+`).
fn number(s: &[u8], start: usize) -> (Tok, usize) {
    let digits = |mut i: usize| {
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = digits(start);
    let mut float = false;
    if s.get(i) == Some(&b'.') {
        float = true;
        i = digits(i + 1);
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if s.get(j).is_some_and(u8::is_ascii_digit) {
            float = true;
            i = digits(j);
        }
    }
    let text = String::from_utf8_lossy(&s[start..i]).into_owned();
    (
        if float {
            Tok::Float(text)
        } else {
            Tok::Integer(text)
        },
        i,
    )
}

/// A string's bytes from `start` (after the opening quote) to its closing quote, with the
/// escapes `\[0-7]{1,3}`, `\n \t \r \b \" \\` and an escaped newline (dropped); any other
/// backslash is literal. Returns the bytes, the index after the quote and the newlines in it.
fn string(s: &[u8], start: usize) -> Result<(Vec<u8>, usize, usize), String> {
    let mut out = Vec::new();
    let mut i = start;
    let mut lines = 0;
    while i < s.len() {
        match s[i] {
            b'"' => return Ok((out, i + 1, lines)),
            b'\\' if i + 1 < s.len() => {
                let e = s[i + 1];
                i += 2;
                match e {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'"' => out.push(b'"'),
                    b'\\' => out.push(b'\\'),
                    b'\n' => lines += 1,
                    b'0'..=b'7' => {
                        let mut value = u32::from(e - b'0');
                        let mut n = 1;
                        while n < 3 && i < s.len() && (b'0'..=b'7').contains(&s[i]) {
                            value = value * 8 + u32::from(s[i] - b'0');
                            i += 1;
                            n += 1;
                        }
                        let byte = u8::try_from(value)
                            .map_err(|_| format!("bad escape sequence (octal {value:o})"))?;
                        out.push(byte);
                    }
                    other => {
                        out.push(b'\\');
                        out.push(other);
                        if other == b'\n' {
                            lines += 1;
                        }
                    }
                }
            }
            c => {
                if c == b'\n' {
                    lines += 1;
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Err("unterminated string".into())
}
