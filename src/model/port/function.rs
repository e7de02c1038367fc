//! What the TensorFlow and JAX ports share: the model as one Python function
//! `def model(x, params)`, each step's lines with the source line in a comment, tensors named
//! `x` along a path and by their step where a value is read again, weights read from `params`
//! by step name, and the steps the two write alike (a convolution's or pool's plan, a dense
//! layer, a pad, an upsampling). The targets say only how each step is spelled ([`Code`]),
//! through the [`Function`] hooks.

use std::collections::HashSet;

use crate::codegen::plan::{Fill, Plan, Step};
use crate::codegen::target::Target;
use crate::codegen::writer::{Py, list};
use crate::core::{Framework, LayerSpec};
use crate::model::graph::Graph;
use crate::model::op::{Activation, CellKind, Conv, Interpolation, KERAS_EPSILON, PadFill};

use super::lines::{
    Helpers, KEYWORDS, elementwise, embed_layer, error_line, reduce_name, single_calls, slice_index,
};
use super::{Access, PortError, Written, float, py_bool};

use super::lines::{assignments, fill, note, port_names, variable_names};
use super::plan::{PortOp, PortPlan, PortStep, Var};

/// The Python helper `adaptive_pool` (torch's adaptive pooling window rule), one text for every
/// function-form target: each passes its layout's name, its first spatial axis and the window
/// `a:b` of `x` along `axis`, reduced and joined back.
macro_rules! adaptive_pool {
    ($layout:literal, $start:literal, $join:literal) => {
        concat!(
            r#"def adaptive_pool(x, sizes, reduce):
    """torch's adaptive pooling over the spatial axes (channels "#,
            $layout,
            r#"): output i of an axis of n
    inputs reduces inputs floor(i * n / size) to ceil((i + 1) * n / size), one axis at a time."""
    for axis, size in enumerate(sizes, start="#,
            $start,
            r#"):
        n = x.shape[axis]
        windows = [(i * n // size, -(-(i + 1) * n // size)) for i in range(size)]
        x = "#,
            $join,
            r#"
    return x"#
        )
    };
}
pub(super) use adaptive_pool;

/// The Python helper `resize_linear` (torch's linear interpolation along one axis), one text
/// for every function-form target: each passes its rank expression, the weights it broadcasts
/// (`w`) and the mix of the two gathers.
macro_rules! resize_linear {
    ($rank:literal, $weights:literal, $mix:literal) => {
        concat!(
            r#"def resize_linear(x, axis, size, ratio, align_corners):
    """Linear interpolation along one axis to `size`, as torch's interpolate: output j reads source
    position j * ratio (align_corners) or (j + 0.5) * ratio - 0.5 clamped at 0 (half-pixel
    centres, which is also Keras's bilinear UpSampling)."""
    n = x.shape[axis]
    src = [j * ratio if align_corners else max((j + 0.5) * ratio - 0.5, 0.0) for j in range(size)]
    low = [min(int(s), n - 1) for s in src]
    high = [min(i + 1, n - 1) for i in low]
    shape = [-1 if a == axis else 1 for a in range("#,
            $rank,
            r#")]
    w = "#,
            $weights,
            r#"
    return "#,
            $mix
        )
    };
}
pub(super) use resize_linear;

/// The Python helper `resize_cubic` (torch's and Keras's cubic convolution along one axis), one
/// text for every function-form target: each passes its rank expression, a tap's indices, its
/// weights (`w`) and the gather at them.
macro_rules! resize_cubic {
    ($rank:literal, $index:literal, $weights:literal, $take:literal) => {
        concat!(
            r#"def resize_cubic(x, axis, size, ratio, align_corners, torch_form):
    """Cubic convolution along one axis to `size`: output j reads the four source elements around
    position j * ratio (align_corners) or (j + 0.5) * ratio - 0.5. torch's bicubic: kernel
    parameter -0.75, taps past the edge read the edge element. Keras's bicubic (TensorFlow's
    resize_bicubic): -0.5, the fraction rounded to 1/1024 (its coefficient table), taps past the
    edge dropped and the weights renormalised."""
    n = x.shape[axis]
    a = -0.75 if torch_form else -0.5

    def kernel(d):
        d = abs(d)
        if d <= 1:
            return ((a + 2) * d - (a + 3)) * d * d + 1
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a if d < 2 else 0.0

    src = [j * ratio if align_corners else (j + 0.5) * ratio - 0.5 for j in range(size)]
    base = [int(s // 1) for s in src]
    fraction = [s - b if torch_form else round((s - b) * 1024) / 1024 for s, b in zip(src, base)]
    taps = [[b - 1 + k for k in range(4)] for b in base]
    weights = [[kernel(f + 1 - k) for k in range(4)] for f in fraction]
    if not torch_form:
        weights = [[w if 0 <= i < n else 0.0 for w, i in zip(ws, t)] for ws, t in zip(weights, taps)]
        weights = [[w / sum(ws) for w in ws] for ws in weights]
    shape = [-1 if d == axis else 1 for d in range("#,
            $rank,
            r#")]
    out = 0.0
    for k in range(4):
        index = "#,
            $index,
            r#"
        w = "#,
            $weights,
            r#"
        out = out + "#,
            $take,
            r#" * w
    return out"#
        )
    };
}
pub(super) use resize_cubic;

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

    /// A step of these lines.
    pub fn lines(lines: Vec<String>) -> Code {
        Code {
            lines,
            ..Code::default()
        }
    }

    /// A step of these lines, or, with none, one that computes nothing (`why`).
    fn lines_or_alias(lines: Vec<String>, why: &str) -> Code {
        if lines.is_empty() {
            Code::alias(why)
        } else {
            Code::lines(lines)
        }
    }
}

/// What a function-form target (TensorFlow, JAX) spells its own way; the walk over the model
/// and over the steps the two write alike is [`write`] and the `*_code` functions here.
pub(super) trait Function {
    /// The target's padding forms.
    type Pad;
    /// The single-layer target whose function a pool no one call computes embeds.
    type Layer: Target<Pad = Self::Pad>;
    /// The framework and its tensors, as the docstring names them.
    const TITLE: &'static str;
    const TENSORS: &'static str;
    /// The imports the port starts with.
    const IMPORTS: &'static [&'static str];
    /// What each input goes through (`{}` is the input).
    const CONVERT: &'static str;
    /// What the docstring says about `params`.
    const DOC: &'static str;
    /// The names of the helpers only this target defines (with [`SHARED_HELPERS`], never a
    /// tensor's).
    const HELPER_NAMES: &'static [&'static str];
    /// The first spatial axis: 1 channels last, 2 channels first.
    const SPATIAL: usize;
    /// The helpers that resize one axis linearly and by cubic convolution.
    const RESIZE_LINEAR: &'static str;
    const RESIZE_CUBIC: &'static str;

    /// An activation of `x`.
    fn activation(a: Activation, x: &str) -> String;
    /// A pad of the spatial axes.
    fn pad_spatial(w: &mut Writer, pairs: &[(i64, i64)], fill: Fill) -> String;
    /// A pad of every axis (`pairs`, amounts >= 0).
    fn pad(w: &mut Writer, pairs: &[(i64, i64)], fill: PadFill) -> String;
    /// Each element repeated `r` times along `axis`.
    fn repeat(r: i64, axis: usize) -> String;
    /// The elements at `indices` along `axis`.
    fn gather(indices: &[i64], axis: usize) -> String;

    /// The array module (`tf`, `jnp`) and the neural-network one (`tf.nn`, `jax.nn`).
    const NP: &'static str;
    const NN: &'static str;
    /// What the target's values are called in a comment (`tensor`, `array`).
    const ARRAY: &'static str;
    /// A reduction's function before its name (`tf.reduce_` + `max`, `jnp.` + `max`).
    const REDUCE: &'static str;
    /// Joins tensors along an axis.
    const CONCAT: &'static str;
    /// A tensor shaped like `{x}` filled with the value `{}`.
    const FULL: &'static str;
    /// A float dtype's lowest value and minus infinity (an empty max-pool window's two
    /// readings).
    const LOWEST: &'static str;
    const NEG_INF: &'static str;
    /// The helpers that normalise over axes, by groups of channels and pool adaptively.
    const NORMALIZE: &'static str;
    const GROUP_NORM: &'static str;
    const ADAPTIVE: &'static str;
    /// The helpers that run one recurrent layer over time and multi-head attention.
    const RECURRENT: &'static str;
    const ATTENTION: &'static str;
    /// Reverses `{x}` along an axis.
    fn flip(axis: usize) -> String;
    /// Axes or sizes as the target's functions take them (a list, a tuple).
    fn axes(values: &[i64]) -> String;
    /// A constant tensor: `values` (row-major) of `shape`.
    fn constant(values: &[f64], shape: &[i64]) -> String;
    /// The index that broadcasts a per-channel weight over a rank-`rank` tensor.
    fn per_channel(rank: usize) -> String;
    /// A step the two targets write each their own way (convolutions, pools, batch
    /// normalisation, dense layers, embeddings, splits, pixel shuffles, random values).
    const OWN_STEP: OwnStep<Self::Pad>;
}

/// One step's lines in a function-form target.
pub(super) type OwnStep<P> =
    fn(&mut Writer, &Graph, &PortPlan<P>, &PortStep<P>) -> Result<Code, PortError>;

/// A TF or JAX port being written.
pub(super) struct Writer {
    /// Helper definitions, in the order first used.
    pub helpers: Helpers,
    /// Single-layer functions embedded for pools no single call computes.
    pub defs: Py,
    pub names: Names,
    /// Random ops so far (in JAX each takes its own key).
    pub keys: usize,
}

/// Writes the plan as the function-form target `T`.
pub(super) fn write<T: Function>(g: &Graph, plan: &PortPlan<T::Pad>) -> Result<Written, PortError> {
    let mut w = Writer {
        helpers: Helpers::default(),
        defs: Py::new(),
        names: Names::new(&[SHARED_HELPERS, T::HELPER_NAMES].concat()),
        keys: 0,
    };
    let codes = plan
        .steps
        .iter()
        .map(|s| step_code::<T>(&mut w, g, plan, s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut head = Py::new();
    for i in T::IMPORTS {
        head.import(i);
    }
    w.helpers.write(&mut head);
    head.append(&w.defs);
    let inputs: Vec<String> = plan
        .inputs
        .iter()
        .map(|p| shape_text(&p.tensor.shape))
        .collect();
    let doc = format!(
        "The {} model `{}` in {}, on {} (input {}). {}",
        plan.source.title(),
        g.name,
        T::TITLE,
        T::TENSORS,
        inputs.join(", "),
        T::DOC
    );
    let py = assemble(g, plan, &codes, &mut w.names, &head, &doc, T::CONVERT);
    let access = plan
        .loads
        .iter()
        .map(|l| {
            let name = plan.steps.get(l.step).map_or("", |s| s.name.as_str());
            (
                l.step,
                Access {
                    layer: format!("params[{name:?}]"),
                    ..Access::default()
                },
            )
        })
        .collect();
    Ok(Written { py, access })
}

/// One step's lines: the steps TF and JAX write alike here, the others by [`Function::own_step`].
fn step_code<T: Function>(
    w: &mut Writer,
    g: &Graph,
    plan: &PortPlan<T::Pad>,
    step: &PortStep<T::Pad>,
) -> Result<Code, PortError> {
    let p = format!("params[{:?}]", step.name);
    let rank = plan.input_shape(step, 0).len();
    let keep = |k: bool| if k { ", keepdims=True" } else { "" };
    let indices = |axes: &[usize]| -> Vec<i64> { axes.iter().map(|&a| a as i64).collect() };
    Ok(match &step.op {
        PortOp::Alias => Code::alias(&format!("the port's {} already has this order", T::ARRAY)),
        PortOp::Transpose(q) => Code::expr(format!(
            "{}.transpose({{x}}, {})",
            T::NP,
            T::axes(&indices(q))
        )),
        PortOp::AdaptivePool {
            max,
            output,
            uniform: false,
            ..
        } => {
            w.helpers.add(T::ADAPTIVE);
            Code::expr(format!(
                "adaptive_pool({{x}}, {}, {}{})",
                list(output),
                T::REDUCE,
                if *max { "max" } else { "mean" }
            ))
        }
        PortOp::GlobalPool {
            max,
            keepdims,
            rank: n,
        } => {
            let axes: Vec<i64> = (T::SPATIAL..n + T::SPATIAL).map(|a| a as i64).collect();
            Code::expr(format!(
                "{}{}({{x}}, axis={}{})",
                T::REDUCE,
                if *max { "max" } else { "mean" },
                T::axes(&axes),
                keep(*keepdims)
            ))
        }
        PortOp::LayerNorm(ln) => {
            w.helpers.add(T::NORMALIZE);
            Code::expr(format!(
                "normalize({{x}}, {}, {}){}",
                T::axes(&ln.axes()),
                float(ln.eps),
                scale_shift(&p, ln.scale, ln.center, "")
            ))
        }
        PortOp::GroupNorm {
            groups,
            eps,
            affine,
            ..
        } => {
            w.helpers.add(T::NORMALIZE);
            w.helpers.add(T::GROUP_NORM);
            Code::expr(format!(
                "group_norm({{x}}, {groups}, {}){}",
                float(*eps),
                scale_shift(&p, *affine, *affine, &T::per_channel(rank))
            ))
        }
        PortOp::InstanceNorm { eps, affine, .. } => {
            w.helpers.add(T::NORMALIZE);
            let spatial = rank.saturating_sub(2);
            let axes: Vec<i64> = (T::SPATIAL..T::SPATIAL + spatial)
                .map(|a| a as i64)
                .collect();
            Code::expr(format!(
                "normalize({{x}}, {}, {}){}",
                T::axes(&axes),
                float(*eps),
                scale_shift(&p, *affine, *affine, &T::per_channel(rank))
            ))
        }
        PortOp::Standardize { shape, values, .. } => {
            let (mean, variance) = match values {
                Some((m, v)) => (T::constant(m, shape), T::constant(v, shape)),
                None => (format!("{p}[\"mean\"]"), format!("{p}[\"variance\"]")),
            };
            Code::expr(format!(
                "({{x}} - {mean}) / {np}.maximum({np}.sqrt({variance}), {})",
                float(KERAS_EPSILON),
                np = T::NP
            ))
        }
        PortOp::LayerScale { .. } => Code::expr(format!("{{x}} * {p}[\"gamma\"]")),
        PortOp::Activation(a) => Code::expr(T::activation(*a, "{x}")),
        PortOp::Softmax { axis, log } => Code::expr(format!(
            "{}.{}softmax({{x}}, axis={axis})",
            T::NN,
            if *log { "log_" } else { "" }
        )),
        PortOp::Dropout { .. } => Code::alias("the identity at inference"),
        PortOp::Identity => Code::alias("the identity"),
        PortOp::Flatten { .. } | PortOp::Reshape { .. } => {
            let mut shape = plan.output_shape(step).to_vec();
            if let Some(b) = shape.first_mut() {
                *b = -1;
            }
            Code::expr(format!("{}.reshape({{x}}, {})", T::NP, T::axes(&shape)))
        }
        PortOp::Squeeze(axes) if axes.is_empty() => Code::alias("no size-1 axis to drop"),
        PortOp::Squeeze(axes) => Code::expr(format!(
            "{}.squeeze({{x}}, axis={})",
            T::NP,
            T::axes(&indices(axes))
        )),
        PortOp::Unsqueeze(axes) => {
            let mut text = "{x}".to_string();
            for a in axes {
                text = format!("{}.expand_dims({text}, {a})", T::NP);
            }
            Code::expr(text)
        }
        PortOp::Slice(axes) => Code::expr(format!("{{x}}{}", slice_index(rank, axes))),
        PortOp::Take { axis, indices } => Code::expr(T::gather(indices, *axis)),
        PortOp::Concat { axis } => Code::expr(format!("{}([{{xs}}], axis={axis})", T::CONCAT)),
        PortOp::Learned { op, .. } => Code::expr(super::lines::learned_expr(
            *op,
            "{x}",
            &format!("{p}[\"w\"]"),
            T::NP,
        )),
        PortOp::Stack { axis } => Code::expr(format!("{}.stack([{{xs}}], axis={axis})", T::NP)),
        // The batch kept: times ones of the shape with a batch of one (exact).
        PortOp::Expand { shape } => Code::expr(format!(
            "{{x}} * {}.ones({})",
            T::NP,
            crate::codegen::writer::tuple(&super::lines::batch_one(shape))
        )),
        PortOp::MatMul => Code::expr(format!("{}.matmul({{x0}}, {{x1}})", T::NP)),
        PortOp::Pad { pairs, fill } => pad_code::<T>(w, pairs, *fill),
        PortOp::Upsample {
            input,
            output,
            scale,
            mode,
            align_corners,
        } => upsample_code::<T>(
            w,
            plan.source,
            Resize {
                input,
                output,
                scale,
                mode: *mode,
                align_corners: *align_corners,
            },
        ),
        PortOp::Elementwise {
            op,
            constant,
            constant_first,
        } => Code::expr(elementwise(
            *op,
            *constant,
            *constant_first,
            step.inputs.len(),
            T::NP,
            "{}",
        )),
        PortOp::Affine { scale, offset } => Code::expr(match (*scale, *offset) {
            (s, 0.0) => format!("{{x}} * {}", float(s)),
            (0.0, o) => T::FULL.replace("{}", &float(o)),
            (s, o) => format!("{{x}} * {} + {}", float(s), float(o)),
        }),
        PortOp::Reduce { op, axes, keepdims } => Code::expr(format!(
            "{}{}({{x}}, axis={}{})",
            T::REDUCE,
            reduce_name(*op),
            T::axes(&indices(axes)),
            keep(*keepdims)
        )),
        PortOp::PixelShuffle(r) => {
            // Channel c*r*r + i*r + j -> row offset i, column offset j.
            let rr = (r * r).max(1);
            let (c, h, wd) = match (T::SPATIAL, plan.input_shape(step, 0)) {
                (1, [_, h, wd, c]) => (*c / rr, *h, *wd),
                (_, [_, c, h, wd]) => (*c / rr, *h, *wd),
                _ => {
                    return Err(PortError::at(
                        error_line(g, step),
                        "PixelShuffle of a tensor that is not a 2-D map",
                    ));
                }
            };
            let (split, whole) = if T::SPATIAL == 1 {
                ([-1, h, wd, c, *r, *r], [-1, h * r, wd * r, c])
            } else {
                ([-1, c, *r, *r, h, wd], [-1, c, h * r, wd * r])
            };
            Code::expr(format!(
                "{np}.reshape({np}.transpose({np}.reshape({{x}}, {}), {}), {})",
                T::axes(&split),
                T::axes(&[0, 1, 4, 2, 5, 3]),
                T::axes(&whole),
                np = T::NP
            ))
        }
        PortOp::Flip { axis } => Code::expr(T::flip(*axis)),
        PortOp::Cell(c) => {
            w.helpers.add(T::RECURRENT);
            let kind = match c.cell {
                CellKind::Lstm => "lstm",
                CellKind::Gru { reset_after: true } => "gru",
                CellKind::Gru { reset_after: false } => "gru_reset_before",
                CellKind::Simple => "simple",
            };
            Code::expr(format!(
                "recurrent({{x}}, {p}, \"{kind}\", lambda v: {}, lambda v: {})",
                T::activation(c.activation, "v"),
                T::activation(c.recurrent_activation, "v")
            ))
        }
        PortOp::Attention(a) => {
            w.helpers.add(T::ATTENTION);
            Code::expr(format!(
                "attention({{x0}}, {{x1}}, {{x2}}, {p}, {}, {}, {})",
                a.heads, a.key_dim, a.value_dim
            ))
        }
        _ => (T::OWN_STEP)(w, g, plan, step)?,
    })
}

/// ` * gamma + beta` of a normalisation: the weights read from `p` (a step's params), each
/// only where the layer has it (`scale`, `center`), broadcast by the index `at`.
pub(super) fn scale_shift(p: &str, scale: bool, center: bool, at: &str) -> String {
    let mut text = String::new();
    if scale {
        text.push_str(&format!(" * {p}[\"gamma\"]{at}"));
    }
    if center {
        text.push_str(&format!(" + {p}[\"beta\"]{at}"));
    }
    text
}

/// A crop of the spatial axes.
pub(super) fn crop_spatial<T: Function>(pairs: &[(i64, i64)]) -> String {
    let mut all = vec![(0, 0); T::SPATIAL];
    all.extend_from_slice(pairs);
    format!("{{x}}{}", crop_index(&all))
}

/// A convolution's lines: its single-layer plan's pads and crops, `call` for the layer step
/// (the bias `b` added to it unless the plan adds it after a crop; `None` for a step that is
/// no convolution), the pointwise half of a separable one, then the activation.
pub(super) fn conv_code<T: Function>(
    w: &mut Writer,
    line: usize,
    cp: &Plan<T::Pad>,
    conv: &Conv,
    b: &str,
    pointwise: impl FnOnce() -> String,
    mut call: impl FnMut(&Step<T::Pad>) -> Option<String>,
) -> Result<Code, PortError> {
    let layer_bias = conv.bias && !cp.adds_bias() && !conv.separable;
    let mut lines = Vec::new();
    for s in &cp.steps {
        match s {
            Step::Pad { pairs, fill } => lines.push(T::pad_spatial(w, pairs, *fill)),
            Step::Crop { pairs } => lines.push(crop_spatial::<T>(pairs)),
            Step::AddBias => {
                if conv.bias && !conv.separable {
                    lines.push(format!("{{x}} + {b}"));
                }
            }
            layer => {
                let text = call(layer)
                    .ok_or_else(|| PortError::at(line, "a pooling step in a convolution"))?;
                lines.push(if layer_bias {
                    format!("{text} + {b}")
                } else {
                    text
                });
            }
        }
    }
    if conv.separable {
        let call = pointwise();
        lines.push(if conv.bias {
            format!("{call} + {b}")
        } else {
            call
        });
    }
    if let Some(a) = conv.activation {
        lines.push(T::activation(a, "{x}"));
    }
    Ok(Code::lines(lines))
}

/// A pool's lines: one call per step of its single-layer plan when each is one (`window`
/// writes the pooling step), else the single-layer function embedded.
pub(super) fn pool_code<T: Function>(
    w: &mut Writer,
    line: usize,
    step: &PortStep<T::Pad>,
    (spec, pp): (&LayerSpec, &Plan<T::Pad>),
    dilated_window: bool,
    mut window: impl FnMut(&Step<T::Pad>) -> Option<String>,
) -> Result<Code, PortError> {
    if !single_calls(&pp.steps, dilated_window) {
        let f = w.names.take(&format!("{}_pool", step.name));
        embed_layer::<T::Layer>(&mut w.defs, spec, pp, &f);
        return Ok(Code::expr(format!("{f}({{x}})")));
    }
    let mut lines = Vec::new();
    for s in &pp.steps {
        lines.push(match s {
            Step::Pad { pairs, fill } => T::pad_spatial(w, pairs, *fill),
            Step::Crop { pairs } => crop_spatial::<T>(pairs),
            Step::EmptyWindows { to_neg_inf: true } => {
                format!(
                    "{}.where({{x}} == {}, {}, {{x}})",
                    T::NP,
                    T::LOWEST,
                    T::NEG_INF
                )
            }
            Step::EmptyWindows { to_neg_inf: false } => {
                format!(
                    "{}.where({{x}} == {}, {}, {{x}})",
                    T::NP,
                    T::NEG_INF,
                    T::LOWEST
                )
            }
            other => window(other).ok_or_else(|| {
                PortError::at(line, "a pooling step the port writes as a function")
            })?,
        });
    }
    Ok(Code::lines(lines))
}

/// A dense layer's lines: `text`, then the activation.
pub(super) fn dense_code<T: Function>(text: String, activation: Option<Activation>) -> Code {
    let mut lines = vec![text];
    if let Some(a) = activation {
        lines.push(T::activation(a, "{x}"));
    }
    Code::lines(lines)
}

/// A pad of every axis: the negative amounts cropped first, then the positive ones padded.
pub(super) fn pad_code<T: Function>(w: &mut Writer, pairs: &[(i64, i64)], fill: PadFill) -> Code {
    let crop: Vec<(i64, i64)> = pairs
        .iter()
        .map(|&(b, a)| ((-b).max(0), (-a).max(0)))
        .collect();
    let pad: Vec<(i64, i64)> = pairs.iter().map(|&(b, a)| (b.max(0), a.max(0))).collect();
    let any = |v: &[(i64, i64)]| v.iter().any(|&(b, a)| b > 0 || a > 0);
    let mut lines = Vec::new();
    if any(&crop) {
        lines.push(format!("{{x}}{}", crop_index(&crop)));
    }
    if any(&pad) {
        lines.push(T::pad(w, &pad, fill));
    }
    Code::lines_or_alias(lines, "pads nothing")
}

/// How an upsampling resizes: per spatial axis, from `input` to `output` elements.
pub(super) struct Resize<'a> {
    pub input: &'a [i64],
    pub output: &'a [i64],
    pub scale: &'a Option<Vec<f64>>,
    pub mode: Interpolation,
    pub align_corners: bool,
}

/// An upsampling's lines, one axis at a time, as the source computes it (`source`).
pub(super) fn upsample_code<T: Function>(w: &mut Writer, source: Framework, r: Resize) -> Code {
    let mut lines = Vec::new();
    for (a, (&i, &o)) in r.input.iter().zip(r.output).enumerate() {
        let axis = a + T::SPATIAL;
        let f = r
            .scale
            .as_ref()
            .and_then(|s| if s.len() == 1 { s.first() } else { s.get(a) })
            .copied();
        match r.mode {
            Interpolation::Nearest => {
                let idx = nearest_indices(source == Framework::Keras, i, o, f);
                match repeat_factor(&idx, i) {
                    Some(1) => {}
                    Some(k) => lines.push(T::repeat(k, axis)),
                    None => lines.push(T::gather(&idx, axis)),
                }
            }
            Interpolation::Linear => {
                let ratio = linear_ratio(i, o, f, r.align_corners);
                if i == o && ratio == 1.0 {
                    continue;
                }
                w.helpers.add(T::RESIZE_LINEAR);
                lines.push(format!(
                    "resize_linear({{x}}, {axis}, {o}, {}, {})",
                    float(ratio),
                    py_bool(r.align_corners)
                ));
            }
            Interpolation::Bicubic => {
                // torch: a = -0.75, taps clamped to the edge; Keras (tf.image.resize
                // on TensorFlow): a = -0.5, half-pixel, taps past the edge dropped.
                let keras = source == Framework::Keras;
                let ratio = linear_ratio(i, o, f, r.align_corners && !keras);
                w.helpers.add(T::RESIZE_CUBIC);
                lines.push(format!(
                    "resize_cubic({{x}}, {axis}, {o}, {}, {}, {})",
                    float(ratio),
                    py_bool(r.align_corners && !keras),
                    py_bool(!keras)
                ));
            }
        }
    }
    Code::lines_or_alias(lines, "the size is unchanged")
}

/// The helpers both targets define, each its own text.
const SHARED_HELPERS: &[&str] = &[
    "recurrent",
    "attention",
    "adaptive_pool",
    "resize_linear",
    "resize_cubic",
    "normalize",
    "group_norm",
];

/// Python names in use in the port: module names, helpers, Python's keywords and the builtins
/// the code calls are never taken by a tensor or a function.
pub(super) struct Names {
    used: HashSet<String>,
}

/// Names of the port itself and the builtins its code calls (beside Python's keywords).
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
                .chain(KEYWORDS)
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
    let inputs = port_names(&vars, &plan.inputs);
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
        let outs = port_names(&vars, &plan.outputs);
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
