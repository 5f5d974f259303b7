//! The files a package names for its program's input and output (`input_file`,
//! `output_file` in `problem.toml`), as NOIP and USACO judged with `sudoku.in` / `bsudoku.out`.

use serde::Serialize;

/// Names reserved inside a box: the sandbox's own copy of the input (`.input`) and what a
/// compiled program is called (`main`, `main.py`...; names starting with `main` are refused).
const RESERVED_PREFIXES: [&str; 1] = ["main"];

/// Longest file name a package may give.
const MAX_NAME: usize = 64;

/// The program's test file and answer file, in its working folder; both optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FileIo {
    /// The test is also given as this file (it always comes on stdin too).
    pub input: Option<String>,
    /// The answer is read from this file when the program wrote it, else from stdout.
    pub output: Option<String>,
}

impl FileIo {
    /// Whether the package names no file (stdin and stdout only, as POJ judged).
    pub fn is_empty(&self) -> bool {
        self.input.is_none() && self.output.is_none()
    }
}

/// Why a name in `problem.toml` cannot be a box file's name, or `None` when it can: a plain
/// name of letters, digits, `.`, `_` and `-`, not hidden, not a program's own file.
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > MAX_NAME {
        return Some(format!("must be 1 to {MAX_NAME} characters"));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    {
        return Some("may hold only letters, digits, `.`, `_` and `-`".into());
    }
    if name.starts_with('.') {
        return Some("must not start with `.`".into());
    }
    if RESERVED_PREFIXES.iter().any(|p| name.starts_with(p)) {
        return Some("must not start with `main` (the program's own files)".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_pass_and_others_are_refused() {
        for ok in ["bsudoku.in", "sudoku.out", "a_b-c.txt"] {
            assert_eq!(name_problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            ".input",
            "../x",
            "a/b",
            "main",
            "main.py",
            "a b",
            &"x".repeat(65),
        ] {
            assert!(name_problem(bad).is_some(), "{bad:?}");
        }
    }
}
