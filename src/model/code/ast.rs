//! Python's syntax tree, as the evaluator reads it: every statement and expression of the
//! language (so any valid paste parses), each with its line and its byte range in the source
//! (for "the call as written").

use std::rc::Rc;

/// An expression and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    /// 1-based line of its first token.
    pub line: usize,
    /// Byte range in the source.
    pub start: usize,
    pub end: usize,
}

/// One part of an f-string: literal text, or a replacement field.
#[derive(Clone, Debug, PartialEq)]
pub enum FPart {
    Text(String),
    Field {
        value: Expr,
        /// `!r`, `!s`, `!a`.
        conversion: Option<char>,
        /// The format spec after `:`, itself an f-string's parts.
        spec: Vec<FPart>,
        /// `{x=}`: the expression's text before its value.
        debug: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Name(String),
    Int(i64),
    Float(f64),
    /// An imaginary literal (`1j`).
    Imaginary(f64),
    Str(String),
    Bytes(String),
    FString(Vec<FPart>),
    Bool(bool),
    None,
    Ellipsis,
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    /// `{k: v, **other}`: `None` key for a `**` item.
    Dict(Vec<(Option<Expr>, Expr)>),
    /// `*x` in a list, a call or an assignment target.
    Starred(Box<Expr>),
    Attr(Box<Expr>, String),
    Call(Box<Expr>, Vec<Arg>),
    Subscript(Box<Expr>, Box<Expr>),
    Slice {
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a and b and c`.
    And(Vec<Expr>),
    Or(Vec<Expr>),
    /// `a < b <= c`: the first operand and each comparison.
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    IfExp {
        test: Box<Expr>,
        body: Box<Expr>,
        orelse: Box<Expr>,
    },
    Lambda(Rc<Lambda>),
    /// A comprehension: `[elt for ...]`, `{k: v for ...}`, `(elt for ...)`.
    Comp {
        kind: CompKind,
        elt: Box<Expr>,
        /// The value of a dict comprehension.
        value: Option<Box<Expr>>,
        generators: Vec<Generator>,
    },
    /// `name := value`.
    Named(String, Box<Expr>),
    /// `yield`, `yield from`, `await`: parsed, not evaluated.
    Unsupported(&'static str, Option<Box<Expr>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    List,
    Set,
    Dict,
    Generator,
}

/// `for target in iter if cond ...` in a comprehension.
#[derive(Clone, Debug, PartialEq)]
pub struct Generator {
    pub target: Expr,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

/// A call argument: positional, `name=value`, `*value` or `**value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub name: Option<String>,
    pub star: Star,
    pub value: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Star {
    None,
    Single,
    Double,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Pos,
    Invert,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    BitOr,
    BitXor,
    BitAnd,
    LShift,
    RShift,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    NotEq,
    Lt,
    LtE,
    Gt,
    GtE,
    Is,
    IsNot,
    In,
    NotIn,
}

/// How a parameter is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// Before a `/`.
    PositionalOnly,
    /// The usual kind.
    Normal,
    /// After `*` or `*args`.
    KeywordOnly,
    /// `*args`.
    VarArgs,
    /// `**kwargs`.
    VarKeywords,
}

/// A function parameter and its default.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    pub default: Option<Expr>,
}

/// A lambda.
#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub body: Expr,
}

/// A `def`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub decorators: Vec<Expr>,
    pub line: usize,
}

/// A `class`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDef {
    pub name: String,
    /// Bases and keywords (`metaclass=...`).
    pub bases: Vec<Arg>,
    pub body: Vec<Stmt>,
    pub decorators: Vec<Expr>,
    pub line: usize,
}

/// One `except` clause.
#[derive(Clone, Debug, PartialEq)]
pub struct Handler {
    pub kind: Option<Expr>,
    pub name: Option<String>,
    pub body: Vec<Stmt>,
}

/// A statement and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// 1-based line of its first token.
    pub line: usize,
    /// Byte range of its first logical line in the source.
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    /// `a = b = value`: the targets in order.
    Assign {
        targets: Vec<Expr>,
        value: Expr,
    },
    AugAssign {
        target: Expr,
        op: BinOp,
        value: Expr,
    },
    /// `x: int = 3` (the annotation is not kept).
    AnnAssign {
        target: Expr,
        value: Option<Expr>,
    },
    Pass,
    Break,
    Continue,
    Return(Option<Expr>),
    Raise(Option<Expr>),
    Global(Vec<String>),
    Nonlocal(Vec<String>),
    Del(Vec<Expr>),
    Assert(Expr, Option<Expr>),
    /// `import a.b as c`: each module path and its alias.
    Import(Vec<(Vec<String>, Option<String>)>),
    /// `from ..a.b import c as d`; `names` empty for `import *`.
    ImportFrom {
        module: Vec<String>,
        level: usize,
        names: Vec<(String, Option<String>)>,
    },
    If {
        test: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
    },
    For {
        target: Expr,
        iter: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
    },
    While {
        test: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
    },
    Try {
        body: Vec<Stmt>,
        handlers: Vec<Handler>,
        orelse: Vec<Stmt>,
        finalbody: Vec<Stmt>,
    },
    With {
        items: Vec<(Expr, Option<Expr>)>,
        body: Vec<Stmt>,
    },
    FunctionDef(Rc<FunctionDef>),
    ClassDef(Rc<ClassDef>),
    /// Valid Python the evaluator does not run (`match`, `async` statements): what it is.
    Unsupported(&'static str),
}

/// Moves an expression's byte ranges by `by` (an expression parsed on its own, quoted from a
/// longer source).
pub fn shift(e: &mut Expr, by: usize) {
    e.start += by;
    e.end += by;
    let all = |v: &mut Vec<Expr>| v.iter_mut().for_each(|x| shift(x, by));
    match &mut e.kind {
        ExprKind::Tuple(v)
        | ExprKind::List(v)
        | ExprKind::Set(v)
        | ExprKind::And(v)
        | ExprKind::Or(v) => all(v),
        ExprKind::Dict(items) => {
            for (k, v) in items {
                if let Some(k) = k {
                    shift(k, by);
                }
                shift(v, by);
            }
        }
        ExprKind::Starred(x)
        | ExprKind::Attr(x, _)
        | ExprKind::Unary(_, x)
        | ExprKind::Named(_, x) => shift(x, by),
        ExprKind::Call(f, args) => {
            shift(f, by);
            args.iter_mut().for_each(|a| shift(&mut a.value, by));
        }
        ExprKind::Subscript(a, b) | ExprKind::Binary(_, a, b) => {
            shift(a, by);
            shift(b, by);
        }
        ExprKind::Slice { lower, upper, step } => {
            for x in [lower, upper, step].into_iter().flatten() {
                shift(x, by);
            }
        }
        ExprKind::Compare(a, ops) => {
            shift(a, by);
            ops.iter_mut().for_each(|(_, x)| shift(x, by));
        }
        ExprKind::IfExp { test, body, orelse } => {
            shift(test, by);
            shift(body, by);
            shift(orelse, by);
        }
        ExprKind::Comp {
            elt,
            value,
            generators,
            ..
        } => {
            shift(elt, by);
            if let Some(v) = value {
                shift(v, by);
            }
            for g in generators {
                shift(&mut g.target, by);
                shift(&mut g.iter, by);
                g.ifs.iter_mut().for_each(|x| shift(x, by));
            }
        }
        _ => {}
    }
}
