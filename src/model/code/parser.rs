//! Python's grammar, from the lexer's logical lines to the tree in [`super::ast`]: every
//! statement and expression of the language, blocks by indentation, f-strings with their
//! replacement fields parsed, errors in Python's words with the line.
//!
//! Bounded: expressions and blocks nest at most [`MAX_DEPTH`] and [`MAX_BLOCKS`] levels (a
//! chain `1 + 1 + ...` counts its length, as its tree is that deep), so no input can overflow
//! the stack of the parser, of the evaluator that walks the tree, or of the tree's drop.

use std::rc::Rc;

use super::ast::{
    Arg, BinOp, ClassDef, CmpOp, CompKind, Expr, ExprKind, FPart, FunctionDef, Generator, Handler,
    Lambda, Param, ParamKind, Star, Stmt, StmtKind, UnaryOp,
};
use super::lexer::{self, Kind, LogicalLine, SyntaxError, Token};

/// How deep one statement's expressions may nest.
pub const MAX_DEPTH: usize = 100;
/// How deep blocks may nest (Python refuses more than 100 levels of indentation).
pub const MAX_BLOCKS: usize = 100;

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

type R<T> = Result<T, SyntaxError>;

/// Operator precedence, loosest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Or,
    And,
    Not,
    Compare,
    BitOr,
    BitXor,
    BitAnd,
    Shift,
    Arith,
    Term,
    Unary,
}

impl Prec {
    /// The next tighter level (the right operand of a left-associative operator).
    fn next(self) -> Prec {
        match self {
            Prec::Or => Prec::And,
            Prec::And => Prec::Not,
            Prec::Not => Prec::Compare,
            Prec::Compare => Prec::BitOr,
            Prec::BitOr => Prec::BitXor,
            Prec::BitXor => Prec::BitAnd,
            Prec::BitAnd => Prec::Shift,
            Prec::Shift => Prec::Arith,
            Prec::Arith => Prec::Term,
            Prec::Term | Prec::Unary => Prec::Unary,
        }
    }
}

/// An infix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Infix {
    Or,
    And,
    Cmp(CmpOp),
    Bin(BinOp),
}

fn err(line: usize, message: impl Into<String>) -> SyntaxError {
    SyntaxError {
        line,
        message: message.into(),
    }
}

/// Parses a whole paste. A paste indented as a whole (copied out of a function, say) is read
/// at its first line's indentation.
pub fn parse(src: &str) -> R<Vec<Stmt>> {
    parse_from(src, 1)
}

/// Parses a module whose first line is numbered `first`.
pub fn parse_from(src: &str, first: usize) -> R<Vec<Stmt>> {
    let lines = lexer::lex_from(src, first)?;
    let mut p = Lines {
        lines: &lines,
        at: 0,
        blocks: 0,
    };
    let indent = lines.first().map_or(0, |l| l.indent);
    let body = p.block(indent)?;
    if let Some(l) = lines.get(p.at) {
        return Err(err(
            l.line,
            "unindent does not match any outer indentation level",
        ));
    }
    Ok(body)
}

/// Parses one expression (a layer call typed into a field, say).
pub fn parse_expression(src: &str) -> R<Expr> {
    parse_expression_at(src, 1)
}

/// Parses one expression whose text stands on line `first` (Python's `eval` of a string).
pub fn parse_expression_at(src: &str, first: usize) -> R<Expr> {
    let lines = lexer::lex_from(src, first)?;
    let [line] = lines.as_slice() else {
        return Err(err(
            lines.get(1).map_or(1, |l| l.line),
            "expected one expression",
        ));
    };
    let mut p = Tokens::new(&line.tokens, line.line, 0);
    let e = p.testlist_star()?;
    p.end()?;
    Ok(e)
}

/// The statements' logical lines and where the parser stands in them.
struct Lines<'a, 's> {
    lines: &'a [LogicalLine<'s>],
    at: usize,
    blocks: usize,
}

