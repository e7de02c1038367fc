//! A port as Keras 3: a `keras.Sequential` when the model is one path of layers, else the
//! functional API (one line per layer, `keras.Model(inputs, outputs)` at the end). Every layer
//! is named (`name=` the plan step's name; a step's extra layers its name and a suffix), so the
//! self-check reaches it with `model.get_layer(name)`.
//!
//! Padded layers are their single-layer plans' steps (a `ZeroPadding2D` before a `'valid'`
//! convolution, a `Cropping2D`, the bias added after a crop); a pool no stock layer computes is
//! the single-layer generator's own builder, named. What Keras has no layer for is an exact
//! composition of `keras.ops` in a `layers.Lambda` (a reflect pad, torch's adaptive pools and
//! interpolation, a pixel shuffle), so the port is exact on the TensorFlow, torch and JAX
//! backends alike.

use std::collections::HashSet;

use super::lines::{
    Helpers, KEYWORDS, batch_one, elementwise, embed_layer, error_line, fill, float_list,
    learned_expr, note, port_names, reduce_name, single_calls, slice_index, variable_names,
};
use super::plan::{PortConv, PortOp, PortPlan, PortStep, Var};
use super::{Access, PortError, Written, float, py_bool};
use crate::codegen::keras::{Keras, KerasPad};
use crate::codegen::plan::{ConvStep, Fill, Step};
use crate::codegen::writer::{Py, kwargs, list, pad_list, pair_tuples, short, tuple};
use crate::core::{Framework, PaddingMode};
use crate::model::graph::Graph;
use crate::model::op::{Activation, Binary, CellKind, Groups, Interpolation, PadFill};

const ADD_BIAS: &str = r#"class AddBias(keras.layers.Layer):
    """A per-channel bias, added after the crop or zero-extension the source adds it after."""

    def build(self, input_shape):
        self.bias = self.add_weight(shape=(input_shape[-1],), initializer="zeros", name="bias")

    def call(self, t):
        return t + self.bias"#;

const LAYER_SCALE: &str = r#"class LayerScale(keras.layers.Layer):
    """ConvNeXt's LayerScale: the input times a learned weight per element of its last axis."""

    def build(self, input_shape):
        self.gamma = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="gamma")

    def call(self, t):
        return t * self.gamma"#;

const LEARNED: &str = r#"class Learned(keras.layers.Layer):
    """A learned tensor of `weight_shape` applied to the input element-wise (`op`)."""

    def __init__(self, weight_shape, op, **kwargs):
        super().__init__(**kwargs)
        self.weight_shape, self.op = tuple(weight_shape), op

    def build(self, input_shape):
        self.w = self.add_weight(shape=self.weight_shape, initializer="ones", name="w")

    def call(self, t):
        return self.op(t, self.w)"#;

const PAD_BY_INDEX: &str = r#"def pad_by_index(t, pairs, mode):
    """Pads every axis by (before, after) elements, repeating the edge ("replicate") or
    wrapping around ("circular"), as torch does."""
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            n = t.shape[axis]
            if mode == "replicate":
                index = [min(max(i, 0), n - 1) for i in range(-before, n + after)]
            else:
                index = [i % n for i in range(-before, n + after)]
            t = keras.ops.take(t, index, axis=axis)
    return t"#;

const ADAPTIVE_POOL: &str = r#"def adaptive_pool(t, sizes, reduce):
    """torch's adaptive pooling, one spatial axis at a time: output i of an axis of n elements
    reduces elements floor(i * n / size) to ceil((i + 1) * n / size)."""
    for axis, size in enumerate(sizes, start=1):
        n = t.shape[axis]
        if n == size:
            continue
        parts = []
        for i in range(size):
            start, end = (i * n) // size, -((-(i + 1) * n) // size)
            window = keras.ops.take(t, list(range(start, end)), axis=axis)
            parts.append(reduce(window, axis=axis, keepdims=True))
        t = keras.ops.concatenate(parts, axis=axis)
    return t"#;

const INTERPOLATE: &str = r#"def torch_source_index(out_size, in_size, scale, align_corners, cubic):
    """Where torch's interpolate reads output position i from, in float32 as torch computes it."""
    i = np.arange(out_size, dtype=np.float32)
    if align_corners:
        ratio = np.float32(in_size - 1) / np.float32(out_size - 1) if out_size > 1 else np.float32(0)
        return ratio * i
    ratio = np.float32(1.0 / scale) if scale else np.float32(in_size) / np.float32(out_size)
    src = ratio * (i + np.float32(0.5)) - np.float32(0.5)
    return src if cubic else np.maximum(src, np.float32(0))


def cubic_weights(t, a=-0.75):
    """torch's bicubic convolution weights of the four taps around a fraction t."""
    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def interpolate(t, sizes, mode, scales, align_corners):
    """torch.nn.functional.interpolate on a channels-last tensor, one spatial axis at a time:
    each output element a weighted sum of input elements at indices torch computes."""
    for axis, (size, scale) in enumerate(zip(sizes, scales), start=1):
        n = t.shape[axis]
        if mode == "nearest":
            if size == n:
                continue
            if size == 2 * n:
                index = np.arange(size) // 2
            else:
                ratio = np.float32(1.0 / scale) if scale else np.float32(n) / np.float32(size)
                index = np.minimum(np.floor(np.arange(size, dtype=np.float32) * ratio).astype(np.int64), n - 1)
            t = keras.ops.take(t, index.tolist(), axis=axis)
            continue
        src = torch_source_index(size, n, scale, align_corners, mode == "cubic")
        if mode == "linear":
            low = np.minimum(np.floor(src).astype(np.int64), n - 1)
            frac = np.clip(src - low, 0, 1)
            taps = [(low, 1 - frac), (np.minimum(low + 1, n - 1), frac)]
        else:
            low = np.floor(src).astype(np.int64)
            weights = cubic_weights((src - low).astype(np.float64))
            taps = [(np.clip(low - 1 + k, 0, n - 1), weights[k]) for k in range(4)]
        shape = [1] * len(t.shape)
        shape[axis] = size
        out = None
        for index, weight in taps:
            w = keras.ops.reshape(keras.ops.convert_to_tensor(np.asarray(weight, np.float32)), shape)
            v = keras.ops.take(t, index.tolist(), axis=axis) * w
            out = v if out is None else out + v
        t = out
    return t"#;

