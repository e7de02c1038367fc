//! A port as JAX: `def model(x, params)` over NCHW arrays, like the single-layer JAX code (`lax`
//! with NCHW dimension numbers and PyTorch-layout weights), in `jax.numpy`, `lax` and `jax.nn`,
//! one line per step with the source line in a comment. Convolutions and pools print their
//! single-layer plans (explicit pads and crops, the bias added after a crop, zero-inserted
//! kernels); a pool no single `lax.reduce_window` computes is the single-layer generator's own
//! function. `params[<step>]` holds a layer's weights in PyTorch's layouts.

use crate::codegen::jax::{
    Jax, JaxPad, conv_transpose_call, dimension_numbers, pad_call, padding_arg, pool_expr,
    window_padding,
};
use crate::codegen::plan::{ConvStep, Fill, Step};
use crate::codegen::writer::{dilation_arg, list, pair_list, tuple};
use crate::model::graph::Graph;
use crate::model::op::{Activation, PadFill};

use super::function::{
    self, Code, Function, OwnStep, Writer, conv_code, dense_code, pool_code, scale_shift,
};
use super::lines::{error_line, float_list};
use super::plan::{PortOp, PortPlan, PortStep};
use super::{PortError, Written, float, py_bool};

/// What the docstring says about `params`.
const DOC: &str = "params[<layer>] holds its weights in PyTorch's layouts: convolution kernels \
     [out, in/groups, k...] (transposed [in, out/groups, k...]), dense [out, in].";

const ADAPTIVE: &str = function::adaptive_pool!(
    "first",
    2,
    "jnp.concatenate([reduce(lax.slice_in_dim(x, a, b, axis=axis), axis=axis, keepdims=True) for a, b in windows], axis=axis)"
);

const RESIZE_LINEAR: &str = function::resize_linear!(
    "x.ndim",
    "jnp.asarray([s - i for s, i in zip(src, low)], x.dtype).reshape(shape)",
    "jnp.take(x, jnp.asarray(low), axis=axis) * (1 - w) + jnp.take(x, jnp.asarray(high), axis=axis) * w"
);

const RESIZE_CUBIC: &str = function::resize_cubic!(
    "x.ndim",
    "jnp.asarray([min(max(t[k], 0), n - 1) for t in taps])",
    "jnp.asarray([ws[k] for ws in weights], x.dtype).reshape(shape)",
    "jnp.take(x, index, axis=axis)"
);

const NORMALIZE: &str = r#"def normalize(x, axes, eps):
    """(x - mean) / sqrt(variance + eps) over `axes` (the biased variance, as torch and Keras)."""
    mean = jnp.mean(x, axis=axes, keepdims=True)
    variance = jnp.var(x, axis=axes, keepdims=True)
    return (x - mean) * lax.rsqrt(variance + eps)"#;

