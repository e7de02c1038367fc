//! A port as TensorFlow: `def model(x, params)` over NHWC tensors (the layout TensorFlow's CPU
//! kernels take), in `tf.nn` and `tf` ops, one line per step with the source line in a comment.
//! Convolutions and pools print their single-layer plans (explicit pads and crops, the bias
//! added after a crop, zero-inserted kernels); a pool no single `tf.nn` call computes is the
//! single-layer generator's own function. `params[<step>]` holds a layer's weights in
//! TensorFlow's layouts (see [`DOC`]); the self-check fills it from the source.

use crate::codegen::plan::{ConvStep, Fill, Step};
use crate::codegen::tf::{Tf, TfPad};
use crate::codegen::writer::{dilation_arg, list, pad_list, pair_list};
use crate::model::graph::Graph;
use crate::model::op::{Activation, PadFill};

use super::function::{self, Code, Function, OwnStep, Writer, conv_code, dense_code, pool_code};
use super::lines::{error_line, float_list};
use super::plan::{PortOp, PortPlan, PortStep};
use super::{PortError, Written, float, py_bool};

/// What the docstring says about `params`.
const DOC: &str = "params[<layer>] holds its weights in TensorFlow's layouts: convolution \
     kernels [k..., in/groups, out] (depthwise [k..., in, multiplier], transposed [k..., \
     out/groups, in]), dense [in, out].";

const PAD_EDGE: &str = r#"def pad_edge(x, pairs):
    """Pads each axis by repeating its edge element (torch's 'replicate'); pairs: (before, after) per axis."""
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            n = x.shape[axis]
            x = tf.gather(x, [min(max(i, 0), n - 1) for i in range(-before, n + after)], axis=axis)
    return x"#;

const PAD_WRAP: &str = r#"def pad_wrap(x, pairs):
    """Pads each axis by wrapping around (torch's 'circular'); pairs: (before, after) per axis."""
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            n = x.shape[axis]
            x = tf.gather(x, [i % n for i in range(-before, n + after)], axis=axis)
    return x"#;

const ADAPTIVE: &str = function::adaptive_pool!(
    "last",
    1,
    "tf.concat([reduce(tf.gather(x, list(range(a, b)), axis=axis), axis=axis, keepdims=True) for a, b in windows], axis=axis)"
);

const RESIZE_LINEAR: &str = function::resize_linear!(
    "len(x.shape)",
    "tf.reshape(tf.constant([s - i for s, i in zip(src, low)], x.dtype), shape)",
    "tf.gather(x, low, axis=axis) * (1 - w) + tf.gather(x, high, axis=axis) * w"
);

const RESIZE_CUBIC: &str = function::resize_cubic!(
    "len(x.shape)",
    "[min(max(t[k], 0), n - 1) for t in taps]",
    "tf.reshape(tf.constant([ws[k] for ws in weights], x.dtype), shape)",
    "tf.gather(x, index, axis=axis)"
);

const NORMALIZE: &str = r#"def normalize(x, axes, eps):
    """(x - mean) / sqrt(variance + eps) over `axes` (the biased variance, as torch and Keras)."""
    mean, variance = tf.nn.moments(x, axes=axes, keepdims=True)
    return (x - mean) * tf.math.rsqrt(variance + eps)"#;