/// Python names the port must not take for its variables (beside Python's keywords): the
/// script's modules, helpers and the builtins a model's code calls.
const RESERVED: &[&str] = &[
    "keras",
    "layers",
    "np",
    "numpy",
    "torch",
    "nn",
    "F",
    "tf",
    "jax",
    "jnp",
    "lax",
    "math",
    "source",
    "namespace",
    "PASTE",
    "inputs",
    "outputs",
    "model",
    "port",
    "rng",
    "AddBias",
    "LayerScale",
    "pad_by_index",
    "adaptive_pool",
    "interpolate",
    "torch_source_index",
    "cubic_weights",
    "input",
    "len",
    "range",
    "list",
    "tuple",
    "dict",
    "set",
    "min",
    "max",
    "sum",
    "abs",
    "pow",
    "round",
    "float",
    "int",
    "str",
    "bool",
    "print",
    "type",
    "id",
    "map",
    "zip",
    "all",
    "any",
    "iter",
    "next",
    "slice",
    "super",
    "object",
    "exec",
    "eval",
    "compile",
    "open",
    "format",
    "filter",
    "sorted",
    "reversed",
    "vars",
    "hash",
];

/// One Keras layer: its class and arguments (`name=` is added when it is written).
#[derive(Clone, Debug)]
struct Layer {
    name: String,
    class: String,
    args: Vec<String>,
}

impl Layer {
    fn ctor(&self) -> String {
        let mut args = self.args.clone();
        args.push(format!("name=\"{}\"", self.name));
        format!("{}({})", self.class, args.join(", "))
    }
}

/// What one port step becomes, line by line.
enum Line {
    /// A layer called on the previous value (the step's first input for the first line).
    Call(Layer),
    /// A layer called on the list of the step's inputs.
    Merge(Layer),
    /// One layer per output of the step, each called on the step's input.
    Each(Vec<Layer>),
    /// The step's input under the output's name (a source permute the port's order has).
    Same,
    /// A layer called with these arguments (`{x}`, `{x0}`...: the step's inputs), its
    /// outputs assigned to the step's (a recurrent layer's sequence and states).
    Apply(Layer, String),
}

/// Layer names: the plan's step names, and fresh ones for a step's extra layers.
struct Names {
    used: HashSet<String>,
}

impl Names {
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.used.contains(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        self.used.insert(name.clone());
        name
    }
}

struct Writer {
    helpers: Helpers,
    /// Definitions of layers no stock layer computes (the single-layer generator's builders).
    definitions: Py,
    names: Names,
    numpy: bool,
}

/// A Keras normalisation layer's `epsilon`, `center` and `scale`, those not at their default.
fn norm_kwargs(eps: f64, center: bool, scale: bool) -> Vec<String> {
    kwargs(&[
        ("epsilon", float(eps), "0.001"),
        ("center", py_bool(center).into(), "True"),
        ("scale", py_bool(scale).into(), "True"),
    ])
}

fn keyword(p: &KerasPad) -> String {
    format!(
        "\"{}\"",
        match p {
            KerasPad::Valid => "valid",
            KerasPad::Same => "same",
            KerasPad::Causal => "causal",
        }
    )
}

/// Keras's `momentum` (the weight of the running average) from torch's (the new batch's),
/// keeping the decimals as written (0.1 -> 0.9, not 0.9000000000000000222).
fn keras_momentum(torch: f64) -> f64 {
    ((1.0 - torch) * 1e12).round() / 1e12
}

/// A Keras `activation=` name, where Keras has one that computes the activation exactly.
fn activation_name(a: Activation) -> Option<&'static str> {
    Some(match a {
        Activation::Relu => "relu",
        Activation::Relu6 => "relu6",
        Activation::Elu(1.0) => "elu",
        Activation::LeakyRelu(0.2) => "leaky_relu",
        Activation::Selu => "selu",
        Activation::Tanh => "tanh",
        Activation::Sigmoid => "sigmoid",
        Activation::HardSigmoid => "hard_sigmoid",
        Activation::HardSwish => "hard_silu",
        Activation::Gelu { tanh: false } => "gelu",
        Activation::Silu => "silu",
        Activation::Mish => "mish",
        Activation::Softplus => "softplus",
        Activation::Softsign => "softsign",
        Activation::Softmax => "softmax",
        Activation::LogSoftmax => "log_softmax",
        Activation::Exp => "exponential",
        _ => return None,
    })
}

/// An activation as a layer: its class and arguments.
fn activation_layer(a: Activation) -> (String, Vec<String>) {
    let lambda = |body: &str| {
        (
            "layers.Lambda".to_string(),
            vec![format!("lambda t: {body}")],
        )
    };
    match a {
        Activation::Relu => ("layers.ReLU".into(), vec![]),
        Activation::Relu6 => ("layers.ReLU".into(), vec!["max_value=6.0".into()]),
        Activation::LeakyRelu(s) => (
            "layers.LeakyReLU".into(),
            vec![format!("negative_slope={}", float(s))],
        ),
        Activation::Elu(alpha) => (
            "layers.ELU".into(),
            kwargs(&[("alpha", float(alpha), "1.0")]),
        ),
        Activation::Softmax => ("layers.Softmax".into(), vec![]),
        Activation::Gelu { tanh: true } => lambda("keras.activations.gelu(t, approximate=True)"),
        Activation::Log => lambda("keras.ops.log(t)"),
        Activation::Sqrt => lambda("keras.ops.sqrt(t)"),
        Activation::Abs => lambda("keras.ops.abs(t)"),
        Activation::Neg => lambda("keras.ops.negative(t)"),
        Activation::Clip { lo, hi } => {
            lambda(&format!("keras.ops.clip(t, {}, {})", float(lo), float(hi)))
        }
        other => (
            "layers.Activation".into(),
            vec![format!(
                "\"{}\"",
                activation_name(other).unwrap_or("linear")
            )],
        ),
    }
}

/// A `lambda t:` padding expression over every axis (`pairs` all >= 0).
fn pad_expr(w: &mut Writer, pairs: &[(i64, i64)], fill: Fill, value: f64) -> String {
    let all = pad_list(pairs, 0, 0);
    match fill {
        Fill::Zero if value == 0.0 => format!("keras.ops.pad(t, {all})"),
        Fill::Zero => format!("keras.ops.pad(t, {all}, constant_values={})", float(value)),
        Fill::NegInf => format!("keras.ops.pad(t, {all}, constant_values=float(\"-inf\"))"),
        Fill::Reflect => format!("keras.ops.pad(t, {all}, mode=\"reflect\")"),
        Fill::Replicate => {
            w.helpers.add(PAD_BY_INDEX);
            format!("pad_by_index(t, {all}, \"replicate\")")
        }
        Fill::Circular => {
            w.helpers.add(PAD_BY_INDEX);
            format!("pad_by_index(t, {all}, \"circular\")")
        }
    }
}

