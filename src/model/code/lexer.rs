//! Python's lexical structure, enough to read pasted model code exactly: names, numbers, strings
//! (every prefix, triple quotes, escapes), operators, comments, explicit and implicit line
//! continuation. The output is the code's logical lines, each with its indentation and tokens.
//!
//! Linear in the input and never panics: a malformed paste (an unterminated string, a bracket
//! never closed, a character Python does not have) is a [`SyntaxError`] naming the line.

use std::fmt;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Name,
    Number,
    /// A string literal with its quotes and prefix (`r"…"`, `'''…'''`).
    Str,
    /// Punctuation or an operator (`(`, `**`, `//=`, `->`, …).
    Op,
}

/// One token: its kind, its text, and where it starts (1-based line, byte offset in the source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub line: usize,
    /// Byte offsets of the token in the source.
    pub start: usize,
    pub end: usize,
}

impl Token<'_> {
    /// Whether this is the operator (or name) `text`.
    pub fn is(&self, text: &str) -> bool {
        matches!(self.kind, Kind::Op | Kind::Name) && self.text == text
    }
}

/// A logical line: one statement's tokens, however many physical lines it spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogicalLine<'a> {
    /// The indentation of its first physical line (a tab advances to the next multiple of 8).
    pub indent: usize,
    /// 1-based number of its first physical line.
    pub line: usize,
    pub tokens: Vec<Token<'a>>,
}

/// Python would not read the paste: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SyntaxError {}

const OPERATORS: [&str; 48] = [
    "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", ":=", "<<", ">>", "@=", "(", ")", "[", "]", "{", "}", ",", ":",
    ".", ";", "@", "=", "+", "-", "*", "/", "%", "&", "|", "^", "~", "<", ">", "!",
];

fn is_name_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_name_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The logical lines of `src`.
pub fn lex(src: &str) -> Result<Vec<LogicalLine<'_>>, SyntaxError> {
    lex_from(src, 1)
}

/// The logical lines of `src`, its first line numbered `first` (a model zoo's embedded
/// source is numbered apart from any paste's lines).
pub fn lex_from(src: &str, first: usize) -> Result<Vec<LogicalLine<'_>>, SyntaxError> {
    let mut lines = Vec::new();
    let mut current: Option<LogicalLine> = None;
    // Open brackets: (char, line) — newlines inside them do not end the logical line.
    let mut brackets: Vec<(char, usize)> = Vec::new();
    let mut line = first;
    let mut at_line_start = true;
    let mut continued = false;
    let mut chars = src.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        // Indentation of a new logical line.
        if at_line_start && brackets.is_empty() && !continued {
            let mut indent = 0usize;
            while let Some(&(_, c)) = chars.peek() {
                match c {
                    ' ' => indent += 1,
                    '\t' => indent = (indent / 8 + 1) * 8,
                    '\x0c' => indent = 0,
                    _ => break,
                }
                chars.next();
            }
            at_line_start = false;
            if current.is_none() {
                current = Some(LogicalLine {
                    indent,
                    line,
                    tokens: Vec::new(),
                });
            }
            continue;
        }
        at_line_start = false;
        match c {
            '\n' | '\r' => {
                chars.next();
                if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
                    chars.next();
                }
                line += 1;
                at_line_start = true;
                if brackets.is_empty()
                    && !continued
                    && let Some(l) = current.take().filter(|l| !l.tokens.is_empty())
                {
                    lines.push(l);
                }
                continued = false;
            }
            ' ' | '\t' | '\x0c' => {
                chars.next();
            }
            '#' => {
                while chars.peek().is_some_and(|&(_, c)| c != '\n' && c != '\r') {
                    chars.next();
                }
            }
            '\\' => {
                chars.next();
                match chars.peek() {
                    Some(&(_, '\n' | '\r')) => continued = true,
                    None => {}
                    Some(_) => {
                        return Err(SyntaxError {
                            line,
                            message: "unexpected character after line continuation character"
                                .into(),
                        });
                    }
                }
            }
            c if c.is_ascii_digit()
                || (c == '.' && src[i + 1..].starts_with(|d: char| d.is_ascii_digit())) =>
            {
                let end = number_end(src, i);
                push(&mut current, Kind::Number, src, i, end, line);
                advance_to(&mut chars, end);
            }
            c if is_name_start(c) => {
                let mut end = i;
                while let Some(&(j, c)) = chars.peek() {
                    if !is_name_char(c) {
                        break;
                    }
                    end = j + c.len_utf8();
                    chars.next();
                }
                // A string prefix: r"", b'', f"""…""", rb'' …
                let prefix = &src[i..end];
                let quote = src[end..].chars().next();
                if matches!(quote, Some('"' | '\''))
                    && prefix.len() <= 2
                    && prefix.chars().all(|c| "rRbBuUfF".contains(c))
                {
                    let formatted = prefix.contains(['f', 'F']);
                    push_string(&mut current, src, i, end, formatted, &mut line, &mut chars)?;
                } else {
                    push(&mut current, Kind::Name, src, i, end, line);
                }
            }
            '"' | '\'' => {
                push_string(&mut current, src, i, i, false, &mut line, &mut chars)?;
            }
            _ => {
                let Some(op) = OPERATORS.iter().find(|op| src[i..].starts_with(**op)) else {
                    return Err(SyntaxError {
                        line,
                        message: format!("invalid character {c:?}"),
                    });
                };
                if *op == "!" {
                    return Err(SyntaxError {
                        line,
                        message: "invalid syntax: '!'".into(),
                    });
                }
                match *op {
                    "(" | "[" | "{" => brackets.push((c, line)),
                    ")" | "]" | "}" => {
                        let want = match c {
                            ')' => '(',
                            ']' => '[',
                            _ => '{',
                        };
                        match brackets.pop() {
                            Some((open, _)) if open == want => {}
                            Some((open, at)) => {
                                return Err(SyntaxError {
                                    line,
                                    message: format!(
                                        "closing parenthesis '{c}' does not match opening parenthesis '{open}' on line {at}"
                                    ),
                                });
                            }
                            None => {
                                return Err(SyntaxError {
                                    line,
                                    message: format!("unmatched '{c}'"),
                                });
                            }
                        }
                    }
                    _ => {}
                }
                push(&mut current, Kind::Op, src, i, i + op.len(), line);
                advance_to(&mut chars, i + op.len());
            }
        }
    }
    if let Some((open, at)) = brackets.last() {
        return Err(SyntaxError {
            line: *at,
            message: format!("'{open}' was never closed"),
        });
    }
    if let Some(l) = current.filter(|l| !l.tokens.is_empty()) {
        lines.push(l);
    }
    Ok(lines)
}

