//! checktestdata (`.ctd`) input validators, implemented here since Debian 12 packages no
//! `checktestdata`: the language as DOMjudge's checktestdata defines it (its
//! `doc/format-spec.md`): `SPACE NEWLINE EOF INT FLOAT FLOATP STRING REGEX ASSERT SET UNSET
//! REP REPI WHILE WHILEI IF ELSE END`, the tests `ISEOF MATCH UNIQUE INARRAY`, `STRLEN`,
//! integer and array variables, integers of any size. Floats are `f64` here (checktestdata:
//! GMP floats) and `REGEX` is Rust's `regex` anchored at the current position, `.` matching
//! a newline (checktestdata: POSIX extended, leftmost-longest).
//!
//! A package is untrusted: a script is bounded in size and nesting when parsed, and a run
//! in steps and stored values ([`Bounds`]); the input is already in memory, bounded by the
//! package's loader.
//!
//! - [`lexer`]: the tokens; [`parser`]: the commands ([`ast`]), with `parser/expr.rs` for
//!   what they take (variables, expressions, tests); [`interp`]: a run over one input, with
//!   `interp/input.rs` reading the input's tokens, `interp/eval.rs` evaluating expressions
//!   and tests, and [`value`]'s arithmetic.

pub mod ast;
pub mod interp;
pub mod lexer;
pub mod parser;
pub mod value;

#[cfg(test)]
mod tests;

/// Largest script read, in bytes.
pub const MAX_SCRIPT: usize = 1 << 20;

/// What one run may spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Commands and tests executed at most (loop iterations included).
    pub max_steps: u64,
    /// Variable values (array elements included) stored at once at most.
    pub max_values: usize,
}

impl Default for Bounds {
    /// 200 million steps (a few seconds) and 4 million values (a few hundred MiB at most).
    fn default() -> Bounds {
        Bounds {
            max_steps: 200_000_000,
            max_values: 4_000_000,
        }
    }
}

/// Why a script did not accept an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CtdError {
    /// The script cannot be read (the package's fault).
    #[error("script line {line}: {message}")]
    Script {
        /// The script's line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The input is not valid: where and why.
    #[error("input line {line}, column {column}: {message}")]
    Rejected {
        /// The input's line, from 1.
        line: usize,
        /// The input's column, from 1.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// The script failed while running (an unset variable, a string in arithmetic...).
    #[error("script error at input line {line}, column {column}: {message}")]
    Runtime {
        /// The input's line.
        line: usize,
        /// The input's column.
        column: usize,
        /// What failed.
        message: String,
    },
    /// The run passed a bound.
    #[error("{0}")]
    Limit(String),
}

/// A parsed script, ready to check inputs.
#[derive(Debug, Clone)]
pub struct Script {
    commands: Vec<ast::Command>,
}

impl Script {
    /// Parses `text`, or says what is wrong and on which line.
    pub fn parse(text: &[u8]) -> Result<Script, CtdError> {
        if text.len() > MAX_SCRIPT {
            return Err(CtdError::Script {
                line: 1,
                message: format!("the script is larger than {MAX_SCRIPT} bytes"),
            });
        }
        let tokens = lexer::lex(text)?;
        Ok(Script {
            commands: parser::parse(&tokens)?,
        })
    }

    /// Checks `input`: `Ok` when the script accepts it (to its end).
    pub fn check(&self, input: &[u8], bounds: Bounds) -> Result<(), CtdError> {
        interp::Machine::new(input, bounds).run(&self.commands)
    }
}