/// `t[:, a:b, ...]` dropping `(before, after)` elements of every axis.
fn crop_expr(pairs: &[(i64, i64)]) -> String {
    let mut parts: Vec<String> = pairs
        .iter()
        .map(|&(b, a)| match (b, a) {
            (0, 0) => ":".to_string(),
            (b, 0) => format!("{b}:"),
            (0, a) => format!(":-{a}"),
            (b, a) => format!("{b}:-{a}"),
        })
        .collect();
    while parts.last().is_some_and(|s| s == ":") {
        parts.pop();
    }
    format!("t[{}]", parts.join(", "))
}

/// The spatial pairs when a pad touches only the axes a `ZeroPadding*D` / `Cropping*D` pads:
/// every axis but the first (batch) and the last (channels) of a rank-3 to rank-5 tensor.
fn spatial_pairs(pairs: &[(i64, i64)]) -> Option<&[(i64, i64)]> {
    let r = pairs.len();
    ((3..=5).contains(&r) && pairs[0] == (0, 0) && pairs[r - 1] == (0, 0)).then(|| &pairs[1..r - 1])
}

/// Whether torch's `nearest` interpolation from `n` to `size` elements reads element `i / k`
/// (what `UpSampling*D(size=k)` repeats), computed in float32 as torch does.
fn nearest_repeats(n: i64, size: i64, scale: Option<f64>) -> Option<i64> {
    if n <= 0 || size % n != 0 {
        return None;
    }
    let k = size / n;
    if size == n || size == 2 * n {
        return Some(k);
    }
    let ratio = match scale {
        Some(s) if s > 0.0 => (1.0 / s) as f32,
        _ => n as f32 / size as f32,
    };
    (0..size)
        .all(|i| (((i as f32) * ratio).floor() as i64).min(n - 1) == i / k)
        .then_some(k)
}

/// Writes the plan as Keras.
pub fn write(g: &Graph, plan: &PortPlan<KerasPad>) -> Result<Written, PortError> {
    let mut used: HashSet<String> = plan.steps.iter().map(|s| s.name.clone()).collect();
    used.extend(plan.inputs.iter().map(|p| p.name.clone()));
    let mut w = Writer {
        helpers: Helpers::default(),
        definitions: Py::new(),
        names: Names { used },
        numpy: false,
    };
    // Each step's layer name: its own, unless an earlier step has it (Keras refuses a name
    // used twice in a model).
    let mut taken = HashSet::new();
    let names: Vec<String> = plan
        .steps
        .iter()
        .map(|s| {
            let name = if taken.contains(&s.name) {
                w.names.fresh(&s.name)
            } else {
                s.name.clone()
            };
            taken.insert(name.clone());
            name
        })
        .collect();
    let live = live_steps(plan);
    let mut parts: Vec<Vec<Line>> = Vec::with_capacity(plan.steps.len());
    for (step, name) in plan.steps.iter().zip(&names) {
        parts.push(step_lines(&mut w, g, plan, step, name)?);
    }
    let mut access = Vec::new();
    for (i, (lines, name)) in parts.iter().zip(&names).enumerate() {
        if !live[i] {
            continue;
        }
        let mut a = Access::default();
        for l in lines {
            let layers: Vec<&Layer> = match l {
                Line::Call(x) | Line::Merge(x) | Line::Apply(x, _) => vec![x],
                Line::Each(v) => v.iter().collect(),
                Line::Same => vec![],
            };
            for x in layers {
                let expr = format!("model.get_layer(\"{}\")", x.name);
                if &x.name == name {
                    a.layer = expr;
                } else if x.class == "AddBias" {
                    a.bias = Some(expr);
                }
            }
        }
        if !a.layer.is_empty() {
            access.push((i, a));
        }
    }
    let chain = plan.is_chain()
        && parts
            .iter()
            .all(|p| p.iter().all(|l| matches!(l, Line::Call(_) | Line::Same)));
    let mut py = Py::new();
    py.import("import keras");
    py.import("from keras import layers");
    if w.numpy {
        py.import("import numpy as np");
    }
    w.helpers.write(&mut py);
    py.append(&w.definitions);
    py.blank();
    let integer = integer_inputs(plan);
    let input_ctor = |k: usize| {
        let p = &plan.inputs[k];
        let shape = p.tensor.shape.get(1..).unwrap_or(&[]);
        let dtype = if integer.contains(&p.var) {
            ", dtype=\"int32\""
        } else {
            ""
        };
        format!(
            "keras.Input(shape={}{dtype}, name=\"{}\")",
            tuple(shape),
            p.name
        )
    };
    if chain {
        py.line("model = keras.Sequential([");
        py.line(format!("    {},", input_ctor(0)));
        for (step, lines) in plan.steps.iter().zip(&parts) {
            let mut comment = note(g, step);
            for l in lines {
                if let Line::Call(layer) = l {
                    match comment.take() {
                        Some(c) => py.line(format!("    {},  # {c}", layer.ctor())),
                        None => py.line(format!("    {},", layer.ctor())),
                    };
                }
            }
        }
        py.line("])");
        return Ok(Written { py, access });
    }
    // The functional API: one line per layer, values named where they are read again.
    let vars = variable_names(plan, &[], &names, "inputs", variable);
    let names = vars;
    for (k, p) in plan.inputs.iter().enumerate() {
        py.line(format!("{} = {}", names[p.var.0], input_ctor(k)));
    }
    for (i, (step, lines)) in plan.steps.iter().zip(&parts).enumerate() {
        if !live[i] {
            if let Some(c) = note(g, step) {
                py.comment(format!(
                    "{c}: reaches no output (a Keras model leaves it out)"
                ));
            }
            continue;
        }
        let xs: Vec<&str> = step.inputs.iter().map(|v| names[v.0].as_str()).collect();
        let outs: Vec<&str> = step.outputs.iter().map(|v| names[v.0].as_str()).collect();
        let Some(&first_out) = outs.first() else {
            continue;
        };
        let mut comment = note(g, step).map(|c| format!("  # {c}"));
        let mut current = xs.first().copied().unwrap_or("inputs").to_string();
        for l in lines {
            let c = comment.take().unwrap_or_default();
            match l {
                Line::Call(layer) => {
                    py.line(format!("{first_out} = {}({current}){c}", layer.ctor()));
                    current = first_out.to_string();
                }
                Line::Merge(layer) => {
                    py.line(format!(
                        "{first_out} = {}([{}]){c}",
                        layer.ctor(),
                        xs.join(", ")
                    ));
                    current = first_out.to_string();
                }
                Line::Each(layers) => {
                    for (j, (layer, out)) in layers.iter().zip(&outs).enumerate() {
                        let c = if j == 0 { c.as_str() } else { "" };
                        py.line(format!("{out} = {}({current}){c}", layer.ctor()));
                    }
                }
                Line::Same => {
                    if first_out != current {
                        py.line(format!("{first_out} = {current}{c}"));
                    }
                    current = first_out.to_string();
                }
                Line::Apply(layer, call) => {
                    let args = fill(call, &current, &xs);
                    py.line(format!("{} = {}({args}){c}", outs.join(", "), layer.ctor()));
                    current = first_out.to_string();
                }
            }
        }
    }
    let ins = port_names(&names, &plan.inputs);
    let outs = port_names(&names, &plan.outputs);
    let group = |v: &[&str]| match v {
        [one] => one.to_string(),
        many => format!("[{}]", many.join(", ")),
    };
    py.line(format!(
        "model = keras.Model({}, {})",
        group(&ins),
        group(&outs)
    ));
    Ok(Written { py, access })
}

