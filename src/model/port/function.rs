//! What the TensorFlow and JAX ports share: the model as one Python function
//! `def model(x, params)`, each step's lines with the source line in a comment, tensors named
//! `x` along a path and by their step where a value is read again, weights read from `params`
//! by step name. The targets say only how each step is spelled ([`Code`]).

use std::collections::HashSet;

use crate::codegen::writer::Py;
use crate::model::graph::Graph;
use crate::model::op::Binary;

use super::float;

use super::lines::{assignments, fill, note, variable_names};
use super::plan::{PortPlan, Var};

/// One step's code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Code {
    /// Expressions assigned in turn to the step's output: `{x}` is the input (the step's first
    /// input on the first line, the previous line's result after), `{x0}`, `{x1}`... each
    /// input, `{xs}` all of them, comma separated.
    pub lines: Vec<String>,
    /// Nothing is computed: the output is the input under the same name (a dropout or an
    /// identity at inference, a permute the port's order already has). The source line is
    /// still written, as a comment.
    pub alias: bool,
    /// Words added to the step's comment.
    pub remark: Option<String>,
}

impl Code {
    /// A step of one expression.
    pub fn expr(text: impl Into<String>) -> Code {
        Code {
            lines: vec![text.into()],
            ..Code::default()
        }
    }

    /// A step that computes nothing, with why.
    pub fn alias(remark: &str) -> Code {
        Code {
            alias: true,
            remark: Some(remark.into()),
            ..Code::default()
        }
    }
}

/// Python names in use in the port: module names, helpers, Python's keywords and the builtins
/// the code calls are never taken by a tensor or a function.
pub(super) struct Names {
    used: HashSet<String>,
}

const RESERVED: &[&str] = &[
    "x",
    "model",
    "params",
    "tf",
    "jax",
    "jnp",
    "lax",
    "np",
    "math",
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
    "abs",
    "enumerate",
    "float",
    "int",
    "len",
    "list",
    "max",
    "min",
    "print",
    "range",
    "slice",
    "sum",
    "tuple",
    "zip",
];

impl Names {
    pub fn new(helpers: &[&str]) -> Names {
        Names {
            used: RESERVED
                .iter()
                .chain(helpers)
                .map(|s| s.to_string())
                .collect(),
        }
    }

    /// `base` as a fresh name (`_` appended, then a number, until it is free).
    pub fn take(&mut self, base: &str) -> String {
        let mut name = super::plan::identifier(base);
        if self.used.contains(&name) {
            name.push('_');
        }
        let stem = name.clone();
        let mut k = 2;
        while self.used.contains(&name) {
            name = format!("{stem}{k}");
            k += 1;
        }
        self.used.insert(name.clone());
        name
    }
}

