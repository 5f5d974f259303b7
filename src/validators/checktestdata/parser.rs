//! Tokens to commands, by checktestdata's grammar (its `checktestdata.y`): `+ -` below
//! `* / %` below `^` (all left-associative), unary minus over a whole factor chain (`-2^2` is
//! -4), `&&` and `||` of one precedence from the left, and `!` over the rest of the test.
//! Nesting is bounded ([`MAX_DEPTH`]).
//!
//! This file holds the token cursor and the commands; `expr.rs` parses what commands take:
//! variables, values, expressions and tests.

mod expr;

use super::ast::{Command, FloatOption, VarRef};
use super::lexer::{Tok, Token};
use super::CtdError;

/// Deepest nesting of blocks, parentheses and operators a script may have.
pub const MAX_DEPTH: usize = 500;

/// The commands of a script's tokens.
pub fn parse(tokens: &[Token]) -> Result<Vec<Command>, CtdError> {
    let mut p = Parser {
        tokens,
        pos: 0,
        depth: 0,
    };
    let commands = p.block(&[])?;
    if let Some(t) = p.peek() {
        return Err(p.error_at(t.line, format!("unexpected {}", describe(&t.kind))));
    }
    Ok(commands)
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Keyword(k) => format!("`{k}`"),
        Tok::Name(n) => format!("variable `{n}`"),
        Tok::Integer(s) | Tok::Float(s) => format!("number `{s}`"),
        Tok::Str(_) => "a string".into(),
        Tok::Op(o) => format!("`{o}`"),
    }
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn line(&self) -> usize {
        self.peek().or(self.tokens.last()).map_or(1, |t| t.line)
    }

    fn error_at(&self, line: usize, message: String) -> CtdError {
        CtdError::Script { line, message }
    }

    fn error(&self, message: String) -> CtdError {
        self.error_at(self.line(), message)
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Some(Token { kind: Tok::Op(o), .. }) if *o == op)
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token { kind: Tok::Keyword(k), .. }) if k == word)
    }

    fn expect_op(&mut self, op: &str) -> Result<(), CtdError> {
        if self.is_op(op) {
            self.pos += 1;
            return Ok(());
        }
        let found = self
            .peek()
            .map_or("the end of the script".into(), |t| describe(&t.kind));
        Err(self.error(format!("expected `{op}`, found {found}")))
    }

    fn enter(&mut self) -> Result<(), CtdError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!("nested deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }

    /// Commands up to one of `ends` (not consumed) or the end of the tokens.
    fn block(&mut self, ends: &[&str]) -> Result<Vec<Command>, CtdError> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if matches!(&t.kind, Tok::Keyword(k) if ends.contains(&k.as_str())) {
                return Ok(out);
            }
            out.push(self.command()?);
        }
        if !ends.is_empty() {
            return Err(self.error("missing `END`".into()));
        }
        Ok(out)
    }

    fn command(&mut self) -> Result<Command, CtdError> {
        let base = self.depth;
        let command = self.enter().and_then(|()| self.command_inner());
        self.depth = base;
        command
    }

    fn command_inner(&mut self) -> Result<Command, CtdError> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.error("expected a command".into()));
        };
        let Tok::Keyword(word) = &token.kind else {
            return Err(self.error(format!(
                "expected a command, found {}",
                describe(&token.kind)
            )));
        };
        self.pos += 1;
        Ok(match word.as_str() {
            "SPACE" => Command::Space,
            "NEWLINE" => Command::Newline,
            "EOF" => Command::Eof,
            "INT" => {
                self.expect_op("(")?;
                let min = self.expr()?;
                self.expect_op(",")?;
                let max = self.expr()?;
                let var = self.optional_var()?;
                self.expect_op(")")?;
                Command::Int(min, max, var)
            }
            "FLOAT" | "FLOATP" => {
                self.expect_op("(")?;
                let min = self.expr()?;
                self.expect_op(",")?;
                let max = self.expr()?;
                let decimals = if word == "FLOATP" {
                    self.expect_op(",")?;
                    let lo = self.expr()?;
                    self.expect_op(",")?;
                    let hi = self.expr()?;
                    Some((lo, hi))
                } else {
                    None
                };
                let var = self.optional_var()?;
                let mut option = FloatOption::Any;
                if var.is_some() && self.is_op(",") {
                    self.pos += 1;
                    option = if self.is_keyword("FIXED") {
                        FloatOption::Fixed
                    } else if self.is_keyword("SCIENTIFIC") {
                        FloatOption::Scientific
                    } else {
                        return Err(self.error("expected `FIXED` or `SCIENTIFIC`".into()));
                    };
                    self.pos += 1;
                }
                self.expect_op(")")?;
                Command::Float {
                    min,
                    max,
                    decimals,
                    var,
                    option,
                }
            }
            "STRING" => {
                self.expect_op("(")?;
                let value = self.value()?;
                self.expect_op(")")?;
                Command::String(value)
            }
            "REGEX" => {
                self.expect_op("(")?;
                let value = self.value()?;
                let var = self.optional_var()?;
                self.expect_op(")")?;
                Command::Regex(value, var)
            }
            "ASSERT" => {
                self.expect_op("(")?;
                let test = self.test()?;
                self.expect_op(")")?;
                Command::Assert(test)
            }
            "SET" => {
                self.expect_op("(")?;
                let mut assigns = Vec::new();
                loop {
                    let var = self.variable()?;
                    self.expect_op("=")?;
                    assigns.push((var, self.expr()?));
                    if !self.is_op(",") {
                        break;
                    }
                    self.pos += 1;
                }
                self.expect_op(")")?;
                Command::Set(assigns)
            }
            "UNSET" => {
                self.expect_op("(")?;
                let names = self.names()?;
                self.expect_op(")")?;
                Command::Unset(names)
            }
            "REP" | "REPI" => {
                self.expect_op("(")?;
                let var = if word == "REPI" {
                    let v = self.variable()?;
                    self.expect_op(",")?;
                    Some(v)
                } else {
                    None
                };
                let count = self.expr()?;
                let separator = self.optional_separator()?;
                self.expect_op(")")?;
                let body = self.block(&["END"])?;
                self.pos += 1;
                Command::Rep {
                    var,
                    count,
                    separator,
                    body,
                }
            }
            "WHILE" | "WHILEI" => {
                self.expect_op("(")?;
                let var = if word == "WHILEI" {
                    let v = self.variable()?;
                    self.expect_op(",")?;
                    Some(v)
                } else {
                    None
                };
                let test = self.test()?;
                let separator = self.optional_separator()?;
                self.expect_op(")")?;
                let body = self.block(&["END"])?;
                self.pos += 1;
                Command::While {
                    var,
                    test,
                    separator,
                    body,
                }
            }
            "IF" => {
                self.expect_op("(")?;
                let test = self.test()?;
                self.expect_op(")")?;
                let then = self.block(&["ELSE", "END"])?;
                let otherwise = if self.is_keyword("ELSE") {
                    self.pos += 1;
                    self.block(&["END"])?
                } else {
                    Vec::new()
                };
                self.pos += 1;
                Command::If(test, then, otherwise)
            }
            other => {
                return Err(self.error_at(token.line, format!("unexpected `{other}`")));
            }
        })
    }

    fn optional_var(&mut self) -> Result<Option<VarRef>, CtdError> {
        if !self.is_op(",") {
            return Ok(None);
        }
        self.pos += 1;
        self.variable().map(Some)
    }

    fn optional_separator(&mut self) -> Result<Option<Box<Command>>, CtdError> {
        if !self.is_op(",") {
            return Ok(None);
        }
        self.pos += 1;
        let command = self.command()?;
        Ok(Some(Box::new(command)))
    }
}
