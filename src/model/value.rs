//! Constant evaluation of pasted Python: the numbers, strings and tuples a layer call's
//! arguments are made of, with names defined earlier in the paste (`ngf = 64`, a function's
//! defaults) and arithmetic (`ngf * 8`, `2 ** 3`, `64 // 2`). Checked: an overflow or a
//! division by zero is an error, never a panic or a wrapped number.

use std::collections::HashMap;
use std::fmt;

use super::python::{BinaryOp, Expr, ExprKind, UnaryOp};

/// A constant value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    None,
    /// A tuple or a list.
    Seq(Vec<Value>),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::None => f.write_str("None"),
            Value::Seq(items) => {
                f.write_str("(")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Why an expression has no constant value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A name the paste does not define.
    Undefined(String),
    /// Valid Python that is not a constant padlab can compute.
    NotConstant,
    Overflow,
    DivisionByZero,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Undefined(name) => write!(f, "`{name}` is not defined in the paste"),
            EvalError::NotConstant => f.write_str("not a constant padlab can compute"),
            EvalError::Overflow => f.write_str("a number beyond 64 bits"),
            EvalError::DivisionByZero => f.write_str("a division by zero"),
        }
    }
}

/// Names with constant values, innermost scope last.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    frames: Vec<HashMap<String, Value>>,
}

impl Scope {
    pub fn new() -> Scope {
        Scope {
            frames: vec![HashMap::new()],
        }
    }

    /// Enters a new innermost scope (a function body).
    pub fn push(&mut self) {
        self.frames.push(HashMap::new());
    }