const GROUP_NORM: &str = r#"def group_norm(x, groups, eps):
    """Normalises each group of consecutive channels over it and the spatial axes (channels first)."""
    shape = x.shape
    y = x.reshape(shape[0], groups, shape[1] // groups, *shape[2:])
    return normalize(y, tuple(range(2, y.ndim)), eps).reshape(shape)"#;

const RECURRENT: &str = r#"def recurrent(x, p, cell, act, gate):
    """One recurrent layer over time on (batch, time, features), as torch and Keras compute it:
    p holds torch's w_ih, w_hh, b_ih, b_hh (gates i, f, g, o; a GRU's r, z, n); act is the
    candidate's activation, gate the gates'. Returns the sequence and the final h (and c)."""
    hidden = p["w_hh"].shape[1]
    xs = jnp.swapaxes(x @ p["w_ih"].T + p["b_ih"], 0, 1)

    def step(carry, gi):
        h, c = carry
        if cell == "gru_reset_before":
            w_r, w_z, w_n = jnp.split(p["w_hh"], 3, axis=0)
            b_r, b_z, b_n = jnp.split(p["b_hh"], 3, axis=0)
            i_r, i_z, i_n = jnp.split(gi, 3, axis=-1)
            r = gate(i_r + h @ w_r.T + b_r)
            z = gate(i_z + h @ w_z.T + b_z)
            h = (1 - z) * act(i_n + (r * h) @ w_n.T + b_n) + z * h
        else:
            gh = h @ p["w_hh"].T + p["b_hh"]
            if cell == "lstm":
                i, f, g, o = jnp.split(gi + gh, 4, axis=-1)
                c = gate(f) * c + gate(i) * act(g)
                h = gate(o) * act(c)
            elif cell == "gru":
                i_r, i_z, i_n = jnp.split(gi, 3, axis=-1)
                h_r, h_z, h_n = jnp.split(gh, 3, axis=-1)
                r, z = gate(i_r + h_r), gate(i_z + h_z)
                h = (1 - z) * act(i_n + r * h_n) + z * h
            else:
                h = act(gi + gh)
        return (h, c), h

    zeros = jnp.zeros((x.shape[0], hidden), x.dtype)
    (h, c), ys = lax.scan(step, (zeros, zeros), xs)
    y = jnp.swapaxes(ys, 0, 1)
    return (y, h, c) if cell == "lstm" else (y, h)"#;

const ATTENTION: &str = r#"def attention(q, k, v, p, heads, key_dim, value_dim):
    """Multi-head attention on (batch, time, features): the query, key and value projected to
    `heads` heads (p: torch-layout wq, wk, wv, wo and their biases), softmax(q k^T / sqrt(key_dim))
    over the keys, the heads' values joined and projected. Returns it and the probabilities."""
    def heads_of(x, w, b, dim):
        y = x @ w.T + b
        return y.reshape(x.shape[0], x.shape[1], heads, dim).transpose(0, 2, 1, 3)

    qh = heads_of(q, p["wq"], p["bq"], key_dim) * key_dim ** -0.5
    kh = heads_of(k, p["wk"], p["bk"], key_dim)
    vh = heads_of(v, p["wv"], p["bv"], value_dim)
    probs = jax.nn.softmax(qh @ jnp.swapaxes(kh, -1, -2), axis=-1)
    y = (probs @ vh).transpose(0, 2, 1, 3).reshape(q.shape[0], q.shape[1], heads * value_dim)
    return y @ p["wo"].T + p["bo"], probs"#;

/// The port as JAX.
pub struct JaxPort;

impl Function for JaxPort {
    type Pad = JaxPad;
    type Layer = Jax;
    const TITLE: &'static str = "JAX";
    const TENSORS: &'static str = "NCHW arrays";
    const IMPORTS: &'static [&'static str] = &[
        "import jax",
        "import jax.numpy as jnp",
        "from jax import lax",
    ];
    const CONVERT: &'static str = "jnp.asarray({})";
    const DOC: &'static str = DOC;
    const HELPER_NAMES: &'static [&'static str] = &[];
    const SPATIAL: usize = 2;
    const RESIZE_LINEAR: &'static str = RESIZE_LINEAR;
    const RESIZE_CUBIC: &'static str = RESIZE_CUBIC;

    fn activation(a: Activation, x: &str) -> String {
        activation(a, x)
    }

    fn pad_spatial(_: &mut Writer, pairs: &[(i64, i64)], fill: Fill) -> String {
        pad_call("{x}", pairs, fill)
    }

    fn pad(_: &mut Writer, pad: &[(i64, i64)], fill: PadFill) -> String {
        let pw = pair_list(pad);
        match fill {
            PadFill::Constant(0.0) => format!("jnp.pad({{x}}, {pw})"),
            PadFill::Constant(v) => {
                format!("jnp.pad({{x}}, {pw}, constant_values={})", float(v))
            }
            PadFill::Reflect => format!("jnp.pad({{x}}, {pw}, mode=\"reflect\")"),
            PadFill::Replicate => format!("jnp.pad({{x}}, {pw}, mode=\"edge\")"),
            PadFill::Circular => format!("jnp.pad({{x}}, {pw}, mode=\"wrap\")"),
        }
    }

    fn repeat(r: i64, axis: usize) -> String {
        format!("jnp.repeat({{x}}, {r}, axis={axis})")
    }

    fn gather(indices: &[i64], axis: usize) -> String {
        format!(
            "jnp.take({{x}}, jnp.asarray({}), axis={axis})",
            list(indices)
        )
    }

    const NP: &'static str = "jnp";
    const LOWEST: &'static str = "jnp.finfo({x}.dtype).min";
    const NEG_INF: &'static str = "-jnp.inf";
    const NN: &'static str = "jax.nn";
    const ARRAY: &'static str = "array";
    const REDUCE: &'static str = "jnp.";
    const CONCAT: &'static str = "jnp.concatenate";
    const FULL: &'static str = "jnp.full_like({x}, {})";
    const NORMALIZE: &'static str = NORMALIZE;
    const GROUP_NORM: &'static str = GROUP_NORM;
    const ADAPTIVE: &'static str = ADAPTIVE;
    const RECURRENT: &'static str = RECURRENT;
    const ATTENTION: &'static str = ATTENTION;

    fn flip(axis: usize) -> String {
        format!("jnp.flip({{x}}, axis={axis})")
    }

    fn axes(values: &[i64]) -> String {
        tuple(values)
    }

    fn constant(values: &[f64], shape: &[i64]) -> String {
        format!(
            "jnp.asarray({}).reshape({})",
            float_list(values, &[values.len() as i64]),
            tuple(shape)
        )
    }

    /// Channels first: a per-channel weight broadcasts over the spatial axes.
    fn per_channel(rank: usize) -> String {
        per_channel(rank.saturating_sub(2))
    }

    const OWN_STEP: OwnStep<Self::Pad> = own_step;
}