/// The whole port: `head` (imports, helpers, embedded layer functions), then
/// `def model(<inputs>, params)` with `doc` as its docstring, each input through `convert`
/// (`{}` is the input), each step's lines, and the outputs returned.
pub(super) fn assemble<P>(
    g: &Graph,
    plan: &PortPlan<P>,
    codes: &[Code],
    names: &mut Names,
    head: &Py,
    doc: &str,
    convert: &str,
) -> Py {
    let alias: Vec<bool> = codes.iter().map(|c| c.alias).collect();
    let vars = variable_names(plan, &alias, &[] as &[&str], "x", |base| names.take(base));
    let mut py = Py::new();
    py.append(head);
    if head
        .finish()
        .lines()
        .all(|l| l.is_empty() || l.starts_with("import") || l.starts_with("from"))
    {
        // Two blank lines after the imports alone.
        py.line("");
    }
    py.blank();
    let inputs: Vec<&str> = plan.inputs.iter().map(|p| vars[p.var.0].as_str()).collect();
    py.block(format!("def model({}, params)", inputs.join(", ")), |py| {
        py.line(format!("\"\"\"{doc}\"\"\""));
        for x in &inputs {
            py.line(format!("{x} = {}", convert.replace("{}", x)));
        }
        for (step, code) in plan.steps.iter().zip(codes) {
            let mut comment = note(g, step);
            if let Some(r) = &code.remark {
                comment = Some(match comment {
                    Some(c) => format!("{c}: {r}"),
                    None => r.clone(),
                });
            }
            if code.alias {
                if let Some(c) = comment {
                    py.line(format!("# {c}"));
                }
                continue;
            }
            let xs: Vec<&str> = step.inputs.iter().map(|v| vars[v.0].as_str()).collect();
            let target = step
                .outputs
                .iter()
                .map(|v: &Var| vars[v.0].as_str())
                .collect::<Vec<_>>()
                .join(", ");
            if target.is_empty() {
                continue;
            }
            let texts = assignments(&xs, &target, &code.lines, |line, input| {
                fill(line, input, &xs)
            });
            for (j, text) in texts.iter().enumerate() {
                let c = match (&comment, j) {
                    (Some(c), 0) => format!("  # {c}"),
                    _ => String::new(),
                };
                py.line(format!("{target} = {text}{c}"));
            }
        }
        let outs: Vec<&str> = plan
            .outputs
            .iter()
            .map(|p| vars[p.var.0].as_str())
            .collect();
        py.line(format!("return {}", outs.join(", ")));
    });
    py
}