fn push<'a>(
    current: &mut Option<LogicalLine<'a>>,
    kind: Kind,
    src: &'a str,
    start: usize,
    end: usize,
    line: usize,
) {
    let logical = current.get_or_insert_with(|| LogicalLine {
        indent: 0,
        line,
        tokens: Vec::new(),
    });
    logical.tokens.push(Token {
        kind,
        text: &src[start..end],
        line,
        start,
        end,
    });
}

/// A string literal from `start` (its prefix, if any) whose quote is at `quote`: one token,
/// the cursor moved past it and `line` past the lines it spans.
fn push_string<'a>(
    current: &mut Option<LogicalLine<'a>>,
    src: &'a str,
    start: usize,
    quote: usize,
    formatted: bool,
    line: &mut usize,
    chars: &mut std::iter::Peekable<std::str::CharIndices>,
) -> Result<(), SyntaxError> {
    let (stop, lines_in) = string_end(src, quote, formatted).ok_or(SyntaxError {
        line: *line,
        message: "unterminated string literal".into(),
    })?;
    push(current, Kind::Str, src, start, stop, *line);
    *line += lines_in;
    advance_to(chars, stop);
    Ok(())
}

fn advance_to(chars: &mut std::iter::Peekable<std::str::CharIndices>, end: usize) {
    while chars.peek().is_some_and(|&(j, _)| j < end) {
        chars.next();
    }
}

/// The end of a number starting at `i` (digits, `_`, a fraction, an exponent, a radix prefix,
/// a `j` suffix).
fn number_end(src: &str, i: usize) -> usize {
    let bytes = src.as_bytes();
    let mut j = i;
    let radix = bytes.get(i) == Some(&b'0')
        && matches!(
            bytes.get(i + 1),
            Some(b'x' | b'X' | b'o' | b'O' | b'b' | b'B')
        );
    if radix {
        j += 2;
        while j < bytes.len() && (bytes[j].is_ascii_hexdigit() || bytes[j] == b'_') {
            j += 1;
        }
        return j;
    }
    while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'_') {
        j += 1;
    }
    if bytes.get(j) == Some(&b'.') {
        j += 1;
        while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'_') {
            j += 1;
        }
    }
    if matches!(bytes.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(bytes.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if bytes.get(k).is_some_and(u8::is_ascii_digit) {
            j = k;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'_') {
                j += 1;
            }
        }
    }
    if matches!(bytes.get(j), Some(b'j' | b'J')) {
        j += 1;
    }
    j
}

