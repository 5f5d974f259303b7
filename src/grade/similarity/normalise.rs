//! Source text to a stream of normalised tokens, so that renaming, re-spacing and comments
//! change nothing: comments and whitespace are dropped, identifiers become `I`, numbers `N`,
//! strings and characters `S`; keywords and operators are kept as written. C and C++ drop
//! preprocessor lines (`#include` is the same in every file). One hand-written scanner per
//! language family (C, C++ and Rust share one; Python has its own), a loop over characters
//! with no recursion, so no source can drive the stack.

use super::vocabulary;

/// A normalised token and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// `I`, `N`, `S`, or the keyword or operator itself.
    pub text: String,
    /// The line in the original source.
    pub line: u32,
}

/// The tokenizer a language uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// C and C++: `//` and `/* */` comments, preprocessor lines dropped.
    C,
    /// Rust: nested `/* */` comments, raw strings, lifetimes.
    Rust,
    /// Python: `#` comments, triple-quoted and prefixed strings.
    Python,
}

impl Family {
    /// The family of a language id (`c`, `cpp`, `rust`, `python`; others scan like C).
    pub fn of(language: &str) -> Family {
        match language {
            "python" => Family::Python,
            "rust" => Family::Rust,
            _ => Family::C,
        }
    }

    fn keywords(self) -> &'static [&'static str] {
        match self {
            Family::C => vocabulary::C_KEYWORDS,
            Family::Rust => vocabulary::RUST_KEYWORDS,
            Family::Python => vocabulary::PYTHON_KEYWORDS,
        }
    }

    fn operators(self) -> &'static [&'static str] {
        match self {
            Family::Python => vocabulary::PYTHON_OPERATORS,
            Family::C | Family::Rust => vocabulary::C_OPERATORS,
        }
    }
}