/// Writes the plan as JAX.
pub fn write(g: &Graph, plan: &PortPlan<JaxPad>) -> Result<Written, PortError> {
    function::write::<JaxPort>(g, plan)
}

/// `[:, None, ...]`: a per-channel vector broadcast over `n` spatial axes.
fn per_channel(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!("[:, {}]", vec!["None"; n].join(", "))
    }
}

/// An activation of `x`.
fn activation(a: Activation, x: &str) -> String {
    match a {
        Activation::Relu => format!("jax.nn.relu({x})"),
        Activation::Relu6 => format!("jax.nn.relu6({x})"),
        Activation::Clip { lo, hi } => format!("jnp.clip({x}, {}, {})", float(lo), float(hi)),
        Activation::LeakyRelu(s) => format!("jax.nn.leaky_relu({x}, {})", float(s)),
        Activation::Elu(1.0) => format!("jax.nn.elu({x})"),
        Activation::Elu(a) => format!("jax.nn.elu({x}, {})", float(a)),
        Activation::Selu => format!("jax.nn.selu({x})"),
        Activation::Tanh => format!("jnp.tanh({x})"),
        Activation::Sigmoid => format!("jax.nn.sigmoid({x})"),
        Activation::HardSigmoid => format!("jax.nn.hard_sigmoid({x})"),
        Activation::HardSwish => format!("jax.nn.hard_swish({x})"),
        Activation::Gelu { tanh } => format!("jax.nn.gelu({x}, approximate={})", py_bool(tanh)),
        Activation::Silu => format!("jax.nn.silu({x})"),
        Activation::Mish => format!("jax.nn.mish({x})"),
        Activation::Softplus => format!("jax.nn.softplus({x})"),
        Activation::Softsign => format!("jax.nn.soft_sign({x})"),
        Activation::Softmax => format!("jax.nn.softmax({x}, axis=-1)"),
        Activation::LogSoftmax => format!("jax.nn.log_softmax({x}, axis=-1)"),
        Activation::Exp => format!("jnp.exp({x})"),
        Activation::Log => format!("jnp.log({x})"),
        Activation::Sqrt => format!("jnp.sqrt({x})"),
        Activation::Abs => format!("jnp.abs({x})"),
        Activation::Neg => format!("-{x}"),
    }
}

