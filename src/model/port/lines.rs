//! What every target's writer shares about a step's lines: the source line it names in an
//! error, its comment, the Python names of the port's tensors, and a step's lines with their
//! placeholders filled.

use crate::codegen::layer_definition;
use crate::codegen::plan::{Plan, Step, Window};
use crate::codegen::target::Target;
use crate::codegen::writer::Py;
use crate::core::LayerSpec;
use crate::model::graph::Graph;
use crate::model::op::{Binary, Reduce};

use super::float;
use super::plan::{Port, PortPlan, PortStep};

/// Helper definitions a port needs, each once, in the order first used.
#[derive(Default)]
pub(super) struct Helpers(Vec<&'static str>);

impl Helpers {
    /// Defines `text` ahead of the model (once).
    pub fn add(&mut self, text: &'static str) {
        if !self.0.contains(&text) {
            self.0.push(text);
        }
    }

    /// Writes each definition, two blank lines after it.
    pub fn write(&self, py: &mut Py) {
        for helper in &self.0 {
            for line in helper.lines() {
                py.line(line);
            }
            py.blank();
            py.blank();
        }
    }
}

/// The source line an error about `step` names: the call's line where the layer is defined
/// apart (0 for a step no source operation made).
pub(super) fn error_line<P>(g: &Graph, step: &PortStep<P>) -> usize {
    step.node.map_or(0, |n| {
        let node = g.node(n);
        node.source.call_line.unwrap_or(node.source.line)
    })
}

/// The source line and text of a step's operation, as a comment.
pub(super) fn note<P>(g: &Graph, step: &PortStep<P>) -> Option<String> {
    let node = g.node(step.node?);
    let line = node.source.line;
    let text = crate::model::code::eval::short(&node.source.text);
    let mut c = if line > 0 {
        format!("line {line}: {text}")
    } else {
        text
    };
    if let Some(a) = &node.inferred.answer
        && a.pads_depend_on_input
    {
        c.push_str(" (strided 'same': these pads are for this input size)");
    }
    Some(c)
}

/// Python names of the port's tensors. A step marked in `alias` computes nothing: its output
/// shares its input's name. Along a path the value is `x`; a value read again later (or
/// returned) keeps its step's name (from `step_names`, `_k` added for the k-th of several
/// outputs). A lone input is `lone_input` (which, when it is `x`, is the first value on the
/// path), several inputs keep their names; `fresh` makes a name Python can take.
pub(super) fn variable_names<P, N: AsRef<str>>(
    plan: &PortPlan<P>,
    alias: &[bool],
    step_names: &[N],
    lone_input: &str,
    mut fresh: impl FnMut(&str) -> String,
) -> Vec<String> {
    let n = plan.tensors.len();
    let aliased = |i: usize| alias.get(i).copied().unwrap_or(false);
    // Each variable's root: the value it is an alias of.
    let mut root: Vec<usize> = (0..n).collect();
    for (i, s) in plan.steps.iter().enumerate() {
        if aliased(i)
            && let (Some(x), Some(o)) = (s.inputs.first(), s.outputs.first())
        {
            root[o.0] = root[x.0];
        }
    }
    let computed: Vec<usize> = (0..plan.steps.len()).filter(|&i| !aliased(i)).collect();
    let mut last_use = vec![0usize; n];
    let mut readers = vec![0usize; n];
    for &i in &computed {
        for v in &plan.steps[i].inputs {
            last_use[root[v.0]] = i;
            readers[root[v.0]] += 1;
        }
    }
    // A returned value lives to the end.
    let outputs: Vec<usize> = plan.outputs.iter().map(|p| root[p.var.0]).collect();
    for &o in &outputs {
        last_use[o] = usize::MAX;
    }
    let mut own: Vec<Option<String>> = vec![None; n];
    let mut x_holder: Option<usize> = None;
    for p in &plan.inputs {
        own[p.var.0] = Some(if plan.inputs.len() == 1 {
            if lone_input == "x" {
                x_holder = Some(p.var.0);
            }
            lone_input.into()
        } else {
            fresh(&p.name)
        });
    }
    for (k, &i) in computed.iter().enumerate() {
        let s = &plan.steps[i];
        let name = step_names.get(i).map_or(s.name.as_str(), |n| n.as_ref());
        let next = computed.get(k + 1).map(|&j| &plan.steps[j]);
        let reads = |v: usize| s.inputs.iter().any(|u| root[u.0] == v);
        for (j, v) in s.outputs.iter().enumerate() {
            let v = v.0;
            let next_only = readers[v] == 1
                && next.is_some_and(|nx| nx.inputs.iter().any(|u| root[u.0] == v))
                && !outputs.contains(&v)
                && s.outputs.len() == 1;
            let x_free = x_holder.is_none_or(|h| last_use[h] <= i || reads(h) && last_use[h] == i);
            own[v] = Some(if next_only && x_free {
                x_holder = Some(v);
                "x".into()
            } else if s.outputs.len() > 1 {
                fresh(&format!("{name}_{j}"))
            } else {
                fresh(name)
            });
        }
    }
    (0..n)
        .map(|v| own[root[v]].clone().unwrap_or_else(|| "x".into()))
        .collect()
}

/// The Python names of a plan's inputs or outputs (`ports`), from the tensors' `names`.
pub(super) fn port_names<'a>(names: &'a [String], ports: &[Port]) -> Vec<&'a str> {
    ports.iter().map(|p| names[p.var.0].as_str()).collect()
}