struct Scanner {
    chars: Vec<char>,
    pos: usize,
    line: u32,
    family: Family,
    tokens: Vec<Token>,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl Scanner {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.peek(i) == Some(c))
    }

    fn push(&mut self, text: &str, line: u32) {
        self.tokens.push(Token {
            text: text.to_string(),
            line,
        });
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    /// A `/* */` comment; Rust's nest (a depth counter, not recursion).
    fn skip_block_comment(&mut self) {
        self.pos += 2;
        let mut depth = 1u32;
        while depth > 0 && self.peek(0).is_some() {
            if self.starts_with("*/") {
                self.pos += 2;
                depth -= 1;
            } else if self.family == Family::Rust && self.starts_with("/*") {
                self.pos += 2;
                depth += 1;
            } else {
                self.bump();
            }
        }
    }

    /// A preprocessor line with its `\` continuations.
    fn skip_preprocessor(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break; // left for the main loop: the next line starts there
            } else if c == '\\' && self.peek(1) == Some('\n') {
                self.pos += 1;
                self.bump();
            } else if c == '/' && self.peek(1) == Some('*') {
                self.skip_block_comment();
            } else {
                self.bump();
            }
        }
    }

    /// A quoted string or character after its opening quote(s); backslash escapes.
    fn skip_quoted(&mut self, quote: &str) {
        while self.peek(0).is_some() {
            if self.peek(0) == Some('\\') {
                self.bump();
                self.bump();
            } else if self.starts_with(quote) {
                self.pos += quote.chars().count();
                return;
            } else if quote.len() == 1
                && self.family == Family::Python
                && self.peek(0) == Some('\n')
            {
                return; // an unterminated Python string ends at the line's end
            } else {
                self.bump();
            }
        }
    }

    /// Skips until `end` (no escapes: raw strings).
    fn skip_until(&mut self, end: &str) {
        while self.peek(0).is_some() && !self.starts_with(end) {
            self.bump();
        }
        self.pos = (self.pos + end.chars().count()).min(self.chars.len());
    }

    /// A number: digits, letters (suffixes, hex), `_`, a `.` not starting `..`, and the sign
    /// of an exponent (`1e-5`, `0x1p+3`).
    fn number(&mut self) {
        let line = self.line;
        let start = self.pos;
        let hex = matches!(self.chars.get(start..start + 2), Some(['0', 'x' | 'X']));
        while let Some(c) = self.peek(0) {
            let prev = (self.pos > start).then(|| self.chars[self.pos - 1]);
            let sign = matches!(c, '+' | '-')
                && match prev {
                    Some('e' | 'E') => !hex,
                    Some('p' | 'P') => hex,
                    _ => false,
                };
            if is_ident_char(c) || sign || (c == '.' && self.peek(1) != Some('.')) {
                self.bump();
            } else {
                break;
            }
        }
        self.push("N", line);
    }

    /// A string with a prefix (`r"..."`, `b'x'`, `R"d(...)d"`, `f"..."`); `false` when the
    /// identifier is not a string prefix here.
    fn prefixed_string(&mut self, ident: &str, line: u32) -> bool {
        let next = self.peek(0);
        match self.family {
            Family::Python => {
                let lower = ident.to_ascii_lowercase();
                let prefix = matches!(
                    lower.as_str(),
                    "r" | "b" | "f" | "u" | "rb" | "br" | "fr" | "rf"
                );
                if prefix && matches!(next, Some('"' | '\'')) {
                    self.python_string(line);
                    return true;
                }
                false
            }
            Family::Rust => {
                if matches!(ident, "r" | "br") && matches!(next, Some('"' | '#')) {
                    let mut hashes = 0;
                    while self.peek(hashes) == Some('#') {
                        hashes += 1;
                    }
                    if self.peek(hashes) != Some('"') {
                        return false;
                    }
                    self.pos += hashes + 1;
                    self.skip_until(&format!("\"{}", "#".repeat(hashes)));
                    self.push("S", line);
                    return true;
                }
                ident == "b" && self.quoted_literal(line)
            }
            Family::C => {
                let raw = matches!(ident, "R" | "LR" | "uR" | "UR" | "u8R");
                let plain = matches!(ident, "L" | "u" | "U" | "u8");
                if raw && next == Some('"') {
                    self.bump();
                    let mut delim = String::new();
                    while let Some(c) = self.peek(0) {
                        if c == '(' || c == '\n' || delim.len() > 16 {
                            break;
                        }
                        delim.push(c);
                        self.bump();
                    }
                    self.skip_until(&format!("){delim}\""));
                    self.push("S", line);
                    return true;
                }
                plain && self.quoted_literal(line)
            }
        }
    }

    /// A string or character literal at its quote (after a prefix such as `b` or `L`);
    /// `false` when no quote follows.
    fn quoted_literal(&mut self, line: u32) -> bool {
        let quote = match self.peek(0) {
            Some('"') => "\"",
            Some('\'') => "'",
            _ => return false,
        };
        self.bump();
        self.skip_quoted(quote);
        self.push("S", line);
        true
    }

    /// A Python string at its (first) quote: triple-quoted or not.
    fn python_string(&mut self, line: u32) {
        let q = self.peek(0).unwrap_or('"');
        let triple: String = [q, q, q].iter().collect();
        if self.starts_with(&triple) {
            self.pos += 3;
            self.skip_quoted(&triple);
        } else {
            self.bump();
            self.skip_quoted(&q.to_string());
        }
        self.push("S", line);
    }

    /// `'` in Rust: a character literal or a lifetime / label (an identifier).
    fn rust_quote(&mut self, line: u32) {
        let is_char = matches!(
            (self.peek(1), self.peek(2)),
            (Some('\\'), _) | (Some(_), Some('\''))
        );
        self.bump();
        if is_char {
            self.skip_quoted("'");
            self.push("S", line);
        } else {
            while self.peek(0).is_some_and(is_ident_char) {
                self.bump();
            }
            self.push("I", line);
        }
    }

    fn operator(&mut self, line: u32) {
        for op in self.family.operators() {
            if self.starts_with(op) {
                self.pos += op.len();
                self.push(op, line);
                return;
            }
        }
        if let Some(c) = self.bump() {
            self.push(&c.to_string(), line);
        }
    }

    fn run(&mut self) {
        let mut line_start = true;
        while let Some(c) = self.peek(0) {
            let line = self.line;
            if c.is_whitespace() {
                if c == '\n' {
                    line_start = true;
                }
                self.bump();
                continue;
            }
            let at_line_start = std::mem::replace(&mut line_start, false);
            match (self.family, c) {
                (Family::Python, '#') => self.skip_line(),
                (Family::C, '#') if at_line_start => self.skip_preprocessor(),
                (Family::C | Family::Rust, '/') if self.peek(1) == Some('/') => self.skip_line(),
                (Family::C | Family::Rust, '/') if self.peek(1) == Some('*') => {
                    self.skip_block_comment()
                }
                (Family::Python, '"' | '\'') => self.python_string(line),
                (Family::Rust, '\'') => self.rust_quote(line),
                (_, '"' | '\'') => {
                    self.bump();
                    self.skip_quoted(&c.to_string());
                    self.push("S", line);
                }
                (_, c) if c.is_ascii_digit() => self.number(),
                (_, '.') if self.peek(1).is_some_and(|d| d.is_ascii_digit()) => self.number(),
                (_, c) if is_ident_start(c) => {
                    let start = self.pos;
                    while self.peek(0).is_some_and(is_ident_char) {
                        self.bump();
                    }
                    let ident: String = self.chars[start..self.pos].iter().collect();
                    if self.prefixed_string(&ident, line) {
                        continue;
                    }
                    let keyword = self.family.keywords().contains(&ident.as_str());
                    self.push(if keyword { &ident } else { "I" }, line);
                }
                _ => self.operator(line),
            }
        }
    }
}