/// The lines of a step JAX writes its own way.
fn own_step(
    w: &mut Writer,
    g: &Graph,
    plan: &PortPlan<JaxPad>,
    step: &PortStep<JaxPad>,
) -> Result<Code, PortError> {
    let line = error_line(g, step);
    let p = format!("params[{:?}]", step.name);
    let rank = plan.input_shape(step, 0).len();
    Ok(match &step.op {
        PortOp::Conv(c) => {
            let (cp, conv) = (&c.plan, &c.conv);
            let n = c.rank();
            let shape = &cp.semantics.shape;
            let (_, groups) = c.out_and_groups();
            let wt = format!("{p}[\"w\"]");
            let b = format!("{p}[\"b\"]{}", per_channel(n));
            let dn = dimension_numbers(n);
            let pointwise = || {
                format!(
                    "lax.conv_general_dilated({{x}}, {p}[\"pointwise\"], {}, \"VALID\", dimension_numbers={dn})",
                    tuple(&vec![1; n])
                )
            };
            conv_code::<JaxPort>(w, line, cp, conv, &b, pointwise, |s| match s {
                Step::Conv(ConvStep {
                    padding, dilation, ..
                }) => {
                    let dl = dilation_arg("rhs_dilation", dilation, tuple(dilation));
                    let gc = if groups == 1 {
                        String::new()
                    } else {
                        format!(", feature_group_count={groups}")
                    };
                    Some(format!(
                        "lax.conv_general_dilated({{x}}, {wt}, {}, {}{dl}, dimension_numbers={dn}{gc})",
                        tuple(&shape.stride),
                        padding_arg(padding)
                    ))
                }
                Step::ConvTranspose(t) => {
                    let call = |x: &str, wg: &str| conv_transpose_call(x, wg, &shape.stride, t);
                    Some(if groups == 1 {
                        call("{x}", &wt)
                    } else {
                        // lax.conv_transpose takes no groups: one per group.
                        format!(
                            "jnp.concatenate([{} for xg, wg in zip(jnp.split({{x}}, {groups}, axis=1), jnp.split({wt}, {groups}, axis=0))], axis=1)",
                            call("xg", "wg")
                        )
                    })
                }
                _ => None,
            })?
        }
        PortOp::Pool { plan: pp, spec } => {
            pool_code::<JaxPort>(w, line, step, (spec, pp), true, |s| match s {
                Step::Pool(p) => Some(pool_expr(
                    "{x}",
                    p.max,
                    p.count_include_pad,
                    p.geometry(),
                    &window_padding(&p.padding),
                )),
                _ => None,
            })?
        }
        PortOp::AdaptivePool {
            max, input, output, ..
        } => {
            // Equal windows (the others are the shared walk's helper).
            let k: Vec<i64> = input.iter().zip(output).map(|(i, o)| i / o).collect();
            let ones = vec![1; k.len()];
            let geometry = (k.as_slice(), k.as_slice(), ones.as_slice());
            Code::expr(pool_expr("{x}", *max, None, geometry, "\"VALID\""))
        }
        PortOp::BatchNorm {
            axis,
            eps,
            center,
            scale,
            ..
        } => {
            let at = per_channel(rank.saturating_sub(axis + 1));
            Code::expr(format!(
                "({{x}} - {p}[\"mean\"]{at}) * lax.rsqrt({p}[\"var\"]{at} + {}){}",
                float(*eps),
                scale_shift(&p, *scale, *center, &at)
            ))
        }
        PortOp::Split { axis, sizes } => {
            let mut at = Vec::new();
            let mut acc = 0;
            for s in sizes.iter().take(sizes.len().saturating_sub(1)) {
                acc += s;
                at.push(acc);
            }
            Code::expr(format!("jnp.split({{x}}, {}, axis={axis})", list(&at)))
        }
        PortOp::Dense {
            bias,
            activation: a,
            ..
        } => {
            let mut text = format!("{{x}} @ {p}[\"w\"].T");
            if *bias {
                text.push_str(&format!(" + {p}[\"b\"]"));
            }
            dense_code::<JaxPort>(text, *a)
        }
        PortOp::Embedding { .. } => Code::expr(format!("jnp.take({p}[\"w\"], {{x}}, axis=0)")),
        PortOp::Random { normal } => {
            let k = w.keys;
            w.keys += 1;
            Code::expr(format!(
                "jax.random.{}(jax.random.key({k}), {{x}}.shape, {{x}}.dtype)",
                if *normal { "normal" } else { "uniform" }
            ))
        }
        _ => return Err(PortError::at(line, "a step the shared walk writes")),
    })
}
