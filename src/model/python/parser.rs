//! Python statements and expressions, from the lexer's logical lines. The whole expression
//! grammar is read (so any valid paste parses); what padlab does not interpret (a lambda, a
//! comprehension, a comparison, a dict) becomes [`ExprKind::Opaque`], kept with its text.
//!
//! Each logical line is one [`Statement`]; a line this parser cannot read is
//! [`StmtKind::Unparsed`] with the reason, and the model reader decides whether it matters.
//! Recursion is bounded ([`MAX_DEPTH`]), so deeply nested input is an error, not a stack overflow.

use super::lexer::{Kind, LogicalLine, SyntaxError, Token};

/// How deep expressions may nest before the line is refused.
pub const MAX_DEPTH: usize = 64;

/// An expression with where it stands in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    /// 1-based line of its first token.
    pub line: usize,
    /// Byte range in the source (for "the call as written").
    pub start: usize,
    pub end: usize,
}

/// What an expression is.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Name(String),
    Int(i64),
    Float(f64),
    /// A plain string's value (escapes read); f-strings and bytes are opaque.
    Str(String),
    Bool(bool),
    None,
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Attr(Box<Expr>, String),
    Call(Box<Expr>, Vec<Arg>),
    Subscript(Box<Expr>, Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// Valid Python that padlab does not interpret.
    Opaque,
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
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    /// `|`, `&`, `^`, `<<`, `>>`, `and`, `or`, comparisons: read, not evaluated.
    Other,
}

/// A function parameter and its default.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub default: Option<Expr>,
}

/// One logical line, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub indent: usize,
    pub line: usize,
    /// Byte range of its tokens in the source.
    pub start: usize,
    pub end: usize,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `import a.b as c`: each module path and its alias.
    Import(Vec<(Vec<String>, Option<String>)>),
    /// `from a.b import c as d, e` or `from a.b import *` (`names` empty).
    FromImport {
        module: Vec<String>,
        names: Vec<(String, Option<String>)>,
    },
    Class {
        name: String,
        bases: Vec<Expr>,
    },
    Def {
        name: String,
        params: Vec<Param>,
    },
    /// `a = b = value` (targets in order).
    Assign {
        targets: Vec<Expr>,
        value: Expr,
    },
    /// `a += value`.
    AugAssign {
        target: Expr,
        op: BinaryOp,
        value: Expr,
    },
    Expr(Expr),
    Return(Option<Expr>),
    /// Another statement (`if`, `for`, `pass`, a decorator, …) by its first word.
    Other(String),
    /// A line this parser could not read.
    Unparsed(SyntaxError),
}

/// Reads every logical line.
pub fn parse(lines: &[LogicalLine]) -> Vec<Statement> {
    lines
        .iter()
        .map(|l| Statement {
            indent: l.indent,
            line: l.line,
            start: l.tokens.first().map_or(0, |t| t.start),
            end: l.tokens.last().map_or(0, |t| t.end),
            kind: statement(&l.tokens).unwrap_or_else(StmtKind::Unparsed),
        })
        .collect()
}

struct P<'a> {
    toks: &'a [Token],
    i: usize,
    depth: usize,
}

type R<T> = Result<T, SyntaxError>;

const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