/// A port tensor's shape for a docstring: `[N, 32, 32, 3]`.
pub(super) fn shape_text(shape: &[i64]) -> String {
    let rest: Vec<String> = shape.iter().skip(1).map(i64::to_string).collect();
    format!(
        "[{}]",
        std::iter::once("N".to_string())
            .chain(rest)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Python slice text dropping `before` and `after` elements: `1:-2`, `1:`, `:`.
pub(super) fn crop_slice(before: i64, after: i64) -> String {
    match (before, after) {
        (0, 0) => ":".into(),
        (b, 0) => format!("{b}:"),
        (0, a) => format!(":-{a}"),
        (b, a) => format!("{b}:-{a}"),
    }
}

/// `x[...]` text that crops the port axes by `pairs` (all axes, amounts >= 0), trailing full
/// axes left out.
pub(super) fn crop_index(pairs: &[(i64, i64)]) -> String {
    let mut parts: Vec<String> = pairs.iter().map(|&(b, a)| crop_slice(b, a)).collect();
    while parts.last().is_some_and(|s| s == ":") {
        parts.pop();
    }
    if parts.is_empty() {
        parts.push(":".into());
    }
    format!("[{}]", parts.join(", "))
}

/// The nearest source index of each output position along one axis, as the source computes
/// it: Keras repeats each element `factor` times; torch reads `floor(j * scale)` in single
/// precision, `scale` being `1 / scale_factor` when one is given and `in / out` otherwise.
pub(super) fn nearest_indices(
    keras: bool,
    input: i64,
    output: i64,
    scale: Option<f64>,
) -> Vec<i64> {
    if keras || output == input || output == 2 * input {
        let f = (output / input.max(1)).max(1);
        return (0..output).map(|j| j / f).collect();
    }
    let s: f32 = match scale {
        Some(f) if f > 0.0 => (1.0 / f) as f32,
        _ => input as f32 / output as f32,
    };
    (0..output)
        .map(|j| ((j as f32 * s).floor() as i64).min(input - 1))
        .collect()
}

/// Where linear interpolation reads, per output position along one axis: source position
/// `j * ratio` (align_corners) or `(j + 0.5) * ratio - 0.5` clamped at 0, with `ratio` as
/// torch's interpolate computes it (Keras's bilinear resize is the half-pixel form at
/// `in / out`).
pub(super) fn linear_ratio(
    input: i64,
    output: i64,
    scale: Option<f64>,
    align_corners: bool,
) -> f64 {
    if align_corners {
        if output > 1 {
            (input - 1) as f64 / (output - 1) as f64
        } else {
            0.0
        }
    } else {
        match scale {
            Some(f) if f > 0.0 => 1.0 / f,
            _ => input as f64 / output as f64,
        }
    }
}

/// Whether nearest indices are each input repeated `f` times (a repeat), and `f`.
pub(super) fn repeat_factor(indices: &[i64], input: i64) -> Option<i64> {
    let out = indices.len() as i64;
    if input <= 0 || out % input != 0 {
        return None;
    }
    let f = out / input;
    indices
        .iter()
        .enumerate()
        .all(|(j, &i)| i == j as i64 / f)
        .then_some(f)
}

/// `x[...]` text of a slice: `(axis, start, end, step, index)` per sliced axis.
pub(super) fn slice_index(rank: usize, axes: &[(usize, i64, i64, i64, bool)]) -> String {
    let mut parts: Vec<String> = vec![":".into(); rank];
    for &(a, start, end, step, index) in axes {
        if let Some(part) = parts.get_mut(a) {
            *part = if index {
                start.to_string()
            } else if step == 1 {
                format!("{start}:{end}")
            } else {
                format!("{start}:{end}:{step}")
            };
        }
    }
    while parts.last().is_some_and(|s| s == ":") {
        parts.pop();
    }
    if parts.is_empty() {
        parts.push(":".into());
    }
    format!("[{}]", parts.join(", "))
}

/// An element-wise operation of the step's inputs (and a constant); `m` is the module with
/// `maximum` and `minimum` (`tf`, `jnp`).
pub(super) fn elementwise(
    op: Binary,
    constant: Option<f64>,
    constant_first: bool,
    inputs: usize,
    m: &str,
) -> String {
    let sym = match op {
        Binary::Add => Some("+"),
        Binary::Sub => Some("-"),
        Binary::Mul => Some("*"),
        Binary::Div => Some("/"),
        Binary::Pow => Some("**"),
        _ => None,
    };
    let f = if op == Binary::Max {
        format!("{m}.maximum")
    } else {
        format!("{m}.minimum")
    };
    match (constant, sym) {
        (Some(c), Some(s)) if constant_first => format!("{} {s} {{x}}", float(c)),
        (Some(c), Some(s)) => format!("{{x}} {s} {}", float(c)),
        (Some(c), None) => format!("{f}({{x}}, {})", float(c)),
        (None, Some(s)) => (0..inputs)
            .map(|k| format!("{{x{k}}}"))
            .collect::<Vec<_>>()
            .join(&format!(" {s} ")),
        (None, None) => {
            let mut acc = "{x0}".to_string();
            for k in 1..inputs {
                acc = format!("{f}({acc}, {{x{k}}})");
            }
            acc
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_follows_torch_and_keras() {
        assert_eq!(
            nearest_indices(true, 3, 6, Some(2.0)),
            vec![0, 0, 1, 1, 2, 2]
        );
        assert_eq!(nearest_indices(false, 3, 5, None), vec![0, 0, 1, 1, 2]);
        assert_eq!(repeat_factor(&[0, 0, 1, 1, 2, 2], 3), Some(2));
        assert_eq!(repeat_factor(&[0, 0, 1, 1, 2], 3), None);
    }

    #[test]
    fn crops_are_python_slices() {
        assert_eq!(crop_index(&[(0, 0), (1, 2), (0, 0)]), "[:, 1:-2]");
        assert_eq!(crop_index(&[(0, 0), (0, 3)]), "[:, :-3]");
        assert_eq!(crop_index(&[(0, 0)]), "[:]");
    }

    #[test]
    fn names_avoid_modules_and_each_other() {
        let mut n = Names::new(&["pad_edge"]);
        assert_eq!(n.take("tf"), "tf_");
        assert_eq!(n.take("conv1"), "conv1");
        assert_eq!(n.take("conv1"), "conv1_");
        assert_eq!(n.take("conv1"), "conv1_2");
        assert_eq!(n.take("pad_edge"), "pad_edge_");
    }
}