/// The end of a string literal whose quote starts at `i`, and the newlines inside it; `None`
/// when it never ends (a single-quoted string ends at the line's end). A backslash keeps the
/// next character inside the string, in raw strings too. In an f-string (`formatted`), quotes
/// inside a replacement field do not end it (Python 3.12's rule, which older code also keeps).
fn string_end(src: &str, i: usize, formatted: bool) -> Option<(usize, usize)> {
    let bytes = src.as_bytes();
    let quote = *bytes.get(i)?;
    let triple = bytes.get(i + 1) == Some(&quote) && bytes.get(i + 2) == Some(&quote);
    let mut j = i + if triple { 3 } else { 1 };
    let mut newlines = 0;
    // Open brackets inside replacement fields, and a nested string's quote when inside one.
    let mut fields = 0usize;
    let mut nested: Option<u8> = None;
    while j < bytes.len() {
        let b = bytes[j];
        if let Some(q) = nested {
            match b {
                b'\\' => j += 1,
                b'\n' if !triple => return None,
                b'\n' => newlines += 1,
                _ if b == q => nested = None,
                _ => {}
            }
            j += 1;
            continue;
        }
        if b == b'\\' {
            if bytes.get(j + 1) == Some(&b'\n') {
                newlines += 1;
            }
            j += 2;
            continue;
        }
        if b == b'\n' {
            if !triple {
                return None;
            }
            newlines += 1;
        }
        if formatted {
            match b {
                b'{' if fields == 0 && bytes.get(j + 1) == Some(&b'{') => {
                    j += 2;
                    continue;
                }
                b'{' | b'[' | b'(' if fields > 0 || b == b'{' => fields += 1,
                b'}' | b']' | b')' if fields > 0 => fields -= 1,
                b'\'' | b'"' if fields > 0 => {
                    nested = Some(b);
                    j += 1;
                    continue;
                }
                _ => {}
            }
        }
        if b == quote && fields == 0 {
            if !triple {
                return Some((j + 1, newlines));
            }
            if bytes.get(j + 1) == Some(&quote) && bytes.get(j + 2) == Some(&quote) {
                return Some((j + 3, newlines));
            }
        }
        j += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(line: &LogicalLine<'a>) -> Vec<&'a str> {
        line.tokens.iter().map(|t| t.text).collect()
    }

    #[test]
    fn logical_lines_join_brackets_and_continuations_and_skip_comments() {
        let src = "import torch.nn as nn  # comment\n\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3),  # first\n    nn.ReLU(inplace=True),\n)\nx = 1 + \\\n    2\n";
        let lines = lex(src).unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(texts(&lines[0]), ["import", "torch", ".", "nn", "as", "nn"]);
        assert_eq!(lines[1].line, 3);
        assert_eq!(lines[1].tokens.last().unwrap().text, ")");
        assert_eq!(texts(&lines[2]), ["x", "=", "1", "+", "2"]);
        assert_eq!(lines[2].line, 7);
    }

    #[test]
    fn strings_numbers_and_indentation() {
        let src = "class Net(nn.Module):\n\tdef __init__(self, p=0.5e-3):\n        s = r'a\\'b' + \"\"\"x\n\"y\"\n\"\"\" + f'{x}'\n        n = 0x1F + 1_000 + .5j\n";
        let lines = lex(src).unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!((lines[1].indent, lines[2].indent), (8, 8));
        assert_eq!(lines[1].tokens[7].text, "0.5e-3");
        assert_eq!(lines[2].tokens[2].text, "r'a\\'b'");
        assert_eq!(lines[2].tokens[4].kind, Kind::Str);
        assert_eq!(lines[3].line, 6);
        assert_eq!(
            texts(&lines[3]),
            ["n", "=", "0x1F", "+", "1_000", "+", ".5j"]
        );
    }

    #[test]
    fn malformed_code_names_its_line() {
        let e = lex("a = 1\nb = nn.Conv2d(32, 32, (4, 1), padding = ?\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = lex("m = Sequential([\n  Conv2D(3, 3),\n").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (1, "'[' was never closed"));
        let e = lex("x = 'abc\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = lex("f(a]\n").unwrap_err();
        assert!(e.message.contains("does not match"), "{e}");
        assert!(lex("").unwrap().is_empty());
    }
}