const GROUP_NORM: &str = r#"def group_norm(x, groups, eps):
    """Normalises each group of consecutive channels over it and the spatial axes (channels last)."""
    shape = x.shape
    y = tf.reshape(x, [-1, *shape[1:-1], groups, shape[-1] // groups])
    y = normalize(y, list(range(1, len(shape) - 1)) + [len(shape)], eps)
    return tf.reshape(y, [-1, *shape[1:]])"#;

const RECURRENT: &str = r#"def recurrent(x, p, cell, act, gate):
    """One recurrent layer over time on (batch, time, features), as torch and Keras compute it:
    p holds torch's w_ih, w_hh, b_ih, b_hh (gates i, f, g, o; a GRU's r, z, n); act is the
    candidate's activation, gate the gates'. Returns the sequence and the final h (and c)."""
    hidden = p["w_hh"].shape[1]
    h = tf.zeros([tf.shape(x)[0], hidden], x.dtype)
    c = h
    xs = tf.tensordot(x, p["w_ih"], [[2], [1]]) + p["b_ih"]
    ys = []
    for t in range(x.shape[1]):
        gi = xs[:, t]
        if cell == "gru_reset_before":
            w_r, w_z, w_n = tf.split(p["w_hh"], 3, axis=0)
            b_r, b_z, b_n = tf.split(p["b_hh"], 3, axis=0)
            i_r, i_z, i_n = tf.split(gi, 3, axis=-1)
            r = gate(i_r + tf.matmul(h, w_r, transpose_b=True) + b_r)
            z = gate(i_z + tf.matmul(h, w_z, transpose_b=True) + b_z)
            h = (1 - z) * act(i_n + tf.matmul(r * h, w_n, transpose_b=True) + b_n) + z * h
        else:
            gh = tf.matmul(h, p["w_hh"], transpose_b=True) + p["b_hh"]
            if cell == "lstm":
                i, f, g, o = tf.split(gi + gh, 4, axis=-1)
                c = gate(f) * c + gate(i) * act(g)
                h = gate(o) * act(c)
            elif cell == "gru":
                i_r, i_z, i_n = tf.split(gi, 3, axis=-1)
                h_r, h_z, h_n = tf.split(gh, 3, axis=-1)
                r, z = gate(i_r + h_r), gate(i_z + h_z)
                h = (1 - z) * act(i_n + r * h_n) + z * h
            else:
                h = act(gi + gh)
        ys.append(h)
    y = tf.stack(ys, axis=1)
    return (y, h, c) if cell == "lstm" else (y, h)"#;

const ATTENTION: &str = r#"def attention(q, k, v, p, heads, key_dim, value_dim):
    """Multi-head attention on (batch, time, features): the query, key and value projected to
    `heads` heads (p: torch-layout wq, wk, wv, wo and their biases), softmax(q k^T / sqrt(key_dim))
    over the keys, the heads' values joined and projected. Returns it and the probabilities."""
    def heads_of(x, w, b, dim):
        y = tf.tensordot(x, w, [[2], [1]]) + b
        return tf.transpose(tf.reshape(y, [-1, x.shape[1], heads, dim]), [0, 2, 1, 3])

    qh = heads_of(q, p["wq"], p["bq"], key_dim) * key_dim ** -0.5
    kh = heads_of(k, p["wk"], p["bk"], key_dim)
    vh = heads_of(v, p["wv"], p["bv"], value_dim)
    probs = tf.nn.softmax(tf.matmul(qh, kh, transpose_b=True), axis=-1)
    y = tf.reshape(tf.transpose(tf.matmul(probs, vh), [0, 2, 1, 3]), [-1, q.shape[1], heads * value_dim])
    return tf.tensordot(y, p["wo"], [[2], [1]]) + p["bo"], probs"#;

const HELPER_NAMES: &[&str] = &["pad_edge", "pad_wrap"];

/// The port as TensorFlow.
pub struct TfPort;

impl Function for TfPort {
    type Pad = TfPad;
    type Layer = Tf;
    const TITLE: &'static str = "TensorFlow";
    const TENSORS: &'static str = "NHWC tensors";
    const IMPORTS: &'static [&'static str] = &["import tensorflow as tf"];
    const CONVERT: &'static str = "tf.convert_to_tensor({})";
    const DOC: &'static str = DOC;
    const HELPER_NAMES: &'static [&'static str] = HELPER_NAMES;
    const SPATIAL: usize = 1;
    const RESIZE_LINEAR: &'static str = RESIZE_LINEAR;
    const RESIZE_CUBIC: &'static str = RESIZE_CUBIC;

    fn activation(a: Activation, x: &str) -> String {
        activation(a, x)
    }

    fn pad_spatial(w: &mut Writer, pairs: &[(i64, i64)], fill: Fill) -> String {
        let mut all = vec![(0, 0)];
        all.extend_from_slice(pairs);
        all.push((0, 0));
        let pw = pad_list(pairs, 1, 1);
        match fill {
            Fill::Zero => format!("tf.pad({{x}}, {pw})"),
            Fill::NegInf => format!("tf.pad({{x}}, {pw}, constant_values=float(\"-inf\"))"),
            Fill::Reflect => format!("tf.pad({{x}}, {pw}, mode=\"REFLECT\")"),
            Fill::Replicate => {
                w.helpers.add(PAD_EDGE);
                format!("pad_edge({{x}}, {})", pair_list(&all))
            }
            Fill::Circular => {
                w.helpers.add(PAD_WRAP);
                format!("pad_wrap({{x}}, {})", pair_list(&all))
            }
        }
    }

    fn pad(w: &mut Writer, pad: &[(i64, i64)], fill: PadFill) -> String {
        let pw = pad_list(pad, 0, 0);
        match fill {
            PadFill::Constant(0.0) => format!("tf.pad({{x}}, {pw})"),
            PadFill::Constant(v) => {
                format!("tf.pad({{x}}, {pw}, constant_values={})", float(v))
            }
            PadFill::Reflect => format!("tf.pad({{x}}, {pw}, mode=\"REFLECT\")"),
            PadFill::Replicate => {
                w.helpers.add(PAD_EDGE);
                format!("pad_edge({{x}}, {})", pair_list(pad))
            }
            PadFill::Circular => {
                w.helpers.add(PAD_WRAP);
                format!("pad_wrap({{x}}, {})", pair_list(pad))
            }
        }
    }

    fn repeat(r: i64, axis: usize) -> String {
        format!("tf.repeat({{x}}, {r}, axis={axis})")
    }

    fn gather(indices: &[i64], axis: usize) -> String {
        format!("tf.gather({{x}}, {}, axis={axis})", list(indices))
    }

    const NP: &'static str = "tf";
    const LOWEST: &'static str = "{x}.dtype.min";
    const NEG_INF: &'static str = "float(\"-inf\")";
    const NN: &'static str = "tf.nn";
    const ARRAY: &'static str = "tensor";
    const REDUCE: &'static str = "tf.reduce_";
    const CONCAT: &'static str = "tf.concat";
    const FULL: &'static str = "tf.fill(tf.shape({x}), {})";
    const NORMALIZE: &'static str = NORMALIZE;
    const GROUP_NORM: &'static str = GROUP_NORM;
    const ADAPTIVE: &'static str = ADAPTIVE;
    const RECURRENT: &'static str = RECURRENT;
    const ATTENTION: &'static str = ATTENTION;

    fn flip(axis: usize) -> String {
        format!("tf.reverse({{x}}, axis=[{axis}])")
    }

    fn axes(values: &[i64]) -> String {
        list(values)
    }

    fn constant(values: &[f64], shape: &[i64]) -> String {
        format!(
            "tf.constant({}, shape={})",
            float_list(values, &[values.len() as i64]),
            list(shape)
        )
    }

    /// Channels last: a per-channel weight broadcasts as it is.
    fn per_channel(_: usize) -> String {
        String::new()
    }

    const OWN_STEP: OwnStep<Self::Pad> = own_step;
}

