//! A model's parameter count as its framework counts it: torch's `sum(p.numel() for p in
//! model.parameters())` over every registered module (used in `forward` or not, so an unused
//! auxiliary head counts), Keras's `model.count_params()` over the layers its graph runs
//! (batch-norm moving statistics included). The self-check asserts the source model has it, so
//! a check cannot pass on a model other than the paste's.

use std::collections::HashSet;

use crate::core::{Dims, Framework, Op as LayerOp};
use crate::model::graph::Graph;
use crate::model::op::{Conv, Groups, Norm, Op};
use crate::model::shape::{channel_axis, elements};

use super::layers::{module_children, split_rank};
use super::value::{LayerKind, Value};

fn kernel_elements(c: &Conv, rank: usize) -> Option<i64> {
    match &c.spec.kernel {
        Dims::All(k) => k.checked_pow(u32::try_from(rank).ok()?),
        Dims::Each(v) => elements(v),
    }
}

/// The parameters of one op, given its input channels (torch layers declare them).
pub fn op_params(op: &Op, framework: Framework, input: Option<&[i64]>, rank: usize) -> Option<i64> {
    let channels = || input.and_then(|s| s.get(channel_axis(framework, s.len())).copied());
    let last = || input.and_then(|s| s.last().copied());
    Some(match op {
        Op::Conv(c) => {
            let cin = c.in_channels.or_else(channels)?;
            let k = kernel_elements(c, rank)?;
            match c.groups {
                Groups::Depthwise { multiplier } => {
                    let depth = cin.checked_mul(multiplier)?;
                    let dw = depth.checked_mul(k)?;
                    if c.separable {
                        dw + depth.checked_mul(c.filters)? + if c.bias { c.filters } else { 0 }
                    } else {
                        dw + if c.bias { depth } else { 0 }
                    }
                }
                Groups::Count(g) => {
                    let g = g.max(1);
                    let w = c.filters.checked_mul(cin / g)?.checked_mul(k)?;
                    let _ = LayerOp::Conv;
                    w + if c.bias { c.filters } else { 0 }
                }
            }
        }
        Op::Dense {
            in_features,
            units,
            bias,
            ..
        } => {
            let n = in_features.or_else(last)?;
            n.checked_mul(*units)? + if *bias { *units } else { 0 }
        }
        Op::Embedding { vocab, dim, .. } => vocab.checked_mul(*dim)?,
        Op::Norm(Norm::Batch {
            features,
            center,
            scale,
            axis,
            ..
        }) => {
            let c = match features {
                Some(f) => *f,
                None => {
                    let s = input?;
                    let i = crate::model::shape::axis(*axis, s.len()).ok()?;
                    s[i]
                }
            };
            let affine = i64::from(*center) + i64::from(*scale);
            if framework == Framework::Keras {
                c * (affine + 2)
            } else {
                c * affine
            }
        }
        Op::Norm(Norm::Layer {
            shape,
            axes,
            center,
            scale,
            ..
        }) => {
            let n = match shape {
                Some(s) => elements(s)?,
                None => {
                    let s = input?;
                    axes.iter()
                        .map(|&a| crate::model::shape::axis(a, s.len()).ok().map(|i| s[i]))
                        .try_fold(1i64, |acc, d| acc.checked_mul(d?))?
                }
            };
            n * (i64::from(*center) + i64::from(*scale))
        }
        Op::Norm(Norm::Group {
            channels: c,
            affine,
            ..
        }) => {
            let c = c.or_else(channels)?;
            if *affine { 2 * c } else { 0 }
        }
        Op::Norm(Norm::Instance {
            features, affine, ..
        }) => {
            let c = features.or_else(channels)?;
            if *affine { 2 * c } else { 0 }
        }
        // One learned scale per element of the last axis.
        Op::LayerScale { features } => features.or_else(|| input?.last().copied())?,
        // A layer's own slopes (PReLU); a module's nn.Parameter is counted with its module.
        Op::Learned {
            shape,
            weight: crate::model::op::WeightAt::Layer(_),
            ..
        } => elements(shape)?,
        Op::Learned { .. } => 0,
        // Keras's adapted Normalization: its mean, variance and count are (non-trainable)
        // weights; given statistics are constants.
        Op::Standardize(st) if st.stats == crate::model::op::Stats::Weights => {
            let shape = crate::model::shape::stats_shape(st, input?).ok()?;
            elements(&shape)?.checked_mul(2)?.checked_add(1)?
        }
        Op::Recurrent(r) => recurrent_params(r, framework, last())?,
        // Its query's, key's and value's features: see `attention_params`.
        Op::Attention(a) => {
            let (e, k, v) = a.declared.or_else(|| {
                let q = last()?;
                Some((q, q, q))
            })?;
            attention_params(a, framework, e, k, v)?
        }
        // Weights padlab does not know the layout of.
        Op::Opaque { .. } => return None,
        _ => 0,
    })
}

