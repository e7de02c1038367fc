//! A port as PyTorch: an `nn.Sequential` when the model is one path of stock modules, else an
//! `nn.Module` with its layers in `__init__` and one `forward` line per operation. Padded
//! layers are their single-layer plans' steps (an explicit `nn.ZeroPad2d` before a `padding=0`
//! convolution, a crop as negative pads, the bias added after a crop); a pool no stock module
//! computes is the single-layer generator's own class.

use super::{float, py_bool};
use crate::codegen::plan::{Fill, Step};
use crate::codegen::torch::{Torch, TorchPad, class_name, pad_module, padding_value, pool_module};
use crate::codegen::writer::{Py, args, short, torch_pad_tuple, tuple};
use crate::core::PaddingMode;
use crate::model::graph::Graph;
use crate::model::op::{Activation, CellKind, Interpolation, PadFill, Reduce};

use super::lines::{
    Helpers, assignments, elementwise, embed_layer, error_line, fill, float_list, learned_expr,
    note, port_names, single_calls, slice_index, variable_names,
};
use super::plan::{PortOp, PortPlan, PortStep, Var};
use super::{Access, PortError, Written};

const BIAS: &str = r#"class Bias(nn.Module):
    """A per-channel bias, added after the crop or zero-extension the source adds it after."""

    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return x + self.bias.view(1, -1, *([1] * (x.dim() - 2)))"#;

const EMPTY_WINDOWS: &str = r#"class EmptyWindows(nn.Module):
    """Max-pool windows that read no input hold the value the source gives there."""

    def __init__(self, to_neg_inf):
        super().__init__()
        self.to_neg_inf = to_neg_inf

    def forward(self, x):
        lowest = torch.finfo(x.dtype).min
        if self.to_neg_inf:
            return x.masked_fill(x == lowest, float("-inf"))
        return x.masked_fill(x == float("-inf"), lowest)"#;

const PERMUTE: &str = r#"class Permute(nn.Module):
    """Reorders the axes (the source keeps its channels elsewhere)."""

    def __init__(self, *order):
        super().__init__()
        self.order = order

    def forward(self, x):
        return x.permute(*self.order)"#;

const RESHAPE: &str = r#"class Reshape(nn.Module):
    """Reshapes to (-1, *shape): the batch axis, or what ONNX's Flatten(axis > 1) folds into it."""

    def __init__(self, *shape):
        super().__init__()
        self.shape = shape

    def forward(self, x):
        return x.reshape(-1, *self.shape)"#;

const NORM_ON_AXIS: &str = r#"class BatchNormOnAxis(nn.Module):
    """Batch normalisation over an axis other than the channels (Keras BatchNormalization(axis=...))."""

    def __init__(self, num_features, dim, eps, momentum):
        super().__init__()
        self.dim = dim
        self.bn = nn.BatchNorm1d(num_features, eps=eps, momentum=momentum)

    def forward(self, x):
        moved = x.movedim(self.dim, 1)
        shape = moved.shape
        return self.bn(moved.reshape(shape[0], shape[1], -1)).reshape(shape).movedim(1, self.dim)"#;

const STANDARDIZE: &str = r#"class Standardize(nn.Module):
    """Keras's Normalization: (x - mean) / max(sqrt(variance), 1e-7), the statistics of `shape`
    broadcast over the input (given, or zeros and ones until the source's are copied in)."""

    def __init__(self, shape, mean=None, variance=None):
        super().__init__()
        self.register_buffer("mean", torch.zeros(shape) if mean is None else torch.tensor(mean).reshape(shape))
        self.register_buffer("variance", torch.ones(shape) if variance is None else torch.tensor(variance).reshape(shape))

    def forward(self, x):
        return (x - self.mean) / torch.clamp(torch.sqrt(self.variance), min=1e-7)"#;

const LAYER_SCALE: &str = r#"class LayerScale(nn.Module):
    """ConvNeXt's LayerScale: the input times a learned weight of `shape` (the source's last axis)."""

    def __init__(self, shape):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(shape))

    def forward(self, x):
        return x * self.gamma"#;

const RUN_RNN: &str = r#"def run_rnn(module, x):
    """A one-layer, one-direction torch RNN module on (batch, time, features): its output
    sequence and its final state(s), each (batch, hidden)."""
    y, state = module(x)
    if isinstance(state, tuple):
        return y, state[0][0], state[1][0]
    return y, state[0]"#;

