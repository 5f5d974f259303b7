//! Runs a parsed script over one input, byte by byte, as checktestdata does: no whitespace
//! is skipped but what `SPACE` and `NEWLINE` match, and the input must end where the script
//! does (an implicit `EOF`). Bounded in steps and in stored values ([`Bounds`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::ast::{Cmp, Command, Expr, FloatOption, Test, VarRef};
use super::value::{arith, compare, negate, Value};
use super::{Bounds, CtdError};

/// Longest integer read from the input, in digits.
const MAX_INT_DIGITS: usize = 100_000;

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

    fn literal(&mut self, byte: u8, name: &str) -> Res<()> {
        match self.peek() {
            Some(c) if c == byte => {
                self.pos += 1;
                Ok(())
            }
            Some(c) => self.reject(format!("expected {name}, found {:?}", char::from(c))),
            None => self.reject(format!("expected {name}, found end of file")),
        }
    }

    fn int(&mut self, min: &Expr, max: &Expr, var: Option<&VarRef>) -> Res<()> {
        let lo = self.eval_int(min)?;
        let hi = self.eval_int(max)?;
        let start = self.pos;
        let mut end = start;
        if self.data.get(end) == Some(&b'-') {
            end += 1;
        }
        let digits_start = end;
        while end < self.data.len() && self.data[end].is_ascii_digit() {
            end += 1;
            if end - digits_start > MAX_INT_DIGITS {
                return self.reject(format!("integer longer than {MAX_INT_DIGITS} digits"));
            }
        }
        let digits = &self.data[digits_start..end];
        if digits.is_empty() {
            return self.reject("expected an integer");
        }
        if digits.len() > 1 && digits[0] == b'0' {
            return self.reject("integer with leading zeros");
        }
        if digits_start > start && digits[0] == b'0' {
            return self.reject("invalid minus sign (-0 is not allowed)");
        }
        let text = String::from_utf8_lossy(&self.data[start..end]).into_owned();
        let x: BigInt = text
            .parse()
            .map_err(|_| Stop::Reject(format!("bad integer {text}")))?;
        if x < lo || x > hi {
            return self.reject(format!("integer {x} out of range [{lo}, {hi}]"));
        }
        self.pos = end;
        if let Some(v) = var {
            self.set(v, Value::Int(x))?;
        }
        Ok(())
    }

    fn float(
        &mut self,
        min: &Expr,
        max: &Expr,
        decimals: Option<&(Expr, Expr)>,
        var: Option<&VarRef>,
        option: FloatOption,
    ) -> Res<()> {
        let lo = self.eval(min)?;
        let hi = self.eval(max)?;
        let range = match decimals {
            Some((a, b)) => {
                let a = self.eval_int(a)?.to_usize();
                let b = self.eval_int(b)?.to_usize();
                match (a, b) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => return script("FLOATP's decimals must be non-negative integers"),
                }
            }
            None => None,
        };
        let d = self.data;
        let start = self.pos;
        let mut i = start;
        if d.get(i) == Some(&b'-') {
            i += 1;
        }
        let digit_pos = i;
        if !d.get(i).is_some_and(u8::is_ascii_digit) {
            return self.reject("expected a digit");
        }
        let first_digit = d[i];
        let mut dot: Option<usize> = None;
        let mut leading = 0;
        while i < d.len()
            && (d[i].is_ascii_digit() || (dot.is_none() && i != digit_pos && d[i] == b'.'))
        {
            if d[i] == b'.' {
                dot = Some(i);
            } else if dot.is_none() {
                leading += 1;
            }
            i += 1;
        }
        if first_digit == b'0' && leading > 1 {
            return self.reject("float with leading zeros");
        }
        if !d[i - 1].is_ascii_digit() {
            return self.reject("expected a digit after the decimal point");
        }
        let exp_pos = i;
        let mut has_exp = false;
        let wants_exp = match option {
            FloatOption::Scientific => true,
            FloatOption::Fixed => false,
            FloatOption::Any => matches!(d.get(i), Some(b'e' | b'E')),
        };
        if wants_exp {
            if !matches!(d.get(i), Some(b'e' | b'E')) {
                self.pos = i;
                return self.reject("expected an exponent 'e'");
            }
            i += 1;
            has_exp = true;
            if matches!(d.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let exp_digits = i;
            while i < d.len() && d[i].is_ascii_digit() {
                i += 1;
            }
            if i == exp_digits {
                self.pos = i;
                return self.reject("expected a digit in the exponent");
            }
            if d[exp_digits] == b'0' && i - exp_digits > 1 {
                return self.reject("exponent with leading zeros");
            }
        }
        if let Some((lo_dec, hi_dec)) = range {
            if has_exp && (first_digit == b'0' || dot != Some(digit_pos + 1)) {
                return self.reject("exactly one non-zero digit before the decimal point expected");
            }
            let n = dot.map_or(0, |p| exp_pos - p - 1);
            if n < lo_dec || n > hi_dec {
                return self.reject(format!("{n} decimals, not within [{lo_dec}, {hi_dec}]"));
            }
        }
        let text = String::from_utf8_lossy(&d[start..i]).into_owned();
        let x: f64 = text
            .parse()
            .map_err(|_| Stop::Reject(format!("bad float {text}")))?;
        let value = Value::Float(x);
        let below = compare(&value, &lo).map_err(Stop::Script)?.is_lt();
        let above = compare(&value, &hi).map_err(Stop::Script)?.is_gt();
        if below || above {
            return self.reject(format!(
                "float {text} out of range [{}, {}]",
                lo.show(),
                hi.show()
            ));
        }
        self.pos = i;
        if let Some(v) = var {
            self.set(v, value)?;
        }
        Ok(())
    }

    fn regex(&mut self, e: &Expr, var: Option<&VarRef>) -> Res<()> {
        let pattern = self.string_of(e)?;
        if !self.regexes.contains_key(&pattern) {
            let text = String::from_utf8_lossy(&pattern);
            let re = regex::bytes::RegexBuilder::new(&format!("^(?:{text})"))
                .unicode(false)
                .dot_matches_new_line(true)
                .size_limit(1 << 20)
                .build()
                .map_err(|err| Stop::Script(format!("bad regex \"{text}\": {err}")))?;
            if self.regexes.len() >= 1000 {
                self.regexes.clear();
            }
            self.regexes.insert(pattern.clone(), re);
        }
        let found = self
            .regexes
            .get(&pattern)
            .and_then(|re| re.find(&self.data[self.pos..]))
            .map(|m| m.end());
        let Some(len) = found else {
            return self.reject(format!(
                "no match for the regex \"{}\"",
                String::from_utf8_lossy(&pattern)
            ));
        };
        let matched = self.data[self.pos..self.pos + len].to_vec();
        self.pos += len;
        if let Some(v) = var {
            self.set(v, Value::Str(matched))?;
        }
        Ok(())
    }

    fn string_of(&mut self, e: &Expr) -> Res<Vec<u8>> {
        match self.eval(e)? {
            Value::Str(s) => Ok(s),
            other => script(format!("{} is not a string", other.show())),
        }
    }

    fn eval_int(&mut self, e: &Expr) -> Res<BigInt> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            other => script(format!("{} is not an integer", other.show())),
        }
    }

    fn index(&mut self, var: &VarRef) -> Res<Index> {
        var.index.iter().map(|e| self.eval_int(e)).collect()
    }

    fn set(&mut self, var: &VarRef, value: Value) -> Res<()> {
        let index = self.index(var)?;
        let map = self.vars.entry(var.name.clone()).or_default();
        if map.insert(index, value).is_none() {
            self.stored += 1;
            if self.stored > self.bounds.max_values {
                return Err(Stop::Limit(format!(
                    "the script stored more than {} values",
                    self.bounds.max_values
                )));
            }
        }
        Ok(())
    }

    fn eval(&mut self, e: &Expr) -> Res<Value> {
        Ok(match e {
            Expr::Int(s) => Value::Int(
                s.parse()
                    .map_err(|_| Stop::Script(format!("bad integer {s}")))?,
            ),
            Expr::Float(s) => Value::Float(
                s.parse()
                    .map_err(|_| Stop::Script(format!("bad float {s}")))?,
            ),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Var(v) => {
                let index = self.index(v)?;
                match self.vars.get(&v.name).and_then(|m| m.get(&index)) {
                    Some(value) => value.clone(),
                    None if v.index.is_empty() => {
                        return script(format!("variable {} is not set", v.name))
                    }
                    None => {
                        let shown: Vec<String> = index.iter().map(|i| i.to_string()).collect();
                        return script(format!(
                            "variable {}[{}] is not set",
                            v.name,
                            shown.join(",")
                        ));
                    }
                }
            }
            Expr::Strlen(inner) => {
                let s = self.string_of(inner)?;
                Value::Int(BigInt::from(String::from_utf8_lossy(&s).chars().count()))
            }
            Expr::Neg(inner) => {
                let v = self.eval(inner)?;
                negate(&v).map_err(Stop::Script)?
            }
            Expr::Bin(op, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                arith(*op, &a, &b).map_err(Stop::Script)?
            }
        })
    }

    fn test(&mut self, t: &Test) -> Res<bool> {
        self.step()?;
        Ok(match t {
            Test::Not(inner) => !self.test(inner)?,
            Test::And(a, b) => self.test(a)? && self.test(b)?,
            Test::Or(a, b) => self.test(a)? || self.test(b)?,
            Test::Compare(cmp, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                let o = compare(&a, &b).map_err(Stop::Script)?;
                match cmp {
                    Cmp::Lt => o.is_lt(),
                    Cmp::Gt => o.is_gt(),
                    Cmp::Le => o.is_le(),
                    Cmp::Ge => o.is_ge(),
                    Cmp::Eq => o.is_eq(),
                    Cmp::Ne => o.is_ne(),
                }
            }
            Test::IsEof => self.pos >= self.data.len(),
            Test::Match(e) => {
                let set = self.string_of(e)?;
                self.peek().is_some_and(|c| set.contains(&c))
            }
            Test::Unique(names) => self.unique(names)?,
            Test::InArray(e, name) => {
                let v = self.eval(e)?;
                let Some(map) = self.vars.get(name) else {
                    return script(format!("variable {name} is not set"));
                };
                self.steps += map.len() as u64 / 16;
                map.values()
                    .any(|x| compare(&v, x).is_ok_and(|o| o.is_eq()))
            }
        })
    }

    fn unique(&mut self, names: &[String]) -> Res<bool> {
        let mut maps = Vec::new();
        for n in names {
            match self.vars.get(n) {
                Some(m) => maps.push(m),
                None => return script(format!("variable {n} is not set")),
            }
        }
        let Some(first) = maps.first() else {
            return Ok(true);
        };
        for (m, n) in maps.iter().zip(names).skip(1) {
            if m.len() != first.len() {
                return self.reject(format!(
                    "variables {} and {n} have different indices",
                    names[0]
                ));
            }
        }
        let mut seen = HashSet::new();
        for index in first.keys() {
            let mut tuple = Vec::new();
            for (m, n) in maps.iter().zip(names) {
                match m.get(index) {
                    Some(v) => {
                        let key = v.key();
                        tuple.extend((key.len() as u64).to_le_bytes());
                        tuple.extend(key);
                    }
                    None => {
                        return self.reject(format!("an index of {} is not set for {n}", names[0]))
                    }
                }
            }
            if !seen.insert(tuple) {
                let shown: Vec<String> = index.iter().map(|i| i.to_string()).collect();
                return self.reject(format!(
                    "non-unique tuple of ({}) at index [{}]",
                    names.join(","),
                    shown.join(",")
                ));
            }
        }
        self.steps += first.len() as u64 / 16;
        Ok(true)
    }
}