impl<'a> P<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.i)
    }

    fn peek_is(&self, text: &str) -> bool {
        self.peek().is_some_and(|t| t.is(text))
    }

    fn next(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.i);
        self.i += 1;
        t
    }

    fn line(&self) -> usize {
        self.peek()
            .or_else(|| self.toks.last())
            .map_or(0, |t| t.line)
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            line: self.line(),
            message: message.into(),
        }
    }

    fn expect(&mut self, text: &str) -> R<&'a Token> {
        match self.peek() {
            Some(t) if t.is(text) => {
                self.i += 1;
                Ok(t)
            }
            Some(t) => Err(self.error(format!("expected '{text}', found '{}'", t.text))),
            None => Err(self.error(format!("expected '{text}' at the end of the line"))),
        }
    }

    fn eat(&mut self, text: &str) -> bool {
        if self.peek_is(text) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn name(&mut self) -> R<String> {
        match self.next() {
            Some(t) if t.kind == Kind::Name && !KEYWORDS.contains(&t.text.as_str()) => {
                Ok(t.text.clone())
            }
            Some(t) => Err(SyntaxError {
                line: t.line,
                message: format!("expected a name, found '{}'", t.text),
            }),
            None => Err(self.error("expected a name")),
        }
    }

    fn done(&self) -> bool {
        self.i >= self.toks.len()
    }

    /// A node spanning from token `first` to the last token read.
    fn node(&self, kind: ExprKind, first: usize) -> Expr {
        let start_tok = &self.toks[first.min(self.toks.len().saturating_sub(1))];
        let end = self
            .toks
            .get(self.i.saturating_sub(1))
            .map_or(start_tok.end, |t| t.end);
        Expr {
            kind,
            line: start_tok.line,
            start: start_tok.start,
            end: end.max(start_tok.start),
        }
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("too deeply nested"));
        }
        Ok(())
    }

    /// `a, b, *c` as a tuple when there is a comma, else the one expression.
    fn expr_list(&mut self) -> R<Expr> {
        let first = self.i;
        let e = self.star_or_test()?;
        if !self.peek_is(",") {
            return Ok(e);
        }
        let mut items = vec![e];
        while self.eat(",") {
            if self.done() || self.at_list_end() {
                break;
            }
            items.push(self.star_or_test()?);
        }
        Ok(self.node(ExprKind::Tuple(items), first))
    }

    fn at_list_end(&self) -> bool {
        self.peek().is_some_and(|t| {
            [")", "]", "}", "=", ":", "+=", "-=", "*=", "/=", "//="]
                .iter()
                .any(|s| t.is(s))
        })
    }

    fn star_or_test(&mut self) -> R<Expr> {
        if self.peek_is("*") {
            let first = self.i;
            self.next();
            self.or_test()?;
            return Ok(self.node(ExprKind::Opaque, first));
        }
        self.test()
    }

    /// A full expression: a conditional, a lambda, or an `or` test; `:=` is read.
    fn test(&mut self) -> R<Expr> {
        self.deeper()?;
        let first = self.i;
        let result = if self.peek_is("lambda") {
            self.next();
            while !self.done() && !self.peek_is(":") {
                self.next();
            }
            self.expect(":")?;
            self.test()?;
            Ok(self.node(ExprKind::Opaque, first))
        } else {
            let e = self.or_test()?;
            if self.peek_is("if") {
                self.next();
                self.or_test()?;
                self.expect("else")?;
                self.test()?;
                Ok(self.node(ExprKind::Opaque, first))
            } else if self.peek_is(":=") {
                self.next();
                self.test()?;
                Ok(self.node(ExprKind::Opaque, first))
            } else {
                Ok(e)
            }
        };
        self.depth -= 1;
        result
    }

    fn or_test(&mut self) -> R<Expr> {
        let first = self.i;
        let mut e = self.and_test()?;
        while self.eat("or") {
            let r = self.and_test()?;
            e = self.node(
                ExprKind::Binary(BinaryOp::Other, Box::new(e), Box::new(r)),
                first,
            );
        }
        Ok(e)
    }

    fn and_test(&mut self) -> R<Expr> {
        let first = self.i;
        let mut e = self.not_test()?;
        while self.eat("and") {
            let r = self.not_test()?;
            e = self.node(
                ExprKind::Binary(BinaryOp::Other, Box::new(e), Box::new(r)),
                first,
            );
        }
        Ok(e)
    }

    fn not_test(&mut self) -> R<Expr> {
        let first = self.i;
        if self.eat("not") {
            self.deeper()?;
            let e = self.not_test()?;
            self.depth -= 1;
            return Ok(self.node(ExprKind::Unary(UnaryOp::Not, Box::new(e)), first));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> R<Expr> {
        let first = self.i;
        let mut e = self.binary(0)?;
        loop {
            let op = ["<", ">", "==", ">=", "<=", "!=", "in", "is"]
                .iter()
                .any(|o| self.peek_is(o));
            let not_in =
                self.peek_is("not") && self.toks.get(self.i + 1).is_some_and(|t| t.is("in"));
            if !op && !not_in {
                break;
            }
            self.next();
            if not_in || self.peek_is("not") {
                self.eat("not");
                self.eat("in");
            }
            let r = self.binary(0)?;
            e = self.node(
                ExprKind::Binary(BinaryOp::Other, Box::new(e), Box::new(r)),
                first,
            );
        }
        Ok(e)
    }

    /// Binary operators by precedence level: `|`, `^`, `&`, shifts, `+ -`, `* / // % @`.
    fn binary(&mut self, level: usize) -> R<Expr> {
        const LEVELS: [&[&str]; 6] = [
            &["|"],
            &["^"],
            &["&"],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "//", "%", "@"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let first = self.i;
        let mut e = self.binary(level + 1)?;
        while let Some(t) = self
            .peek()
            .filter(|t| t.kind == Kind::Op && LEVELS[level].iter().any(|o| t.text == *o))
        {
            self.next();
            let op = match t.text.as_str() {
                "+" => BinaryOp::Add,
                "-" => BinaryOp::Sub,
                "*" => BinaryOp::Mul,
                "/" => BinaryOp::Div,
                "//" => BinaryOp::FloorDiv,
                "%" => BinaryOp::Mod,
                "@" => BinaryOp::MatMul,
                _ => BinaryOp::Other,
            };
            let r = self.binary(level + 1)?;
            e = self.node(ExprKind::Binary(op, Box::new(e), Box::new(r)), first);
        }
        Ok(e)
    }

    fn unary(&mut self) -> R<Expr> {
        let first = self.i;
        let op = match self.peek() {
            Some(t) if t.is("-") => Some(UnaryOp::Neg),
            Some(t) if t.is("+") => Some(UnaryOp::Pos),
            Some(t) if t.is("~") => Some(UnaryOp::Invert),
            _ => None,
        };
        if let Some(op) = op {
            self.next();
            self.deeper()?;
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(self.node(ExprKind::Unary(op, Box::new(e)), first));
        }
        self.power()
    }

    fn power(&mut self) -> R<Expr> {
        let first = self.i;
        self.eat("await");
        let base = self.primary()?;
        if self.eat("**") {
            self.deeper()?;
            let exp = self.unary()?;
            self.depth -= 1;
            return Ok(self.node(
                ExprKind::Binary(BinaryOp::Pow, Box::new(base), Box::new(exp)),
                first,
            ));
        }
        Ok(base)
    }

    /// An atom followed by calls, attributes and subscripts.
    fn primary(&mut self) -> R<Expr> {
        let first = self.i;
        let mut e = self.atom()?;
        loop {
            if self.eat(".") {
                let name = self.name()?;
                e = self.node(ExprKind::Attr(Box::new(e), name), first);
            } else if self.eat("(") {
                let args = self.arguments()?;
                e = self.node(ExprKind::Call(Box::new(e), args), first);
            } else if self.eat("[") {
                // A plain index (`channels[0]`) is read; a slice or a tuple of them is opaque.
                let index_first = self.i;
                let depth = self.depth;
                let index = match self.test() {
                    Ok(index) if self.peek_is("]") => {
                        self.next();
                        index
                    }
                    _ => {
                        self.i = index_first;
                        self.depth = depth;
                        self.skip_to_close("]")?;
                        self.node(ExprKind::Opaque, index_first)
                    }
                };
                e = self.node(ExprKind::Subscript(Box::new(e), Box::new(index)), first);
            } else {
                return Ok(e);
            }
        }
    }

    /// Skips tokens up to and including the bracket that closes the one just opened (the
    /// lexer has checked that brackets match).
    fn skip_to_close(&mut self, close: &str) -> R<()> {
        let mut depth = 0usize;
        while let Some(t) = self.next() {
            if t.kind != Kind::Op {
                continue;
            }
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" if depth == 0 => {
                    return if t.text == close {
                        Ok(())
                    } else {
                        Err(self.error(format!("expected '{close}'")))
                    };
                }
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        }
        Err(self.error(format!("expected '{close}'")))
    }

    fn arguments(&mut self) -> R<Vec<Arg>> {
        let mut args = Vec::new();
        loop {
            if self.eat(")") {
                return Ok(args);
            }
            let star = if self.eat("**") {
                Star::Double
            } else if self.eat("*") {
                Star::Single
            } else {
                Star::None
            };
            let keyword = star == Star::None
                && self.peek().is_some_and(|t| t.kind == Kind::Name)
                && self.toks.get(self.i + 1).is_some_and(|t| t.is("="));
            let name = if keyword {
                let n = self.name()?;
                self.expect("=")?;
                Some(n)
            } else {
                None
            };
            let value = self.test()?;
            // A generator argument: f(x for x in y).
            if self.peek_is("for") || self.peek_is("async") {
                let first = self.i;
                self.skip_to_close(")")?;
                args.push(Arg {
                    name,
                    star,
                    value: self.node(ExprKind::Opaque, first),
                });
                return Ok(args);
            }
            args.push(Arg { name, star, value });
            if !self.eat(",") {
                self.expect(")")?;
                return Ok(args);
            }
        }
    }

    fn atom(&mut self) -> R<Expr> {
        let first = self.i;
        let Some(t) = self.next() else {
            return Err(self.error("expected an expression at the end of the line"));
        };
        let kind = match t.kind {
            Kind::Number => number(&t.text),
            Kind::Str => {
                let mut value = string_value(&t.text);
                // Adjacent literals concatenate.
                while self.peek().is_some_and(|t| t.kind == Kind::Str) {
                    let more = self.next().map(|t| string_value(&t.text));
                    value = match (value, more) {
                        (Some(a), Some(Some(b))) => Some(a + &b),
                        _ => None,
                    };
                }
                value.map_or(ExprKind::Opaque, ExprKind::Str)
            }
            Kind::Name => match t.text.as_str() {
                "True" => ExprKind::Bool(true),
                "False" => ExprKind::Bool(false),
                "None" => ExprKind::None,
                name if KEYWORDS.contains(&name) => {
                    return Err(SyntaxError {
                        line: t.line,
                        message: format!("invalid syntax: unexpected '{name}'"),
                    });
                }
                name => ExprKind::Name(name.to_string()),
            },
            Kind::Op => match t.text.as_str() {
                "..." => ExprKind::Opaque,
                "(" => {
                    self.deeper()?;
                    let inside = self.inside(")")?;
                    self.depth -= 1;
                    self.expect(")")?;
                    match inside {
                        Inside::Items { mut items, comma } if items.len() == 1 && !comma => {
                            // A parenthesised expression keeps its own kind, spanning the parens.
                            items.remove(0).kind
                        }
                        Inside::Items { items, .. } => ExprKind::Tuple(items),
                        Inside::Comprehension => ExprKind::Opaque,
                    }
                }
                "[" => {
                    self.deeper()?;
                    let inside = self.inside("]")?;
                    self.depth -= 1;
                    self.expect("]")?;
                    match inside {
                        Inside::Items { items, .. } => ExprKind::List(items),
                        Inside::Comprehension => ExprKind::Opaque,
                    }
                }
                "{" => {
                    self.skip_to_close("}")?;
                    ExprKind::Opaque
                }
                other => {
                    return Err(SyntaxError {
                        line: t.line,
                        message: format!("invalid syntax: unexpected '{other}'"),
                    });
                }
            },
        };
        Ok(self.node(kind, first))
    }

    /// The inside of `(...)` or `[...]` up to (not including) `close`: items, or a
    /// comprehension.
    fn inside(&mut self, close: &str) -> R<Inside> {
        if self.peek_is(close) {
            return Ok(Inside::Items {
                items: vec![],
                comma: false,
            });
        }
        let e = self.star_or_test()?;
        if self.peek_is("for") || self.peek_is("async") {
            let mut depth = 0usize;
            while let Some(t) = self.peek() {
                if t.kind == Kind::Op {
                    match t.text.as_str() {
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" if depth == 0 => break,
                        ")" | "]" | "}" => depth -= 1,
                        _ => {}
                    }
                }
                self.next();
            }
            return Ok(Inside::Comprehension);
        }
        let mut items = vec![e];
        let mut comma = false;
        while self.eat(",") {
            comma = true;
            if self.peek_is(close) {
                break;
            }
            items.push(self.star_or_test()?);
        }
        Ok(Inside::Items { items, comma })
    }
}

/// What stands between a pair of brackets.
enum Inside {
    Items { items: Vec<Expr>, comma: bool },
    Comprehension,
}

/// A number literal's value (an int too large for `i64`, or a complex one, is opaque).
fn number(text: &str) -> ExprKind {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    let radix = |prefix: &str, radix: u32| {
        lower
            .strip_prefix(prefix)
            .and_then(|d| i64::from_str_radix(d, radix).ok())
    };
    if lower.ends_with('j') {
        ExprKind::Opaque
    } else if let Some(v) = radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| radix("0b", 2))
    {
        ExprKind::Int(v)
    } else if let Ok(v) = lower.parse::<i64>() {
        ExprKind::Int(v)
    } else if lower.contains(['.', 'e']) {
        lower
            .parse::<f64>()
            .map_or(ExprKind::Opaque, ExprKind::Float)
    } else {
        ExprKind::Opaque
    }
}

