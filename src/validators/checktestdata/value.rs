//! Values and their arithmetic: integers of any size, floats (`f64` here, where
//! checktestdata uses GMP floats), strings; an integer meets a float as a float.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

/// Largest result of `^` on integers, in bits (a bound: `10^1000000` is refused, not built).
const MAX_POW_BITS: u64 = 1 << 20;

/// A value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An integer.
    Int(BigInt),
    /// A float.
    Float(f64),
    /// A string (bytes).
    Str(Vec<u8>),
}

impl Value {
    /// The value as text, for messages.
    pub fn show(&self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Str(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
        }
    }

    /// A key equal for equal values of one kind, for `UNIQUE` and `INARRAY`.
    pub fn key(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Value::Int(i) => {
                out.push(b'i');
                out.extend(i.to_signed_bytes_le());
            }
            Value::Float(f) => {
                out.push(b'f');
                let f = if *f == 0.0 { 0.0 } else { *f };
                out.extend(f.to_bits().to_le_bytes());
            }
            Value::Str(s) => {
                out.push(b's');
                out.extend(s);
            }
        }
        out
    }

    fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(i.to_f64().unwrap_or(f64::NAN)),
            Value::Float(f) => Some(*f),
            Value::Str(_) => None,
        }
    }
}

/// `a op b` for `+ - * / % ^`.
pub fn arith(op: char, a: &Value, b: &Value) -> Result<Value, String> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return int_arith(op, x, y).map(Value::Int);
    }
    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else {
        return Err(format!(
            "`{op}` on a string ({} {op} {})",
            a.show(),
            b.show()
        ));
    };
    Ok(Value::Float(match op {
        '+' => x + y,
        '-' => x - y,
        '*' => x * y,
        '/' => {
            if y == 0.0 {
                return Err("division by zero".into());
            }
            x / y
        }
        '%' => return Err("`%` on a float".into()),
        '^' => {
            let Value::Int(e) = b else {
                return Err("the exponent of `^` must be an integer".into());
            };
            let e = e
                .to_i32()
                .filter(|e| *e >= 0)
                .ok_or("the exponent of `^` is negative or too large")?;
            x.powi(e)
        }
        _ => return Err(format!("unknown operator `{op}`")),
    }))
}

fn int_arith(op: char, x: &BigInt, y: &BigInt) -> Result<BigInt, String> {
    Ok(match op {
        '+' => x + y,
        '-' => x - y,
        '*' => {
            if x.bits() + y.bits() > MAX_POW_BITS {
                return Err("integer too large".into());
            }
            x * y
        }
        '/' | '%' if y.is_zero() => return Err("division by zero".into()),
        // Truncated towards zero, as GMP's and C's.
        '/' => x / y,
        '%' => x % y,
        '^' => {
            let e = y
                .to_u64()
                .ok_or("the exponent of `^` is negative or too large")?;
            if x.bits().saturating_mul(e) > MAX_POW_BITS && x.abs() > BigInt::from(1) {
                return Err("integer too large".into());
            }
            let e = u32::try_from(e).unwrap_or(u32::MAX);
            if x.abs() <= BigInt::from(1) {
                // 0, 1 and -1 to any power: no need to multiply u32::MAX times.
                return Ok(if e == 0 {
                    BigInt::from(1)
                } else if x.is_negative() && e % 2 == 1 {
                    BigInt::from(-1)
                } else if x.is_zero() {
                    BigInt::zero()
                } else {
                    BigInt::from(1)
                });
            }
            num_traits::pow(x.clone(), e as usize)
        }
        _ => return Err(format!("unknown operator `{op}`")),
    })
}

/// `-a`.
pub fn negate(a: &Value) -> Result<Value, String> {
    match a {
        Value::Int(i) => Ok(Value::Int(-i)),
        Value::Float(f) => Ok(Value::Float(-f)),
        Value::Str(_) => Err("`-` on a string".into()),
    }
}

/// How `a` compares with `b`: numbers with numbers, strings with strings.
pub fn compare(a: &Value, b: &Value) -> Result<Ordering, String> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Ok(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => Ok(x.cmp(y)),
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x
                .partial_cmp(&y)
                .ok_or_else(|| "comparison with NaN".to_string()),
            _ => Err(format!("cannot compare {} with {}", a.show(), b.show())),
        },
    }
}
