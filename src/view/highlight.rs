//! A small Python highlighter for the code panel: comments, strings, numbers and keywords.
//! Pure and tiny on purpose (no grammar crate in the wasm).

/// What a piece of code is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    Plain,
    Keyword,
    String,
    Comment,
    Number,
}

impl Token {
    /// The CSS class of the span (`None` for plain text).
    pub fn class(self) -> Option<&'static str> {
        match self {
            Token::Plain => None,
            Token::Keyword => Some("kw"),
            Token::String => Some("str"),
            Token::Comment => Some("com"),
            Token::Number => Some("num"),
        }
    }
}

const KEYWORDS: &[&str] = &[
    "and", "as", "assert", "class", "def", "else", "False", "for", "from", "if", "import", "in",
    "is", "lambda", "None", "not", "or", "return", "True", "with",
];

/// Splits `code` into classified pieces that concatenate back to `code`.
pub fn highlight<'a>(code: &'a str) -> Vec<(Token, &'a str)> {
    let mut out: Vec<(Token, &'a str)> = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    let mut plain_start = 0;
    let flush = |out: &mut Vec<(Token, &'a str)>, from: usize, to: usize| {
        if to > from {
            out.push((Token::Plain, &code[from..to]));
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        let (token, end) = if c == b'#' {
            (
                Token::Comment,
                code[i..].find('\n').map_or(bytes.len(), |n| i + n),
            )
        } else if c == b'"' || c == b'\'' {
            let triple = code[i..].starts_with("\"\"\"") || code[i..].starts_with("'''");
            let quote = if triple {
                &code[i..i + 3]
            } else {
                &code[i..i + 1]
            };
            let mut j = i + quote.len();
            let end = loop {
                match code[j..].find(|ch| ch == '\\' || quote.starts_with(ch)) {
                    None => break bytes.len(),
                    Some(n) => {
                        j += n;
                        if bytes[j] == b'\\' {
                            j = (j + 2).min(bytes.len());
                        } else if code[j..].starts_with(quote) {
                            break j + quote.len();
                        } else {
                            j += 1;
                        }
                    }
                }
            };
            (Token::String, end)
        } else if c.is_ascii_digit() && (i == 0 || !is_word(bytes[i - 1])) {
            let n = code[i..]
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '.'))
                .unwrap_or(code.len() - i);
            (Token::Number, i + n)
        } else if is_word(c) && (i == 0 || !is_word(bytes[i - 1])) {
            let n = code[i..]
                .find(|ch: char| !is_word(ch as u8) || !ch.is_ascii())
                .unwrap_or(code.len() - i);
            let word = &code[i..i + n];
            if KEYWORDS.contains(&word) {
                (Token::Keyword, i + n)
            } else {
                (Token::Plain, i + n)
            }
        } else {
            i += code[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        };
        if token == Token::Plain {
            i = end;
            continue;
        }
        flush(&mut out, plain_start, i);
        out.push((token, &code[i..end]));
        i = end;
        plain_start = end;
    }
    flush(&mut out, plain_start, bytes.len());
    out
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_concatenate_back_and_are_classified() {
        let code = "import torch  # x\ndef f(x=1.5):\n    \"\"\"doc \\\" here\"\"\"\n    return 'a' if x2 else None\n";
        let pieces = highlight(code);
        assert_eq!(pieces.iter().map(|(_, s)| *s).collect::<String>(), code);
        let of = |t: Token| {
            pieces
                .iter()
                .filter(|(k, _)| *k == t)
                .map(|(_, s)| *s)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            of(Token::Keyword),
            vec!["import", "def", "return", "if", "else", "None"]
        );
        assert_eq!(of(Token::Comment), vec!["# x"]);
        assert_eq!(of(Token::Number), vec!["1.5"]);
        assert_eq!(of(Token::String), vec!["\"\"\"doc \\\" here\"\"\"", "'a'"]);
    }

    #[test]
    fn unterminated_and_non_ascii_text_never_panics() {
        for code in ["\"abc", "'''x", "é # ü", "x\\", "\"\\"] {
            assert_eq!(
                highlight(code).iter().map(|(_, s)| *s).collect::<String>(),
                code
            );
        }
    }
}