/// Writes the plan as TensorFlow.
pub fn write(g: &Graph, plan: &PortPlan<TfPad>) -> Result<Written, PortError> {
    function::write::<TfPort>(g, plan)
}

/// `[1, v..., 1]`: a per-dimension list with unit batch and channel entries.
fn full_list(values: &[i64]) -> String {
    let mut v = vec![1];
    v.extend_from_slice(values);
    v.push(1);
    list(&v)
}

/// `tf.nn`'s `padding` argument.
fn padding_arg(p: &TfPad) -> String {
    match p {
        TfPad::Valid => "\"VALID\"".into(),
        TfPad::Same => "\"SAME\"".into(),
        TfPad::Pairs(v) => pad_list(v, 1, 1),
    }
}

/// An activation of `x`.
fn activation(a: Activation, x: &str) -> String {
    match a {
        Activation::Relu => format!("tf.nn.relu({x})"),
        Activation::Relu6 => format!("tf.nn.relu6({x})"),
        Activation::Clip { lo, hi } => {
            format!("tf.clip_by_value({x}, {}, {})", float(lo), float(hi))
        }
        Activation::LeakyRelu(s) => format!("tf.nn.leaky_relu({x}, alpha={})", float(s)),
        Activation::Elu(1.0) => format!("tf.nn.elu({x})"),
        Activation::Elu(a) => format!("tf.where({x} > 0, {x}, {} * tf.math.expm1({x}))", float(a)),
        Activation::Selu => format!("tf.nn.selu({x})"),
        Activation::Tanh => format!("tf.tanh({x})"),
        Activation::Sigmoid => format!("tf.sigmoid({x})"),
        Activation::HardSigmoid => format!("tf.nn.relu6({x} + 3.0) / 6.0"),
        Activation::HardSwish => format!("{x} * tf.nn.relu6({x} + 3.0) / 6.0"),
        Activation::Gelu { tanh } => format!("tf.nn.gelu({x}, approximate={})", py_bool(tanh)),
        Activation::Silu => format!("tf.nn.silu({x})"),
        Activation::Mish => format!("{x} * tf.tanh(tf.nn.softplus({x}))"),
        Activation::Softplus => format!("tf.nn.softplus({x})"),
        Activation::Softsign => format!("tf.nn.softsign({x})"),
        Activation::Softmax => format!("tf.nn.softmax({x}, axis=-1)"),
        Activation::LogSoftmax => format!("tf.nn.log_softmax({x}, axis=-1)"),
        Activation::Exp => format!("tf.exp({x})"),
        Activation::Log => format!("tf.math.log({x})"),
        Activation::Sqrt => format!("tf.sqrt({x})"),
        Activation::Abs => format!("tf.abs({x})"),
        Activation::Neg => format!("-{x}"),
    }
}