impl<'a, 's> Lines<'a, 's> {
    /// The statements at `indent`, until a line indented less.
    fn block(&mut self, indent: usize) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        while let Some(line) = self.lines.get(self.at) {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return Err(err(line.line, "unexpected indent"));
            }
            self.statement(&mut out)?;
        }
        Ok(out)
    }

    /// The body after a compound statement's header, whose `:` is at token `colon`.
    fn body(&mut self, line: &'a LogicalLine<'s>, colon: usize, what: &str) -> R<Vec<Stmt>> {
        let rest = &line.tokens[colon + 1..];
        if !rest.is_empty() {
            return simple_statements(rest, line, 0);
        }
        match self.lines.get(self.at) {
            Some(next) if next.indent > line.indent => {
                self.blocks += 1;
                if self.blocks > MAX_BLOCKS {
                    return Err(err(next.line, "too many levels of indentation"));
                }
                let body = self.block(next.indent);
                self.blocks -= 1;
                body
            }
            Some(next) => Err(err(
                next.line,
                format!(
                    "expected an indented block after {what} on line {}",
                    line.line
                ),
            )),
            None => Err(err(
                line.line,
                format!(
                    "expected an indented block after {what} on line {}",
                    line.line
                ),
            )),
        }
    }

    /// The next line, when it continues the compound statement at `indent` with `word`
    /// (`elif`, `else`, `except`, `finally`).
    fn continues(&self, indent: usize, word: &str) -> Option<&'a LogicalLine<'s>> {
        self.lines
            .get(self.at)
            .filter(|l| l.indent == indent && l.tokens.first().is_some_and(|t| t.is(word)))
    }

    /// One logical line's statements (and, for a compound statement, its blocks).
    fn statement(&mut self, out: &mut Vec<Stmt>) -> R<()> {
        let line = &self.lines[self.at];
        self.at += 1;
        let toks = &line.tokens;
        let first = &toks[0];
        let stmt = |kind| Stmt {
            kind,
            line: line.line,
            start: first.start,
            end: toks.last().map_or(first.end, |t| t.end),
        };
        let word = if first.kind == Kind::Name || first.kind == Kind::Op {
            first.text
        } else {
            ""
        };
        match word {
            "if" | "while" => {
                let (test, colon) = header(toks, line.line, 1)?;
                let body = self.body(line, colon, &format!("'{word}' statement"))?;
                if word == "while" {
                    let orelse = self.else_block(line)?;
                    out.push(stmt(StmtKind::While { test, body, orelse }));
                    return Ok(());
                }
                let orelse = self.elifs(line)?;
                out.push(stmt(StmtKind::If { test, body, orelse }));
            }
            "for" => {
                let (target, iter, colon) = for_header(toks, line.line, 1)?;
                let body = self.body(line, colon, "'for' statement")?;
                let orelse = self.else_block(line)?;
                out.push(stmt(StmtKind::For {
                    target,
                    iter,
                    body,
                    orelse,
                }));
            }
            "try" => {
                let colon = expect_colon(toks, 1, line.line)?;
                let body = self.body(line, colon, "'try' statement")?;
                let mut handlers = Vec::new();
                while let Some(h) = self.continues(line.indent, "except") {
                    self.at += 1;
                    let mut p = Tokens::new(&h.tokens, h.line, 0);
                    p.i = 1;
                    p.eat("*");
                    let (kind, name) = if p.peek_is(":") {
                        (None, None)
                    } else {
                        let kind = p.test()?;
                        let name = if p.eat("as") { Some(p.name()?) } else { None };
                        (Some(kind), name)
                    };
                    p.expect(":")?;
                    let body = self.body(h, p.i - 1, "'except' statement")?;
                    handlers.push(Handler { kind, name, body });
                }
                let orelse = self.else_block(line)?;
                let finalbody = match self.continues(line.indent, "finally") {
                    Some(f) => {
                        self.at += 1;
                        let colon = expect_colon(&f.tokens, 1, f.line)?;
                        self.body(f, colon, "'finally' statement")?
                    }
                    None => Vec::new(),
                };
                if handlers.is_empty() && finalbody.is_empty() {
                    return Err(err(line.line, "expected 'except' or 'finally' block"));
                }
                out.push(stmt(StmtKind::Try {
                    body,
                    handlers,
                    orelse,
                    finalbody,
                }));
            }
            "with" => {
                let mut p = Tokens::new(toks, line.line, 0);
                p.i = 1;
                let items = p.with_items()?;
                p.expect(":")?;
                let body = self.body(line, p.i - 1, "'with' statement")?;
                out.push(stmt(StmtKind::With { items, body }));
            }
            "def" | "class" | "@" | "async" => {
                let mut decorators = Vec::new();
                let mut header_line = line;
                while header_line.tokens[0].is("@") {
                    let mut p = Tokens::new(&header_line.tokens, header_line.line, 0);
                    p.i = 1;
                    decorators.push(p.named_test()?);
                    p.end()?;
                    header_line = self
                        .lines
                        .get(self.at)
                        .filter(|l| l.indent == line.indent)
                        .ok_or_else(|| {
                            err(
                                header_line.line,
                                "a decorator must come before a 'def' or 'class'",
                            )
                        })?;
                    self.at += 1;
                }
                let toks = &header_line.tokens;
                // A decorated definition starts at its first decorator.
                let definition = |kind| Stmt {
                    kind,
                    line: header_line.line,
                    start: line.tokens[0].start,
                    end: toks.last().map_or(toks[0].end, |t| t.end),
                };
                if toks[0].is("async") {
                    let what = match toks.get(1) {
                        Some(t) if t.is("def") => "an 'async def'",
                        Some(t) if t.is("for") => "an 'async for'",
                        Some(t) if t.is("with") => "an 'async with'",
                        _ => return Err(err(header_line.line, "invalid syntax")),
                    };
                    let colon = last_colon(toks, header_line.line)?;
                    self.body(header_line, colon, "'async' statement")?;
                    out.push(stmt(StmtKind::Unsupported(what)));
                } else if toks[0].is("def") || toks[0].is("class") {
                    let mut p = Tokens::new(toks, header_line.line, 0);
                    p.i = 1;
                    let name = p.name()?;
                    let kind = if toks[0].is("def") {
                        p.expect("(")?;
                        let params = p.params(")", true)?;
                        p.expect(")")?;
                        if p.eat("->") {
                            p.test()?;
                        }
                        p.expect(":")?;
                        let body = self.body(header_line, p.i - 1, "function definition")?;
                        StmtKind::FunctionDef(Rc::new(FunctionDef {
                            name,
                            params,
                            body,
                            decorators,
                            line: header_line.line,
                        }))
                    } else {
                        if p.peek_is("[") {
                            return Err(err(
                                header_line.line,
                                "generic classes (class C[T]) are not read",
                            ));
                        }
                        let bases = if p.eat("(") {
                            let args = p.arguments()?;
                            p.expect(")")?;
                            args
                        } else {
                            Vec::new()
                        };
                        p.expect(":")?;
                        let body = self.body(header_line, p.i - 1, "class definition")?;
                        StmtKind::ClassDef(Rc::new(ClassDef {
                            name,
                            bases,
                            body,
                            decorators,
                            line: header_line.line,
                        }))
                    };
                    out.push(definition(kind));
                } else {
                    return Err(err(header_line.line, "invalid syntax"));
                }
            }
            "elif" | "else" | "except" | "finally" => {
                return Err(err(line.line, "invalid syntax"));
            }
            "match" if is_match_statement(toks) => {
                // `match` blocks are parsed by indentation only: their cases are not run.
                let indent = line.indent;
                while self.lines.get(self.at).is_some_and(|l| l.indent > indent) {
                    self.at += 1;
                }
                out.push(stmt(StmtKind::Unsupported("a 'match' statement")));
            }
            _ => out.extend(simple_statements(toks, line, 0)?),
        }
        Ok(())
    }

    /// `elif` and `else` after an `if` body: the `orelse` block.
    fn elifs(&mut self, line: &'a LogicalLine<'s>) -> R<Vec<Stmt>> {
        if let Some(e) = self.continues(line.indent, "elif") {
            self.at += 1;
            let (test, colon) = header(&e.tokens, e.line, 1)?;
            let body = self.body(e, colon, "'elif' statement")?;
            let orelse = self.elifs(line)?;
            return Ok(vec![Stmt {
                kind: StmtKind::If { test, body, orelse },
                line: e.line,
                start: e.tokens[0].start,
                end: e.tokens.last().map_or(0, |t| t.end),
            }]);
        }
        self.else_block(line)
    }

    fn else_block(&mut self, line: &'a LogicalLine<'s>) -> R<Vec<Stmt>> {
        match self.continues(line.indent, "else") {
            Some(e) => {
                self.at += 1;
                let colon = expect_colon(&e.tokens, 1, e.line)?;
                self.body(e, colon, "'else' statement")
            }
            None => Ok(Vec::new()),
        }
    }
}

/// `match subject:` (a soft keyword: `match = 3` and `match(x)` are ordinary statements; no
/// expression statement ends with a `:`).
fn is_match_statement(toks: &[Token]) -> bool {
    toks.len() > 2
        && toks.last().is_some_and(|t| t.is(":"))
        && !(toks[1].kind == Kind::Op
            && matches!(toks[1].text, "=" | "." | "," | ")" | "]" | ":" | ";")
            || augmented(toks[1].text).is_some())
}

/// The colon expected at token `i`.
fn expect_colon(toks: &[Token], i: usize, line: usize) -> R<usize> {
    match toks.get(i) {
        Some(t) if t.is(":") => Ok(i),
        _ => Err(err(line, "expected ':'")),
    }
}

/// The last top-level `:` of a header line.
fn last_colon(toks: &[Token], line: usize) -> R<usize> {
    let mut depth = 0i64;
    let mut found = None;
    for (i, t) in toks.iter().enumerate() {
        match t.text {
            "(" | "[" | "{" if t.kind == Kind::Op => depth += 1,
            ")" | "]" | "}" if t.kind == Kind::Op => depth -= 1,
            ":" if t.kind == Kind::Op && depth == 0 => found = Some(i),
            _ => {}
        }
    }
    found.ok_or_else(|| err(line, "expected ':'"))
}

/// `if test:` / `while test:`: the test and the colon's index.
fn header(toks: &[Token], line: usize, from: usize) -> R<(Expr, usize)> {
    let mut p = Tokens::new(toks, line, 0);
    p.i = from;
    let test = p.named_test()?;
    p.expect(":")?;
    Ok((test, p.i - 1))
}

/// `for target in iter:`.
fn for_header(toks: &[Token], line: usize, from: usize) -> R<(Expr, Expr, usize)> {
    let mut p = Tokens::new(toks, line, 0);
    p.i = from;
    let target = p.target_list()?;
    p.expect("in")?;
    let iter = p.testlist_star()?;
    p.expect(":")?;
    Ok((target, iter, p.i - 1))
}

