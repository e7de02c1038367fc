//! The one place Python text is assembled: indentation, imports and comment wrapping live here,
//! so renderers only say what to write; and the helpers every renderer shares (argument text,
//! the porter's answer [`Line`]s, the exact average's prologue, `dilate_kernel`).

use super::plan::{AverageStep, Fill, Plan, Step, Window};

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

    /// A new file part that needs `lines` imported (in this order).
    pub fn with_imports(lines: &[&str]) -> Py {
        let mut py = Py::new();
        for line in lines {
            py.import(line);
        }
        py
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

/// `(1, 2), (0, 0)`: `(before, after)` pairs as Python tuples, joined by `sep`.
pub fn pair_items(pairs: impl IntoIterator<Item = (i64, i64)>, sep: &str) -> String {
    let items: Vec<String> = pairs
        .into_iter()
        .map(|(b, a)| format!("({b}, {a})"))
        .collect();
    items.join(sep)
}

/// `((1, 2), (0, 0))`, or `(1, 2)` for one dimension.
pub fn pair_tuples(pairs: &[(i64, i64)]) -> String {
    match pairs {
        [(b, a)] => format!("({b}, {a})"),
        _ => format!("({})", pair_items(pairs.iter().copied(), ", ")),
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
    format!("[{}]", pair_items(pairs.iter().copied(), ", "))
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

// What renderers share: argument text, answer lines, and the exact average's prologue.

/// What a line of a porter's answer stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// The target's own layer call.
    Native,
    /// A step around it with a one-line form (a pad, a crop).
    Composed,
    /// A step with no one-line form: a comment that says the full code spells it out.
    SpelledOut,
}

/// One line of a porter's answer (`codegen::answer`), typed by what it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub kind: LineKind,
    /// The text to paste.
    pub text: String,
}

impl Line {
    pub fn new(kind: LineKind, text: impl Into<String>) -> Line {
        Line {
            kind,
            text: text.into(),
        }
    }

    /// The line for a step the renderer wrote as `text`: a pad or crop is composed around the
    /// layer, anything else is the layer's own call.
    pub fn written<P>(step: &Step<P>, text: String) -> Line {
        let kind = match step {
            Step::Pad { .. } | Step::Crop { .. } => LineKind::Composed,
            _ => LineKind::Native,
        };
        Line { kind, text }
    }

    /// The text to paste.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_spelled_out(&self) -> bool {
        self.kind == LineKind::SpelledOut
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// `3` when every dimension agrees, `(4, 1)` otherwise.
pub(crate) fn short(values: &[i64]) -> String {
    match values.first() {
        Some(&first) if values.iter().all(|&v| v == first) => first.to_string(),
        _ => format!("({})", join(values)),
    }
}

/// `name=value` for each argument that is not its default.
pub(crate) fn kwargs(parts: &[(&str, String, &str)]) -> Vec<String> {
    parts
        .iter()
        .filter(|(_, value, default)| value != default)
        .map(|(name, value, _)| format!("{name}={value}"))
        .collect()
}

/// `, name=value` for each argument that is not its default.
pub(crate) fn args(parts: &[(&str, String, &str)]) -> String {
    kwargs(parts).iter().map(|k| format!(", {k}")).collect()
}

/// A target's answer lines: `write` gives a step's one-line form, or `None` for a step with
/// none (then the line says the full code spells it out). Answer lines quote with `'`, as
/// people type a layer; the call writers they share with the full code quote with `"`.
pub(crate) fn answer_lines<P>(
    steps: &[Step<P>],
    write: impl Fn(&Step<P>) -> Option<String>,
) -> Vec<Line> {
    steps
        .iter()
        .map(|step| match write(step) {
            Some(text) => Line::written(step, text.replace('"', "'")),
            None => spelled_out(step),
        })
        .collect()
}

/// The line for a step with no one-line form.
fn spelled_out<P>(step: &Step<P>) -> Line {
    let text = match step {
        Step::AverageRatio { .. } => {
            "# the average's exact divisor: window sums of x and of a mask (full code below)"
        }
        Step::EmptyWindows { .. } => {
            "# windows with no input: the source's −∞ or lowest float (full code below)"
        }
        Step::AddBias => "# the bias, added after the zero-extension (full code below)",
        Step::Pool(p) => match p.window {
            Window::OnesConv => {
                "# the window sums: a grouped convolution with a ones kernel (full code below)"
            }
            Window::Taps => {
                "# the window: one strided slice per kernel tap, combined (full code below)"
            }
            Window::DenseThenStride => {
                "# the pool at stride 1, then every stride-th output (full code below)"
            }
            Window::Pool => "# a step spelled out in the full code below",
        },
        Step::Pad { .. } => "# the padding, with the source's fill (full code below)",
        _ => "# a step spelled out in the full code below",
    };
    Line::new(LineKind::SpelledOut, text)
}

/// Defines the helpers that pad where the target has no such mode, those the plan's `fills`
/// use: `def {helper}pad_edge({x}, pairs)` for replicate (`edge`) and `pad_wrap` for circular
/// (`wrap`), each with its docstring, a loop over the padded axes whose body is given, and
/// `return {x}`.
pub(crate) fn fill_helpers(
    py: &mut Py,
    fills: &[Fill],
    helper: &str,
    x: &str,
    edge: (&str, &[&str]),
    wrap: (&str, &[&str]),
) {
    for (fill, name, (doc, body)) in [
        (Fill::Replicate, "pad_edge", edge),
        (Fill::Circular, "pad_wrap", wrap),
    ] {
        if !fills.contains(&fill) {
            continue;
        }
        py.block(format!("def {helper}{name}({x}, pairs)"), |py| {
            py.line(format!("\"\"\"{doc}\"\"\""));
            py.block(
                "for axis, (before, after) in enumerate(pairs, start=1)",
                |py| {
                    for line in body {
                        py.line(line);
                    }
                },
            );
            py.line(format!("return {x}"));
        });
        py.blank();
    }
}

/// A channels-last pad of `x`'s spatial axes by `pairs` where edge and wrap have no mode on
/// every backend (TF, Keras): `function` pads zeros, −∞ or reflected (`reflect` is its mode's
/// name), the helpers [`fill_helpers`] defines (`helper` is their prefix) the rest.
pub(crate) fn helper_pad(
    (function, reflect): (&str, &str),
    x: &str,
    helper: &str,
    pairs: &[(i64, i64)],
    fill: Fill,
) -> String {
    let pw = pad_list(pairs, 1, 1);
    match fill {
        Fill::Zero => format!("{function}({x}, {pw})"),
        Fill::NegInf => format!("{function}({x}, {pw}, constant_values=float(\"-inf\"))"),
        Fill::Reflect => format!("{function}({x}, {pw}, mode=\"{reflect}\")"),
        Fill::Replicate => format!("{helper}pad_edge({x}, {})", pair_list(pairs)),
        Fill::Circular => format!("{helper}pad_wrap({x}, {})", pair_list(pairs)),
    }
}

/// The comment after a pad line that calls a helper of the full code (TF and Keras have no
/// edge or wrap mode on every backend).
pub(crate) fn helper_note(fill: Fill) -> &'static str {
    match fill {
        Fill::Replicate => "  # pad_edge: the edge values repeated (defined in the full code)",
        Fill::Circular => "  # pad_wrap: wrapped around (defined in the full code)",
        _ => "",
    }
}

/// The default of a layer's `padding` argument in an answer line: `default`, except after an
/// explicit pad step, where the argument is always written (saying the layer itself pads
/// nothing).
pub(crate) fn padding_default<P>(plan: &Plan<P>, default: &'static str) -> &'static str {
    if plan.fills().next().is_some() {
        ""
    } else {
        default
    }
}

/// `, name=value` for a dilation: written only where some dilation is not 1.
pub(crate) fn dilation_arg(name: &str, dilation: &[i64], value: String) -> String {
    if dilation.iter().all(|&d| d == 1) {
        String::new()
    } else {
        format!(", {name}={value}")
    }
}

/// The comment after a layer whose kernel is zero-inserted (a dilation the target refuses with
/// a stride, written as a larger undilated kernel).
pub(crate) fn dilated_suffix(dilated: bool) -> &'static str {
    if dilated {
        "  # the kernel zero-inserted (dilation as a wider kernel; full code below)"
    } else {
        ""
    }
}

/// Python slices that drop `(before, after)` per spatial dimension, after `leading` axes
/// (and `trailing` ones, written as `:`).
pub(crate) fn crop_slices(pairs: &[(i64, i64)], leading: usize, trailing: usize) -> String {
    let mut parts: Vec<String> = vec![":".to_string(); leading];
    parts.extend(pairs.iter().map(|&(b, a)| match (b, a) {
        (0, 0) => ":".to_string(),
        (b, 0) => format!("{b}:"),
        (b, a) => format!("{b}:-{a}"),
    }));
    parts.extend(std::iter::repeat_n(":".to_string(), trailing));
    parts.join(", ")
}

/// A target's constant pad call: `{function}(expression, {width(pairs)})`, and
/// `, {value}=v` for a value other than zero.
pub(crate) struct ConstantPad {
    pub function: &'static str,
    /// The pad widths as the function takes them.
    pub width: fn(&[(i64, i64)]) -> String,
    /// The keyword of the value.
    pub value: &'static str,
}

impl ConstantPad {
    /// `expr` padded by `pairs` with `value` (`None`: zeros).
    fn call(&self, expr: &str, pairs: &[(i64, i64)], value: Option<&str>) -> String {
        let (f, w) = (self.function, (self.width)(pairs));
        match value {
            Some(v) => format!("{f}({expr}, {w}, {}={v})", self.value),
            None => format!("{f}({expr}, {w})"),
        }
    }
}

/// Writes the prologue of an exact average (`Step::AverageRatio`) in one target's words: `ones`
/// shaped like one channel of the input, the [`average_mask`], and the zero-padded input `var`.
/// `pad` is the target's constant pad call.
pub(crate) fn average_prologue(
    py: &mut Py,
    var: &str,
    ones_like: &str,
    pad: &ConstantPad,
    average: &AverageStep,
) {
    py.comment(average_comment(average.include_pad));
    py.line(format!("ones = {ones_like}"));
    py.line(format!("mask = {}", average_mask(pad, "ones", average)));
    py.line(format!(
        "{var} = {}",
        pad.call(var, &average.padded(), None)
    ));
}

/// An exact average's mask, from `ones` shaped like the input: 1 where the divisor counts
/// (input, and the inner padding when `include_pad`), 0 past it.
pub(crate) fn average_mask(pad: &ConstantPad, ones: &str, average: &AverageStep) -> String {
    if average.include_pad {
        let counted = pad.call(ones, &average.inner, Some("1.0"));
        pad.call(&counted, &average.extension, None)
    } else {
        pad.call(ones, &average.padded(), None)
    }
}

const DILATE_KERNEL: &str = "def dilate_kernel(w, dilation):
    \"\"\"Inserts dilation - 1 zeros between taps (torch layout): a dilated kernel for a layer
    that takes no dilation together with a stride.\"\"\"
    k = w.shape[2:]
    out = np.zeros(w.shape[:2] + tuple((n - 1) * d + 1 for n, d in zip(k, dilation)), w.dtype)
    out[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in dilation)] = w
    return out";

/// Writes the `dilate_kernel` helper.
pub(crate) fn dilate_kernel_helper(py: &mut Py) {
    for line in DILATE_KERNEL.lines() {
        py.line(line);
    }
}

/// Sizes as `100x20`.
pub(crate) fn dims_text(values: &[i64]) -> String {
    crate::core::join(values, "x")
}

/// The class name for a function name: `padlab_layer` -> `PadlabLayer`.
pub fn class_name(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The comment every renderer puts above an exact average.
pub fn average_comment(include_pad: bool) -> &'static str {
    if include_pad {
        "Average = window sum / number of input and padding elements in the window."
    } else {
        "Average = window sum / number of input elements in the window."
    }
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