/// The right-hand sides of a step's assignments to `target` (its outputs, comma separated):
/// `text` writes each line given its input, the step's first input (`xs`) for the first line
/// and the previous line's result after.
pub(super) fn assignments<T>(
    xs: &[&str],
    target: &str,
    lines: &[T],
    mut text: impl FnMut(&T, &str) -> String,
) -> Vec<String> {
    lines
        .iter()
        .enumerate()
        .map(|(j, line)| {
            let input = if j == 0 {
                xs.first().copied().unwrap_or("x")
            } else {
                target
            };
            text(line, input)
        })
        .collect()
}

/// An expression's placeholders filled: `{x}` is `input`, `{xs}` all the step's inputs comma
/// separated, `{x0}`, `{x1}`... each of them.
pub(super) fn fill(expr: &str, input: &str, xs: &[&str]) -> String {
    let mut text = expr.replace("{x}", input).replace("{xs}", &xs.join(", "));
    for (k, x) in xs.iter().enumerate() {
        text = text.replace(&format!("{{x{k}}}"), x);
    }
    text
}

/// Whether each step of a pool's single-layer plan is one call of the target: pads, crops,
/// empty windows and the pooling op itself (dilated only where `dilated_window`). Otherwise
/// the port embeds the single-layer code ([`embed_layer`]).
pub(super) fn single_calls<P>(steps: &[Step<P>], dilated_window: bool) -> bool {
    steps.iter().all(|s| match s {
        Step::Pad { .. } | Step::Crop { .. } | Step::EmptyWindows { .. } => true,
        Step::Pool(p) => p.window == Window::Pool && (dilated_window || !p.dilated()),
        _ => false,
    })
}

/// Appends target `T`'s single-layer definition of `plan` named `name` to `defs`.
pub(super) fn embed_layer<T: Target>(
    defs: &mut Py,
    spec: &LayerSpec,
    plan: &Plan<T::Pad>,
    name: &str,
) {
    defs.append(&layer_definition::<T>(spec, plan, name, false));
    defs.blank();
    defs.blank();
}

/// Python's operator for `op` (`None` for maximum and minimum, which are calls).
pub(super) fn operator(op: Binary) -> Option<&'static str> {
    match op {
        Binary::Add => Some("+"),
        Binary::Sub => Some("-"),
        Binary::Mul => Some("*"),
        Binary::Div => Some("/"),
        Binary::Pow => Some("**"),
        Binary::Max | Binary::Min => None,
    }
}