/// The simple statements of a line (or of a compound header's rest), split at `;`.
fn simple_statements(toks: &[Token], line: &LogicalLine, depth: usize) -> R<Vec<Stmt>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut brackets = 0i64;
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Op {
            continue;
        }
        match t.text {
            "(" | "[" | "{" => brackets += 1,
            ")" | "]" | "}" => brackets -= 1,
            ";" if brackets == 0 => {
                if i > start {
                    out.push(simple(&toks[start..i], line.line, depth)?);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() {
        out.push(simple(&toks[start..], line.line, depth)?);
    }
    Ok(out)
}

/// One simple statement.
fn simple(toks: &[Token], line: usize, depth: usize) -> R<Stmt> {
    let first = &toks[0];
    let mut p = Tokens::new(toks, first.line.max(line), depth);
    let word = if first.kind == Kind::Name {
        first.text
    } else {
        ""
    };
    let kind = match word {
        "pass" => {
            p.i = 1;
            StmtKind::Pass
        }
        "break" => {
            p.i = 1;
            StmtKind::Break
        }
        "continue" => {
            p.i = 1;
            StmtKind::Continue
        }
        "return" => {
            p.i = 1;
            StmtKind::Return(if p.done() {
                None
            } else {
                Some(p.testlist_star()?)
            })
        }
        "raise" => {
            p.i = 1;
            let e = if p.done() { None } else { Some(p.test()?) };
            if p.eat("from") {
                p.test()?;
            }
            StmtKind::Raise(e)
        }
        "global" | "nonlocal" => {
            p.i = 1;
            let mut names = vec![p.name()?];
            while p.eat(",") {
                names.push(p.name()?);
            }
            if word == "global" {
                StmtKind::Global(names)
            } else {
                StmtKind::Nonlocal(names)
            }
        }
        "del" => {
            p.i = 1;
            let mut targets = vec![p.bitor()?];
            while p.eat(",") {
                if p.done() {
                    break;
                }
                targets.push(p.bitor()?);
            }
            StmtKind::Del(targets)
        }
        "assert" => {
            p.i = 1;
            let test = p.test()?;
            let msg = if p.eat(",") { Some(p.test()?) } else { None };
            StmtKind::Assert(test, msg)
        }
        "import" => {
            p.i = 1;
            let mut items = Vec::new();
            loop {
                let path = p.dotted()?;
                let alias = if p.eat("as") { Some(p.name()?) } else { None };
                items.push((path, alias));
                if !p.eat(",") {
                    break;
                }
            }
            StmtKind::Import(items)
        }
        "from" => {
            p.i = 1;
            let mut level = 0;
            loop {
                if p.eat(".") {
                    level += 1;
                } else if p.eat("...") {
                    level += 3;
                } else {
                    break;
                }
            }
            let module = if p.peek_is("import") {
                Vec::new()
            } else {
                p.dotted()?
            };
            p.expect("import")?;
            let mut names = Vec::new();
            if !p.eat("*") {
                let paren = p.eat("(");
                loop {
                    if paren && p.peek_is(")") {
                        break;
                    }
                    let n = p.name()?;
                    let alias = if p.eat("as") { Some(p.name()?) } else { None };
                    names.push((n, alias));
                    if !p.eat(",") {
                        break;
                    }
                }
                if paren {
                    p.expect(")")?;
                }
            }
            StmtKind::ImportFrom {
                module,
                level,
                names,
            }
        }
        "type"
            if toks.len() > 2
                && toks[1].kind == Kind::Name
                && (toks[2].is("=") || toks[2].is("[")) =>
        {
            p.i = toks.len();
            StmtKind::Unsupported("a 'type' alias")
        }
        _ => expression_statement(&mut p)?,
    };
    p.end()?;
    Ok(Stmt {
        kind,
        line: first.line,
        start: first.start,
        end: toks.last().map_or(first.end, |t| t.end),
    })
}

/// An expression, an assignment (`a = b = c`), an augmented one or an annotated one.
fn expression_statement(p: &mut Tokens) -> R<StmtKind> {
    let first = p.testlist_star_or_yield()?;
    if p.eat("=") {
        let mut targets = vec![first];
        let mut value = p.testlist_star_or_yield()?;
        while p.eat("=") {
            targets.push(value);
            value = p.testlist_star_or_yield()?;
        }
        for t in &targets {
            check_target(t, false)?;
        }
        return Ok(StmtKind::Assign { targets, value });
    }
    if let Some(op) = p.peek().and_then(|t| augmented(t.text)) {
        p.i += 1;
        check_target(&first, true)?;
        let value = p.testlist_star_or_yield()?;
        return Ok(StmtKind::AugAssign {
            target: first,
            op,
            value,
        });
    }
    if p.eat(":") {
        p.test()?;
        check_target(&first, true)?;
        let value = if p.eat("=") {
            Some(p.testlist_star_or_yield()?)
        } else {
            None
        };
        return Ok(StmtKind::AnnAssign {
            target: first,
            value,
        });
    }
    Ok(StmtKind::Expr(first))
}

fn augmented(op: &str) -> Option<BinOp> {
    Some(match op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "//=" => BinOp::FloorDiv,
        "%=" => BinOp::Mod,
        "**=" => BinOp::Pow,
        "@=" => BinOp::MatMul,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "&=" => BinOp::BitAnd,
        "<<=" => BinOp::LShift,
        ">>=" => BinOp::RShift,
        _ => return None,
    })
}

/// Whether `e` can be assigned to (`single`: no tuple or starred target).
fn check_target(e: &Expr, single: bool) -> R<()> {
    match &e.kind {
        ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Subscript(..) => Ok(()),
        ExprKind::Tuple(items) | ExprKind::List(items) if !single => {
            items.iter().try_for_each(|i| check_target(i, false))
        }
        ExprKind::Starred(inner) if !single => check_target(inner, false),
        ExprKind::Call(..) => Err(err(e.line, "cannot assign to function call")),
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) => {
            Err(err(e.line, "cannot assign to literal"))
        }
        _ => Err(err(e.line, "cannot assign to expression")),
    }
}

/// A parser over one logical line's tokens.
struct Tokens<'a> {
    toks: &'a [Token<'a>],
    i: usize,
    line: usize,
    depth: usize,
}