/// The normalised tokens of `text` in `family`.
pub fn normalise(text: &str, family: Family) -> Vec<Token> {
    let mut scanner = Scanner {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
        family,
        tokens: Vec::new(),
    };
    scanner.run();
    scanner.tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, family: Family) -> String {
        normalise(text, family)
            .iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn c_drops_comments_spacing_and_preprocessor_and_names_kinds() {
        let src = "#include <stdio.h>\n#define MAX \\\n 10\n/* a /* comment */ int  main(void) {\n  // hi\n  char *s = \"a\\\"b\"; int x = 0x1F + 1.5e-3 + 'c';\n  return x<<=2;\n}\n";
        assert_eq!(
            texts(src, Family::C),
            "int I ( void ) { char * I = S ; int I = N + N + S ; return I <<= N ; }"
        );
        let lines: Vec<u32> = normalise(src, Family::C).iter().map(|t| t.line).collect();
        assert_eq!(lines.first(), Some(&4));
        assert_eq!(lines.last(), Some(&8));
    }

    #[test]
    fn renaming_and_respacing_change_nothing() {
        let a = "int count(int n){int s=0;for(int i=0;i<n;i++)s+=i;return s;}";
        let b = "int   total ( int   size )\n{\n  int acc = 0; // sum\n  for (int k = 0; k < size; k++)\n    acc += k;\n  return acc;\n}";
        assert_eq!(texts(a, Family::C), texts(b, Family::C));
    }

    #[test]
    fn cpp_raw_strings_and_rust_specials() {
        assert_eq!(texts("auto s = R\"x(a\")x\";", Family::C), "auto I = S ;");
        assert_eq!(
            texts(
                "/* a /* nested */ still */ fn f<'a>(x: &'a str) -> char { let r = r#\"q\"#; 'z' }",
                Family::Rust
            ),
            "fn I < I > ( I : & I I ) -> I { let I = S ; S }"
        );
        assert_eq!(
            texts("for i in 0..10 {}", Family::Rust),
            "for I in N .. N { }"
        );
    }

    #[test]
    fn python_comments_strings_and_keywords() {
        let src =
            "def f(x):  # comment\n    '''doc\n    string'''\n    return x ** 2 + len(rb'\\x00')\n";
        assert_eq!(
            texts(src, Family::Python),
            "def I ( I ) : S return I ** N + I ( S )"
        );
        let lines: Vec<u32> = normalise(src, Family::Python)
            .iter()
            .map(|t| t.line)
            .collect();
        assert_eq!(lines[6], 2, "the docstring starts on line 2");
        assert_eq!(lines[7], 4);
    }

    #[test]
    fn unterminated_constructs_end_at_the_end_of_the_text() {
        for family in [Family::C, Family::Rust, Family::Python] {
            for src in [
                "/* open", "\"open", "'", "r#\"open", "R\"(open", "'''open", "#",
            ] {
                let _ = normalise(src, family);
            }
        }
    }
}
