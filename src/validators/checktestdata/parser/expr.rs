//! What commands take: variable references and name lists, values, arithmetic expressions
//! (each operator a level of nesting) and tests.

use super::{describe, Parser};
use crate::validators::checktestdata::ast::{Cmp, Expr, Test, VarRef};
use crate::validators::checktestdata::lexer::Tok;
use crate::validators::checktestdata::CtdError;

impl Parser<'_> {
    /// A comma-separated list of variable names.
    pub(super) fn names(&mut self) -> Result<Vec<String>, CtdError> {
        let mut names = Vec::new();
        loop {
            match self.peek().map(|t| &t.kind) {
                Some(Tok::Name(n)) => {
                    names.push(n.clone());
                    self.pos += 1;
                }
                _ => return Err(self.error("expected a variable name".into())),
            }
            if !self.is_op(",") {
                return Ok(names);
            }
            self.pos += 1;
        }
    }

    /// A variable, with its index when it has one (`a[i, j]`).
    pub(super) fn variable(&mut self) -> Result<VarRef, CtdError> {
        let name = match self.peek().map(|t| &t.kind) {
            Some(Tok::Name(n)) => n.clone(),
            _ => return Err(self.error("expected a variable".into())),
        };
        self.pos += 1;
        let mut index = Vec::new();
        if self.is_op("[") {
            self.pos += 1;
            loop {
                index.push(self.expr()?);
                if !self.is_op(",") {
                    break;
                }
                self.pos += 1;
            }
            self.expect_op("]")?;
        }
        Ok(VarRef { name, index })
    }

    /// A literal, a variable or `STRLEN(value)`.
    pub(super) fn value(&mut self) -> Result<Expr, CtdError> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.error("expected a value".into()));
        };
        match token.kind {
            Tok::Integer(s) => {
                self.pos += 1;
                Ok(Expr::Int(s))
            }
            Tok::Float(s) => {
                self.pos += 1;
                Ok(Expr::Float(s))
            }
            Tok::Str(s) => {
                self.pos += 1;
                Ok(Expr::Str(s))
            }
            Tok::Name(_) => Ok(Expr::Var(self.variable()?)),
            Tok::Keyword(k) if k == "STRLEN" => {
                self.pos += 1;
                self.expect_op("(")?;
                let v = self.value()?;
                self.expect_op(")")?;
                Ok(Expr::Strlen(Box::new(v)))
            }
            other => Err(self.error(format!("expected a value, found {}", describe(&other)))),
        }
    }

    /// An arithmetic expression: terms joined by `+` and `-`.
    // Each operator of a chain counts as a level (a chain is a tree as deep as it is long),
    // so MAX_DEPTH bounds the depth of every tree the interpreter walks.
    pub(super) fn expr(&mut self) -> Result<Expr, CtdError> {
        let base = self.depth;
        let result = (|| {
            self.enter()?;
            let mut left = self.term()?;
            while self.is_op("+") || self.is_op("-") {
                let op = if self.is_op("+") { '+' } else { '-' };
                self.pos += 1;
                self.enter()?;
                left = Expr::Bin(op, Box::new(left), Box::new(self.term()?));
            }
            Ok(left)
        })();
        self.depth = base;
        result
    }

    fn term(&mut self) -> Result<Expr, CtdError> {
        let base = self.depth;
        let result = (|| {
            let mut left = self.factor()?;
            loop {
                let op = if self.is_op("*") {
                    '*'
                } else if self.is_op("/") {
                    '/'
                } else if self.is_op("%") {
                    '%'
                } else {
                    return Ok(left);
                };
                self.pos += 1;
                self.enter()?;
                left = Expr::Bin(op, Box::new(left), Box::new(self.factor()?));
            }
        })();
        self.depth = base;
        result
    }

    fn factor(&mut self) -> Result<Expr, CtdError> {
        let base = self.depth;
        let result = (|| {
            self.enter()?;
            if self.is_op("-") {
                self.pos += 1;
                return Ok(Expr::Neg(Box::new(self.factor()?)));
            }
            let mut left = self.primary()?;
            while self.is_op("^") {
                self.pos += 1;
                self.enter()?;
                let right = self.exponent()?;
                left = Expr::Bin('^', Box::new(left), Box::new(right));
            }
            Ok(left)
        })();
        self.depth = base;
        result
    }

    /// `(expr)` or a value.
    fn primary(&mut self) -> Result<Expr, CtdError> {
        if self.is_op("(") {
            self.pos += 1;
            let e = self.expr()?;
            self.expect_op(")")?;
            return Ok(e);
        }
        self.value()
    }

    /// The right of `^`: `^` is left-associative (`2^3^2` is 64).
    fn exponent(&mut self) -> Result<Expr, CtdError> {
        if self.is_op("-") {
            self.pos += 1;
            let base = self.depth;
            let e = self.enter().and_then(|()| self.exponent());
            self.depth = base;
            return Ok(Expr::Neg(Box::new(e?)));
        }
        self.primary()
    }

    /// A test: atoms joined by `&&` and `||`, from the left.
    pub(super) fn test(&mut self) -> Result<Test, CtdError> {
        let base = self.depth;
        let result = (|| {
            self.enter()?;
            let mut left = self.test_atom()?;
            loop {
                if self.is_op("&&") {
                    self.pos += 1;
                    self.enter()?;
                    left = Test::And(Box::new(left), Box::new(self.test_atom()?));
                } else if self.is_op("||") {
                    self.pos += 1;
                    self.enter()?;
                    left = Test::Or(Box::new(left), Box::new(self.test_atom()?));
                } else {
                    return Ok(left);
                }
            }
        })();
        self.depth = base;
        result
    }

    fn test_atom(&mut self) -> Result<Test, CtdError> {
        if self.is_op("!") {
            self.pos += 1;
            return Ok(Test::Not(Box::new(self.test()?)));
        }
        if let Some(Tok::Keyword(k)) = self.peek().map(|t| t.kind.clone()) {
            match k.as_str() {
                "ISEOF" => {
                    self.pos += 1;
                    return Ok(Test::IsEof);
                }
                "MATCH" => {
                    self.pos += 1;
                    self.expect_op("(")?;
                    let v = self.value()?;
                    self.expect_op(")")?;
                    return Ok(Test::Match(v));
                }
                "UNIQUE" => {
                    self.pos += 1;
                    self.expect_op("(")?;
                    let names = self.names()?;
                    self.expect_op(")")?;
                    return Ok(Test::Unique(names));
                }
                "INARRAY" => {
                    self.pos += 1;
                    self.expect_op("(")?;
                    let v = self.expr()?;
                    self.expect_op(",")?;
                    let names = self.names()?;
                    self.expect_op(")")?;
                    let [name] = <[String; 1]>::try_from(names)
                        .map_err(|_| self.error("INARRAY takes one array".into()))?;
                    return Ok(Test::InArray(v, name));
                }
                _ => {}
            }
        }
        // `(` opens either a test or an expression: try the comparison first.
        let start = self.pos;
        match self.comparison() {
            Ok(t) => Ok(t),
            Err(first)
                if self
                    .tokens
                    .get(start)
                    .is_some_and(|t| t.kind == Tok::Op("(")) =>
            {
                self.pos = start + 1;
                let t = self.test().map_err(|_| first)?;
                self.expect_op(")")?;
                Ok(t)
            }
            Err(e) => Err(e),
        }
    }

    fn comparison(&mut self) -> Result<Test, CtdError> {
        let left = self.expr()?;
        let cmp = match self.peek().map(|t| &t.kind) {
            Some(Tok::Op("<")) => Cmp::Lt,
            Some(Tok::Op(">")) => Cmp::Gt,
            Some(Tok::Op("<=")) => Cmp::Le,
            Some(Tok::Op(">=")) => Cmp::Ge,
            Some(Tok::Op("==")) => Cmp::Eq,
            Some(Tok::Op("!=")) => Cmp::Ne,
            _ => return Err(self.error("expected a comparison (< > <= >= == !=)".into())),
        };
        self.pos += 1;
        let right = self.expr()?;
        Ok(Test::Compare(cmp, left, right))
    }
}