const RECURRENCE: &str = r#"class Recurrence(nn.Module):
    """One recurrent layer over time on (batch, time, features), for a cell torch's own modules
    do not compute (other activations; a GRU that resets before its product, as Keras's
    reset_after=False): weights in torch's layout and gate order (i, f, g, o; r, z, n), act the
    candidate's activation, gate the gates'. Returns the sequence and the final state(s)."""

    def __init__(self, cell, input_size, hidden, act, gate, bias=True):
        super().__init__()
        rows = {"lstm": 4, "simple": 1}.get(cell, 3) * hidden
        self.cell, self.act, self.gate = cell, act, gate
        self.weight_ih_l0 = nn.Parameter(torch.zeros(rows, input_size))
        self.weight_hh_l0 = nn.Parameter(torch.zeros(rows, hidden))
        if bias:
            self.bias_ih_l0 = nn.Parameter(torch.zeros(rows))
            self.bias_hh_l0 = nn.Parameter(torch.zeros(rows))
        else:
            self.register_buffer("bias_ih_l0", torch.zeros(rows))
            self.register_buffer("bias_hh_l0", torch.zeros(rows))

    def forward(self, x):
        h = x.new_zeros(x.shape[0], self.weight_hh_l0.shape[1])
        c = h
        xs = x @ self.weight_ih_l0.T + self.bias_ih_l0
        ys = []
        for t in range(x.shape[1]):
            gi = xs[:, t]
            if self.cell == "gru_reset_before":
                w_r, w_z, w_n = self.weight_hh_l0.chunk(3)
                b_r, b_z, b_n = self.bias_hh_l0.chunk(3)
                i_r, i_z, i_n = gi.chunk(3, dim=-1)
                r = self.gate(i_r + h @ w_r.T + b_r)
                z = self.gate(i_z + h @ w_z.T + b_z)
                h = (1 - z) * self.act(i_n + (r * h) @ w_n.T + b_n) + z * h
            else:
                gh = h @ self.weight_hh_l0.T + self.bias_hh_l0
                if self.cell == "lstm":
                    i, f, g, o = (gi + gh).chunk(4, dim=-1)
                    c = self.gate(f) * c + self.gate(i) * self.act(g)
                    h = self.gate(o) * self.act(c)
                elif self.cell == "gru":
                    i_r, i_z, i_n = gi.chunk(3, dim=-1)
                    h_r, h_z, h_n = gh.chunk(3, dim=-1)
                    r, z = self.gate(i_r + h_r), self.gate(i_z + h_z)
                    h = (1 - z) * self.act(i_n + r * h_n) + z * h
                else:
                    h = self.act(gi + gh)
            ys.append(h)
        y = torch.stack(ys, dim=1)
        return (y, h, c) if self.cell == "lstm" else (y, h)"#;

const ATTENTION: &str = r#"class MultiHeadAttention(nn.Module):
    """Multi-head attention as torch's nn.MultiheadAttention and Keras's MultiHeadAttention
    compute it: the query, key and value projected to `heads` heads, softmax(q k^T / sqrt(key_dim))
    over the keys, its average of each head's values, the heads projected to the output. Returns
    the output and each head's probabilities."""

    def __init__(self, heads, key_dim, value_dim, query, key, value, output, bias=True):
        super().__init__()
        self.heads, self.key_dim, self.value_dim = heads, key_dim, value_dim
        self.query = nn.Linear(query, heads * key_dim, bias=bias)
        self.key = nn.Linear(key, heads * key_dim, bias=bias)
        self.value = nn.Linear(value, heads * value_dim, bias=bias)
        self.output = nn.Linear(heads * value_dim, output, bias=bias)

    def forward(self, q, k, v):
        n, length, source = q.shape[0], q.shape[1], k.shape[1]
        q = self.query(q).reshape(n, length, self.heads, self.key_dim).transpose(1, 2)
        k = self.key(k).reshape(n, source, self.heads, self.key_dim).transpose(1, 2)
        v = self.value(v).reshape(n, source, self.heads, self.value_dim).transpose(1, 2)
        p = torch.softmax((q * self.key_dim ** -0.5) @ k.transpose(-1, -2), dim=-1)
        y = (p @ v).transpose(1, 2).reshape(n, length, self.heads * self.value_dim)
        return self.output(y), p"#;

/// An activation as a module.
pub fn activation(a: Activation) -> String {
    match a {
        Activation::Relu => "nn.ReLU()".into(),
        Activation::Relu6 => "nn.ReLU6()".into(),
        Activation::Clip { lo, hi } => format!("nn.Hardtanh({}, {})", float(lo), float(hi)),
        Activation::LeakyRelu(s) => format!("nn.LeakyReLU({})", float(s)),
        Activation::Elu(1.0) => "nn.ELU()".into(),
        Activation::Elu(a) => format!("nn.ELU({})", float(a)),
        Activation::Selu => "nn.SELU()".into(),
        Activation::Tanh => "nn.Tanh()".into(),
        Activation::Sigmoid => "nn.Sigmoid()".into(),
        Activation::HardSigmoid => "nn.Hardsigmoid()".into(),
        Activation::HardSwish => "nn.Hardswish()".into(),
        Activation::Gelu { tanh: false } => "nn.GELU()".into(),
        Activation::Gelu { tanh: true } => "nn.GELU(approximate=\"tanh\")".into(),
        Activation::Silu => "nn.SiLU()".into(),
        Activation::Mish => "nn.Mish()".into(),
        Activation::Softplus => "nn.Softplus()".into(),
        Activation::Softsign => "nn.Softsign()".into(),
        Activation::Softmax => "nn.Softmax(dim=-1)".into(),
        Activation::LogSoftmax => "nn.LogSoftmax(dim=-1)".into(),
        Activation::Exp => "Exp()".into(),
        Activation::Log => "Log()".into(),
        Activation::Sqrt => "Sqrt()".into(),
        Activation::Abs => "Abs()".into(),
        Activation::Neg => "Neg()".into(),
    }
}