/// The NumPy name of a reduction (`jnp`, `tf.reduce_`, `keras.ops` take it).
pub(super) fn reduce_name(op: Reduce) -> &'static str {
    match op {
        Reduce::Mean => "mean",
        Reduce::Sum => "sum",
        Reduce::Max => "max",
        Reduce::Min => "min",
    }
}

/// An element-wise operation of the step's inputs (and a constant); `m` is the module with
/// `maximum` and `minimum` (`torch`, `tf`, `jnp`), `tensor` what a constant they take goes
/// through (`{}` is the constant).
pub(super) fn elementwise(
    op: Binary,
    constant: Option<f64>,
    constant_first: bool,
    inputs: usize,
    m: &str,
    tensor: &str,
) -> String {
    let sym = operator(op);
    let f = if op == Binary::Max {
        format!("{m}.maximum")
    } else {
        format!("{m}.minimum")
    };
    match (constant, sym) {
        (Some(c), Some(s)) if constant_first => format!("{} {s} {{x}}", float(c)),
        (Some(c), Some(s)) => format!("{{x}} {s} {}", float(c)),
        (Some(c), None) => format!("{f}({{x}}, {})", tensor.replace("{}", &float(c))),
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

/// Values (row-major) as a Python literal nested by `dims`: `[1.0, 2.0]`, `[[1.0], [2.0]]`, a
/// bare float for no dims.
pub(super) fn float_list(values: &[f64], dims: &[i64]) -> String {
    let Some((&first, rest)) = dims.split_first() else {
        return values.first().map_or_else(|| "0.0".into(), |&v| float(v));
    };
    let chunk = (values.len() / usize::try_from(first).unwrap_or(1).max(1)).max(1);
    let parts: Vec<String> = values.chunks(chunk).map(|c| float_list(c, rest)).collect();
    format!("[{}]", parts.join(", "))
}

/// Python's keywords: never a name the port writes.
pub(super) const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A full shape with a batch of one (what broadcasts to any batch).
pub fn batch_one(shape: &[i64]) -> Vec<i64> {
    let mut v = shape.to_vec();
    if let Some(b) = v.first_mut() {
        *b = 1;
    }
    v
}

/// A learned tensor `w` applied to `x` by `op`, in a framework whose array module is `np`
/// (`torch`, `tf`, `jnp`, `keras.ops`): the same expression in every port.
pub fn learned_expr(op: crate::model::op::LearnedOp, x: &str, w: &str, np: &str) -> String {
    use crate::model::op::LearnedOp;
    match op {
        LearnedOp::Mul => format!("{x} * {w}"),
        LearnedOp::Add => format!("{x} + {w}"),
        LearnedOp::Sub => format!("{x} - {w}"),
        LearnedOp::RSub => format!("{w} - {x}"),
        LearnedOp::Div => format!("{x} / {w}"),
        LearnedOp::PRelu => format!("{np}.where({x} >= 0, {x}, {w} * {x})"),
        LearnedOp::Concat { axis, first } => {
            let repeated = match np {
                "torch" => format!("{w}.expand({x}.shape[0], *{w}.shape[1:])"),
                // A symbolic batch is known only when the model runs.
                "keras.ops" => format!(
                    "keras.ops.broadcast_to({w}, (keras.ops.shape({x})[0],) + tuple({w}.shape[1:]))"
                ),
                "tf" => format!(
                    "tf.broadcast_to({w}, tf.concat([tf.shape({x})[:1], tf.shape({w})[1:]], 0))"
                ),
                _ => format!("{np}.broadcast_to({w}, ({x}.shape[0],) + tuple({w}.shape[1:]))"),
            };
            let pair = if first {
                format!("[{repeated}, {x}]")
            } else {
                format!("[{x}, {repeated}]")
            };
            match np {
                "torch" => format!("torch.cat({pair}, dim={axis})"),
                "tf" => format!("tf.concat({pair}, axis={axis})"),
                _ => format!("{np}.concatenate({pair}, axis={axis})"),
            }
        }
    }
}
