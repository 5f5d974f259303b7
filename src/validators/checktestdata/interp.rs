//! Runs a parsed script over one input, byte by byte, as checktestdata does: no whitespace
//! is skipped but what `SPACE` and `NEWLINE` match, and the input must end where the script
//! does (an implicit `EOF`). Bounded in steps and in stored values ([`Bounds`]).
//!
//! This file holds the machine and runs the commands; `input.rs` reads the input's tokens
//! (`INT`, `FLOAT`, `REGEX`...); `eval.rs` evaluates expressions and tests and stores
//! variables.

mod eval;
mod input;

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::ast::Command;
use super::value::Value;
use super::{Bounds, CtdError};

type Index = Vec<BigInt>;

/// Why a run stopped: the input is invalid (with where), or the script failed.
enum Stop {
    Reject(String),
    Script(String),
    Limit(String),
}

type Res<T> = Result<T, Stop>;

fn script<T>(message: impl Into<String>) -> Res<T> {
    Err(Stop::Script(message.into()))
}

/// One run's state.
pub struct Machine<'a> {
    data: &'a [u8],
    pos: usize,
    vars: HashMap<String, BTreeMap<Index, Value>>,
    stored: usize,
    steps: u64,
    bounds: Bounds,
    regexes: HashMap<Vec<u8>, regex::bytes::Regex>,
}

impl<'a> Machine<'a> {
    /// A run over `data`.
    pub fn new(data: &'a [u8], bounds: Bounds) -> Machine<'a> {
        Machine {
            data,
            pos: 0,
            vars: HashMap::new(),
            stored: 0,
            steps: 0,
            bounds,
            regexes: HashMap::new(),
        }
    }

    /// Runs `program`, then the implicit `EOF`.
    pub fn run(&mut self, program: &[Command]) -> Result<(), CtdError> {
        let result = self
            .block(program)
            .and_then(|()| self.command(&Command::Eof));
        result.map_err(|stop| {
            let (line, column) = self.position();
            match stop {
                Stop::Reject(message) => CtdError::Rejected {
                    line,
                    column,
                    message,
                },
                Stop::Script(message) => CtdError::Runtime {
                    line,
                    column,
                    message,
                },
                Stop::Limit(message) => CtdError::Limit(message),
            }
        })
    }

    /// The input's line and column (from 1) at the current position.
    fn position(&self) -> (usize, usize) {
        let before = &self.data[..self.pos.min(self.data.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        (line, column)
    }

    fn reject<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(Stop::Reject(message.into()))
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn step(&mut self) -> Res<()> {
        self.steps += 1;
        if self.steps > self.bounds.max_steps {
            return Err(Stop::Limit(format!(
                "the script ran more than {} steps",
                self.bounds.max_steps
            )));
        }
        Ok(())
    }

    fn block(&mut self, commands: &[Command]) -> Res<()> {
        for c in commands {
            self.command(c)?;
        }
        Ok(())
    }

    fn command(&mut self, command: &Command) -> Res<()> {
        self.step()?;
        match command {
            Command::Space => self.literal(b' ', "space"),
            Command::Newline => self.literal(b'\n', "newline"),
            Command::Eof => match self.peek() {
                None => Ok(()),
                Some(c) => self.reject(format!("expected end of file, found {:?}", char::from(c))),
            },
            Command::Int(min, max, var) => self.int(min, max, var.as_ref()),
            Command::Float {
                min,
                max,
                decimals,
                var,
                option,
            } => self.float(min, max, decimals.as_ref(), var.as_ref(), *option),
            Command::String(e) => {
                let want = self.string_of(e)?;
                if self.data[self.pos..].starts_with(&want) {
                    self.pos += want.len();
                    Ok(())
                } else {
                    self.reject(format!("expected \"{}\"", String::from_utf8_lossy(&want)))
                }
            }
            Command::Regex(e, var) => self.regex(e, var.as_ref()),
            Command::Assert(t) => {
                if self.test(t)? {
                    Ok(())
                } else {
                    self.reject("assertion failed")
                }
            }
            Command::Set(assigns) => {
                for (var, e) in assigns {
                    let v = self.eval(e)?;
                    self.set(var, v)?;
                }
                Ok(())
            }
            Command::Unset(names) => {
                for n in names {
                    if let Some(map) = self.vars.remove(n) {
                        self.stored -= map.len();
                    }
                }
                Ok(())
            }
            Command::Rep {
                var,
                count,
                separator,
                body,
            } => {
                let n = match self.eval(count)? {
                    Value::Int(i) => i.to_u32().ok_or(Stop::Script(format!(
                        "REP count {i} is negative or past 2^32"
                    )))?,
                    other => {
                        return script(format!("REP count {} is not an integer", other.show()))
                    }
                };
                for i in 0..n {
                    if i > 0 {
                        if let Some(sep) = separator {
                            self.command(sep)?;
                        }
                    }
                    if let Some(v) = var {
                        self.set(v, Value::Int(BigInt::from(i)))?;
                    }
                    self.step()?;
                    self.block(body)?;
                }
                if let Some(v) = var {
                    self.set(v, Value::Int(BigInt::from(n)))?;
                }
                Ok(())
            }
            Command::While {
                var,
                test,
                separator,
                body,
            } => {
                let mut i: u64 = 0;
                loop {
                    if let Some(v) = var {
                        self.set(v, Value::Int(BigInt::from(i)))?;
                    }
                    if !self.test(test)? {
                        break;
                    }
                    if i > 0 {
                        if let Some(sep) = separator {
                            self.command(sep)?;
                        }
                    }
                    self.step()?;
                    self.block(body)?;
                    i += 1;
                }
                Ok(())
            }
            Command::If(t, then, otherwise) => {
                if self.test(t)? {
                    self.block(then)
                } else {
                    self.block(otherwise)
                }
            }
        }
    }
}