/// An activation as an expression of `x` (in `forward`).
fn activation_call(a: Activation, x: &str) -> String {
    match a {
        Activation::Relu => format!("F.relu({x})"),
        Activation::Relu6 => format!("F.relu6({x})"),
        Activation::Clip { lo, hi } => format!("torch.clamp({x}, {}, {})", float(lo), float(hi)),
        Activation::LeakyRelu(s) => format!("F.leaky_relu({x}, {})", float(s)),
        Activation::Elu(a) => format!("F.elu({x}, {})", float(a)),
        Activation::Selu => format!("F.selu({x})"),
        Activation::Tanh => format!("torch.tanh({x})"),
        Activation::Sigmoid => format!("torch.sigmoid({x})"),
        Activation::HardSigmoid => format!("F.hardsigmoid({x})"),
        Activation::HardSwish => format!("F.hardswish({x})"),
        Activation::Gelu { tanh: false } => format!("F.gelu({x})"),
        Activation::Gelu { tanh: true } => format!("F.gelu({x}, approximate=\"tanh\")"),
        Activation::Silu => format!("F.silu({x})"),
        Activation::Mish => format!("F.mish({x})"),
        Activation::Softplus => format!("F.softplus({x})"),
        Activation::Softsign => format!("F.softsign({x})"),
        Activation::Softmax => format!("torch.softmax({x}, dim=-1)"),
        Activation::LogSoftmax => format!("torch.log_softmax({x}, dim=-1)"),
        Activation::Exp => format!("torch.exp({x})"),
        Activation::Log => format!("torch.log({x})"),
        Activation::Sqrt => format!("torch.sqrt({x})"),
        Activation::Abs => format!("torch.abs({x})"),
        Activation::Neg => format!("-{x}"),
    }
}

/// One `forward` line of a step.
enum Line {
    /// A call of the step's module of this name.
    Module(String),
    /// An expression: `{x}` is the input (the first, or the previous line's result),
    /// `{x0}`, `{x1}`... each input, `{xs}` all of them.
    Expr(String),
}

/// What one port step becomes: modules to define (name, constructor) and forward lines.
#[derive(Default)]
struct Parts {
    modules: Vec<(String, String)>,
    lines: Vec<Line>,
}

/// The single-layer fill of a pad's fill.
fn fill_of(f: PadFill) -> Fill {
    match f {
        PadFill::Constant(_) => Fill::Zero,
        PadFill::Reflect => Fill::Reflect,
        PadFill::Replicate => Fill::Replicate,
        PadFill::Circular => Fill::Circular,
    }
}

/// The module of a step around a convolution's or pool's layer (a pad, a crop, the empty
/// windows' rewrite); `None` for the layer itself.
fn around_module(w: &mut Writer, s: &Step<TorchPad>) -> Option<String> {
    Some(match s {
        Step::Pad { pairs, fill } => pad_module(pairs, *fill),
        Step::Crop { pairs } => {
            let negative: Vec<(i64, i64)> = pairs.iter().map(|&(b, a)| (-b, -a)).collect();
            pad_module(&negative, Fill::Zero)
        }
        Step::EmptyWindows { to_neg_inf } => {
            w.helpers.add(EMPTY_WINDOWS);
            format!("EmptyWindows({})", py_bool(*to_neg_inf))
        }
        _ => return None,
    })
}

struct Writer {
    helpers: Helpers,
    classes: Py,
    /// Imports `F` and `math`.
    functional: bool,
}

