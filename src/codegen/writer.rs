//! The one place Python text is assembled: indentation, imports and comment wrapping live here,
//! so renderers only say what to write.

/// A Python source being written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Py {
    imports: Vec<String>,
    lines: Vec<String>,
    indent: usize,
}

impl Py {
    pub fn new() -> Py {
        Py::default()
    }

    /// Adds an import line once (kept in first-use order, above the code).
    pub fn import(&mut self, line: &str) -> &mut Self {
        if !self.imports.iter().any(|l| l == line) {
            self.imports.push(line.to_string());
        }
        self
    }

    /// The import lines collected so far.
    pub fn import_lines(&self) -> &[String] {
        &self.imports
    }

    /// One line at the current indentation.
    pub fn line(&mut self, text: impl AsRef<str>) -> &mut Self {
        let text = text.as_ref();
        if text.is_empty() {
            self.lines.push(String::new());
        } else {
            self.lines
                .push(format!("{}{text}", "    ".repeat(self.indent)));
        }
        self
    }

    /// An empty line (never two in a row).
    pub fn blank(&mut self) -> &mut Self {
        if self.lines.last().is_some_and(|l| !l.is_empty()) {
            self.lines.push(String::new());
        }
        self
    }

    /// A `# ` comment, wrapped to 100 columns.
    pub fn comment(&mut self, text: impl AsRef<str>) -> &mut Self {
        let width = 98usize.saturating_sub(4 * self.indent).max(40);
        let mut current = String::new();
        for word in text.as_ref().split_whitespace() {
            if !current.is_empty() && current.len() + 1 + word.len() > width {
                self.line(format!("# {current}"));
                current.clear();
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        if !current.is_empty() {
            self.line(format!("# {current}"));
        }
        self
    }

    /// `header:` followed by an indented body.
    pub fn block(&mut self, header: impl AsRef<str>, body: impl FnOnce(&mut Py)) -> &mut Self {
        self.line(format!("{}:", header.as_ref()));
        self.indent += 1;
        body(self);
        self.indent -= 1;
        self
    }

    /// Appends another source: its imports join ours, its lines follow at our indentation.
    pub fn append(&mut self, other: &Py) -> &mut Self {
        for import in &other.imports {
            self.import(import);
        }
        for line in &other.lines {
            self.line(line);
        }
        self
    }

    /// The text: imports, a blank line, then the code, ending in a newline.
    pub fn finish(&self) -> String {
        let mut out = String::new();
        for import in &self.imports {
            out.push_str(import);
            out.push('\n');
        }
        if !self.imports.is_empty() && !self.lines.is_empty() {
            out.push('\n');
        }
        let mut lines = self.lines.as_slice();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines = &lines[..lines.len() - 1];
        }
        for line in lines {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// `(1, 2)`, or `(3,)` for one value.
pub fn tuple(values: &[i64]) -> String {
    match values {
        [one] => format!("({one},)"),
        _ => format!("({})", join(values)),
    }
}

/// `[1, 2]`.
pub fn list(values: &[i64]) -> String {
    format!("[{}]", join(values))
}

/// `1, 2`.
pub fn join(values: &[i64]) -> String {
    crate::core::join(values, ", ")
}

/// ONNX `pads`: every begin, then every end, with `leading` zero pairs first (batch, channel).
pub fn onnx_pads(pairs: &[(i64, i64)], leading: usize) -> Vec<i64> {
    let zeros = std::iter::repeat_n(0, leading);
    zeros
        .clone()
        .chain(pairs.iter().map(|p| p.0))
        .chain(zeros)
        .chain(pairs.iter().map(|p| p.1))
        .collect()
}

/// `((1, 2), (0, 0))`, or `(1, 2)` for one dimension.
pub fn pair_tuples(pairs: &[(i64, i64)]) -> String {
    match pairs {
        [(b, a)] => format!("({b}, {a})"),
        _ => format!(
            "({})",
            pairs
                .iter()
                .map(|(b, a)| format!("({b}, {a})"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `[[0, 0], [1, 2], [0, 0]]` with zero pairs for leading and trailing axes.
pub fn pad_list(pairs: &[(i64, i64)], leading: usize, trailing: usize) -> String {
    let zero = std::iter::repeat_n("[0, 0]".to_string(), 1);
    let body = pairs.iter().map(|(b, a)| format!("[{b}, {a}]"));
    let all: Vec<String> = zero
        .clone()
        .cycle()
        .take(leading)
        .chain(body)
        .chain(zero.cycle().take(trailing))
        .collect();
    format!("[{}]", all.join(", "))
}

/// `[(1, 2), (0, 0)]`: per-dimension pairs as a list of tuples.
pub fn pair_list(pairs: &[(i64, i64)]) -> String {
    format!(
        "[{}]",
        pairs
            .iter()
            .map(|(b, a)| format!("({b}, {a})"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// NumPy/JAX `pad_width` for NCHW: `[(0, 0), (0, 0), (1, 2), ...]`.
pub fn nchw_pad_width(pairs: &[(i64, i64)]) -> String {
    let mut all = vec![(0, 0), (0, 0)];
    all.extend_from_slice(pairs);
    pair_list(&all)
}

/// torch `F.pad` order: last dimension first, `(before, after)` each.
pub fn torch_pad_tuple(pairs: &[(i64, i64)]) -> String {
    let flat: Vec<i64> = pairs.iter().rev().flat_map(|&(b, a)| [b, a]).collect();
    tuple(&flat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_come_first_once_and_blocks_indent() {
        let mut py = Py::new();
        py.import("import torch");
        py.block("def f(x)", |py| {
            py.import("import torch");
            py.comment("a comment");
            py.line("return x");
        });
        py.blank().blank();
        assert_eq!(
            py.finish(),
            "import torch\n\ndef f(x):\n    # a comment\n    return x\n"
        );
    }

    #[test]
    fn literals_follow_python() {
        assert_eq!(tuple(&[3]), "(3,)");
        assert_eq!(tuple(&[1, 2]), "(1, 2)");
        assert_eq!(pair_tuples(&[(1, 2)]), "(1, 2)");
        assert_eq!(pair_tuples(&[(1, 2), (0, 0)]), "((1, 2), (0, 0))");
        assert_eq!(
            pad_list(&[(1, 2), (3, 4)], 1, 1),
            "[[0, 0], [1, 2], [3, 4], [0, 0]]"
        );
        // F.pad takes the last dimension first: (left, right, top, bottom).
        assert_eq!(torch_pad_tuple(&[(1, 2), (3, 4)]), "(3, 4, 1, 2)");
        assert_eq!(pair_list(&[(1, 2)]), "[(1, 2)]");
        assert_eq!(nchw_pad_width(&[(1, 2)]), "[(0, 0), (0, 0), (1, 2)]");
    }
}
