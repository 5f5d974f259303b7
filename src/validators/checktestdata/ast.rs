//! The parsed script: commands, tests and expressions.

/// A variable reference: a name and, for an array element, its index expressions.
#[derive(Debug, Clone, PartialEq)]
pub struct VarRef {
    /// The name.
    pub name: String,
    /// The index expressions (empty for a plain variable).
    pub index: Vec<Expr>,
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer literal's digits.
    Int(String),
    /// A float literal's text.
    Float(String),
    /// A string literal.
    Str(Vec<u8>),
    /// A variable's value.
    Var(VarRef),
    /// `STRLEN(value)`.
    Strlen(Box<Expr>),
    /// `-x`.
    Neg(Box<Expr>),
    /// `a op b` for `+ - * / % ^`.
    Bin(char, Box<Expr>, Box<Expr>),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// A test (a boolean).
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// `!t`
    Not(Box<Test>),
    /// `a && b`
    And(Box<Test>, Box<Test>),
    /// `a || b`
    Or(Box<Test>, Box<Test>),
    /// `a cmp b`
    Compare(Cmp, Expr, Expr),
    /// `ISEOF`
    IsEof,
    /// `MATCH(str)`: the next character is one of `str`'s.
    Match(Expr),
    /// `UNIQUE(a, b, ...)`
    Unique(Vec<String>),
    /// `INARRAY(value, array)`
    InArray(Expr, String),
}

/// `FLOAT`'s notation option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatOption {
    /// Any notation.
    Any,
    /// `FIXED`: no exponent.
    Fixed,
    /// `SCIENTIFIC`: an exponent required.
    Scientific,
}

/// One command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `SPACE`
    Space,
    /// `NEWLINE`
    Newline,
    /// `EOF`
    Eof,
    /// `INT(min, max [, var])`
    Int(Expr, Expr, Option<VarRef>),
    /// `FLOAT(min, max [, var [, option]])` and `FLOATP` with its decimals range.
    Float {
        /// Smallest value.
        min: Expr,
        /// Largest value.
        max: Expr,
        /// `FLOATP`'s smallest and largest number of decimals.
        decimals: Option<(Expr, Expr)>,
        /// Where the value goes.
        var: Option<VarRef>,
        /// The notation.
        option: FloatOption,
    },
    /// `STRING(str)`
    String(Expr),
    /// `REGEX(str [, var])`
    Regex(Expr, Option<VarRef>),
    /// `ASSERT(test)`
    Assert(Test),
    /// `SET(var = expr, ...)`
    Set(Vec<(VarRef, Expr)>),
    /// `UNSET(name, ...)`
    Unset(Vec<String>),
    /// `REP(count [, sep]) ... END` and `REPI(var, count [, sep]) ... END`.
    Rep {
        /// The iteration counter's variable (`REPI`).
        var: Option<VarRef>,
        /// The number of iterations.
        count: Expr,
        /// Matched between two iterations.
        separator: Option<Box<Command>>,
        /// The loop's body.
        body: Vec<Command>,
    },
    /// `WHILE(test [, sep]) ... END` and `WHILEI(var, test [, sep]) ... END`.
    While {
        /// The iteration counter's variable (`WHILEI`).
        var: Option<VarRef>,
        /// Checked before each iteration.
        test: Test,
        /// Matched between two iterations.
        separator: Option<Box<Command>>,
        /// The loop's body.
        body: Vec<Command>,
    },
    /// `IF(test) ... [ELSE ...] END`
    If(Test, Vec<Command>, Vec<Command>),
}