/// A recurrent layer's weights: per layer and direction, `gates * hidden` rows over the input
/// and over the state, and the biases (torch keeps two, Keras one, but two for a GRU that
/// resets after the product).
fn recurrent_params(
    r: &crate::model::op::Recurrent,
    fw: Framework,
    last: Option<i64>,
) -> Option<i64> {
    use crate::model::op::CellKind;
    let g = r.cell.gates().checked_mul(r.hidden)?;
    let d = r.directions();
    if r.layers > crate::model::op::MAX_RECURRENT_LAYERS {
        return None;
    }
    let mut total = 0i64;
    for layer in 0..r.layers {
        let input = if layer == 0 {
            r.input_size.or(last)?
        } else {
            d.checked_mul(r.hidden)?
        };
        let weights = g.checked_mul(input.checked_add(r.hidden)?)?;
        let biases = match (r.bias, fw, r.cell) {
            (false, _, _) => 0,
            (true, Framework::Torch, _) | (true, _, CellKind::Gru { reset_after: true }) => {
                g.checked_mul(2)?
            }
            (true, _, _) => g,
        };
        total = total.checked_add(weights.checked_add(biases)?.checked_mul(d)?)?;
    }
    Some(total)
}

/// Multi-head attention's weights for a query, key and value of `q`, `k`, `v` features: the
/// three projections to the heads and the output's (torch: `3 * embed_dim` biases and the
/// output projection's).
pub fn attention_params(
    a: &crate::model::op::Attention,
    _fw: Framework,
    q: i64,
    k: i64,
    v: i64,
) -> Option<i64> {
    let hk = a.heads.checked_mul(a.key_dim)?;
    let hv = a.heads.checked_mul(a.value_dim)?;
    let out = a.output_dim.unwrap_or(q);
    let weights = q
        .checked_mul(hk)?
        .checked_add(k.checked_mul(hk)?)?
        .checked_add(v.checked_mul(hv)?)?
        .checked_add(hv.checked_mul(out)?)?;
    let biases = if a.bias {
        hk.checked_mul(2)?.checked_add(hv)?.checked_add(out)?
    } else {
        0
    };
    weights.checked_add(biases)
}

/// The count for `model` (whose traced graph is `graph`).
pub fn count(model: &Value, graph: &Graph) -> Option<i64> {
    if graph.framework == Framework::Torch {
        let mut seen = HashSet::new();
        fn walk(v: &Value, seen: &mut HashSet<usize>, total: &mut Option<i64>, depth: usize) {
            if depth > 200 {
                return;
            }
            let layer = match v {
                Value::Layer(l) => Some(l.clone()),
                Value::Instance(i) => i.base_layer.borrow().clone(),
                _ => None,
            };
            if let Some(l) = layer
                && seen.insert(l.id)
                && let LayerKind::Op(op) = &l.kind
            {
                let rank = split_rank(&l.class).1.unwrap_or(2);
                // weight_norm keeps a magnitude per slice along its `dim` beside the direction.
                let extra = match l.weight_norm.get() {
                    Some(dim) => super::layers::param_shape(&l, "weight").and_then(|s| {
                        let i = crate::model::shape::axis(dim, s.len()).ok()?;
                        Some(s[i])
                    }),
                    None => Some(0),
                };
                // A lazy layer (`nn.LazyLinear`) takes its input size from its first call.
                let first = l.first_input.borrow();
                *total = total.and_then(|t| {
                    t.checked_add(op_params(op, Framework::Torch, first.as_deref(), rank)?)?
                        .checked_add(extra?)
                });
            }
            // A module's own nn.Parameters (a view is not one).
            if let Value::Instance(i) = v
                && seen.insert(i.id)
            {
                for (_, w) in &i.attrs.borrow().entries {
                    if let Value::Weight(w) = w {
                        *total = total.and_then(|t| t.checked_add(w.elements?));
                    }
                }
            }
            for (_, c) in module_children(v) {
                walk(&c, seen, total, depth + 1);
            }
        }
        let mut t = Some(0);
        walk(model, &mut seen, &mut t, 0);
        return t;
    }
    let mut total = 0i64;
    for n in graph.nodes.iter().filter(|n| n.shares.is_none()) {
        let input = n
            .inputs
            .first()
            .and_then(|e| graph.shape_of(*e))
            .map(Vec::as_slice);
        let rank = input.map_or(2, |s| s.len().saturating_sub(2));
        let own = match &n.op {
            // Keras infers the query's, key's and value's features from its three inputs.
            Op::Attention(a) => {
                let last = |k: usize| {
                    n.inputs
                        .get(k)
                        .and_then(|e| graph.shape_of(*e))
                        .and_then(|s| s.last().copied())
                };
                attention_params(a, graph.framework, last(0)?, last(1)?, last(2)?)?
            }
            op => op_params(op, graph.framework, input, rank)?,
        };
        total = total.checked_add(own)?;
    }
    Some(total)
}
