//! Reading the input's tokens: the literal bytes of `SPACE` and `NEWLINE`, and `INT`,
//! `FLOAT`/`FLOATP` and `REGEX` with their checks (range, leading zeros, decimals).

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::{script, Machine, Res, Stop};
use crate::validators::checktestdata::ast::{Expr, FloatOption, VarRef};
use crate::validators::checktestdata::value::{compare, Value};

/// Longest integer read from the input, in digits.
const MAX_INT_DIGITS: usize = 100_000;

impl Machine<'_> {
    /// `SPACE` and `NEWLINE`: one given byte.
    pub(super) fn literal(&mut self, byte: u8, name: &str) -> Res<()> {
        match self.peek() {
            Some(c) if c == byte => {
                self.pos += 1;
                Ok(())
            }
            Some(c) => self.reject(format!("expected {name}, found {:?}", char::from(c))),
            None => self.reject(format!("expected {name}, found end of file")),
        }
    }

    /// `INT(min, max[, var])`: an integer in range, no leading zeros, no `-0`.
    pub(super) fn int(&mut self, min: &Expr, max: &Expr, var: Option<&VarRef>) -> Res<()> {
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

    /// `FLOAT`/`FLOATP`: a float in range, in fixed or scientific notation as asked,
    /// with `FLOATP`'s count of decimals.
    pub(super) fn float(
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

    /// `REGEX(pattern[, var])`: the longest match at the current position (patterns
    /// compiled once, a thousand at most kept).
    pub(super) fn regex(&mut self, e: &Expr, var: Option<&VarRef>) -> Res<()> {
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
}