impl<'a> Tokens<'a> {
    fn new(toks: &'a [Token<'a>], line: usize, depth: usize) -> Self {
        Tokens {
            toks,
            i: 0,
            line,
            depth,
        }
    }

    fn peek(&self) -> Option<&'a Token<'a>> {
        self.toks.get(self.i)
    }

    fn peek_at(&self, k: usize) -> Option<&'a Token<'a>> {
        self.toks.get(self.i + k)
    }

    fn peek_is(&self, text: &str) -> bool {
        self.peek().is_some_and(|t| t.is(text))
    }

    fn done(&self) -> bool {
        self.i >= self.toks.len()
    }

    fn here(&self) -> usize {
        self.peek()
            .or_else(|| self.toks.last())
            .map_or(self.line, |t| t.line)
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        err(self.here(), message)
    }

    fn eat(&mut self, text: &str) -> bool {
        if self.peek_is(text) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, text: &str) -> R<()> {
        if self.eat(text) {
            return Ok(());
        }
        Err(match self.peek() {
            Some(t) => self.error(format!("expected '{text}', found '{}'", t.text)),
            None => self.error(format!("expected '{text}'")),
        })
    }

    /// Nothing may follow.
    fn end(&self) -> R<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("invalid syntax")),
        }
    }

    fn name(&mut self) -> R<String> {
        match self.peek() {
            Some(t) if t.kind == Kind::Name && !KEYWORDS.contains(&t.text) => {
                self.i += 1;
                Ok(t.text.to_string())
            }
            Some(t) => Err(self.error(format!("expected a name, found '{}'", t.text))),
            None => Err(self.error("expected a name")),
        }
    }

    fn dotted(&mut self) -> R<Vec<String>> {
        let mut path = vec![self.name()?];
        while self.eat(".") {
            path.push(self.name()?);
        }
        Ok(path)
    }

    /// Enters one nesting level.
    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!(
                "too deeply nested: padlab reads expressions up to {MAX_DEPTH} levels deep"
            )));
        }
        Ok(())
    }

    /// An expression node from token `first` to the last one read.
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

    fn at_expression_end(&self) -> bool {
        match self.peek() {
            None => true,
            Some(t) if t.kind == Kind::Op => matches!(
                t.text,
                ")" | "]"
                    | "}"
                    | "="
                    | ":"
                    | ";"
                    | "+="
                    | "-="
                    | "*="
                    | "/="
                    | "//="
                    | "%="
                    | "**="
                    | "@="
                    | "|="
                    | "^="
                    | "&="
                    | "<<="
                    | ">>="
                    | ":="
            ),
            Some(t) => t.is("for") || t.is("in") || t.is("async"),
        }
    }

    /// `a, *b, c` (a tuple when there is a comma).
    fn testlist_star(&mut self) -> R<Expr> {
        let first = self.i;
        let e = self.star_or_named()?;
        if !self.peek_is(",") {
            return Ok(e);
        }
        let mut items = vec![e];
        while self.eat(",") {
            if self.at_expression_end() {
                break;
            }
            items.push(self.star_or_named()?);
        }
        Ok(self.node(ExprKind::Tuple(items), first))
    }

    fn testlist_star_or_yield(&mut self) -> R<Expr> {
        if self.peek_is("yield") {
            return self.yield_expr();
        }
        self.testlist_star()
    }

    fn yield_expr(&mut self) -> R<Expr> {
        let first = self.i;
        self.expect("yield")?;
        let from = self.eat("from");
        let value = if self.at_expression_end() {
            None
        } else {
            Some(Box::new(self.testlist_star()?))
        };
        let what = if from { "'yield from'" } else { "'yield'" };
        Ok(self.node(ExprKind::Unsupported(what, value), first))
    }

    fn star_or_named(&mut self) -> R<Expr> {
        if self.peek_is("*") {
            let first = self.i;
            self.i += 1;
            let inner = self.bitor()?;
            return Ok(self.node(ExprKind::Starred(Box::new(inner)), first));
        }
        self.named_test()
    }

    /// `test` or `name := test`.
    fn named_test(&mut self) -> R<Expr> {
        let first = self.i;
        if self.peek().is_some_and(|t| t.kind == Kind::Name)
            && self.peek_at(1).is_some_and(|t| t.is(":="))
        {
            let name = self.name()?;
            self.i += 1;
            let value = self.test()?;
            return Ok(self.node(ExprKind::Named(name, Box::new(value)), first));
        }
        self.test()
    }

    /// A full expression: a conditional, or a lambda.
    fn test(&mut self) -> R<Expr> {
        let first = self.i;
        if self.peek_is("lambda") {
            self.deeper()?;
            let out = self.lambda(true);
            self.depth -= 1;
            return out;
        }
        let body = self.climb(Prec::Or)?;
        if self.peek_is("if") && !self.at_comprehension_if() {
            self.i += 1;
            self.deeper()?;
            let test = self.climb(Prec::Or)?;
            self.expect("else")?;
            let orelse = self.test()?;
            self.depth -= 1;
            return Ok(self.node(
                ExprKind::IfExp {
                    test: Box::new(test),
                    body: Box::new(body),
                    orelse: Box::new(orelse),
                },
                first,
            ));
        }
        Ok(body)
    }

    /// Inside a comprehension, `x for x in y if c` reads `if` as the filter; a conditional
    /// expression's `if` always has an `else` after it.
    fn at_comprehension_if(&self) -> bool {
        let mut depth = 0i64;
        for t in &self.toks[self.i + 1..] {
            if t.kind == Kind::Op {
                match t.text {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" if depth == 0 => return true,
                    ")" | "]" | "}" => depth -= 1,
                    "," if depth == 0 => return true,
                    _ => {}
                }
            } else if depth == 0 && t.is("else") {
                return false;
            } else if depth == 0 && (t.is("for") || t.is("if")) {
                return true;
            }
        }
        true
    }

    fn lambda(&mut self, conditional: bool) -> R<Expr> {
        let first = self.i;
        self.expect("lambda")?;
        let params = self.params(":", false)?;
        self.expect(":")?;
        let body = if conditional {
            self.test()?
        } else {
            self.climb(Prec::Or)?
        };
        Ok(self.node(ExprKind::Lambda(Rc::new(Lambda { params, body })), first))
    }

    /// `a | b` and tighter: what comprehension targets and `del` read.
    fn bitor(&mut self) -> R<Expr> {
        self.climb(Prec::BitOr)
    }

    /// The operator at the cursor, when it binds at `min` or tighter.
    fn infix(&self, min: Prec) -> Option<(Infix, Prec, usize)> {
        let t = self.peek()?;
        let (op, prec, width) = match (t.kind, t.text) {
            (Kind::Name, "or") => (Infix::Or, Prec::Or, 1),
            (Kind::Name, "and") => (Infix::And, Prec::And, 1),
            (Kind::Name, "in") => (Infix::Cmp(CmpOp::In), Prec::Compare, 1),
            (Kind::Name, "is") if self.peek_at(1).is_some_and(|n| n.is("not")) => {
                (Infix::Cmp(CmpOp::IsNot), Prec::Compare, 2)
            }
            (Kind::Name, "is") => (Infix::Cmp(CmpOp::Is), Prec::Compare, 1),
            (Kind::Name, "not") if self.peek_at(1).is_some_and(|n| n.is("in")) => {
                (Infix::Cmp(CmpOp::NotIn), Prec::Compare, 2)
            }
            (Kind::Op, op) => match op {
                "==" => (Infix::Cmp(CmpOp::Eq), Prec::Compare, 1),
                "!=" => (Infix::Cmp(CmpOp::NotEq), Prec::Compare, 1),
                "<" => (Infix::Cmp(CmpOp::Lt), Prec::Compare, 1),
                "<=" => (Infix::Cmp(CmpOp::LtE), Prec::Compare, 1),
                ">" => (Infix::Cmp(CmpOp::Gt), Prec::Compare, 1),
                ">=" => (Infix::Cmp(CmpOp::GtE), Prec::Compare, 1),
                "|" => (Infix::Bin(BinOp::BitOr), Prec::BitOr, 1),
                "^" => (Infix::Bin(BinOp::BitXor), Prec::BitXor, 1),
                "&" => (Infix::Bin(BinOp::BitAnd), Prec::BitAnd, 1),
                "<<" => (Infix::Bin(BinOp::LShift), Prec::Shift, 1),
                ">>" => (Infix::Bin(BinOp::RShift), Prec::Shift, 1),
                "+" => (Infix::Bin(BinOp::Add), Prec::Arith, 1),
                "-" => (Infix::Bin(BinOp::Sub), Prec::Arith, 1),
                "*" => (Infix::Bin(BinOp::Mul), Prec::Term, 1),
                "/" => (Infix::Bin(BinOp::Div), Prec::Term, 1),
                "//" => (Infix::Bin(BinOp::FloorDiv), Prec::Term, 1),
                "%" => (Infix::Bin(BinOp::Mod), Prec::Term, 1),
                "@" => (Infix::Bin(BinOp::MatMul), Prec::Term, 1),
                _ => return None,
            },
            _ => return None,
        };
        (prec >= min).then_some((op, prec, width))
    }

    /// Precedence climbing over every operator from `or` to `**`: one loop per level instead
    /// of one function per level, so a nesting level costs few stack frames.
    fn climb(&mut self, min: Prec) -> R<Expr> {
        let first = self.i;
        let mut left = self.prefix(min)?;
        let mut chain = 0;
        // What this loop built last, so `a < b < c` and `a and b and c` stay one node each.
        let mut built: Option<Infix> = None;
        while let Some((op, prec, width)) = self.infix(min) {
            chain += 1;
            if self.depth + chain > MAX_DEPTH {
                return Err(self.error(format!(
                    "too deeply nested: padlab reads expressions up to {MAX_DEPTH} levels deep"
                )));
            }
            self.i += width;
            let continues = |b: Option<Infix>| match (b, op) {
                (Some(Infix::Cmp(_)), Infix::Cmp(_)) => true,
                (Some(x), y) => x == y && matches!(y, Infix::And | Infix::Or),
                _ => false,
            };
            let kind = match op {
                Infix::Bin(b) => {
                    let right = self.climb(prec.next())?;
                    ExprKind::Binary(b, Box::new(left), Box::new(right))
                }
                Infix::Cmp(c) => {
                    let right = self.climb(Prec::BitOr)?;
                    match left.kind {
                        ExprKind::Compare(l, mut ops) if continues(built) => {
                            ops.push((c, right));
                            ExprKind::Compare(l, ops)
                        }
                        kind => {
                            ExprKind::Compare(Box::new(Expr { kind, ..left }), vec![(c, right)])
                        }
                    }
                }
                Infix::And | Infix::Or => {
                    let right = self.climb(prec.next())?;
                    let mut items = match left.kind {
                        ExprKind::And(v) | ExprKind::Or(v) if continues(built) => v,
                        kind => vec![Expr { kind, ..left }],
                    };
                    items.push(right);
                    if op == Infix::And {
                        ExprKind::And(items)
                    } else {
                        ExprKind::Or(items)
                    }
                }
            };
            built = Some(op);
            left = self.node(kind, first);
        }
        Ok(left)
    }

    /// A prefix operator (`not`, `-`, `+`, `~`) and what it applies to, or a power.
    fn prefix(&mut self, min: Prec) -> R<Expr> {
        let first = self.i;
        let op = match self.peek() {
            Some(t) if t.is("not") && min <= Prec::Not => Some((UnaryOp::Not, Prec::Not)),
            Some(t) if t.is("-") => Some((UnaryOp::Neg, Prec::Unary)),
            Some(t) if t.is("+") => Some((UnaryOp::Pos, Prec::Unary)),
            Some(t) if t.is("~") => Some((UnaryOp::Invert, Prec::Unary)),
            _ => None,
        };
        let Some((op, prec)) = op else {
            return self.power();
        };
        self.i += 1;
        self.deeper()?;
        let inner = self.climb(prec)?;
        self.depth -= 1;
        // A negative number literal is a literal (so `-1` is an int, not an operation).
        let kind = match (op, &inner.kind) {
            (UnaryOp::Neg, ExprKind::Int(v)) if *v != i64::MIN => ExprKind::Int(-v),
            (UnaryOp::Neg, ExprKind::Float(v)) => ExprKind::Float(-v),
            _ => ExprKind::Unary(op, Box::new(inner)),
        };
        Ok(self.node(kind, first))
    }

    fn power(&mut self) -> R<Expr> {
        let first = self.i;
        let base = if self.peek_is("await") {
            self.i += 1;
            let inner = self.primary()?;
            self.node(
                ExprKind::Unsupported("'await'", Some(Box::new(inner))),
                first,
            )
        } else {
            self.primary()?
        };
        if self.eat("**") {
            self.deeper()?;
            let exp = self.climb(Prec::Unary)?;
            self.depth -= 1;
            return Ok(self.node(
                ExprKind::Binary(BinOp::Pow, Box::new(base), Box::new(exp)),
                first,
            ));
        }
        Ok(base)
    }

    /// An atom and its trailers: `.name`, `(args)`, `[index]`.
    fn primary(&mut self) -> R<Expr> {
        let first = self.i;
        let mut e = self.atom()?;
        let mut chain = 0;
        loop {
            if self.eat(".") {
                let name = self.name()?;
                e = self.node(ExprKind::Attr(Box::new(e), name), first);
            } else if self.eat("(") {
                self.deeper()?;
                let args = self.arguments()?;
                self.depth -= 1;
                self.expect(")")?;
                e = self.node(ExprKind::Call(Box::new(e), args), first);
            } else if self.eat("[") {
                self.deeper()?;
                let index = self.subscripts()?;
                self.depth -= 1;
                self.expect("]")?;
                e = self.node(ExprKind::Subscript(Box::new(e), Box::new(index)), first);
            } else {
                break;
            }
            chain += 1;
            if self.depth + chain > MAX_DEPTH {
                return Err(self.error(format!(
                    "too deeply nested: padlab reads expressions up to {MAX_DEPTH} levels deep"
                )));
            }
        }
        Ok(e)
    }

    /// Call arguments up to (not including) the `)`.
    fn arguments(&mut self) -> R<Vec<Arg>> {
        let mut args = Vec::new();
        while !self.peek_is(")") {
            if self.done() {
                return Err(self.error("expected ')'"));
            }
            let arg = if self.eat("*") {
                Arg {
                    name: None,
                    star: Star::Single,
                    value: self.test()?,
                }
            } else if self.eat("**") {
                Arg {
                    name: None,
                    star: Star::Double,
                    value: self.test()?,
                }
            } else if self.peek().is_some_and(|t| t.kind == Kind::Name)
                && self.peek_at(1).is_some_and(|t| t.is("="))
            {
                let name = self.name()?;
                self.i += 1;
                Arg {
                    name: Some(name),
                    star: Star::None,
                    value: self.test()?,
                }
            } else {
                let first = self.i;
                let value = self.named_test()?;
                let value = if self.at_for() {
                    self.comprehension_of(CompKind::Generator, value, None, None, first)?
                } else {
                    value
                };
                Arg {
                    name: None,
                    star: Star::None,
                    value,
                }
            };
            args.push(arg);
            if !self.eat(",") {
                break;
            }
        }
        Ok(args)
    }

    /// `x[i]`, `x[a:b:c]`, `x[:, 0]`, `x[..., None]`: one index or a tuple of them.
    fn subscripts(&mut self) -> R<Expr> {
        let first = self.i;
        let one = self.subscript()?;
        if !self.peek_is(",") {
            return Ok(one);
        }
        let mut items = vec![one];
        while self.eat(",") {
            if self.peek_is("]") {
                break;
            }
            items.push(self.subscript()?);
        }
        Ok(self.node(ExprKind::Tuple(items), first))
    }

    fn subscript(&mut self) -> R<Expr> {
        let first = self.i;
        if self.peek_is("*") {
            return self.star_or_named();
        }
        let lower = if self.peek_is(":") {
            None
        } else {
            let e = self.named_test()?;
            if !self.peek_is(":") {
                return Ok(e);
            }
            Some(Box::new(e))
        };
        self.expect(":")?;
        let bound = |p: &mut Self| -> R<Option<Box<Expr>>> {
            if p.peek_is(":") || p.peek_is(",") || p.peek_is("]") {
                Ok(None)
            } else {
                Ok(Some(Box::new(p.test()?)))
            }
        };
        let upper = bound(self)?;
        let step = if self.eat(":") { bound(self)? } else { None };
        Ok(self.node(ExprKind::Slice { lower, upper, step }, first))
    }

    /// `for t in it if c ...` clauses (the first `for` not yet read).
    fn comprehension(&mut self) -> R<Vec<Generator>> {
        let mut out = Vec::new();
        while self.at_for() {
            self.eat("async");
            self.expect("for")?;
            let target = self.target_list()?;
            self.expect("in")?;
            let iter = self.climb(Prec::Or)?;
            let mut ifs = Vec::new();
            while self.eat("if") {
                ifs.push(if self.peek_is("lambda") {
                    self.lambda(false)?
                } else {
                    self.climb(Prec::Or)?
                });
            }
            out.push(Generator { target, iter, ifs });
        }
        Ok(out)
    }

    /// A `for` target: `x`, `i, (a, b)`, `*rest`.
    fn target_list(&mut self) -> R<Expr> {
        let first = self.i;
        let one = |p: &mut Self| -> R<Expr> {
            if p.peek_is("*") {
                let f = p.i;
                p.i += 1;
                let inner = p.bitor()?;
                return Ok(p.node(ExprKind::Starred(Box::new(inner)), f));
            }
            p.bitor()
        };
        let e = one(self)?;
        if !self.peek_is(",") {
            check_target(&e, false)?;
            return Ok(e);
        }
        let mut items = vec![e];
        while self.eat(",") {
            if self.peek_is("in") || self.peek_is("=") {
                break;
            }
            items.push(one(self)?);
        }
        let t = self.node(ExprKind::Tuple(items), first);
        check_target(&t, false)?;
        Ok(t)
    }

    /// `with a as b, (c as d):` items.
    fn with_items(&mut self) -> R<Vec<(Expr, Option<Expr>)>> {
        // Parenthesized items: `with (a as b, c):`; otherwise a plain list.
        let parenthesized = self.peek_is("(") && {
            let mut depth = 0i64;
            let mut close = None;
            for (k, t) in self.toks[self.i..].iter().enumerate() {
                match t.text {
                    "(" | "[" | "{" if t.kind == Kind::Op => depth += 1,
                    ")" | "]" | "}" if t.kind == Kind::Op => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(self.i + k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            close.is_some_and(|c| {
                self.toks.get(c + 1).is_some_and(|t| t.is(":"))
                    && self.toks[self.i..c].iter().any(|t| t.is("as"))
            })
        };
        if parenthesized {
            self.i += 1;
        }
        let mut items = Vec::new();
        loop {
            let ctx = self.test()?;
            let target = if self.eat("as") {
                // One target (a tuple only in parentheses): `with a as b, c as d`.
                let t = self.bitor()?;
                check_target(&t, false)?;
                Some(t)
            } else {
                None
            };
            items.push((ctx, target));
            if !self.eat(",") || (parenthesized && self.peek_is(")")) {
                break;
            }
        }
        if parenthesized {
            self.expect(")")?;
        }
        Ok(items)
    }

    /// Parameters up to `close` (`)` for a def, `:` for a lambda); `annotated`: a def's
    /// parameters may carry `: annotation`.
    fn params(&mut self, close: &str, annotated: bool) -> R<Vec<Param>> {
        let mut out: Vec<Param> = Vec::new();
        let mut kind = ParamKind::Normal;
        while !self.peek_is(close) {
            if self.done() {
                return Err(self.error(format!("expected '{close}'")));
            }
            if self.eat("/") {
                for p in &mut out {
                    p.kind = ParamKind::PositionalOnly;
                }
            } else if self.eat("**") {
                let name = self.name()?;
                if annotated && self.eat(":") {
                    self.test()?;
                }
                out.push(Param {
                    name,
                    kind: ParamKind::VarKeywords,
                    default: None,
                });
            } else if self.eat("*") {
                kind = ParamKind::KeywordOnly;
                if !self.peek_is(",") && !self.peek_is(close) {
                    let name = self.name()?;
                    if annotated && self.eat(":") {
                        self.test()?;
                    }
                    out.push(Param {
                        name,
                        kind: ParamKind::VarArgs,
                        default: None,
                    });
                }
            } else {
                let name = self.name()?;
                if annotated && self.eat(":") {
                    self.test()?;
                }
                let default = if self.eat("=") {
                    Some(self.test()?)
                } else {
                    None
                };
                if default.is_none()
                    && kind == ParamKind::Normal
                    && out
                        .iter()
                        .any(|p| p.default.is_some() && p.kind == ParamKind::Normal)
                {
                    return Err(
                        self.error("parameter without a default follows parameter with a default")
                    );
                }
                out.push(Param {
                    name,
                    kind,
                    default,
                });
            }
            if !self.eat(",") {
                break;
            }
        }
        let mut seen = std::collections::HashSet::new();
        for p in &out {
            if !seen.insert(p.name.as_str()) {
                return Err(self.error(format!(
                    "duplicate argument '{}' in function definition",
                    p.name
                )));
            }
        }
        Ok(out)
    }

    fn atom(&mut self) -> R<Expr> {
        let first = self.i;
        let Some(t) = self.peek() else {
            return Err(self.error("invalid syntax"));
        };
        match t.kind {
            Kind::Number => {
                self.i += 1;
                Ok(self.node(number(t.text), first))
            }
            Kind::Str => {
                let mut parts: Vec<&Token> = Vec::new();
                while let Some(s) = self.peek().filter(|s| s.kind == Kind::Str) {
                    parts.push(s);
                    self.i += 1;
                }
                let kind = self.strings(&parts)?;
                Ok(self.node(kind, first))
            }
            Kind::Name => match t.text {
                "True" | "False" | "None" => {
                    self.i += 1;
                    Ok(self.node(
                        match t.text {
                            "True" => ExprKind::Bool(true),
                            "False" => ExprKind::Bool(false),
                            _ => ExprKind::None,
                        },
                        first,
                    ))
                }
                w if KEYWORDS.contains(&w) => Err(self.error("invalid syntax")),
                _ => {
                    self.i += 1;
                    Ok(self.node(ExprKind::Name(t.text.to_string()), first))
                }
            },
            Kind::Op => match t.text {
                "..." => {
                    self.i += 1;
                    Ok(self.node(ExprKind::Ellipsis, first))
                }
                "(" => {
                    self.i += 1;
                    self.deeper()?;
                    let e = self.parenthesized(first)?;
                    self.depth -= 1;
                    Ok(e)
                }
                "[" => {
                    self.i += 1;
                    self.deeper()?;
                    let e = self.bracketed("]", first)?;
                    self.depth -= 1;
                    Ok(e)
                }
                "{" => {
                    self.i += 1;
                    self.deeper()?;
                    let e = self.braced(first)?;
                    self.depth -= 1;
                    Ok(e)
                }
                other => Err(self.error(format!("invalid syntax: unexpected '{other}'"))),
            },
        }
    }

    /// After `(`: `()`, `(x)`, `(x,)`, `(a, b)`, `(x for ...)`, `(yield)`.
    fn parenthesized(&mut self, first: usize) -> R<Expr> {
        if self.eat(")") {
            return Ok(self.node(ExprKind::Tuple(Vec::new()), first));
        }
        if self.peek_is("yield") {
            let e = self.yield_expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        let e = self.star_or_named()?;
        if self.at_for() {
            return self.comprehension_of(CompKind::Generator, e, None, Some(")"), first);
        }
        if self.eat(")") {
            if matches!(e.kind, ExprKind::Starred(_)) {
                return Err(self.error("cannot use starred expression here"));
            }
            // The parentheses are part of the expression as written.
            let mut e = e;
            e.start = self.toks[first].start;
            e.end = self.toks[self.i - 1].end;
            return Ok(e);
        }
        let mut items = vec![e];
        while self.eat(",") {
            if self.peek_is(")") {
                break;
            }
            items.push(self.star_or_named()?);
        }
        self.expect(")")?;
        Ok(self.node(ExprKind::Tuple(items), first))
    }

    /// At a comprehension's `for` (or `async for`) after its element.
    fn at_for(&self) -> bool {
        self.peek_is("for") || self.peek_is("async")
    }

    /// The comprehension of `kind` after its element (and a dict's value), then `close` where
    /// it has brackets of its own (a call's lone generator argument has not).
    fn comprehension_of(
        &mut self,
        kind: CompKind,
        elt: Expr,
        value: Option<Expr>,
        close: Option<&str>,
        first: usize,
    ) -> R<Expr> {
        let generators = self.comprehension()?;
        if let Some(close) = close {
            self.expect(close)?;
        }
        Ok(self.node(
            ExprKind::Comp {
                kind,
                elt: Box::new(elt),
                value: value.map(Box::new),
                generators,
            },
            first,
        ))
    }

    /// After `[`: a list or a list comprehension.
    fn bracketed(&mut self, close: &str, first: usize) -> R<Expr> {
        if self.eat(close) {
            return Ok(self.node(ExprKind::List(Vec::new()), first));
        }
        let e = self.star_or_named()?;
        if self.at_for() {
            return self.comprehension_of(CompKind::List, e, None, Some(close), first);
        }
        let mut items = vec![e];
        while self.eat(",") {
            if self.peek_is(close) {
                break;
            }
            items.push(self.star_or_named()?);
        }
        self.expect(close)?;
        Ok(self.node(ExprKind::List(items), first))
    }

    /// After `{`: a dict, a set, or their comprehensions.
    fn braced(&mut self, first: usize) -> R<Expr> {
        if self.eat("}") {
            return Ok(self.node(ExprKind::Dict(Vec::new()), first));
        }
        let dict_item = |p: &mut Self| -> R<(Option<Expr>, Expr)> {
            if p.eat("**") {
                return Ok((None, p.bitor()?));
            }
            let k = p.test()?;
            p.expect(":")?;
            Ok((Some(k), p.test()?))
        };
        let is_dict = self.peek_is("**") || {
            // A dict when a top-level ':' follows the first item.
            let mut depth = 0i64;
            let mut found = false;
            for t in &self.toks[self.i..] {
                if t.kind != Kind::Op {
                    if depth == 0 && t.is("lambda") {
                        break;
                    }
                    continue;
                }
                match t.text {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" if depth == 0 => break,
                    ")" | "]" | "}" => depth -= 1,
                    "," if depth == 0 => break,
                    ":" if depth == 0 => {
                        found = true;
                        break;
                    }
                    _ => {}
                }
            }
            found
        };
        if is_dict {
            let (k, v) = dict_item(self)?;
            if let (Some(k), true) = (&k, self.at_for()) {
                return self.comprehension_of(CompKind::Dict, k.clone(), Some(v), Some("}"), first);
            }
            let mut items = vec![(k, v)];
            while self.eat(",") {
                if self.peek_is("}") {
                    break;
                }
                items.push(dict_item(self)?);
            }
            self.expect("}")?;
            return Ok(self.node(ExprKind::Dict(items), first));
        }
        let e = self.star_or_named()?;
        if self.at_for() {
            return self.comprehension_of(CompKind::Set, e, None, Some("}"), first);
        }
        let mut items = vec![e];
        while self.eat(",") {
            if self.peek_is("}") {
                break;
            }
            items.push(self.star_or_named()?);
        }
        self.expect("}")?;
        Ok(self.node(ExprKind::Set(items), first))
    }

    /// Adjacent string literals, concatenated: plain, bytes or f-strings.
    fn strings(&mut self, parts: &[&Token]) -> R<ExprKind> {
        let mut out: Vec<FPart> = Vec::new();
        let mut formatted = false;
        let mut bytes = false;
        for t in parts {
            let lit = literal(t.text).ok_or_else(|| err(t.line, "invalid string literal"))?;
            bytes |= lit.bytes;
            if lit.formatted {
                formatted = true;
                let mut sub = FString {
                    body: lit.body,
                    raw: lit.raw,
                    line: t.line,
                    depth: self.depth,
                };
                out.extend(sub.parts()?);
            } else {
                out.push(FPart::Text(unescape(lit.body, lit.raw)));
            }
        }
        if formatted {
            return Ok(ExprKind::FString(merge_text(out)));
        }
        let text: String = out
            .into_iter()
            .map(|p| match p {
                FPart::Text(s) => s,
                FPart::Field { .. } => String::new(),
            })
            .collect();
        Ok(if bytes {
            ExprKind::Bytes(text)
        } else {
            ExprKind::Str(text)
        })
    }
}

/// Joins adjacent text parts.
fn merge_text(parts: Vec<FPart>) -> Vec<FPart> {
    let mut out: Vec<FPart> = Vec::with_capacity(parts.len());
    for p in parts {
        match (out.last_mut(), p) {
            (Some(FPart::Text(a)), FPart::Text(b)) => a.push_str(&b),
            (_, p) => out.push(p),
        }
    }
    out
}

/// A string literal's parts: prefix flags and the text between the quotes.
struct Literal<'a> {
    raw: bool,
    bytes: bool,
    formatted: bool,
    body: &'a str,
}

fn literal(text: &str) -> Option<Literal<'_>> {
    let q = text.find(['\'', '"'])?;
    let prefix = text[..q].to_ascii_lowercase();
    let rest = &text[q..];
    let quote = rest.chars().next()?;
    let triple: String = std::iter::repeat_n(quote, 3).collect();
    let body = if rest.len() >= 6 && rest.starts_with(&triple) && rest.ends_with(&triple) {
        &rest[3..rest.len() - 3]
    } else if rest.len() >= 2 {
        &rest[1..rest.len() - 1]
    } else {
        return None;
    };
    Some(Literal {
        raw: prefix.contains('r'),
        bytes: prefix.contains('b'),
        formatted: prefix.contains('f'),
        body,
    })
}

/// A string's escapes read (`\n`, `\t`, `\\`, `\'`, `\xNN`, `\uNNNN`, a backslash-newline).
fn unescape(body: &str, raw: bool) -> String {
    if raw || !body.contains('\\') {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('a') => out.push('\x07'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0c'),
            Some('v') => out.push('\x0b'),
            Some('\n') => {}
            Some(k @ ('x' | 'u' | 'U')) => {
                let n = match k {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = (0..n).filter_map(|_| chars.next()).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push('\\');
                        out.push(k);
                        out.push_str(&hex);
                    }
                }
            }
            Some(other @ ('\\' | '\'' | '"')) => out.push(other),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// An f-string body being read into parts.
struct FString<'a> {
    body: &'a str,
    raw: bool,
    line: usize,
    depth: usize,
}

impl FString<'_> {
    fn parts(&mut self) -> R<Vec<FPart>> {
        if self.depth > MAX_DEPTH {
            return Err(err(self.line, "too deeply nested f-strings"));
        }
        let mut out = Vec::new();
        let mut text = String::new();
        let b = self.body.as_bytes();
        let mut i = 0;
        let mut literal_start = 0;
        while i < b.len() {
            match b[i] {
                b'{' if b.get(i + 1) == Some(&b'{') => {
                    text.push_str(&unescape(&self.body[literal_start..i], self.raw));
                    text.push('{');
                    i += 2;
                    literal_start = i;
                }
                b'}' if b.get(i + 1) == Some(&b'}') => {
                    text.push_str(&unescape(&self.body[literal_start..i], self.raw));
                    text.push('}');
                    i += 2;
                    literal_start = i;
                }
                b'{' => {
                    text.push_str(&unescape(&self.body[literal_start..i], self.raw));
                    if !text.is_empty() {
                        out.push(FPart::Text(std::mem::take(&mut text)));
                    }
                    let (field, next) = self.field(i + 1)?;
                    out.push(field);
                    i = next;
                    literal_start = i;
                }
                b'}' => return Err(err(self.line, "f-string: single '}' is not allowed")),
                _ => i += 1,
            }
        }
        text.push_str(&unescape(&self.body[literal_start..], self.raw));
        if !text.is_empty() {
            out.push(FPart::Text(text));
        }
        Ok(out)
    }

    /// A replacement field starting after its `{`; returns it and the index after its `}`.
    fn field(&mut self, from: usize) -> R<(FPart, usize)> {
        let b = self.body.as_bytes();
        let mut depth = 0i64;
        let mut i = from;
        let mut quote: Option<u8> = None;
        // The end of the expression: a top-level `!`, `:` or `}` (or `=` before one of them).
        let expr_end = loop {
            let Some(&c) = b.get(i) else {
                return Err(err(self.line, "f-string: expecting '}'"));
            };
            if let Some(q) = quote {
                if c == b'\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
                i += 1;
                continue;
            }
            match c {
                b'\'' | b'"' => quote = Some(c),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' => depth -= 1,
                b'}' if depth > 0 => depth -= 1,
                b'}' if depth == 0 => break i,
                b'!' if depth == 0 && b.get(i + 1) != Some(&b'=') => break i,
                b':' if depth == 0 => break i,
                _ => {}
            }
            i += 1;
        };
        let mut source = &self.body[from..expr_end];
        let mut debug = None;
        let trimmed = source.trim_end();
        if trimmed.ends_with('=')
            && !trimmed.ends_with("==")
            && !trimmed.ends_with("!=")
            && !trimmed.ends_with("<=")
            && !trimmed.ends_with(">=")
        {
            debug = Some(source.to_string());
            source = &trimmed[..trimmed.len() - 1];
        }
        let lines =
            lexer::lex(source).map_err(|e| err(self.line, format!("f-string: {}", e.message)))?;
        let [line] = lines.as_slice() else {
            return Err(err(self.line, "f-string: expecting '}'"));
        };
        let mut p = Tokens::new(&line.tokens, self.line, self.depth + 1);
        let value = p.testlist_star()?;
        p.end()
            .map_err(|_| err(self.line, "f-string: expecting '}'"))?;
        let value = reline(value, self.line);
        i = expr_end;
        let mut conversion = None;
        if b.get(i) == Some(&b'!') {
            conversion = b.get(i + 1).map(|&c| c as char);
            i += 2;
        }
        let mut spec = Vec::new();
        if b.get(i) == Some(&b':') {
            // The spec runs to the matching `}`; it may hold nested fields.
            let start = i + 1;
            let mut depth = 0i64;
            let mut j = start;
            loop {
                match b.get(j) {
                    None => return Err(err(self.line, "f-string: expecting '}'")),
                    Some(b'{') => depth += 1,
                    Some(b'}') if depth == 0 => break,
                    Some(b'}') => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            let mut sub = FString {
                body: &self.body[start..j],
                raw: self.raw,
                line: self.line,
                depth: self.depth + 1,
            };
            spec = sub.parts()?;
            i = j;
        }
        if b.get(i) != Some(&b'}') {
            return Err(err(self.line, "f-string: expecting '}'"));
        }
        Ok((
            FPart::Field {
                value,
                conversion,
                spec,
                debug,
            },
            i + 1,
        ))
    }
}

/// An f-string field's expression, placed on the string's line (its byte offsets are within
/// the field, so they are cleared).
fn reline(mut e: Expr, line: usize) -> Expr {
    e.line = line;
    e.start = 0;
    e.end = 0;
    e
}

/// A number literal: an int (decimal, hex, octal, binary, with `_`), a float, an imaginary.
fn number(text: &str) -> ExprKind {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    if let Some(imag) = lower.strip_suffix('j') {
        return ExprKind::Imaginary(imag.parse().unwrap_or(0.0));
    }
    let radix = |digits: &str, r: u32| {
        i64::from_str_radix(digits, r)
            .map(ExprKind::Int)
            .unwrap_or(ExprKind::Unsupported("an integer above 2**63", None))
    };
    if let Some(h) = lower.strip_prefix("0x") {
        return radix(h, 16);
    }
    if let Some(o) = lower.strip_prefix("0o") {
        return radix(o, 8);
    }
    if let Some(b) = lower.strip_prefix("0b") {
        return radix(b, 2);
    }
    if lower.contains(['.', 'e']) {
        return ExprKind::Float(lower.parse().unwrap_or(f64::NAN));
    }
    radix(&lower, 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> StmtKind {
        let mut s = parse(src).unwrap();
        assert_eq!(s.len(), 1, "{s:?}");
        s.remove(0).kind
    }

    fn expr(src: &str) -> ExprKind {
        parse_expression(src).unwrap().kind
    }

    #[test]
    fn blocks_by_indentation_with_elif_else_and_inline_bodies() {
        let src = "if a:\n    x = 1\nelif b: x = 2; y = 3\nelse:\n    for i in range(3):\n        pass\n    else:\n        z = 4\nw = 5\n";
        let s = parse(src).unwrap();
        assert_eq!(s.len(), 2);
        let StmtKind::If { orelse, .. } = &s[0].kind else {
            panic!()
        };
        let StmtKind::If { body, orelse, .. } = &orelse[0].kind else {
            panic!()
        };
        assert_eq!(body.len(), 2);
        let StmtKind::For { orelse, .. } = &orelse[0].kind else {
            panic!()
        };
        assert_eq!(orelse.len(), 1);
        assert_eq!(s[1].line, 9);
    }

    #[test]
    fn classes_functions_and_decorators() {
        let src = "@dataclass\nclass Net(nn.Module, metaclass=M):\n    def __init__(self, a, /, b: int = 2, *args, c, d=4, **kw) -> None:\n        super().__init__()\n";
        let StmtKind::ClassDef(c) = one(src) else {
            panic!()
        };
        assert_eq!(
            (c.name.as_str(), c.bases.len(), c.decorators.len()),
            ("Net", 2, 1)
        );
        let StmtKind::FunctionDef(f) = &c.body[0].kind else {
            panic!()
        };
        let kinds: Vec<_> = f.params.iter().map(|p| (p.name.as_str(), p.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("self", ParamKind::PositionalOnly),
                ("a", ParamKind::PositionalOnly),
                ("b", ParamKind::Normal),
                ("args", ParamKind::VarArgs),
                ("c", ParamKind::KeywordOnly),
                ("d", ParamKind::KeywordOnly),
                ("kw", ParamKind::VarKeywords)
            ]
        );
    }

    #[test]
    fn expressions_keep_python_precedence() {
        let ExprKind::Binary(BinOp::Add, _, r) = expr("a + b * c ** -d") else {
            panic!()
        };
        assert!(matches!(r.kind, ExprKind::Binary(BinOp::Mul, _, _)));
        assert!(matches!(
            expr("not a in b"),
            ExprKind::Unary(UnaryOp::Not, _)
        ));
        assert!(matches!(expr("a if b else c"), ExprKind::IfExp { .. }));
        assert!(matches!(
            expr("x[:, 1:2, ::3, ...]"),
            ExprKind::Subscript(..)
        ));
        assert_eq!(expr("-5"), ExprKind::Int(-5));
        assert!(matches!(
            expr("[i * 2 for i in range(3) if i]"),
            ExprKind::Comp {
                kind: CompKind::List,
                ..
            }
        ));
        assert!(matches!(
            expr("{k: v for k, v in d.items()}"),
            ExprKind::Comp {
                kind: CompKind::Dict,
                ..
            }
        ));
        assert!(matches!(
            expr("lambda x, *a, **k: x + 1"),
            ExprKind::Lambda(_)
        ));
        assert!(matches!(expr("f(*a, **k, n=1)(x)"), ExprKind::Call(..)));
        assert!(matches!(expr("sum(x for x in y)"), ExprKind::Call(..)));
        assert!(
            matches!(expr("a < b is not c not in d"), ExprKind::Compare(_, ref v) if v.len() == 3)
        );
    }

    #[test]
    fn strings_implicit_concatenation_and_fstrings() {
        assert_eq!(expr("'a' \"b\" r'\\n'"), ExprKind::Str("ab\\n".into()));
        let ExprKind::FString(parts) = expr("f'layer{i + 1}_{name!r:>{w}}' 'x'") else {
            panic!()
        };
        assert_eq!(parts.len(), 5);
        assert!(
            matches!(&parts[3], FPart::Field { conversion: Some('r'), spec, .. } if spec.len() == 2)
        );
        assert_eq!(parts[4], FPart::Text("x".into()));
        let ExprKind::FString(parts) = expr("f\"{d[\"k\"]}{{}}\"") else {
            panic!()
        };
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn errors_in_pythons_words_with_the_line() {
        let e = parse("x = 1\nif x\n    y = 2\n").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (2, "expected ':'"));
        let e = parse("def f():\nreturn 1\n").unwrap_err();
        assert!(
            e.message
                .starts_with("expected an indented block after function definition"),
            "{e}"
        );
        let e = parse("x = 1\n    y = 2\n").unwrap_err();
        assert_eq!(e.message, "unexpected indent");
        let e = parse("f() = 3\n").unwrap_err();
        assert_eq!(e.message, "cannot assign to function call");
    }

    /// Runs `f` on a thread with the stack a release build's worker has at most (debug frames
    /// are several times larger, so debug tests get more).
    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let kb = if cfg!(debug_assertions) { 8192 } else { 1024 };
        std::thread::Builder::new()
            .stack_size(kb * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        on_small_stack(deep_nesting);
    }

    fn deep_nesting() {
        for (open, close) in [
            ("(", ")"),
            ("[", "]"),
            ("f(", ")"),
            ("{1: ", "}"),
            ("-", ""),
            ("not ", ""),
            ("lambda: ", ""),
            ("x[", "]"),
        ] {
            let src = format!("k = {}1{}\n", open.repeat(5000), close.repeat(5000));
            let e = parse(&src).unwrap_err();
            assert!(e.message.contains("too deeply nested"), "{open}: {e}");
        }
        let deep = format!("k = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
        assert!(
            parse(&deep)
                .unwrap_err()
                .message
                .contains("too deeply nested")
        );
        let long = format!("k = 1{}\n", "+1".repeat(100_000));
        assert!(
            parse(&long)
                .unwrap_err()
                .message
                .contains("too deeply nested")
        );
        let attrs = format!("k = a{}\n", ".b".repeat(10_000));
        assert!(parse(&attrs).is_err());
        let mut blocks = String::new();
        for i in 0..150 {
            blocks += &format!("{}if x:\n", " ".repeat(i));
        }
        blocks += &format!("{}pass\n", " ".repeat(150));
        assert!(parse(&blocks).unwrap_err().message.contains("indentation"));
        // A long flat list is fine.
        let list = format!("cfg = [{}]\n", "64, ".repeat(50_000));
        assert!(parse(&list).is_ok());
    }

    #[test]
    fn a_paste_indented_as_a_whole_is_read() {
        let s = parse("    model = Sequential()\n    model.add(Dense(3))\n").unwrap();
        assert_eq!(s.len(), 2);
    }
}