/// Writes the plan as PyTorch.
pub fn write(g: &Graph, plan: &PortPlan<TorchPad>) -> Result<Written, PortError> {
    let mut w = Writer {
        helpers: Helpers::default(),
        classes: Py::new(),
        functional: false,
    };
    let mut parts: Vec<Parts> = Vec::with_capacity(plan.steps.len());
    for step in &plan.steps {
        parts.push(step_parts(&mut w, g, plan, step)?);
    }
    let chain = plan.is_chain()
        && parts
            .iter()
            .all(|p| p.lines.iter().all(|l| matches!(l, Line::Module(_))));
    let mut py = Py::new();
    py.import("import torch");
    py.import("import torch.nn as nn");
    if w.functional || !chain {
        py.import("import torch.nn.functional as F");
    }
    w.helpers.write(&mut py);
    if plan.steps.iter().any(|s| {
        matches!(
            s.op,
            PortOp::Activation(
                Activation::Exp
                    | Activation::Log
                    | Activation::Sqrt
                    | Activation::Abs
                    | Activation::Neg
            )
        )
    }) && chain
    {
        for (name, body) in [
            ("Exp", "torch.exp(x)"),
            ("Log", "torch.log(x)"),
            ("Sqrt", "torch.sqrt(x)"),
            ("Abs", "torch.abs(x)"),
            ("Neg", "-x"),
        ] {
            py.line(format!("class {name}(nn.Module):"));
            py.line(format!("    def forward(self, x):\n        return {body}"));
            py.blank();
            py.blank();
        }
    }
    py.append(&w.classes);
    let mut access = Vec::new();
    if chain {
        py.blank();
        py.line("model = nn.Sequential(");
        let mut k = 0;
        for (i, (step, p)) in plan.steps.iter().zip(&parts).enumerate() {
            let comment = note(g, step);
            for (j, (mname, ctor)) in p.modules.iter().enumerate() {
                let c = if j == 0 { comment.clone() } else { None };
                match c {
                    Some(c) => py.line(format!("    {ctor},  # {c}")),
                    None => py.line(format!("    {ctor},")),
                };
                record_access(&mut access, i, mname, &step.name, &format!("model[{k}]"));
                k += 1;
            }
        }
        py.line(")");
        return Ok(Written { py, access });
    }
    // The module: layers in `__init__`, one line per step in `forward`.
    py.blank();
    py.line("class Model(nn.Module):");
    py.line("    def __init__(self):");
    py.line("        super().__init__()");
    let mut any_module = false;
    for (i, (step, p)) in plan.steps.iter().zip(&parts).enumerate() {
        for (mname, ctor) in &p.modules {
            any_module = true;
            let comment = note(g, step)
                .map(|c| format!("  # {c}"))
                .unwrap_or_default();
            py.line(format!("        self.{mname} = {ctor}{comment}"));
            record_access(&mut access, i, mname, &step.name, &format!("model.{mname}"));
        }
    }
    if !any_module {
        py.line("        pass");
    }
    py.blank();
    let step_names: Vec<&str> = plan.steps.iter().map(|s| s.name.as_str()).collect();
    let names = variable_names(plan, &[], &step_names, "x", str::to_string);
    let inputs = port_names(&names, &plan.inputs);
    py.line(format!("    def forward(self, {}):", inputs.join(", ")));
    for (step, p) in plan.steps.iter().zip(&parts) {
        let xs: Vec<&str> = step.inputs.iter().map(|v| names[v.0].as_str()).collect();
        let outs: Vec<&str> = step.outputs.iter().map(|v| names[v.0].as_str()).collect();
        let comment = note(g, step);
        let target = match outs.as_slice() {
            [] => String::new(),
            [one] => one.to_string(),
            many => many.join(", "),
        };
        if target.is_empty() {
            continue;
        }
        let texts = assignments(&xs, &target, &p.lines, |line, input| match line {
            Line::Module(m) => format!("self.{m}({input})"),
            Line::Expr(t) => fill(t, input, &xs),
        });
        for (j, text) in texts.iter().enumerate() {
            let c = if j == 0 {
                comment
                    .clone()
                    .map(|c| format!("  # {c}"))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            py.line(format!("        {target} = {text}{c}"));
        }
    }
    let outs = port_names(&names, &plan.outputs);
    py.line(format!("        return {}", outs.join(", ")));
    py.blank();
    py.blank();
    py.line("model = Model()");
    Ok(Written { py, access })
}

fn record_access(
    access: &mut Vec<(usize, Access)>,
    step: usize,
    module: &str,
    step_name: &str,
    expr: &str,
) {
    // Steps are recorded in order: a step's entry, if any, is the last (a search would make
    // a long chain quadratic).
    let entry = match access.last_mut().filter(|(s, _)| *s == step) {
        Some((_, a)) => a,
        None => {
            access.push((step, Access::default()));
            &mut access
                .last_mut()
                .unwrap_or_else(|| unreachable!("pushed"))
                .1
        }
    };
    if module == step_name {
        entry.layer = expr.to_string();
    } else if module == format!("{step_name}__bias") {
        entry.bias = Some(expr.to_string());
    } else if module == format!("{step_name}__pointwise") {
        entry.pointwise = Some(expr.to_string());
    }
}

fn step_parts(
    w: &mut Writer,
    g: &Graph,
    plan: &PortPlan<TorchPad>,
    step: &PortStep<TorchPad>,
) -> Result<Parts, PortError> {
    let name = &step.name;
    let mut p = Parts::default();
    let module = |p: &mut Parts, mname: String, ctor: String| {
        p.lines.push(Line::Module(mname.clone()));
        p.modules.push((mname, ctor));
    };
    let line = error_line(g, step);
    let rank_of = |v: Var| plan.tensors[v.0].shape.len();
    match &step.op {
        PortOp::Alias => p.lines.push(Line::Expr("{x}".into())),
        PortOp::Transpose(q) => {
            w.helpers.add(PERMUTE);
            let order: Vec<String> = q.iter().map(usize::to_string).collect();
            module(
                &mut p,
                name.clone(),
                format!("Permute({})", order.join(", ")),
            );
        }
        PortOp::Conv(c) => {
            let (cp, conv, in_channels) = (&c.plan, &c.conv, c.in_channels);
            let n = c.rank();
            let shape = &cp.semantics.shape;
            let (out, groups) = c.out_and_groups();
            let layer_bias = conv.bias && !cp.adds_bias() && !(conv.separable);
            let mut k = 0;
            let mut next = |p: &mut Parts, ctor: String, own: bool| {
                let mname = if own {
                    name.clone()
                } else {
                    k += 1;
                    format!("{name}__{k}")
                };
                module(p, mname, ctor);
            };
            for s in &cp.steps {
                match s {
                    Step::Conv(conv) => {
                        let mode = match conv.padding_mode {
                            PaddingMode::Zeros => String::new(),
                            m => format!(", padding_mode=\"{}\"", m.name()),
                        };
                        next(
                            &mut p,
                            format!(
                                "nn.Conv{n}d({in_channels}, {out}, {}{}{mode})",
                                short(&conv.kernel),
                                args(&[
                                    ("stride", short(&shape.stride), "1"),
                                    ("padding", padding_value(&conv.padding), "0"),
                                    ("dilation", short(&conv.dilation), "1"),
                                    ("groups", groups.to_string(), "1"),
                                    ("bias", py_bool(layer_bias).into(), "True"),
                                ])
                            ),
                            true,
                        );
                    }
                    Step::ConvTranspose(t) => {
                        next(
                            &mut p,
                            format!(
                                "nn.ConvTranspose{n}d({in_channels}, {out}, {}{})",
                                short(&t.kernel),
                                args(&[
                                    ("stride", short(&shape.stride), "1"),
                                    ("padding", padding_value(&t.padding), "0"),
                                    ("output_padding", short(&t.size_padding), "0"),
                                    ("groups", groups.to_string(), "1"),
                                    ("bias", py_bool(layer_bias).into(), "True"),
                                    ("dilation", short(&t.dilation), "1"),
                                ])
                            ),
                            true,
                        );
                    }
                    Step::AddBias => {
                        if conv.bias && !conv.separable {
                            w.helpers.add(BIAS);
                            module(&mut p, format!("{name}__bias"), format!("Bias({out})"));
                        }
                    }
                    other => {
                        let ctor = around_module(w, other).ok_or_else(|| {
                            PortError::at(line, "a pooling step in a convolution")
                        })?;
                        next(&mut p, ctor, false);
                    }
                }
            }
            if conv.separable {
                module(
                    &mut p,
                    format!("{name}__pointwise"),
                    format!(
                        "nn.Conv{n}d({out}, {}, 1{})",
                        conv.filters,
                        args(&[("bias", py_bool(conv.bias).into(), "True")])
                    ),
                );
            }
            if let Some(a) = conv.activation {
                let k2 = p.modules.len();
                module(&mut p, format!("{name}__act{k2}"), activation(a));
            }
        }
        PortOp::Pool { plan: pp, spec } => {
            let stock = single_calls(&pp.steps, true);
            if !stock {
                embed_layer::<Torch>(&mut w.classes, spec, pp, name);
                module(&mut p, name.clone(), format!("{}()", class_name(name)));
            } else {
                let mut k = 0;
                for s in &pp.steps {
                    let ctor = match s {
                        Step::Pool(p) => {
                            pool_module(p, ("padding", padding_value(&p.padding), "0"))
                        }
                        other => match around_module(w, other) {
                            Some(ctor) => ctor,
                            None => continue,
                        },
                    };
                    let mname = if matches!(s, Step::Pool { .. }) {
                        name.clone()
                    } else {
                        k += 1;
                        format!("{name}__{k}")
                    };
                    module(&mut p, mname, ctor);
                }
            }
        }
        PortOp::AdaptivePool { max, output, .. } => {
            let kind = if *max { "Max" } else { "Avg" };
            module(
                &mut p,
                name.clone(),
                format!("nn.Adaptive{kind}Pool{}d({})", output.len(), short(output)),
            );
        }
        PortOp::GlobalPool {
            max,
            keepdims,
            rank,
        } => {
            let kind = if *max { "Max" } else { "Avg" };
            if *keepdims {
                module(
                    &mut p,
                    name.clone(),
                    format!("nn.Adaptive{kind}Pool{rank}d(1)"),
                );
            } else {
                module(
                    &mut p,
                    name.clone(),
                    format!("nn.Adaptive{kind}Pool{rank}d(1)"),
                );
                module(&mut p, format!("{name}__flatten"), "nn.Flatten()".into());
            }
        }
        PortOp::BatchNorm {
            features,
            axis,
            native,
            eps,
            momentum,
            center,
            scale,
        } => {
            let x = step.inputs.first().copied().unwrap_or(Var(0));
            let rank = rank_of(x);
            if *native {
                let d = match rank {
                    2 | 3 => 1,
                    r => r - 2,
                };
                // torch has one `affine` switch: a missing shift or scale is a bias of 0 or a
                // weight of 1, which the copy sets (and which stay so at inference).
                let affine = if !*center && !*scale {
                    ", affine=False"
                } else {
                    ""
                };
                module(
                    &mut p,
                    name.clone(),
                    format!(
                        "nn.BatchNorm{d}d({features}{}{affine})",
                        args(&[
                            ("eps", float(*eps), "1e-05"),
                            ("momentum", float(*momentum), "0.1")
                        ])
                    ),
                );
            } else {
                if !(*center && *scale) {
                    return Err(PortError::at(
                        line,
                        "a batch normalisation over a spatial axis without center or scale is not ported to PyTorch",
                    ));
                }
                w.helpers.add(NORM_ON_AXIS);
                module(
                    &mut p,
                    name.clone(),
                    format!(
                        "BatchNormOnAxis({features}, dim={axis}, eps={}, momentum={})",
                        float(*eps),
                        float(*momentum)
                    ),
                );
            }
        }
        PortOp::Standardize { shape, values, .. } => {
            w.helpers.add(STANDARDIZE);
            let stats = match values {
                Some((m, v)) => {
                    let n = [m.len() as i64];
                    format!(
                        ", mean={}, variance={}",
                        float_list(m, &n),
                        float_list(v, &n)
                    )
                }
                None => String::new(),
            };
            module(
                &mut p,
                name.clone(),
                format!("Standardize({}{stats})", tuple(shape)),
            );
        }
        PortOp::LayerScale { shape } => {
            w.helpers.add(LAYER_SCALE);
            module(
                &mut p,
                name.clone(),
                format!("LayerScale({})", tuple(shape)),
            );
        }
        PortOp::LayerNorm(ln) => {
            if ln.center != ln.scale && !ln.scale {
                return Err(PortError::at(
                    line,
                    "a layer normalisation with a shift but no scale is not ported to PyTorch",
                ));
            }
            module(
                &mut p,
                name.clone(),
                format!(
                    "nn.LayerNorm({}{})",
                    dims_list(&ln.shape),
                    args(&[
                        ("eps", float(ln.eps), "1e-05"),
                        ("elementwise_affine", py_bool(ln.scale).into(), "True"),
                        ("bias", py_bool(ln.center).into(), "True"),
                    ])
                ),
            );
        }
        PortOp::GroupNorm {
            groups,
            channels,
            eps,
            affine,
        } => {
            module(
                &mut p,
                name.clone(),
                format!(
                    "nn.GroupNorm({groups}, {channels}{})",
                    args(&[
                        ("eps", float(*eps), "1e-05"),
                        ("affine", py_bool(*affine).into(), "True")
                    ])
                ),
            );
        }
        PortOp::InstanceNorm {
            features,
            eps,
            affine,
        } => {
            let x = step.inputs.first().copied().unwrap_or(Var(0));
            let d = rank_of(x).saturating_sub(2).max(1);
            module(
                &mut p,
                name.clone(),
                format!(
                    "nn.InstanceNorm{d}d({features}{})",
                    args(&[
                        ("eps", float(*eps), "1e-05"),
                        ("affine", py_bool(*affine).into(), "False")
                    ])
                ),
            );
        }
        PortOp::Activation(a) => match a {
            Activation::Exp
            | Activation::Log
            | Activation::Sqrt
            | Activation::Abs
            | Activation::Neg => {
                w.functional = true;
                p.lines.push(Line::Expr(activation_call(*a, "{x}")));
            }
            _ => module(&mut p, name.clone(), activation(*a)),
        },
        PortOp::Softmax { axis, log } => {
            let kind = if *log { "LogSoftmax" } else { "Softmax" };
            module(&mut p, name.clone(), format!("nn.{kind}(dim={axis})"));
        }
        PortOp::Dropout { rate } => module(
            &mut p,
            name.clone(),
            format!("nn.Dropout({})", float(*rate)),
        ),
        PortOp::Identity => module(&mut p, name.clone(), "nn.Identity()".into()),
        PortOp::Flatten { start, end } => {
            let x = step.inputs.first().copied().unwrap_or(Var(0));
            let last = rank_of(x) - 1;
            let e = if *end == last {
                "-1".to_string()
            } else {
                end.to_string()
            };
            module(
                &mut p,
                name.clone(),
                format!(
                    "nn.Flatten({}{})",
                    start,
                    if e == "-1" {
                        String::new()
                    } else {
                        format!(", {e}")
                    }
                )
                .replace("nn.Flatten(1)", "nn.Flatten()"),
            );
        }
        PortOp::Reshape { shape } => {
            w.helpers.add(RESHAPE);
            let rest: Vec<String> = shape[1..].iter().map(i64::to_string).collect();
            module(
                &mut p,
                name.clone(),
                format!("Reshape({})", rest.join(", ")),
            );
        }
        PortOp::Squeeze(axes) => {
            let a: Vec<String> = axes.iter().map(usize::to_string).collect();
            p.lines.push(Line::Expr(format!(
                "{{x}}.squeeze({})",
                match a.as_slice() {
                    [one] => one.clone(),
                    many => format!("({},)", many.join(", ")),
                }
            )));
        }
        PortOp::Unsqueeze(axes) => {
            let mut text = "{x}".to_string();
            for a in axes {
                text = format!("{text}.unsqueeze({a})");
            }
            p.lines.push(Line::Expr(text));
        }
        PortOp::Slice(axes) => {
            let x = step.inputs.first().copied().unwrap_or(Var(0));
            let rank = rank_of(x);
            p.lines
                .push(Line::Expr(format!("{{x}}{}", slice_index(rank, axes))));
        }
        PortOp::Take { axis, indices } => {
            let n = plan.input_shape(step, 0).get(*axis).copied().unwrap_or(0);
            let reversed = indices.iter().rev().copied().eq(0..n);
            p.lines.push(Line::Expr(if reversed {
                format!("torch.flip({{x}}, dims=({axis},))")
            } else {
                format!(
                    "{{x}}.index_select({axis}, torch.tensor({}, device={{x}}.device))",
                    crate::codegen::writer::list(indices)
                )
            }));
        }
        PortOp::Split { axis, sizes } => {
            p.lines.push(Line::Expr(format!(
                "torch.split({{x}}, {}, dim={axis})",
                crate::codegen::writer::list(sizes)
            )));
        }
        PortOp::Concat { axis } => p
            .lines
            .push(Line::Expr(format!("torch.cat([{{xs}}], dim={axis})"))),
        PortOp::Learned { op, shape } => {
            // The parameter itself, on the model: `self.{name}`.
            p.modules.push((
                name.clone(),
                format!("nn.Parameter(torch.ones({}))", tuple(shape)),
            ));
            let w = format!("self.{name}");
            p.lines
                .push(Line::Expr(learned_expr(*op, "{x}", &w, "torch")));
        }
        PortOp::Stack { axis } => p
            .lines
            .push(Line::Expr(format!("torch.stack([{{xs}}], dim={axis})"))),
        PortOp::Expand { shape } => {
            let sizes: Vec<String> = shape
                .iter()
                .enumerate()
                .map(|(i, d)| if i == 0 { "-1".into() } else { d.to_string() })
                .collect();
            p.lines
                .push(Line::Expr(format!("{{x}}.expand({})", sizes.join(", "))));
        }
        PortOp::Dense {
            in_features,
            units,
            bias,
            activation: a,
        } => {
            module(
                &mut p,
                name.clone(),
                format!(
                    "nn.Linear({in_features}, {units}{})",
                    args(&[("bias", py_bool(*bias).into(), "True")])
                ),
            );
            if let Some(a) = a {
                module(&mut p, format!("{name}__act"), activation(*a));
            }
        }
        PortOp::MatMul => p.lines.push(Line::Expr("{x0} @ {x1}".into())),
        PortOp::Embedding {
            vocab,
            dim,
            max_norm,
        } => module(
            &mut p,
            name.clone(),
            format!(
                "nn.Embedding({vocab}, {dim}{})",
                max_norm
                    .map(|m| format!(", max_norm={}", float(m)))
                    .unwrap_or_default()
            ),
        ),
        PortOp::Pad { pairs, fill } => {
            w.functional = true;
            // F.pad lists the last axis first; trailing unpadded axes can be left out.
            let mut used: Vec<(i64, i64)> = pairs.clone();
            while used.first().is_some_and(|&(b, a)| b == 0 && a == 0) {
                used.remove(0);
            }
            if !matches!(fill, PadFill::Constant(_)) {
                // Reflect, replicate and circular pads take the last 1 (2-D, 3-D input), 2
                // (3-D, 4-D) or 3 (4-D, 5-D) axes: unpadded axes fill the tuple up to one.
                let rank = pairs.len();
                let takes = |k: usize| match rank {
                    2 => k == 1,
                    3 => k == 1 || k == 2,
                    4 => k == 2 || k == 3,
                    5 => k == 3,
                    _ => false,
                };
                let Some(k) = (used.len()..=3).find(|&k| takes(k)) else {
                    return Err(PortError::at(
                        error_line(g, step),
                        format!(
                            "torch's F.pad in mode {:?} pads the last 1 to 3 axes of a 2-D to 5-D tensor; this pad reaches axis {} of {rank}",
                            fill_of(*fill),
                            rank - used.len()
                        ),
                    ));
                };
                let skipped = pairs.len() - k;
                used = pairs[skipped..].to_vec();
            }
            let flat = torch_pad_tuple(&used);
            let mode = match fill {
                PadFill::Constant(v) if *v == 0.0 => String::new(),
                PadFill::Constant(v) => format!(", value={}", float(*v)),
                _ => format!(
                    ", mode=\"{}\"",
                    match fill_of(*fill) {
                        Fill::Reflect => "reflect",
                        Fill::Replicate => "replicate",
                        _ => "circular",
                    }
                ),
            };
            p.lines
                .push(Line::Expr(format!("F.pad({{x}}, {flat}{mode})")));
        }
        PortOp::Upsample {
            output,
            scale,
            mode,
            align_corners,
            ..
        } => {
            let n = output.len();
            let m = match (mode, n) {
                (Interpolation::Nearest, _) => "nearest",
                (Interpolation::Linear, 1) => "linear",
                (Interpolation::Linear, 2) => "bilinear",
                (Interpolation::Linear, _) => "trilinear",
                (Interpolation::Bicubic, _) => "bicubic",
            };
            let align = if *mode == Interpolation::Nearest {
                String::new()
            } else {
                format!(", align_corners={}", py_bool(*align_corners))
            };
            // The source's scale when it gave one: torch reads its input at coordinates
            // from the scale, which a size rounds away (1.5 is not 10 / 7).
            let how = match scale {
                Some(s) => format!(
                    "scale_factor={}",
                    if s.len() == 1 || s.iter().all(|&f| f == s[0]) {
                        float(s[0])
                    } else {
                        format!(
                            "({})",
                            s.iter().map(|&f| float(f)).collect::<Vec<_>>().join(", ")
                        )
                    }
                ),
                _ => format!("size={}", short(output)),
            };
            module(
                &mut p,
                name.clone(),
                format!("nn.Upsample({how}, mode=\"{m}\"{align})"),
            );
        }
        PortOp::Elementwise {
            op,
            constant,
            constant_first,
        } => p.lines.push(Line::Expr(elementwise(
            *op,
            *constant,
            *constant_first,
            step.inputs.len(),
            "torch",
            "torch.tensor({})",
        ))),
        PortOp::Affine { scale, offset } => p.lines.push(Line::Expr(match (*scale, *offset) {
            (s, 0.0) => format!("{{x}} * {}", float(s)),
            (0.0, o) => format!("torch.full_like({{x}}, {})", float(o)),
            (s, o) => format!("{{x}} * {} + {}", float(s), float(o)),
        })),
        PortOp::Reduce { op, axes, keepdims } => {
            let f = match op {
                Reduce::Mean => "mean",
                Reduce::Sum => "sum",
                Reduce::Max => "amax",
                Reduce::Min => "amin",
            };
            let a: Vec<String> = axes.iter().map(usize::to_string).collect();
            let k = if *keepdims { ", keepdim=True" } else { "" };
            p.lines
                .push(Line::Expr(format!("{{x}}.{f}(dim=({},){k})", a.join(", "))));
        }
        PortOp::PixelShuffle(r) => module(&mut p, name.clone(), format!("nn.PixelShuffle({r})")),
        PortOp::Flip { axis } => p
            .lines
            .push(Line::Expr(format!("torch.flip({{x}}, dims=({axis},))"))),
        PortOp::Cell(c) => {
            let native = match (c.cell, c.activation, c.recurrent_activation) {
                (CellKind::Lstm, Activation::Tanh, Activation::Sigmoid) => Some("LSTM"),
                (CellKind::Gru { reset_after: true }, Activation::Tanh, Activation::Sigmoid) => {
                    Some("GRU")
                }
                (CellKind::Simple, Activation::Tanh | Activation::Relu, _) => Some("RNN"),
                _ => None,
            };
            let bias = if c.bias { "" } else { ", bias=False" };
            match native {
                Some(class) => {
                    let relu = if c.activation == Activation::Relu {
                        ", nonlinearity=\"relu\""
                    } else {
                        ""
                    };
                    w.helpers.add(RUN_RNN);
                    p.modules.push((
                        name.clone(),
                        format!(
                            "nn.{class}({}, {}{relu}{bias}, batch_first=True)",
                            c.input, c.hidden
                        ),
                    ));
                    p.lines
                        .push(Line::Expr(format!("run_rnn(self.{name}, {{x}})")));
                }
                None => {
                    // Another activation, or a GRU resetting before its product: written out.
                    let kind = match c.cell {
                        CellKind::Lstm => "lstm",
                        CellKind::Gru { reset_after: true } => "gru",
                        CellKind::Gru { reset_after: false } => "gru_reset_before",
                        CellKind::Simple => "simple",
                    };
                    w.helpers.add(RECURRENCE);
                    p.modules.push((
                        name.clone(),
                        format!(
                            "Recurrence(\"{kind}\", {}, {}, {}, {}{bias})",
                            c.input,
                            c.hidden,
                            activation(c.activation),
                            activation(c.recurrent_activation)
                        ),
                    ));
                    p.lines.push(Line::Expr(format!("self.{name}({{x}})")));
                }
            }
        }
        PortOp::Attention(a) => {
            w.helpers.add(ATTENTION);
            p.modules.push((
                name.clone(),
                format!(
                    "MultiHeadAttention({}, {}, {}, {}, {}, {}, {}{})",
                    a.heads,
                    a.key_dim,
                    a.value_dim,
                    a.query,
                    a.key,
                    a.value,
                    a.output,
                    if a.bias { "" } else { ", bias=False" }
                ),
            ));
            p.lines
                .push(Line::Expr(format!("self.{name}({{x0}}, {{x1}}, {{x2}})")));
        }
        PortOp::Random { normal } => p.lines.push(Line::Expr(if *normal {
            "torch.randn_like({x})".into()
        } else {
            "torch.rand_like({x})".into()
        })),
    }
    Ok(p)
}

fn dims_list(v: &[i64]) -> String {
    match v {
        [one] => one.to_string(),
        _ => tuple(v),
    }
}