/// A string literal's value, or `None` for f-strings and bytes.
fn string_value(text: &str) -> Option<String> {
    let quote_at = text.find(['"', '\''])?;
    let prefix = text[..quote_at].to_ascii_lowercase();
    if prefix.contains(['f', 'b']) {
        return None;
    }
    let body = &text[quote_at..];
    let q = if body.starts_with("\"\"\"") || body.starts_with("'''") {
        3
    } else {
        1
    };
    let inner = body.get(q..body.len().checked_sub(q)?)?;
    if prefix.contains('r') {
        return Some(inner.to_string());
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\n') | None => {}
            Some(other @ ('\\' | '\'' | '"')) => out.push(other),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Some(out)
}

/// One logical line as a statement.
fn statement(toks: &[Token]) -> R<StmtKind> {
    let mut p = P {
        toks,
        i: 0,
        depth: 0,
    };
    let Some(first) = p.peek() else {
        return Ok(StmtKind::Other(String::new()));
    };
    let word = if first.kind == Kind::Name {
        first.text.as_str()
    } else {
        ""
    };
    match word {
        "import" => {
            p.next();
            let mut modules = Vec::new();
            loop {
                let path = dotted(&mut p)?;
                let alias = if p.eat("as") { Some(p.name()?) } else { None };
                modules.push((path, alias));
                if !p.eat(",") {
                    break;
                }
            }
            Ok(StmtKind::Import(modules))
        }
        "from" => {
            p.next();
            while p.eat(".") || p.eat("...") {}
            let module = if p.peek_is("import") {
                vec![]
            } else {
                dotted(&mut p)?
            };
            p.expect("import")?;
            let mut names = Vec::new();
            if p.eat("*") {
                return Ok(StmtKind::FromImport { module, names });
            }
            let paren = p.eat("(");
            loop {
                if paren && p.peek_is(")") {
                    break;
                }
                let name = p.name()?;
                let alias = if p.eat("as") { Some(p.name()?) } else { None };
                names.push((name, alias));
                if !p.eat(",") {
                    break;
                }
            }
            if paren {
                p.expect(")")?;
            }
            Ok(StmtKind::FromImport { module, names })
        }
        "class" => {
            p.next();
            let name = p.name()?;
            let mut bases = Vec::new();
            if p.eat("(") {
                bases = p.arguments()?.into_iter().map(|a| a.value).collect();
            }
            p.expect(":")?;
            Ok(StmtKind::Class { name, bases })
        }
        "def" | "async" => {
            p.next();
            if word == "async" {
                p.expect("def")?;
            }
            let name = p.name()?;
            p.expect("(")?;
            let params = parameters(&mut p)?;
            if p.eat("->") {
                p.test()?;
            }
            p.expect(":")?;
            Ok(StmtKind::Def { name, params })
        }
        "return" => {
            p.next();
            if p.done() {
                return Ok(StmtKind::Return(None));
            }
            let e = p.expr_list()?;
            end(&p)?;
            Ok(StmtKind::Return(Some(e)))
        }
        w if KEYWORDS.contains(&w)
            && !matches!(w, "None" | "True" | "False" | "not" | "lambda" | "await") =>
        {
            Ok(StmtKind::Other(w.to_string()))
        }
        _ if first.is("@") => Ok(StmtKind::Other("@".into())),
        _ => {
            let e = p.expr_list()?;
            if p.done() {
                return Ok(StmtKind::Expr(e));
            }
            if p.peek_is(":") {
                // An annotated assignment: `x: int = 3`.
                p.next();
                p.test()?;
                if p.eat("=") {
                    let value = p.expr_list()?;
                    end(&p)?;
                    return Ok(StmtKind::Assign {
                        targets: vec![e],
                        value,
                    });
                }
                end(&p)?;
                return Ok(StmtKind::Other(":".into()));
            }
            let aug = [
                ("+=", BinaryOp::Add),
                ("-=", BinaryOp::Sub),
                ("*=", BinaryOp::Mul),
                ("/=", BinaryOp::Div),
                ("//=", BinaryOp::FloorDiv),
                ("%=", BinaryOp::Mod),
                ("**=", BinaryOp::Pow),
            ]
            .into_iter()
            .find(|(t, _)| p.peek_is(t));
            if let Some((_, op)) = aug {
                p.next();
                let value = p.expr_list()?;
                end(&p)?;
                return Ok(StmtKind::AugAssign {
                    target: e,
                    op,
                    value,
                });
            }
            let mut targets = vec![e];
            p.expect("=")?;
            let mut value = p.expr_list()?;
            while p.eat("=") {
                targets.push(value);
                value = p.expr_list()?;
            }
            end(&p)?;
            Ok(StmtKind::Assign { targets, value })
        }
    }
}

fn end(p: &P) -> R<()> {
    match p.peek() {
        None => Ok(()),
        Some(t) if t.is(";") => Ok(()),
        Some(t) => Err(SyntaxError {
            line: t.line,
            message: format!("invalid syntax near '{}'", t.text),
        }),
    }
}

fn dotted(p: &mut P) -> R<Vec<String>> {
    let mut path = vec![p.name()?];
    while p.eat(".") {
        path.push(p.name()?);
    }
    Ok(path)
}

/// `(self, a, b=2, *args, c: int = 3, **kw)` after the `(`.
fn parameters(p: &mut P) -> R<Vec<Param>> {
    let mut params = Vec::new();
    loop {
        if p.eat(")") {
            return Ok(params);
        }
        if p.eat("/") || p.eat("*") && p.peek_is(",") {
            p.eat(",");
            continue;
        }
        p.eat("**");
        p.eat("*");
        let name = p.name()?;
        if p.eat(":") {
            p.test()?;
        }
        let default = if p.eat("=") { Some(p.test()?) } else { None };
        params.push(Param { name, default });
        if !p.eat(",") {
            p.expect(")")?;
            return Ok(params);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;

    fn one(src: &str) -> StmtKind {
        let lines = lex(src).unwrap();
        parse(&lines).remove(0).kind
    }

    fn call_args(e: &Expr) -> &[Arg] {
        match &e.kind {
            ExprKind::Call(_, args) => args,
            other => panic!("not a call: {other:?}"),
        }
    }

    #[test]
    fn assignments_calls_and_arguments() {
        let StmtKind::Assign { targets, value } =
            one("self.conv = nn.Conv2d(32, 32, (4, 1), padding=(1, 0), bias=False)")
        else {
            panic!()
        };
        assert!(matches!(&targets[0].kind, ExprKind::Attr(_, n) if n == "conv"));
        let args = call_args(&value);
        assert_eq!(args.len(), 5);
        assert!(matches!(args[2].value.kind, ExprKind::Tuple(ref v) if v.len() == 2));
        assert_eq!(args[3].name.as_deref(), Some("padding"));
        assert_eq!(args[4].value.kind, ExprKind::Bool(false));
        assert_eq!(value.start, 12);
    }

    #[test]
    fn arithmetic_keeps_python_precedence() {
        let StmtKind::Expr(e) = one("-2 ** 2 + ngf * 8 // 2") else {
            panic!()
        };
        let ExprKind::Binary(BinaryOp::Add, l, r) = e.kind else {
            panic!()
        };
        assert!(
            matches!(l.kind, ExprKind::Unary(UnaryOp::Neg, ref x) if matches!(x.kind, ExprKind::Binary(BinaryOp::Pow, ..)))
        );
        assert!(matches!(r.kind, ExprKind::Binary(BinaryOp::FloorDiv, ..)));
    }

    #[test]
    fn python_it_does_not_interpret_is_read_as_opaque() {
        for src in [
            "x = lambda t: t * 2",
            "y = [i for i in range(3) if i]",
            "z = {'a': 1, **kw}",
            "w = a if b else c",
            "v = f'{x}' + b'y'",
            "u = x[1:2, ::3]",
            "layers = nn.Sequential(*blocks)",
            "m = max(p for p in ps)",
        ] {
            assert!(
                matches!(one(src), StmtKind::Assign { .. }),
                "{src}: {:?}",
                one(src)
            );
        }
        assert!(matches!(one("if x > 1:"), StmtKind::Other(w) if w == "if"));
        assert!(matches!(one("@torch.no_grad()"), StmtKind::Other(_)));
        assert!(matches!(
            one("def forward(self, x: torch.Tensor) -> torch.Tensor:"),
            StmtKind::Def { ref params, .. } if params.len() == 2
        ));
        assert!(matches!(
            one("from torch.nn import (Conv2d as C, ReLU)"),
            StmtKind::FromImport { ref names, .. } if names.len() == 2
        ));
    }

    #[test]
    fn a_line_it_cannot_read_says_where() {
        let StmtKind::Unparsed(e) = one("model.add(Conv2D(64 (3, 3)) x)") else {
            panic!()
        };
        assert!(
            e.message.contains("')'") || e.message.contains("invalid"),
            "{e}"
        );
        let deep = format!("x = {}1{}", "(".repeat(500), ")".repeat(500));
        assert!(matches!(one(&deep), StmtKind::Unparsed(_)));
    }
}
