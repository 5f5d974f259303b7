//! Expressions and tests over the run's variables, and the variables' store (bounded in
//! values).

use std::collections::HashSet;

use num_bigint::BigInt;

use super::{script, Index, Machine, Res, Stop};
use crate::validators::checktestdata::ast::{Cmp, Expr, Test, VarRef};
use crate::validators::checktestdata::value::{arith, compare, negate, Value};

impl Machine<'_> {
    /// An expression that must be a string.
    pub(super) fn string_of(&mut self, e: &Expr) -> Res<Vec<u8>> {
        match self.eval(e)? {
            Value::Str(s) => Ok(s),
            other => script(format!("{} is not a string", other.show())),
        }
    }

    /// An expression that must be an integer.
    pub(super) fn eval_int(&mut self, e: &Expr) -> Res<BigInt> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            other => script(format!("{} is not an integer", other.show())),
        }
    }

    /// A variable reference's index, evaluated.
    fn index(&mut self, var: &VarRef) -> Res<Index> {
        var.index.iter().map(|e| self.eval_int(e)).collect()
    }

    /// Stores `value` in `var` (an array element when indexed), counting the values stored.
    pub(super) fn set(&mut self, var: &VarRef, value: Value) -> Res<()> {
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

    /// An expression's value.
    pub(super) fn eval(&mut self, e: &Expr) -> Res<Value> {
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

    /// A test's truth; counts as a step.
    pub(super) fn test(&mut self, t: &Test) -> Res<bool> {
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

    /// `UNIQUE(a, b...)`: the arrays share their indices and no two tuples are equal.
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
