//! Tokens to commands, by checktestdata's grammar (its `checktestdata.y`): `+ -` below
//! `* / %` below `^` (all left-associative), unary minus over a whole factor chain (`-2^2` is
//! -4), `&&` and `||` of one precedence from the left, and `!` over the rest of the test.
//! Nesting is bounded ([`MAX_DEPTH`]).

use super::ast::{Cmp, Command, Expr, FloatOption, Test, VarRef};
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

    fn names(&mut self) -> Result<Vec<String>, CtdError> {
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

    fn variable(&mut self) -> Result<VarRef, CtdError> {
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
    fn value(&mut self) -> Result<Expr, CtdError> {
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

    // Each operator of a chain counts as a level (a chain is a tree as deep as it is long),
    // so MAX_DEPTH bounds the depth of every tree the interpreter walks.
    fn expr(&mut self) -> Result<Expr, CtdError> {
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

    fn test(&mut self) -> Result<Test, CtdError> {
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