    /// Leaves the innermost scope (never the outermost).
    pub fn pop(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    pub fn set(&mut self, name: &str, value: Value) {
        if let Some(frame) = self.frames.last_mut() {
            frame.insert(name.to_string(), value);
        }
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.frames.iter().rev().find_map(|f| f.get(name))
    }

    /// The value of `e`.
    pub fn eval(&self, e: &Expr) -> Result<Value, EvalError> {
        self.eval_depth(e, 0)
    }

    fn eval_depth(&self, e: &Expr, depth: usize) -> Result<Value, EvalError> {
        if depth > 64 {
            return Err(EvalError::NotConstant);
        }
        let sub = |e: &Expr| self.eval_depth(e, depth + 1);
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Int(*v)),
            ExprKind::Float(v) => Ok(Value::Float(*v)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::None => Ok(Value::None),
            ExprKind::Name(n) => self
                .get(n)
                .cloned()
                .ok_or_else(|| EvalError::Undefined(n.clone())),
            ExprKind::Tuple(items) | ExprKind::List(items) => items
                .iter()
                .map(sub)
                .collect::<Result<_, _>>()
                .map(Value::Seq),
            ExprKind::Unary(op, x) => unary(*op, sub(x)?),
            ExprKind::Binary(op, l, r) => binary(*op, sub(l)?, sub(r)?),
            ExprKind::Subscript(seq, index) => match (sub(seq)?, sub(index)?) {
                (Value::Seq(items), Value::Int(i)) => {
                    let len = i64::try_from(items.len()).map_err(|_| EvalError::Overflow)?;
                    let at = if i < 0 { i + len } else { i };
                    usize::try_from(at)
                        .ok()
                        .and_then(|at| items.get(at).cloned())
                        .ok_or(EvalError::NotConstant)
                }
                _ => Err(EvalError::NotConstant),
            },
            ExprKind::Call(f, args) => {
                // int(...), float(...), round(...), abs(...), max/min of constants.
                let ExprKind::Name(name) = &f.kind else {
                    return Err(EvalError::NotConstant);
                };
                let values: Vec<Value> = args
                    .iter()
                    .filter(|a| a.name.is_none())
                    .map(|a| sub(&a.value))
                    .collect::<Result<_, _>>()?;
                builtin(name, &values)
            }
            _ => Err(EvalError::NotConstant),
        }
    }
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

fn unary(op: UnaryOp, v: Value) -> Result<Value, EvalError> {
    match (op, v) {
        (UnaryOp::Neg, Value::Int(i)) => i.checked_neg().map(Value::Int).ok_or(EvalError::Overflow),
        (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnaryOp::Pos, v @ (Value::Int(_) | Value::Float(_))) => Ok(v),
        (UnaryOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        _ => Err(EvalError::NotConstant),
    }
}

fn binary(op: BinaryOp, l: Value, r: Value) -> Result<Value, EvalError> {
    use BinaryOp::*;
    if let (Value::Int(a), Value::Int(b)) = (&l, &r) {
        let (a, b) = (*a, *b);
        let checked = |v: Option<i64>| v.map(Value::Int).ok_or(EvalError::Overflow);
        return match op {
            Add => checked(a.checked_add(b)),
            Sub => checked(a.checked_sub(b)),
            Mul => checked(a.checked_mul(b)),
            FloorDiv | Mod if b == 0 => Err(EvalError::DivisionByZero),
            // Python floors toward minus infinity (Rust's / and % truncate toward zero).
            FloorDiv => checked(a.checked_div(b).zip(a.checked_rem(b)).map(|(q, r)| {
                if r != 0 && ((r < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            })),
            Mod => checked(a.checked_rem(b).map(|r| {
                if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                }
            })),
            Div if b == 0 => Err(EvalError::DivisionByZero),
            Div => Ok(Value::Float(a as f64 / b as f64)),
            Pow if b >= 0 => checked(u32::try_from(b).ok().and_then(|e| a.checked_pow(e))),
            Pow => Ok(Value::Float((a as f64).powf(b as f64))),
            MatMul | Other => Err(EvalError::NotConstant),
        };
    }
    if let (Value::Seq(a), Value::Seq(b), Add) = (&l, &r, op) {
        return Ok(Value::Seq(a.iter().chain(b).cloned().collect()));
    }
    if let (Value::Seq(a), Value::Int(n), Mul) | (Value::Int(n), Value::Seq(a), Mul) = (&l, &r, op)
    {
        let n = usize::try_from(*n).unwrap_or(0);
        if a.len().saturating_mul(n) > 4096 {
            return Err(EvalError::Overflow);
        }
        return Ok(Value::Seq(
            a.iter().cloned().cycle().take(a.len() * n).collect(),
        ));
    }
    let (Some(a), Some(b)) = (as_f64(&l), as_f64(&r)) else {
        return Err(EvalError::NotConstant);
    };
    let v = match op {
        Add => a + b,
        Sub => a - b,
        Mul => a * b,
        Div | FloorDiv | Mod if b == 0.0 => return Err(EvalError::DivisionByZero),
        Div => a / b,
        FloorDiv => (a / b).floor(),
        Mod => a - b * (a / b).floor(),
        Pow => a.powf(b),
        MatMul | Other => return Err(EvalError::NotConstant),
    };
    Ok(Value::Float(v))
}

fn builtin(name: &str, args: &[Value]) -> Result<Value, EvalError> {
    match (name, args) {
        ("int", [Value::Int(i)]) => Ok(Value::Int(*i)),
        ("int", [Value::Float(f)]) if f.is_finite() && f.abs() < 9.0e15 => {
            Ok(Value::Int(f.trunc() as i64))
        }
        ("float", [v]) => as_f64(v).map(Value::Float).ok_or(EvalError::NotConstant),
        ("round", [Value::Float(f)]) if f.is_finite() && f.abs() < 9.0e15 => {
            // Python rounds half to even.
            let r = f.round();
            let even = if (f - f.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
                r - f.signum()
            } else {
                r
            };
            Ok(Value::Int(even as i64))
        }
        ("round", [Value::Int(i)]) => Ok(Value::Int(*i)),
        ("abs", [Value::Int(i)]) => i.checked_abs().map(Value::Int).ok_or(EvalError::Overflow),
        ("tuple" | "list", [Value::Seq(v)]) => Ok(Value::Seq(v.clone())),
        ("max" | "min", [first, ..]) if args.iter().all(|a| matches!(a, Value::Int(_))) => {
            let ints = args.iter().filter_map(|a| match a {
                Value::Int(i) => Some(*i),
                _ => None,
            });
            let v = if name == "max" {
                ints.max()
            } else {
                ints.min()
            };
            let _ = first;
            v.map(Value::Int).ok_or(EvalError::NotConstant)
        }
        _ => Err(EvalError::NotConstant),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::python::{StmtKind, read};

    fn value(scope: &Scope, src: &str) -> Result<Value, EvalError> {
        let stmts = read(src).unwrap();
        let StmtKind::Expr(e) = &stmts[0].kind else {
            panic!("{src}")
        };
        scope.eval(e)
    }

    #[test]
    fn arithmetic_follows_python() {
        let mut s = Scope::new();
        s.set("ngf", Value::Int(64));
        assert_eq!(value(&s, "ngf * 8"), Ok(Value::Int(512)));
        assert_eq!(value(&s, "-7 // 2"), Ok(Value::Int(-4)));
        assert_eq!(value(&s, "7 // -2"), Ok(Value::Int(-4)));
        assert_eq!(value(&s, "-7 % 3"), Ok(Value::Int(2)));
        assert_eq!(value(&s, "2 ** 10"), Ok(Value::Int(1024)));
        assert_eq!(value(&s, "int(ngf / 3)"), Ok(Value::Int(21)));
        assert_eq!(
            value(&s, "(3, 3) + (1,)"),
            Ok(Value::Seq(vec![
                Value::Int(3),
                Value::Int(3),
                Value::Int(1)
            ]))
        );
        assert_eq!(value(&s, "1e-3"), Ok(Value::Float(0.001)));
        assert_eq!(value(&s, "nz"), Err(EvalError::Undefined("nz".into())));
        assert_eq!(
            value(&s, "9223372036854775807 + 1"),
            Err(EvalError::Overflow)
        );
        assert_eq!(value(&s, "1 // 0"), Err(EvalError::DivisionByZero));
        assert_eq!(value(&s, "[0] * 100000000000"), Err(EvalError::Overflow));
        assert_eq!(value(&s, "(3, 16, 32)[1]"), Ok(Value::Int(16)));
        assert_eq!(value(&s, "(3, 16, 32)[-1]"), Ok(Value::Int(32)));
        assert_eq!(value(&s, "(3, 16)[5]"), Err(EvalError::NotConstant));
    }
}