/// Which steps reach a model output (a functional Keras model leaves the others out).
fn live_steps(plan: &PortPlan<KerasPad>) -> Vec<bool> {
    let mut needed: HashSet<Var> = plan.outputs.iter().map(|p| p.var).collect();
    let mut live = vec![false; plan.steps.len()];
    for (i, s) in plan.steps.iter().enumerate().rev() {
        if s.outputs.iter().any(|v| needed.contains(v)) {
            live[i] = true;
            needed.extend(s.inputs.iter().copied());
        }
    }
    live
}

/// The inputs read by an embedding (directly or through renamings): integer token indices.
fn integer_inputs(plan: &PortPlan<KerasPad>) -> Vec<Var> {
    let mut out = Vec::new();
    for p in &plan.inputs {
        let mut frontier = vec![p.var];
        let mut found = false;
        while let Some(v) = frontier.pop() {
            for s in plan.steps.iter().filter(|s| s.inputs.contains(&v)) {
                match s.op {
                    PortOp::Embedding { .. } => found = true,
                    PortOp::Alias | PortOp::Identity => frontier.extend(s.outputs.iter().copied()),
                    _ => {}
                }
            }
        }
        if found {
            out.push(p.var);
        }
    }
    out
}

/// A step name as a Python variable (never one of the script's own names).
fn variable(name: &str) -> String {
    if RESERVED.contains(&name) || KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

fn step_lines(
    w: &mut Writer,
    g: &Graph,
    plan: &PortPlan<KerasPad>,
    step: &PortStep<KerasPad>,
    name: &str,
) -> Result<Vec<Line>, PortError> {
    let name = name.to_string();
    let line = error_line(g, step);
    let input = step.inputs.first().copied().unwrap_or(Var(0));
    let in_shape = plan.tensors.get(input.0).map_or(&[][..], |t| &t.shape[..]);
    let rank = in_shape.len();
    let out_shape = plan.output_shape(step);
    let layer = |name: &str, class: &str, args: Vec<String>| Layer {
        name: name.to_string(),
        class: class.to_string(),
        args,
    };
    let lambda = |name: &str, body: String| Layer {
        name: name.to_string(),
        class: "layers.Lambda".into(),
        args: vec![format!("lambda t: {body}")],
    };
    let main = |class: &str, args: Vec<String>| Line::Call(layer(&name, class, args));
    let mut lines = Vec::new();
    match &step.op {
        PortOp::Alias => lines.push(Line::Same),
        PortOp::Transpose(q) => {
            if q.first() == Some(&0) {
                let rest: Vec<i64> = q[1..].iter().map(|&a| a as i64).collect();
                lines.push(main("layers.Permute", vec![tuple(&rest)]));
            } else {
                let all: Vec<i64> = q.iter().map(|&a| a as i64).collect();
                lines.push(Line::Call(lambda(
                    &name,
                    format!("keras.ops.transpose(t, {})", tuple(&all)),
                )));
            }
        }
        PortOp::Conv(c) => conv_lines(w, &mut lines, &name, line, c)?,
        PortOp::Pool { plan: pp, spec } => {
            let n = spec.input.len();
            let stock = single_calls(&pp.steps, true);
            if stock {
                for s in &pp.steps {
                    match s {
                        Step::Pool(p) => {
                            let kind = if p.max { "Max" } else { "Average" };
                            lines.push(main(
                                &format!("layers.{kind}Pooling{n}D"),
                                [short(&p.kernel)]
                                    .into_iter()
                                    .chain(kwargs(&[
                                        ("strides", short(&p.stride), &short(&p.kernel)),
                                        ("padding", keyword(&p.padding), "\"valid\""),
                                    ]))
                                    .collect(),
                            ));
                        }
                        other => lines.push(plan_step_line(w, other, n, &name, line)?),
                    }
                }
            } else {
                let function = format!("{name}_layer");
                embed_layer::<Keras>(&mut w.definitions, spec, pp, &function);
                lines.push(main(
                    "keras.Sequential",
                    vec![format!("{function}().layers")],
                ));
            }
        }
        PortOp::AdaptivePool {
            max,
            input: sizes_in,
            output,
            uniform,
        } => {
            let n = output.len();
            if *uniform {
                let k: Vec<i64> = sizes_in
                    .iter()
                    .zip(output)
                    .map(|(&i, &o)| i / o.max(1))
                    .collect();
                let kind = if *max { "Max" } else { "Average" };
                lines.push(main(&format!("layers.{kind}Pooling{n}D"), vec![short(&k)]));
            } else {
                w.helpers.add(ADAPTIVE_POOL);
                let reduce = if *max {
                    "keras.ops.max"
                } else {
                    "keras.ops.mean"
                };
                lines.push(Line::Call(lambda(
                    &name,
                    format!("adaptive_pool(t, {}, {reduce})", tuple(output)),
                )));
            }
        }
        PortOp::GlobalPool {
            max,
            keepdims,
            rank: n,
        } => {
            let kind = if *max { "Max" } else { "Average" };
            lines.push(main(
                &format!("layers.Global{kind}Pooling{n}D"),
                kwargs(&[("keepdims", py_bool(*keepdims).into(), "False")]),
            ));
        }
        PortOp::BatchNorm {
            axis,
            eps,
            momentum,
            center,
            scale,
            ..
        } => {
            let a = if *axis + 1 == rank {
                "-1".to_string()
            } else {
                axis.to_string()
            };
            lines.push(main(
                "layers.BatchNormalization",
                kwargs(&[
                    ("axis", a, "-1"),
                    ("momentum", float(keras_momentum(*momentum)), "0.99"),
                ])
                .into_iter()
                .chain(norm_kwargs(*eps, *center, *scale))
                .collect(),
            ));
        }
        PortOp::Standardize {
            axes,
            shape,
            values,
        } => {
            let axis = match axes.as_slice() {
                [] => "None".to_string(),
                [a] if *a + 1 == rank => "-1".to_string(),
                [a] => a.to_string(),
                many => tuple(&many.iter().map(|&a| a as i64).collect::<Vec<_>>()),
            };
            let mut args = kwargs(&[("axis", axis, "-1")]);
            if let Some((mean, variance)) = values {
                // Shaped as the kept axes (1 where they broadcast).
                let dims: Vec<i64> = axes.iter().map(|&a| shape[a]).collect();
                args.push(format!("mean={}", float_list(mean, &dims)));
                args.push(format!("variance={}", float_list(variance, &dims)));
            }
            lines.push(main("layers.Normalization", args));
        }
        PortOp::LayerScale { shape } => {
            if shape
                .iter()
                .rposition(|&d| d != 1)
                .is_some_and(|a| a + 1 != rank)
            {
                return Err(PortError::at(
                    line,
                    "a LayerScale whose weight is not on the last axis of the Keras port's tensor",
                ));
            }
            w.helpers.add(LAYER_SCALE);
            lines.push(main("LayerScale", vec![]));
        }
        PortOp::LayerNorm(ln) => {
            let axes = match ln.axes().as_slice() {
                [one] => one.to_string(),
                many => list(many),
            };
            lines.push(main(
                "layers.LayerNormalization",
                kwargs(&[("axis", axes, "-1")])
                    .into_iter()
                    .chain(norm_kwargs(ln.eps, ln.center, ln.scale))
                    .collect(),
            ));
        }
        // Instance normalisation is group normalisation with one channel per group.
        PortOp::GroupNorm {
            groups,
            eps,
            affine,
            ..
        }
        | PortOp::InstanceNorm {
            features: groups,
            eps,
            affine,
        } => {
            lines.push(main(
                "layers.GroupNormalization",
                [format!("groups={groups}")]
                    .into_iter()
                    .chain(norm_kwargs(*eps, *affine, *affine))
                    .collect(),
            ));
        }
        PortOp::Activation(a) => {
            let (class, args) = activation_layer(*a);
            lines.push(main(&class, args));
        }
        PortOp::Softmax { axis, log } => {
            if *log {
                lines.push(Line::Call(lambda(
                    &name,
                    format!("keras.ops.log_softmax(t, axis={axis})"),
                )));
            } else {
                let a = if *axis + 1 == rank {
                    "-1".to_string()
                } else {
                    axis.to_string()
                };
                lines.push(main("layers.Softmax", kwargs(&[("axis", a, "-1")])));
            }
        }
        PortOp::Dropout { rate } => lines.push(main("layers.Dropout", vec![float(*rate)])),
        PortOp::Identity => lines.push(main("layers.Identity", vec![])),
        PortOp::Flatten { start, end } => {
            if *start == 1 && *end + 1 == rank {
                lines.push(main("layers.Flatten", vec![]));
            } else {
                lines.push(reshape_line(&name, in_shape, out_shape));
            }
        }
        PortOp::Reshape { .. } | PortOp::Unsqueeze(_) | PortOp::Squeeze(_) => {
            lines.push(reshape_line(&name, in_shape, out_shape));
        }
        PortOp::Slice(axes) => {
            lines.push(Line::Call(lambda(
                &name,
                format!("t{}", slice_index(rank, axes)),
            )));
        }
        PortOp::Take { axis, indices } => {
            lines.push(Line::Call(lambda(
                &name,
                format!(
                    "keras.ops.take(t, {}, axis={axis})",
                    crate::codegen::writer::list(indices)
                ),
            )));
        }
        PortOp::Split { axis, sizes } => {
            let mut start = 0;
            let mut each = Vec::new();
            for (k, &size) in sizes.iter().enumerate() {
                let mut parts: Vec<String> = vec![":".into(); axis + 1];
                parts[*axis] = format!("{start}:{}", start + size);
                start += size;
                let lname = if k == 0 {
                    name.clone()
                } else {
                    w.names.fresh(&format!("{name}_{k}"))
                };
                each.push(lambda(&lname, format!("t[{}]", parts.join(", "))));
            }
            lines.push(Line::Each(each));
        }
        PortOp::Learned { op, shape } => {
            w.helpers.add(LEARNED);
            let f = format!("lambda t, w: {}", learned_expr(*op, "t", "w", "keras.ops"));
            lines.push(main("Learned", vec![tuple(shape), f]));
        }
        PortOp::Stack { axis } => lines.push(Line::Merge(layer(
            &name,
            "layers.Lambda",
            vec![format!("lambda ts: keras.ops.stack(ts, axis={axis})")],
        ))),
        // The batch kept: times ones of the shape with a batch of one (exact).
        PortOp::Expand { shape } => lines.push(Line::Call(lambda(
            &name,
            format!("t * keras.ops.ones({})", tuple(&batch_one(shape))),
        ))),
        PortOp::Concat { axis } => {
            if step.inputs.len() < 2 {
                lines.push(main("layers.Identity", vec![]));
            } else if *axis == 0 {
                lines.push(Line::Merge(layer(
                    &name,
                    "layers.Lambda",
                    vec!["lambda ts: keras.ops.concatenate(ts, axis=0)".into()],
                )));
            } else {
                let a = if *axis + 1 == rank {
                    "-1".to_string()
                } else {
                    axis.to_string()
                };
                lines.push(Line::Merge(layer(
                    &name,
                    "layers.Concatenate",
                    kwargs(&[("axis", a, "-1")]),
                )));
            }
        }
        PortOp::Dense {
            units,
            bias,
            activation,
            ..
        } => {
            let inline = activation.and_then(activation_name);
            lines.push(main(
                "layers.Dense",
                [units.to_string()]
                    .into_iter()
                    .chain(kwargs(&[
                        (
                            "activation",
                            inline.map_or("None".into(), |a| format!("\"{a}\"")),
                            "None",
                        ),
                        ("use_bias", py_bool(*bias).into(), "True"),
                    ]))
                    .collect(),
            ));
            if let (Some(a), None) = (activation, inline) {
                let (class, args) = activation_layer(*a);
                let aname = w.names.fresh(&format!("{name}_act"));
                lines.push(Line::Call(layer(&aname, &class, args)));
            }
        }
        PortOp::MatMul => lines.push(Line::Merge(layer(
            &name,
            "layers.Lambda",
            vec!["lambda ts: keras.ops.matmul(ts[0], ts[1])".into()],
        ))),
        PortOp::Embedding { vocab, dim, .. } => {
            lines.push(main(
                "layers.Embedding",
                vec![vocab.to_string(), dim.to_string()],
            ));
        }
        PortOp::Pad { pairs, fill } => {
            let crop: Vec<(i64, i64)> = pairs
                .iter()
                .map(|&(b, a)| ((-b).max(0), (-a).max(0)))
                .collect();
            let pad: Vec<(i64, i64)> = pairs.iter().map(|&(b, a)| (b.max(0), a.max(0))).collect();
            let crops = crop.iter().any(|&(b, a)| b > 0 || a > 0);
            let pads = pad.iter().any(|&(b, a)| b > 0 || a > 0);
            let (f, value) = match fill {
                PadFill::Constant(v) => (Fill::Zero, *v),
                PadFill::Reflect => (Fill::Reflect, 0.0),
                PadFill::Replicate => (Fill::Replicate, 0.0),
                PadFill::Circular => (Fill::Circular, 0.0),
            };
            let crop_name = if pads {
                w.names.fresh(&format!("{name}_crop"))
            } else {
                name.clone()
            };
            if crops {
                match spatial_pairs(&crop) {
                    Some(sp) => lines.push(Line::Call(layer(
                        &crop_name,
                        &format!("layers.Cropping{}D", sp.len()),
                        vec![pair_tuples(sp)],
                    ))),
                    None => lines.push(Line::Call(lambda(&crop_name, crop_expr(&crop)))),
                }
            }
            if pads {
                match (spatial_pairs(&pad), f, value == 0.0) {
                    (Some(sp), Fill::Zero, true) => lines.push(main(
                        &format!("layers.ZeroPadding{}D", sp.len()),
                        vec![pair_tuples(sp)],
                    )),
                    _ => {
                        let body = pad_expr(w, &pad, f, value);
                        lines.push(Line::Call(lambda(&name, body)));
                    }
                }
            }
            if !crops && !pads {
                lines.push(main("layers.Identity", vec![]));
            }
        }
        PortOp::Upsample {
            input: sizes_in,
            output,
            scale,
            mode,
            align_corners,
        } => upsample_lines(
            w,
            &mut lines,
            &name,
            plan.source,
            (sizes_in, output, scale.as_deref()),
            *mode,
            *align_corners,
        ),
        PortOp::Elementwise {
            op,
            constant,
            constant_first,
        } => {
            let text = |constant, inputs| {
                elementwise(*op, constant, *constant_first, inputs, "keras.ops", "{}")
            };
            match constant {
                Some(c) => {
                    let body = fill(&text(Some(*c), 1), "t", &[]);
                    lines.push(Line::Call(lambda(&name, body)));
                }
                None => {
                    let ranks: Vec<usize> = step
                        .inputs
                        .iter()
                        .map(|v| plan.tensors.get(v.0).map_or(0, |t| t.shape.len()))
                        .collect();
                    let same_rank = ranks.iter().all(|&k| k == ranks[0]);
                    let class = match op {
                        Binary::Add => Some("layers.Add"),
                        Binary::Sub if step.inputs.len() == 2 => Some("layers.Subtract"),
                        Binary::Mul => Some("layers.Multiply"),
                        Binary::Max => Some("layers.Maximum"),
                        Binary::Min => Some("layers.Minimum"),
                        _ => None,
                    };
                    match (class, same_rank && step.inputs.len() >= 2) {
                        (Some(class), true) => {
                            lines.push(Line::Merge(layer(&name, class, vec![])));
                        }
                        _ if step.inputs.len() < 2 => {
                            lines.push(main("layers.Identity", vec![]));
                        }
                        _ => {
                            let n = step.inputs.len();
                            let ts: Vec<String> = (0..n).map(|k| format!("ts[{k}]")).collect();
                            let ts: Vec<&str> = ts.iter().map(String::as_str).collect();
                            let acc = fill(&text(None, n), "ts[0]", &ts);
                            lines.push(Line::Merge(layer(
                                &name,
                                "layers.Lambda",
                                vec![format!("lambda ts: {acc}")],
                            )));
                        }
                    }
                }
            }
        }
        PortOp::Affine { scale, offset } => lines.push(main(
            "layers.Rescaling",
            [float(*scale)]
                .into_iter()
                .chain(kwargs(&[("offset", float(*offset), "0.0")]))
                .collect(),
        )),
        PortOp::Reduce { op, axes, keepdims } => {
            let f = reduce_name(*op);
            let a: Vec<i64> = axes.iter().map(|&a| a as i64).collect();
            let k = if *keepdims { ", keepdims=True" } else { "" };
            lines.push(Line::Call(lambda(
                &name,
                format!("keras.ops.{f}(t, axis={}{k})", tuple(&a)),
            )));
        }
        PortOp::PixelShuffle(r) => {
            let [_, h, wd, c] = in_shape else {
                return Err(PortError::at(
                    line,
                    format!(
                        "a pixel shuffle of a rank-{rank} tensor is not ported to Keras (only images)"
                    ),
                ));
            };
            let (h, wd, c, r) = (*h, *wd, *c, *r);
            if r <= 0 || c % (r * r) != 0 {
                return Err(PortError::at(
                    line,
                    format!("a pixel shuffle by {r} of {c} channels"),
                ));
            }
            // torch takes channel c * r * r + i * r + j to row offset i, column offset j.
            lines.push(Line::Call(lambda(
                &name,
                format!(
                    "keras.ops.reshape(keras.ops.transpose(keras.ops.reshape(t, (-1, {h}, {wd}, {}, {r}, {r})), (0, 1, 4, 2, 5, 3)), (-1, {}, {}, {}))",
                    c / (r * r),
                    h * r,
                    wd * r,
                    c / (r * r)
                ),
            )));
        }
        PortOp::Flip { axis } => lines.push(Line::Call(lambda(
            &name,
            format!("keras.ops.flip(t, axis={axis})"),
        ))),
        PortOp::Cell(c) => {
            let class = match c.cell {
                CellKind::Lstm => "layers.LSTM",
                CellKind::Gru { .. } => "layers.GRU",
                CellKind::Simple => "layers.SimpleRNN",
            };
            let text = |a: Activation| -> Result<String, PortError> {
                activation_name(a)
                    .map(|n| format!("\"{n}\""))
                    .ok_or_else(|| {
                        PortError::at(
                            line,
                            format!("{name}: a recurrent activation Keras has no name for ({a:?})"),
                        )
                    })
            };
            let mut args = vec![c.hidden.to_string()];
            args.extend(kwargs(&[("activation", text(c.activation)?, "\"tanh\"")]));
            if c.cell != CellKind::Simple {
                args.extend(kwargs(&[(
                    "recurrent_activation",
                    text(c.recurrent_activation)?,
                    "\"sigmoid\"",
                )]));
            }
            args.extend(kwargs(&[("use_bias", py_bool(c.bias).into(), "True")]));
            if c.cell == (CellKind::Gru { reset_after: false }) {
                args.push("reset_after=False".into());
            }
            args.push("return_sequences=True".into());
            args.push("return_state=True".into());
            lines.push(Line::Apply(layer(&name, class, args), "{x}".into()));
        }
        PortOp::Attention(a) => {
            let mut args = vec![
                format!("num_heads={}", a.heads),
                format!("key_dim={}", a.key_dim),
            ];
            if a.value_dim != a.key_dim {
                args.push(format!("value_dim={}", a.value_dim));
            }
            if a.output != a.query {
                args.push(format!("output_shape={}", a.output));
            }
            args.extend(kwargs(&[("use_bias", py_bool(a.bias).into(), "True")]));
            lines.push(Line::Apply(
                layer(&name, "layers.MultiHeadAttention", args),
                "{x0}, {x2}, key={x1}, return_attention_scores=True".into(),
            ));
        }
        PortOp::Random { normal } => {
            let f = if *normal { "normal" } else { "uniform" };
            lines.push(Line::Call(Layer {
                name: name.clone(),
                class: "layers.Lambda".into(),
                args: vec![
                    format!("lambda t: keras.random.{f}(keras.ops.shape(t))"),
                    format!("output_shape={}", tuple(out_shape.get(1..).unwrap_or(&[]))),
                ],
            }));
        }
    }
    Ok(lines)
}

/// A reshape that keeps the batch as `layers.Reshape`, else `keras.ops.reshape`.
fn reshape_line(name: &str, in_shape: &[i64], out_shape: &[i64]) -> Line {
    if !in_shape.is_empty() && in_shape.first() == out_shape.first() {
        Line::Call(Layer {
            name: name.to_string(),
            class: "layers.Reshape".into(),
            args: vec![tuple(out_shape.get(1..).unwrap_or(&[]))],
        })
    } else {
        let mut shape = out_shape.to_vec();
        if let Some(b) = shape.first_mut() {
            *b = -1;
        }
        Line::Call(Layer {
            name: name.to_string(),
            class: "layers.Lambda".into(),
            args: vec![format!("lambda t: keras.ops.reshape(t, {})", tuple(&shape))],
        })
    }
}

/// A pad, crop or empty-window step of a single-layer plan as a layer (spatial axes only).
fn plan_step_line(
    w: &mut Writer,
    s: &Step<KerasPad>,
    n: usize,
    name: &str,
    line: usize,
) -> Result<Line, PortError> {
    let full = |pairs: &[(i64, i64)]| -> Vec<(i64, i64)> {
        std::iter::once((0, 0))
            .chain(pairs.iter().copied())
            .chain(std::iter::once((0, 0)))
            .collect()
    };
    Ok(match s {
        Step::Pad {
            pairs,
            fill: Fill::Zero,
        } => Line::Call(Layer {
            name: w.names.fresh(&format!("{name}_pad")),
            class: format!("layers.ZeroPadding{n}D"),
            args: vec![pair_tuples(pairs)],
        }),
        Step::Pad { pairs, fill } => {
            let body = pad_expr(w, &full(pairs), *fill, 0.0);
            Line::Call(Layer {
                name: w.names.fresh(&format!("{name}_pad")),
                class: "layers.Lambda".into(),
                args: vec![format!("lambda t: {body}")],
            })
        }
        Step::Crop { pairs } => Line::Call(Layer {
            name: w.names.fresh(&format!("{name}_crop")),
            class: format!("layers.Cropping{n}D"),
            args: vec![pair_tuples(pairs)],
        }),
        Step::EmptyWindows { to_neg_inf } => {
            // Windows with no input element: the value the source gives there.
            let (lowest, neg_inf) = ("-3.4028234663852886e38", "float(\"-inf\")");
            let (from, to) = if *to_neg_inf {
                (lowest, neg_inf)
            } else {
                (neg_inf, lowest)
            };
            Line::Call(Layer {
                name: w.names.fresh(&format!("{name}_empty")),
                class: "layers.Lambda".into(),
                args: vec![format!("lambda t: keras.ops.where(t == {from}, {to}, t)")],
            })
        }
        _ => {
            return Err(PortError::at(
                line,
                "a step of this layer's plan has no Keras layer",
            ));
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn conv_lines(
    w: &mut Writer,
    lines: &mut Vec<Line>,
    name: &str,
    line: usize,
    c: &PortConv<KerasPad>,
) -> Result<(), PortError> {
    let (cp, conv) = (&c.plan, &c.conv);
    let n = c.rank();
    let shape = &cp.semantics.shape;
    let (out, groups) = c.out_and_groups();
    let depthwise = match conv.groups {
        Groups::Depthwise { multiplier } => Some(multiplier),
        Groups::Count(_) => None,
    };
    let layer_bias = conv.bias && !cp.adds_bias();
    // The activation goes in the layer when the layer is the plan's last step.
    let last_is_layer = matches!(
        cp.steps.last(),
        Some(Step::Conv { .. } | Step::ConvTranspose { .. })
    );
    let inline = conv
        .activation
        .and_then(activation_name)
        .filter(|_| last_is_layer);
    let activation = (
        "activation",
        inline.map_or("None".into(), |a| format!("\"{a}\"")),
        "None",
    );
    for s in &cp.steps {
        match s {
            Step::Conv(ConvStep {
                padding,
                kernel,
                dilation,
                padding_mode,
                ..
            }) => {
                if *padding_mode != PaddingMode::Zeros {
                    return Err(PortError::at(
                        line,
                        "a padding mode inside a Keras convolution (padlab pads apart)",
                    ));
                }
                let common = |first: Vec<String>, extra: &[(&str, String, &str)]| -> Vec<String> {
                    let mut a = first;
                    a.extend(kwargs(&[
                        ("strides", short(&shape.stride), "1"),
                        ("padding", keyword(padding), "\"valid\""),
                    ]));
                    a.extend(kwargs(extra));
                    a
                };
                let (class, args) = match (depthwise, conv.separable) {
                    (Some(mult), true) if n <= 2 => (
                        format!("layers.SeparableConv{n}D"),
                        common(
                            vec![conv.filters.to_string(), short(kernel)],
                            &[
                                ("depth_multiplier", mult.to_string(), "1"),
                                ("dilation_rate", short(dilation), "1"),
                                activation.clone(),
                                ("use_bias", py_bool(conv.bias).into(), "True"),
                            ],
                        ),
                    ),
                    (Some(mult), false) if n <= 2 => (
                        format!("layers.DepthwiseConv{n}D"),
                        common(
                            vec![short(kernel)],
                            &[
                                ("depth_multiplier", mult.to_string(), "1"),
                                ("dilation_rate", short(dilation), "1"),
                                activation.clone(),
                                ("use_bias", py_bool(layer_bias).into(), "True"),
                            ],
                        ),
                    ),
                    (_, true) => {
                        return Err(PortError::at(
                            line,
                            format!("a {n}-D separable convolution: Keras has none"),
                        ));
                    }
                    _ => (
                        format!("layers.Conv{n}D"),
                        common(
                            vec![out.to_string(), short(kernel)],
                            &[
                                ("dilation_rate", short(dilation), "1"),
                                ("groups", groups.to_string(), "1"),
                                activation.clone(),
                                ("use_bias", py_bool(layer_bias).into(), "True"),
                            ],
                        ),
                    ),
                };
                lines.push(Line::Call(Layer {
                    name: name.to_string(),
                    class,
                    args,
                }));
            }
            Step::ConvTranspose(t) => {
                if groups != 1 || conv.separable {
                    return Err(PortError::at(
                        line,
                        format!(
                            "a transposed convolution in {groups} groups: Keras's Conv{n}DTranspose has no groups"
                        ),
                    ));
                }
                let mut args = vec![out.to_string(), short(&t.kernel)];
                args.extend(kwargs(&[
                    ("strides", short(&shape.stride), "1"),
                    ("padding", keyword(&t.padding), "\"valid\""),
                    (
                        "output_padding",
                        t.output_padding.as_deref().map_or("None".into(), short),
                        "None",
                    ),
                    ("dilation_rate", short(&t.dilation), "1"),
                    activation.clone(),
                    ("use_bias", py_bool(layer_bias).into(), "True"),
                ]));
                lines.push(Line::Call(Layer {
                    name: name.to_string(),
                    class: format!("layers.Conv{n}DTranspose"),
                    args,
                }));
            }
            Step::AddBias => {
                if conv.bias {
                    w.helpers.add(ADD_BIAS);
                    lines.push(Line::Call(Layer {
                        name: w.names.fresh(&format!("{name}_bias")),
                        class: "AddBias".into(),
                        args: vec![],
                    }));
                }
            }
            Step::Pool { .. } | Step::AverageRatio { .. } => {
                return Err(PortError::at(line, "a pooling step in a convolution"));
            }
            other => lines.push(plan_step_line(w, other, n, name, line)?),
        }
    }
    if let (Some(a), None) = (conv.activation, inline) {
        let (class, args) = activation_layer(a);
        lines.push(Line::Call(Layer {
            name: w.names.fresh(&format!("{name}_act")),
            class,
            args,
        }));
    }
    Ok(())
}

/// An upsampling: the source's own Keras layer for a Keras source; for torch, `UpSampling*D`
/// where it computes torch's `interpolate` exactly (repeating by integer factors; bilinear by
/// integer factors without `align_corners`), else the `interpolate` helper (torch's indices and
/// weights, exact on every backend).
fn upsample_lines(
    w: &mut Writer,
    lines: &mut Vec<Line>,
    name: &str,
    source: Framework,
    (sizes_in, output, scale): (&[i64], &[i64], Option<&[f64]>),
    mode: Interpolation,
    align_corners: bool,
) {
    let n = output.len();
    let scale_of = |k: usize| scale.and_then(|s| s.get(k).or(s.first()).copied());
    let interpolation = match mode {
        Interpolation::Nearest => "nearest",
        Interpolation::Linear => "bilinear",
        Interpolation::Bicubic => "bicubic",
    };
    let layer = |class: String, args: Vec<String>| {
        Line::Call(Layer {
            name: name.to_string(),
            class,
            args,
        })
    };
    let factors: Option<Vec<i64>> = sizes_in
        .iter()
        .zip(output)
        .map(|(&i, &o)| (i > 0 && o % i == 0).then(|| o / i))
        .collect();
    let upsampling = |k: &[i64], interp: &str| {
        let mut args = vec![format!("size={}", short(k))];
        if interp != "nearest" {
            args.push(format!("interpolation=\"{interp}\""));
        }
        layer(format!("layers.UpSampling{n}D"), args)
    };
    if source == Framework::Keras && !align_corners {
        // The source's own layer: the same numbers on every backend.
        match (scale, &factors) {
            (Some(_), Some(k)) if mode == Interpolation::Nearest || n == 2 => {
                lines.push(upsampling(k, interpolation));
                return;
            }
            _ if n == 2 => {
                lines.push(layer(
                    "layers.Resizing".into(),
                    vec![
                        output[0].to_string(),
                        output[1].to_string(),
                        format!("interpolation=\"{interpolation}\""),
                    ],
                ));
                return;
            }
            _ => {}
        }
    }
    if source != Framework::Keras {
        match (mode, &factors) {
            (Interpolation::Nearest, Some(k))
                if (0..n).all(|a| {
                    nearest_repeats(sizes_in[a], output[a], scale_of(a)) == Some(k[a])
                }) =>
            {
                lines.push(upsampling(k, "nearest"));
                return;
            }
            (Interpolation::Linear, Some(k)) if n == 2 && !align_corners => {
                lines.push(upsampling(k, "bilinear"));
                return;
            }
            _ => {}
        }
    }
    w.helpers.add(INTERPOLATE);
    w.numpy = true;
    let m = match mode {
        Interpolation::Nearest => "nearest",
        Interpolation::Linear => "linear",
        Interpolation::Bicubic => "cubic",
    };
    let scales: Vec<String> = (0..n)
        .map(|a| scale_of(a).map_or("None".into(), float))
        .collect();
    let scales = match scales.as_slice() {
        [one] => format!("({one},)"),
        many => format!("({})", many.join(", ")),
    };
    lines.push(layer(
        "layers.Lambda".into(),
        vec![format!(
            "lambda t: interpolate(t, {}, \"{m}\", {scales}, {})",
            tuple(output),
            py_bool(align_corners)
        )],
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torch_nearest_repeats_only_where_its_float_indices_do() {
        assert_eq!(nearest_repeats(4, 8, Some(2.0)), Some(2));
        assert_eq!(nearest_repeats(5, 15, Some(3.0)), Some(3));
        assert_eq!(nearest_repeats(4, 6, Some(1.5)), None);
        assert_eq!(nearest_repeats(7, 7, None), Some(1));
    }

    #[test]
    fn crops_and_pads_are_written_per_axis() {
        assert_eq!(
            crop_expr(&[(0, 0), (1, 2), (0, 3), (0, 0)]),
            "t[:, 1:-2, :-3]"
        );
        assert_eq!(
            spatial_pairs(&[(0, 0), (1, 2), (0, 0)]),
            Some(&[(1, 2)][..])
        );
        assert_eq!(spatial_pairs(&[(0, 0), (1, 2)]), None);
        assert_eq!(spatial_pairs(&[(0, 0), (0, 0), (1, 1), (0, 1)]), None);
        assert_eq!(keras_momentum(0.1), 0.9);
        assert_eq!(keras_momentum(1.0 - 0.99), 0.99);
    }
}