/// `tf.nn.conv{n}d` of `x` by `w`.
fn conv_call(x: &str, w: &str, stride: &[i64], dilation: &[i64], padding: &TfPad) -> String {
    let n = stride.len();
    let strides = if n == 1 { "stride" } else { "strides" };
    let dilations = dilation_arg("dilations", dilation, full_list(dilation));
    format!(
        "tf.nn.conv{n}d({x}, {w}, {strides}={}, padding={}{dilations})",
        full_list(stride),
        padding_arg(padding)
    )
}

/// The lines of a step TensorFlow writes its own way.
fn own_step(
    w: &mut Writer,
    g: &Graph,
    plan: &PortPlan<TfPad>,
    step: &PortStep<TfPad>,
) -> Result<Code, PortError> {
    let line = error_line(g, step);
    let p = format!("params[{:?}]", step.name);
    let rank = plan.input_shape(step, 0).len();
    Ok(match &step.op {
        PortOp::Conv(c) => {
            let (cp, conv, in_channels) = (&c.plan, &c.conv, c.in_channels);
            let n = c.rank();
            let shape = &cp.semantics.shape;
            let (out, groups) = c.out_and_groups();
            // Each group one input channel: the kernel is [k..., in, multiplier].
            let depthwise = groups > 1 && in_channels == groups;
            let wt = format!("{p}[\"w\"]");
            let b = format!("{p}[\"b\"]");
            let strided = shape.stride.iter().any(|&s| s > 1);
            let pointwise = || {
                let ones = vec![1; n];
                conv_call(
                    "{x}",
                    &format!("{p}[\"pointwise\"]"),
                    &ones,
                    &ones,
                    &TfPad::Valid,
                )
            };
            conv_code::<TfPort>(w, line, cp, conv, &b, pointwise, |s| match s {
                Step::Conv(ConvStep {
                    padding, dilation, ..
                }) => {
                    let dilated = dilation.iter().any(|&d| d > 1);
                    Some(if groups == 1 {
                        conv_call("{x}", &wt, &shape.stride, dilation, padding)
                    } else if depthwise && n <= 2 && !(strided && dilated) {
                        // tf.nn.depthwise_conv2d (a 1-D map as one row of a 2-D one).
                        let (x, k, end, st, dl, pad) = if n == 1 {
                            let pad = match padding {
                                TfPad::Pairs(v) => {
                                    let mut all = vec![(0, 0)];
                                    all.extend_from_slice(v);
                                    pad_list(&all, 1, 1)
                                }
                                other => padding_arg(other),
                            };
                            (
                                "{x}[:, None]",
                                format!("{wt}[None]"),
                                "[:, 0]",
                                list(&[1, 1, shape.stride[0], 1]),
                                list(&[1, dilation[0]]),
                                pad,
                            )
                        } else {
                            (
                                "{x}",
                                wt.clone(),
                                "",
                                full_list(&shape.stride),
                                list(dilation),
                                padding_arg(padding),
                            )
                        };
                        let dl = dilation_arg("dilations", dilation, dl);
                        format!(
                            "tf.nn.depthwise_conv2d({x}, {k}, strides={st}, padding={pad}{dl}){end}"
                        )
                    } else {
                        // One convolution per group.
                        let axis = if depthwise { -2 } else { -1 };
                        format!(
                            "tf.concat([{} for xg, wg in zip(tf.split({{x}}, {groups}, axis=-1), tf.split({wt}, {groups}, axis={axis}))], axis=-1)",
                            conv_call("xg", "wg", &shape.stride, dilation, padding)
                        )
                    })
                }
                Step::ConvTranspose(t) => {
                    let dl = dilation_arg("dilations", &t.dilation, list(&t.dilation));
                    let call = |x: &str, wg: &str, channels: i64| {
                        format!(
                            "tf.nn.conv_transpose({x}, {wg}, output_shape=[tf.shape({x})[0], {}, {channels}], strides={}, padding={}{dl})",
                            crate::codegen::writer::join(t.output_or(&shape.output)),
                            list(&shape.stride),
                            padding_arg(&t.padding)
                        )
                    };
                    Some(if groups == 1 {
                        call("{x}", &wt, out)
                    } else {
                        format!(
                            "tf.concat([{} for xg, wg in zip(tf.split({{x}}, {groups}, axis=-1), tf.split({wt}, {groups}, axis=-1))], axis=-1)",
                            call("xg", "wg", out / groups)
                        )
                    })
                }
                _ => None,
            })?
        }
        PortOp::Pool { plan: pp, spec } => {
            let n = spec.input.len();
            pool_code::<TfPort>(w, line, step, (spec, pp), false, |s| match s {
                Step::Pool(p) => Some(format!(
                    "tf.nn.{}_pool{n}d({{x}}, ksize={}, strides={}, padding={})",
                    if p.max { "max" } else { "avg" },
                    list(&p.kernel),
                    list(&p.stride),
                    padding_arg(&p.padding)
                )),
                _ => None,
            })?
        }
        PortOp::AdaptivePool {
            max, input, output, ..
        } => {
            // Equal windows (the others are the shared walk's helper).
            let n = output.len();
            let k: Vec<i64> = input.iter().zip(output).map(|(i, o)| i / o).collect();
            Code::expr(format!(
                "tf.nn.{}_pool{n}d({{x}}, ksize={}, strides={}, padding=\"VALID\")",
                if *max { "max" } else { "avg" },
                list(&k),
                list(&k)
            ))
        }
        PortOp::BatchNorm {
            axis,
            eps,
            center,
            scale,
            ..
        } => {
            let stat = |k: &str| {
                let v = format!("{p}[\"{k}\"]");
                if *axis + 1 == rank {
                    v
                } else {
                    let shape: Vec<i64> =
                        (0..rank).map(|a| if a == *axis { -1 } else { 1 }).collect();
                    format!("tf.reshape({v}, {})", list(&shape))
                }
            };
            Code::expr(format!(
                "tf.nn.batch_normalization({{x}}, {}, {}, {}, {}, {})",
                stat("mean"),
                stat("var"),
                if *center { stat("beta") } else { "None".into() },
                if *scale { stat("gamma") } else { "None".into() },
                float(*eps)
            ))
        }
        PortOp::Split { axis, sizes } => {
            Code::expr(format!("tf.split({{x}}, {}, axis={axis})", list(sizes)))
        }
        PortOp::Dense {
            bias,
            activation: a,
            ..
        } => {
            let wt = format!("{p}[\"w\"]");
            let mut text = if rank == 2 {
                format!("tf.matmul({{x}}, {wt})")
            } else {
                format!("tf.tensordot({{x}}, {wt}, 1)")
            };
            if *bias {
                text.push_str(&format!(" + {p}[\"b\"]"));
            }
            dense_code::<TfPort>(text, *a)
        }
        PortOp::Embedding { .. } => Code::expr(format!("tf.gather({p}[\"w\"], {{x}})")),
        PortOp::Random { normal } => Code::expr(if *normal {
            "tf.random.normal(tf.shape({x}))"
        } else {
            "tf.random.uniform(tf.shape({x}))"
        }),
        _ => return Err(PortError::at(line, "a step the shared walk writes")),
    })
}
