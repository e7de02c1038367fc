//! Each op's shape rule, once: what every front end calls for every node.
//!
//! Convolutions and pools go through `core::evaluate` at their real input size (so strided
//! 'same' pads are the ones this size gets, and a refusal is the framework's own); every other
//! op has its framework's rule here (broadcasting, concatenation, the flatten order, `view`
//! with `-1`, adaptive pooling, upsampling, embedding, global pooling). Refusals are worded as
//! the source framework words them where practical. Arithmetic is checked: no input panics.

use crate::core::{
    Answer, Framework, LayerSpec, Op as LayerOp, Padding, Placement, evaluate, onnx_spec_departure,
};

use super::graph::{Flag, Inferred, Shape};
use super::op::{
    Attention, Conv, Groups, Merge, Norm, Op, ReadRule, Recurrent, RecurrentForm, SliceAxis,
    Standardize, Stats,
};

/// Whether `framework` keeps the channels last (`[N, H, W, C]`).
pub fn channels_last(framework: Framework) -> bool {
    matches!(framework, Framework::Keras | Framework::Tf | Framework::Jax)
}

/// The channel axis of a tensor of `rank` axes (batch included).
pub fn channel_axis(framework: Framework, rank: usize) -> usize {
    if channels_last(framework) {
        rank.saturating_sub(1)
    } else {
        1
    }
}

/// The channels and the spatial sizes of a feature map.
pub fn split_map(framework: Framework, shape: &[i64]) -> Option<(i64, Vec<i64>)> {
    if shape.len() < 3 {
        return None;
    }
    if channels_last(framework) {
        let (last, rest) = shape.split_last()?;
        Some((*last, rest[1..].to_vec()))
    } else {
        Some((shape[1], shape[2..].to_vec()))
    }
}

/// A feature map's full shape from its batch, channels and spatial sizes.
pub fn join_map(framework: Framework, batch: i64, channels: i64, spatial: &[i64]) -> Shape {
    let mut v = Vec::with_capacity(spatial.len() + 2);
    v.push(batch);
    if channels_last(framework) {
        v.extend_from_slice(spatial);
        v.push(channels);
    } else {
        v.push(channels);
        v.extend_from_slice(spatial);
    }
    v
}

/// A Python-style axis (negative counts from the end) as an index into `rank` axes.
pub fn axis(axis: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if (0..r).contains(&a) {
        Ok(a as usize)
    } else {
        Err(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {axis})",
            -r,
            r - 1
        ))
    }
}

/// The number of elements of a shape.
pub fn elements(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |acc, &s| acc.checked_mul(s))
}

/// Sizes comma separated: `2, 3, 32, 32`.
fn joined(sizes: &[i64]) -> String {
    sizes
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The shape as PyTorch prints it: `[2, 3, 32, 32]`.
fn show(shape: &[i64]) -> String {
    format!("[{}]", joined(shape))
}

/// The shape as Keras prints it: `(None, 32, 32, 3)`.
fn show_keras(shape: &[i64]) -> String {
    let mut parts = vec!["None".to_string()];
    parts.extend(shape.iter().skip(1).map(i64::to_string));
    if parts.len() == 1 {
        "(None,)".into()
    } else {
        format!("({})", parts.join(", "))
    }
}

/// Infers one node: `inputs` are the shapes its edges carry (`None`: unknown). Unknown inputs
/// give unknown outputs and no error; a refusal is `Inferred::error` with the framework's
/// reason.
pub fn infer(op: &Op, framework: Framework, inputs: &[Option<&Shape>]) -> Inferred {
    let mut out = Inferred::default();
    let outputs = op_outputs(op);
    if matches!(op, Op::Input) {
        // An input's shape is given by its front end.
        out.outputs = vec![None];
        return out;
    }
    if inputs.iter().any(Option::is_none) || (inputs.is_empty() && !matches!(op, Op::Input)) {
        out.outputs = vec![None; outputs];
        return out;
    }
    let known: Vec<&Shape> = inputs.iter().flatten().copied().collect();
    match rule(op, framework, &known, &mut out) {
        Ok(shapes) => out.outputs = shapes.into_iter().map(Some).collect(),
        Err(e) => {
            out.outputs = vec![None; outputs];
            out.error = Some(e);
        }
    }
    out
}

/// How many outputs `op` has.
pub fn op_outputs(op: &Op) -> usize {
    match op {
        Op::Split { sizes, .. } => sizes.len().max(1),
        Op::Read { rule, .. } => match rule {
            ReadRule::AsInput { scalars } => 1 + scalars,
            ReadRule::Like(op) => op_outputs(op),
            ReadRule::Recurrent { states, .. } => 1 + states,
            _ => 1,
        },
        Op::Recurrent(r) => recurrent_outputs(r),
        Op::Attention(a) => 1 + usize::from(a.weights.is_some()),
        _ => 1,
    }
}

fn one(input: &[&Shape], what: &str) -> Result<Shape, String> {
    match input {
        [x] => Ok((*x).clone()),
        _ => Err(format!("{what} takes one input, got {}", input.len())),
    }
}

fn rule(
    op: &Op,
    fw: Framework,
    inputs: &[&Shape],
    out: &mut Inferred,
) -> Result<Vec<Shape>, String> {
    Ok(vec![match op {
        Op::Input => return Err("an input has no rule: its shape is given".into()),
        Op::Conv(conv) => return conv_rule(conv, fw, &one(inputs, "a convolution")?, out),
        Op::Pool(spec) | Op::LpPool { spec, .. } => {
            let x = one(inputs, "a pool")?;
            let (c, spatial) = map_of(fw, &x, kernel_rank(spec), "pool")?;
            let answer = core_answer(spec, &spatial, out)?;
            join_map(fw, x[0], c, &answer.output())
        }
        Op::AdaptivePool { output, .. } => {
            let x = one(inputs, "an adaptive pool")?;
            let (c, spatial) = map_of(fw, &x, Some(output.len()), "adaptive pool")?;
            let sizes: Vec<i64> = spatial
                .iter()
                .zip(output)
                .map(|(&s, o)| o.unwrap_or(s))
                .collect();
            if let Some(bad) = sizes.iter().find(|&&s| s < 1) {
                return Err(format!(
                    "adaptive pooling to a size of {bad}: sizes must be at least 1"
                ));
            }
            join_map(fw, x[0], c, &sizes)
        }
        Op::GlobalPool { keepdims, .. } => {
            let x = one(inputs, "a global pool")?;
            let (c, spatial) = map_of(fw, &x, None, "global pool")?;
            if *keepdims {
                join_map(fw, x[0], c, &vec![1; spatial.len()])
            } else {
                vec![x[0], c]
            }
        }
        Op::Norm(norm) => norm_rule(norm, fw, &one(inputs, "a normalisation")?, out)?,
        Op::Activation(_)
        | Op::Dropout { .. }
        | Op::Identity
        | Op::Affine { .. }
        | Op::Random { .. } => one(inputs, "an element-wise op")?,
        Op::Softmax { axis: a, .. } => {
            let x = one(inputs, "a softmax")?;
            axis(*a, x.len())?;
            x
        }
        Op::Flatten { start, end } => {
            let x = one(inputs, "a flatten")?;
            let (s, e) = (axis(*start, x.len())?, axis(*end, x.len())?);
            if s > e {
                return Err(
                    "flatten() has invalid args: start_dim cannot come after end_dim".into(),
                );
            }
            let n = elements(&x[s..=e]).ok_or("the flattened size overflows 64 bits")?;
            let mut v = x[..s].to_vec();
            v.push(n);
            v.extend_from_slice(&x[e + 1..]);
            v
        }
        Op::Reshape { shape, batch } => {
            let x = one(inputs, "a reshape")?;
            let y = reshape(&x, shape, *batch, fw)?;
            if *batch && x.first() != y.first() {
                out.flags.push(Flag::BatchChanges {
                    from: x.first().copied().unwrap_or(1),
                    to: y.first().copied().unwrap_or(1),
                });
            }
            y
        }
        Op::Permute(perm) => {
            let x = one(inputs, "a permute")?;
            let mut seen = vec![false; x.len()];
            if perm.len() != x.len() {
                return Err(format!(
                    "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                    x.len(),
                    perm.len()
                ));
            }
            for &p in perm {
                match seen.get_mut(p) {
                    Some(s) if !*s => *s = true,
                    _ => {
                        return Err(format!(
                            "permute(): the order {perm:?} repeats or skips an axis"
                        ));
                    }
                }
            }
            perm.iter().map(|&p| x[p]).collect()
        }
        Op::Squeeze(axes) => {
            let x = one(inputs, "a squeeze")?;
            match axes {
                None => x.iter().copied().filter(|&s| s != 1).collect(),
                Some(axes) => {
                    let idx = axes
                        .iter()
                        .map(|&a| axis(a, x.len()))
                        .collect::<Result<Vec<_>, _>>()?;
                    if fw == Framework::Onnx
                        && let Some(&i) = idx.iter().find(|&&i| x[i] != 1)
                    {
                        return Err(format!("Squeeze: dimension {i} of size {} is not 1", x[i]));
                    }
                    x.iter()
                        .enumerate()
                        .filter(|(i, s)| !(idx.contains(i) && **s == 1))
                        .map(|(_, &s)| s)
                        .collect()
                }
            }
        }
        Op::Unsqueeze(axes) => {
            let x = one(inputs, "an unsqueeze")?;
            let rank = x.len() + axes.len();
            let mut at = axes
                .iter()
                .map(|&a| axis(a, rank))
                .collect::<Result<Vec<_>, _>>()?;
            at.sort_unstable();
            at.dedup();
            if at.len() != axes.len() {
                return Err("unsqueeze: an axis is named twice".into());
            }
            let mut rest = x.iter();
            (0..rank)
                .map(|i| {
                    if at.contains(&i) {
                        1
                    } else {
                        rest.next().copied().unwrap_or(1)
                    }
                })
                .collect()
        }
        Op::Slice(axes) => slice(&one(inputs, "a slice")?, axes)?,
        Op::Take(axes) => {
            let mut x = one(inputs, "a take")?;
            for (a, indices) in axes {
                let i = axis(*a, x.len())?;
                let size = x[i];
                if let Some(bad) = indices.iter().find(|&&j| j < 0 || j >= size) {
                    return Err(format!(
                        "index {bad} is out of bounds for axis {i} with size {size}"
                    ));
                }
                x[i] = i64::try_from(indices.len()).map_err(|_| "too many indices")?;
            }
            x
        }
        Op::Split { axis: a, sizes } => {
            let x = one(inputs, "a split")?;
            let i = axis(*a, x.len())?;
            let total = sizes
                .iter()
                .try_fold(0i64, |acc, &s| acc.checked_add(s))
                .ok_or("the split sizes overflow")?;
            if total != x[i] || sizes.iter().any(|&s| s < 0) {
                return Err(format!(
                    "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {i}), but got split_sizes={sizes:?}",
                    x[i]
                ));
            }
            return Ok(sizes
                .iter()
                .map(|&s| {
                    let mut v = x.clone();
                    v[i] = s;
                    v
                })
                .collect());
        }
        Op::Concat { axis: a } => concat(inputs, *a, fw)?,
        Op::Stack { axis: a } => {
            let first = inputs
                .first()
                .ok_or("stack expects a non-empty TensorList")?
                .to_vec();
            if let Some((k, other)) = inputs.iter().enumerate().find(|(_, s)| ***s != *first) {
                return Err(format!(
                    "stack expects each tensor to be equal size, but got {first:?} at entry 0 and {other:?} at entry {k}"
                ));
            }
            let at = axis(*a, first.len() + 1)?;
            let mut v = first;
            v.insert(at, inputs.len() as i64);
            v
        }
        Op::Expand(shape) => {
            let x = one(inputs, "an expand")?;
            if shape.len() < x.len() {
                return Err(format!(
                    "expand: the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                    shape.len(),
                    x.len()
                ));
            }
            let lead = shape.len() - x.len();
            let mut v = Vec::with_capacity(shape.len());
            for (i, &want) in shape.iter().enumerate() {
                let have = i.checked_sub(lead).map(|j| x[j]);
                v.push(match (have, want) {
                    (Some(h), -1) => h,
                    (None, -1) => {
                        return Err(format!(
                            "expand: -1 is not allowed in a leading, non-existing dimension {i}"
                        ));
                    }
                    (_, w) if w < 0 => return Err(format!("expand: invalid size {w}")),
                    (Some(h), w) if h != w && h != 1 => {
                        return Err(format!(
                            "The expanded size of the tensor ({w}) must match the existing size ({h}) at non-singleton dimension {i}.  Target sizes: {shape:?}.  Tensor sizes: {x:?}"
                        ));
                    }
                    (_, w) => w,
                });
            }
            v
        }
        Op::Dense {
            in_features, units, ..
        } => {
            let x = one(inputs, "a dense layer")?;
            let Some(&last) = x.last() else {
                return Err("a dense layer needs at least one axis".into());
            };
            if x.len() < 2 {
                return Err("a dense layer needs a batch and a feature axis".into());
            }
            declared_size(out, *in_features, last, |declared| {
                let rows = elements(&x[..x.len() - 1]).unwrap_or(i64::MAX);
                format!(
                    "mat1 and mat2 shapes cannot be multiplied ({rows}x{last} and {declared}x{units})"
                )
            })?;
            let mut v = x;
            if let Some(l) = v.last_mut() {
                *l = *units;
            }
            v
        }
        Op::MatMul => matmul(inputs)?,
        Op::Embedding { dim, .. } => {
            let mut v = one(inputs, "an embedding")?;
            v.push(*dim);
            v
        }
        Op::Pad { pairs, .. } => {
            let x = one(inputs, "a pad")?;
            if pairs.len() != x.len() {
                return Err(format!(
                    "the padding covers {} axes, the input has {}",
                    pairs.len(),
                    x.len()
                ));
            }
            let v: Option<Vec<i64>> = x
                .iter()
                .zip(pairs)
                .map(|(&s, &(b, a))| s.checked_add(b)?.checked_add(a))
                .collect();
            let v = v.ok_or("the padded size overflows 64 bits")?;
            if let Some(i) = v.iter().position(|&s| s < 1) {
                return Err(format!(
                    "The input size {}, plus negative padding {} and {} resulted in a negative output size, which is invalid. Check dimension {i} of your input.",
                    x[i], pairs[i].0, pairs[i].1
                ));
            }
            out.answer = Some(pad_answer(pairs, &v));
            if pairs.iter().any(|(b, a)| b != a) {
                out.flags.push(Flag::Asymmetric);
            }
            v
        }
        Op::Upsample { scale, size, .. } => {
            let x = one(inputs, "an upsampling")?;
            let (c, spatial) = map_of(fw, &x, None, "upsampling")?;
            let sizes: Vec<i64> = match (size, scale) {
                (Some(size), _) if size.len() == spatial.len() => size.clone(),
                (Some(size), _) if size.len() == 1 => vec![size[0]; spatial.len()],
                (None, Some(scale)) if scale.len() == spatial.len() || scale.len() == 1 => spatial
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| {
                        let f = if scale.len() == 1 { scale[0] } else { scale[i] };
                        (s as f64 * f).floor() as i64
                    })
                    .collect(),
                _ => {
                    return Err(format!(
                        "the upsampling names {} sizes, the input has {} spatial axes",
                        size.as_ref()
                            .map_or_else(|| scale.as_ref().map_or(0, Vec::len), Vec::len),
                        spatial.len()
                    ));
                }
            };
            if let Some(bad) = sizes.iter().find(|&&s| s < 1) {
                return Err(format!(
                    "Input and output sizes should be greater than 0, but got output size {bad}"
                ));
            }
            join_map(fw, x[0], c, &sizes)
        }
        Op::Elementwise { .. } => broadcast_all(inputs, fw)?,
        Op::PixelShuffle(r) | Op::DepthToSpace(r) => {
            depth_to_space(&one(inputs, "a pixel shuffle")?, *r, fw)?
        }
        Op::SpaceToDepth(r) => space_to_depth(&one(inputs, "a space to depth")?, *r, fw)?,
        Op::Reduce { axes, keepdims, .. } => {
            let x = one(inputs, "a reduction")?;
            let idx: Vec<usize> = if axes.is_empty() {
                (0..x.len()).collect()
            } else {
                axes.iter()
                    .map(|&a| axis(a, x.len()))
                    .collect::<Result<_, _>>()?
            };
            x.iter()
                .enumerate()
                .filter_map(|(i, &s)| match (idx.contains(&i), keepdims) {
                    (true, true) => Some(1),
                    (true, false) => None,
                    (false, _) => Some(s),
                })
                .collect()
        }
        Op::Standardize(st) => {
            let x = one(inputs, "a Normalization")?;
            stats_shape(st, &x)?;
            x
        }
        Op::LayerScale { features } => {
            let x = one(inputs, "a LayerScale")?;
            let last = x.last().copied().unwrap_or(0);
            declared_size(out, *features, last, |declared| {
                let dims: Vec<String> = x.iter().map(i64::to_string).collect();
                format!("Incompatible shapes: [{}] vs. [{declared}]", dims.join(","))
            })?;
            x
        }
        Op::Learned {
            op: crate::model::op::LearnedOp::Concat { axis: a, .. },
            shape,
            ..
        } => {
            let x = one(inputs, "a learned weight")?;
            let at = axis(*a, x.len())?;
            let fits = shape.len() == x.len()
                && shape
                    .iter()
                    .zip(&x)
                    .enumerate()
                    .all(|(i, (&w, &d))| i == 0 || i == at || w == d);
            if !fits || at == 0 {
                return Err(format!(
                    "Sizes of tensors must match except in dimension {at}. Expected size {:?} but got {shape:?} (a learned tensor repeated over the batch)",
                    x
                ));
            }
            let mut out = x.clone();
            out[at] = x[at]
                .checked_add(shape[at])
                .ok_or("the concatenation is too large")?;
            out
        }
        Op::Learned { shape, .. } => {
            let x = one(inputs, "a learned weight")?;
            match broadcast(&x, shape) {
                Some(out) if out.len() == x.len() => out,
                _ => {
                    return Err(format!(
                        "The size of tensor a ({x:?}) must match the size of tensor b ({shape:?}) (a learned weight that broadcasts into the input)"
                    ));
                }
            }
        }
        Op::Recurrent(r) => return recurrent(r, &one(inputs, "a recurrent layer")?),
        Op::Attention(a) => return attention(a, fw, inputs),
        Op::Opaque { what } => return Err(format!("padlab has no shape rule for {what}")),
        Op::Read { rule, .. } => return read_rule(rule, fw, inputs, out),
    }])
}

/// How many outputs a recurrent layer gives (see [`RecurrentForm`]).
pub fn recurrent_outputs(r: &Recurrent) -> usize {
    let states = r.cell.states();
    match r.form {
        RecurrentForm::Torch { .. } => 1 + states,
        RecurrentForm::Keras {
            states: s, merge, ..
        } => {
            let main = if r.bidirectional && merge == Merge::Apart {
                2
            } else {
                1
            };
            let d = r.directions() as usize;
            main + if s { d * states } else { 0 }
        }
    }
}

/// A recurrent layer's outputs on `x`, in its framework's words where it refuses.
fn recurrent(r: &Recurrent, x: &Shape) -> Result<Vec<Shape>, String> {
    let d = r.directions();
    let h = r.hidden;
    let states = r.cell.states();
    if h < 1 || r.layers < 1 || r.layers > super::op::MAX_RECURRENT_LAYERS {
        return Err(format!(
            "a recurrent layer needs a positive hidden size and 1 to {} layers (got {h} and {})",
            super::op::MAX_RECURRENT_LAYERS,
            r.layers
        ));
    }
    // Every size derived from these (the gates' rows, both biases, the directions' states)
    // fits 64 bits.
    let fits = r
        .cell
        .gates()
        .checked_mul(h)
        .and_then(|g| g.checked_mul(2))
        .and_then(|g| g.checked_mul(d))
        .and_then(|g| g.checked_mul(r.layers))
        .is_some();
    if !fits {
        return Err(format!(
            "a recurrent layer of hidden size {h} and {} layers is too large for padlab's 64-bit sizes",
            r.layers
        ));
    }
    match r.form {
        RecurrentForm::Torch { batch_first } => {
            let [a, b, f] = x.as_slice() else {
                return Err(format!(
                    "padlab reads a recurrent layer on a batch: the input must have 3 dimensions (sequence, batch, features), got {} ({})",
                    x.len(),
                    show(x)
                ));
            };
            if let Some(want) = r.input_size
                && want != *f
            {
                return Err(format!(
                    "input.size(-1) must be equal to input_size. Expected {want}, got {f}"
                ));
            }
            let n = if batch_first { *a } else { *b };
            let out = vec![*a, *b, d * h];
            let state = vec![r.layers * d, n, h];
            Ok(std::iter::once(out)
                .chain(std::iter::repeat_n(state, states))
                .collect())
        }
        RecurrentForm::Keras {
            sequences,
            states: with_states,
            merge,
            ..
        } => {
            let [n, t, _] = x.as_slice() else {
                return Err(format!(
                    "Input 0 of layer is incompatible with the layer: expected ndim=3, found ndim={}. Full shape received: {}",
                    x.len(),
                    show_keras(x)
                ));
            };
            let width = if r.bidirectional && merge == Merge::Concat {
                2 * h
            } else {
                h
            };
            let main = if sequences {
                vec![*n, *t, width]
            } else {
                vec![*n, width]
            };
            let mains = if r.bidirectional && merge == Merge::Apart {
                2
            } else {
                1
            };
            let mut out = vec![main; mains];
            if with_states {
                out.extend(std::iter::repeat_n(vec![*n, h], d as usize * states));
            }
            Ok(out)
        }
    }
}

/// Multi-head attention's outputs on the query, key and value.
fn attention(a: &Attention, fw: Framework, inputs: &[&Shape]) -> Result<Vec<Shape>, String> {
    let [q, k, v] = inputs else {
        return Err(format!(
            "attention reads a query, a key and a value, got {} inputs",
            inputs.len()
        ));
    };
    let rank3 = |s: &Shape| s.len() == 3;
    if !(rank3(q) && rank3(k) && rank3(v)) {
        return Err(format!(
            "padlab reads attention over [batch, time, features] inputs; got {}, {} and {}",
            show(q),
            show(k),
            show(v)
        ));
    }
    let sizes = [a.key_dim, a.value_dim].iter().all(|&dim| {
        a.heads
            .checked_mul(dim)
            .is_some_and(|n| n.checked_mul(2).is_some())
    });
    if a.heads < 1 || a.key_dim < 1 || a.value_dim < 1 || !sizes {
        return Err(format!(
            "attention needs positive sizes that fit 64 bits: {} heads of {} (keys) and {} (values)",
            a.heads, a.key_dim, a.value_dim
        ));
    }
    // Batch and time axes (torch without batch_first: time first).
    let (bt, tt) = if a.batch_first { (0, 1) } else { (1, 0) };
    if q[bt] != k[bt] || q[bt] != v[bt] {
        return Err(format!(
            "the query, key and value have different batches: {}, {} and {}",
            show(q),
            show(k),
            show(v)
        ));
    }
    if k[tt] != v[tt] {
        return Err(if fw == Framework::Torch {
            format!(
                "key shape {} does not match value shape {}",
                show(k),
                show(v)
            )
        } else {
            format!(
                "The key and value must have the same length: key {} and value {}",
                show_keras(k),
                show_keras(v)
            )
        });
    }
    if let Some((e, kdim, vdim)) = a.declared {
        if q[2] != e {
            return Err(format!(
                "was expecting embedding dimension of {e}, but got {}",
                q[2]
            ));
        }
        if k[2] != kdim || v[2] != vdim {
            return Err(format!(
                "the key and value have {} and {} features; the layer was built for kdim={kdim} and vdim={vdim}",
                k[2], v[2]
            ));
        }
    }
    let out_dim = a.output_dim.unwrap_or(q[2]);
    let mut out = vec![vec![q[0], q[1], out_dim]];
    let (n, l, s) = (q[bt], q[tt], k[tt]);
    match a.weights {
        Some(true) => out.push(vec![n, l, s]),
        Some(false) => out.push(vec![n, a.heads, l, s]),
        None => {}
    }
    Ok(out)
}

/// Depth to space by `r` (torch's `PixelShuffle`, ONNX's `DepthToSpace` in either order).
fn depth_to_space(x: &Shape, r: i64, fw: Framework) -> Result<Shape, String> {
    let (c, spatial) = map_of(fw, x, Some(2), "pixel shuffle")?;
    let rr = r
        .checked_mul(r)
        .filter(|&v| v > 0)
        .ok_or("the upscale factor must be positive")?;
    if c % rr != 0 {
        return Err(if fw == Framework::Onnx {
            "DepthToSpace requires input depth to be a multiple of (block_size * block_size)".into()
        } else {
            format!(
                "pixel_shuffle expects its input's channel dimension to be divisible by the square of upscale_factor, but input.size(-3)={c} is not divisible by {rr}"
            )
        });
    }
    let sizes: Option<Vec<i64>> = spatial.iter().map(|&s| s.checked_mul(r)).collect();
    Ok(join_map(
        fw,
        x[0],
        c / rr,
        &sizes.ok_or("the upscaled size overflows")?,
    ))
}

/// Space to depth by `r` (ONNX's `SpaceToDepth`), in ONNX Runtime's words.
fn space_to_depth(x: &Shape, r: i64, fw: Framework) -> Result<Shape, String> {
    let (c, spatial) = map_of(fw, x, Some(2), "space to depth")?;
    if r < 1 {
        return Err("the block size must be positive".into());
    }
    for (axis, &s) in ["height", "width"].iter().zip(&spatial) {
        if s % r != 0 {
            return Err(format!(
                "SpaceToDepth requires input {axis} to be a multiple of block_size"
            ));
        }
    }
    let rr = r.checked_mul(r).ok_or("the block size overflows")?;
    let channels = c.checked_mul(rr).ok_or("the output channels overflow")?;
    let sizes: Vec<i64> = spatial.iter().map(|&s| s / r).collect();
    Ok(join_map(fw, x[0], channels, &sizes))
}

/// The rule of an op padlab reads but does not port: every output's shape, or the runtime's
/// refusal.
fn read_rule(
    read: &ReadRule,
    fw: Framework,
    inputs: &[&Shape],
    out: &mut Inferred,
) -> Result<Vec<Shape>, String> {
    let first = inputs
        .first()
        .map(|x| (*x).clone())
        .ok_or("the operation reads no input")?;
    match read {
        ReadRule::AsInput { scalars } => {
            let mut v = vec![first];
            v.extend(std::iter::repeat_n(Vec::new(), *scalars));
            Ok(v)
        }
        ReadRule::Like(op) => rule(op, fw, &[&first], out),
        ReadRule::Gemm { trans_a, trans_b } => {
            let [a, b] = inputs.get(..2).unwrap_or_default() else {
                return Err("Gemm reads A and B".into());
            };
            let (Some(a), Some(b)) = (matrix(a, *trans_a), matrix(b, *trans_b)) else {
                return Err("First input does not have rank 2".into());
            };
            if a.1 != b.0 {
                return Err(format!(
                    "GEMM: Dimension mismatch, W: {{{}, {}}} K: {} N:{}",
                    b.0, b.1, a.1, b.1
                ));
            }
            Ok(vec![vec![a.0, b.1]])
        }
        ReadRule::Gather { axis: a } => {
            let [data, indices] = inputs.get(..2).unwrap_or_default() else {
                return Err("Gather reads data and indices".into());
            };
            let i = axis(*a, data.len())?;
            let mut v = data[..i].to_vec();
            v.extend_from_slice(indices);
            v.extend_from_slice(&data[i + 1..]);
            Ok(vec![v])
        }
        ReadRule::Recurrent {
            hidden,
            directions,
            batch_first,
            states,
        } => {
            let [a, b, _] = first.as_slice() else {
                return Err(format!(
                    "Input X must have 3 dimensions only. Actual:{}",
                    show(&first)
                ));
            };
            let (seq, batch) = if *batch_first { (*b, *a) } else { (*a, *b) };
            let (y, state) = if *batch_first {
                (
                    vec![batch, seq, *directions, *hidden],
                    vec![batch, *directions, *hidden],
                )
            } else {
                (
                    vec![seq, *directions, batch, *hidden],
                    vec![*directions, batch, *hidden],
                )
            };
            let mut v = vec![y];
            v.extend(std::iter::repeat_n(state, *states));
            Ok(v)
        }
        ReadRule::Refused(why) => Err(why.clone()),
        ReadRule::Subgraph => Err("padlab does not read its subgraphs".into()),
    }
}

/// A rank-2 shape as `(rows, columns)`, transposed when asked.
fn matrix(s: &[i64], transposed: bool) -> Option<(i64, i64)> {
    match s {
        [r, c] if transposed => Some((*c, *r)),
        [r, c] => Some((*r, *c)),
        _ => None,
    }
}

/// A Keras `Normalization`'s kept axes at input rank `rank`, as indices, sorted (Keras's
/// `build`: each in `[-rank, rank)`).
pub fn kept_axes(st: &Standardize, rank: usize) -> Result<Vec<usize>, String> {
    let r = rank as i64;
    let mut keep = Vec::with_capacity(st.axes.len());
    for &a in &st.axes {
        if a < -r || a >= r {
            return Err(format!(
                "All `axis` values must be in the range [-ndim, ndim). Received inputs with ndim={rank}, while axis={}",
                tuple_of(&st.axes)
            ));
        }
        keep.push(if a < 0 { (a + r) as usize } else { a as usize });
    }
    keep.sort_unstable();
    keep.dedup();
    Ok(keep)
}

/// The shape a Keras `Normalization`'s statistics take against input `x` (full rank, source
/// order, 1 on every axis they broadcast over): the kept axes' sizes for weights; given
/// values aligned with the kept axes from the right, each size 1 or the axis's, as Keras's
/// `build` reshapes and broadcasts them.
pub fn stats_shape(st: &Standardize, x: &[i64]) -> Result<Vec<i64>, String> {
    let keep = kept_axes(st, x.len())?;
    let broadcast: Vec<i64> = (0..x.len())
        .map(|d| if keep.contains(&d) { x[d] } else { 1 })
        .collect();
    let Stats::Given { shape, .. } = &st.stats else {
        return Ok(broadcast);
    };
    if shape.len() > keep.len() {
        return Err(format!(
            "The rank of `mean` must be less than or equal to the number of axes ({}). Received: mean shape {} for axis {}",
            keep.len(),
            tuple_of(shape),
            tuple_of(&st.axes)
        ));
    }
    let mut expanded = vec![1; x.len()];
    for (&a, &size) in keep.iter().rev().zip(shape.iter().rev()) {
        expanded[a] = size;
    }
    if expanded
        .iter()
        .zip(&broadcast)
        .any(|(&e, &b)| e != 1 && e != b)
    {
        let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        return Err(format!(
            "Incompatible shapes: [{}] vs. [{}]",
            join(&expanded),
            join(&broadcast)
        ));
    }
    Ok(expanded)
}

/// The number of spatial axes a spec names, when its kernel is given per axis.
fn kernel_rank(spec: &LayerSpec) -> Option<usize> {
    match &spec.kernel {
        crate::core::Dims::Each(v) => Some(v.len()),
        crate::core::Dims::All(_) => None,
    }
}

/// The channels and spatial sizes of a feature map input, checked against the layer's rank.
fn map_of(
    fw: Framework,
    x: &[i64],
    rank: Option<usize>,
    what: &str,
) -> Result<(i64, Vec<i64>), String> {
    let (c, spatial) = split_map(fw, x).ok_or_else(|| {
        format!(
            "a {what} expects a feature map (batch, channels and 1 to 3 spatial axes), the input is {}",
            show(x)
        )
    })?;
    if spatial.len() > 3 {
        return Err(format!(
            "a {what} takes 1 to 3 spatial axes, the input has {}",
            spatial.len()
        ));
    }
    if let Some(r) = rank
        && r != spatial.len()
    {
        return Err(if channels_last(fw) {
            format!(
                "Input 0 of layer is incompatible with the layer: expected ndim={}, found ndim={}. Full shape received: {}",
                r + 2,
                x.len(),
                show_keras(x)
            )
        } else {
            format!(
                "Expected {}D (unbatched) or {}D (batched) input to {what}, but got input of size: {}",
                r + 1,
                r + 2,
                show(x)
            )
        });
    }
    Ok((c, spatial))
}

/// `core::evaluate` at `spatial`, filling the row's answer, spec and flags.
fn core_answer(spec: &LayerSpec, spatial: &[i64], out: &mut Inferred) -> Result<Answer, String> {
    let mut spec = spec.clone();
    spec.input = spatial.to_vec();
    let answer = evaluate(&spec);
    out.spec = Some(spec.clone());
    let answer = answer.map_err(|e| e.to_string())?;
    if answer.pads_depend_on_input {
        out.flags.push(Flag::InputDependent);
    }
    if answer.axes.iter().any(|a| a.before != a.after) {
        out.flags.push(Flag::Asymmetric);
    }
    if spec.padding == Some(Padding::SameLower) {
        out.flags.push(Flag::SameLower);
    }
    if spec.op.is_pool() && spec.ceil_mode == Some(true) {
        out.flags.push(Flag::CeilMode);
    }
    if let Some(what) = onnx_spec_departure(&spec, &answer) {
        out.flags.push(Flag::RuntimeDiffers(what));
    }
    let padded = answer.axes.iter().any(|a| a.before != 0 || a.after != 0);
    let counts = match spec.framework {
        Framework::Torch => spec.count_include_pad != Some(false),
        Framework::Onnx => spec.count_include_pad == Some(true),
        _ => false,
    };
    if spec.op == LayerOp::AvgPool && padded && counts {
        out.flags.push(Flag::CountsPadding);
    }
    let output_padding = match &spec.output_padding {
        Some(crate::core::Dims::All(v)) => *v != 0,
        Some(crate::core::Dims::Each(v)) => v.iter().any(|&p| p != 0),
        None => false,
    };
    if spec.op == LayerOp::ConvTranspose && (output_padding || spec.output_size.is_some()) {
        out.flags.push(Flag::OutputPadding);
    }
    out.answer = Some(answer.clone());
    Ok(answer)
}

fn conv_rule(
    conv: &Conv,
    fw: Framework,
    x: &Shape,
    out: &mut Inferred,
) -> Result<Vec<Shape>, String> {
    let (c, spatial) = map_of(fw, x, kernel_rank(&conv.spec), "convolution")?;
    let groups = match conv.groups {
        Groups::Count(g) => g,
        Groups::Depthwise { .. } => c,
    };
    if groups < 1 {
        return Err(format!(
            "non-positive groups is not supported (got {groups})"
        ));
    }
    declared_size(out, conv.in_channels, c, |declared| {
        let weight = if conv.spec.op == LayerOp::ConvTranspose {
            format!("[{declared}, {}, ...]", conv.filters / groups.max(1))
        } else {
            format!("[{}, {}, ...]", conv.filters, declared / groups.max(1))
        };
        format!(
            "Given groups={groups}, weight of size {weight}, expected input{} to have {declared} channels, but got {c} channels instead",
            show(x)
        )
    })?;
    if c % groups != 0 {
        return Err(format!(
            "The number of input channels ({c}) must be divisible by the number of groups ({groups})"
        ));
    }
    let answer = core_answer(&conv.spec, &spatial, out)?;
    let filters = match conv.groups {
        Groups::Depthwise { multiplier } if !conv.separable => c
            .checked_mul(multiplier)
            .ok_or("the depthwise output channels overflow")?,
        _ => conv.filters,
    };
    Ok(vec![join_map(fw, x[0], filters, &answer.output())])
}

/// A size the layer declares (its input features or channels) against the input's: a
/// mismatch is flagged and refused with `message(declared)`.
fn declared_size(
    out: &mut Inferred,
    declared: Option<i64>,
    actual: i64,
    message: impl FnOnce(i64) -> String,
) -> Result<(), String> {
    match declared {
        Some(declared) if declared != actual => {
            out.flags.push(Flag::Declared { declared, actual });
            Err(message(declared))
        }
        _ => Ok(()),
    }
}

/// The channels of a feature map (its last axis when the rank leaves no other).
fn channels_of(fw: Framework, x: &Shape) -> i64 {
    x[channel_axis(fw, x.len()).min(x.len().saturating_sub(1))]
}

fn norm_rule(norm: &Norm, fw: Framework, x: &Shape, out: &mut Inferred) -> Result<Shape, String> {
    match norm {
        Norm::Batch {
            axis: a, features, ..
        } => {
            let i = axis(*a, x.len())?;
            let actual = x[i];
            let ca = channel_axis(fw, x.len());
            if i != ca && i != 0 && x.len() > 2 {
                out.flags.push(Flag::NormalisesSpatialAxis {
                    axis: if channels_last(fw) {
                        i - 1
                    } else {
                        i.saturating_sub(2)
                    },
                    features: actual,
                });
            }
            declared_size(out, *features, actual, |declared| {
                format!("running_mean should contain {actual} elements not {declared}")
            })?;
            if fw == Framework::Torch && !(2..=5).contains(&x.len()) {
                return Err(format!("expected 2D to 5D input (got {}D input)", x.len()));
            }
            Ok(x.clone())
        }
        Norm::Layer { axes, shape, .. } => {
            for &a in axes {
                axis(a, x.len())?;
            }
            if let Some(shape) = shape {
                let tail = x.len().checked_sub(shape.len()).map(|s| &x[s..]);
                if tail != Some(shape.as_slice()) {
                    return Err(format!(
                        "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
                        show(shape),
                        joined(shape),
                        show(x)
                    ));
                }
            }
            Ok(x.clone())
        }
        Norm::Group {
            groups, channels, ..
        } => {
            let c = channels_of(fw, x);
            declared_size(out, *channels, c, |declared| {
                format!(
                    "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape [{declared}] and input of shape {}",
                    show(x)
                )
            })?;
            if *groups < 1 || c % groups != 0 {
                return Err(format!(
                    "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and num_groups={groups}",
                    show(x)
                ));
            }
            Ok(x.clone())
        }
        Norm::Instance { features, .. } => {
            let c = channels_of(fw, x);
            declared_size(out, *features, c, |declared| {
                format!(
                    "expected input's size at dim=1 to match num_features ({declared}), but got: {c}."
                )
            })?;
            Ok(x.clone())
        }
    }
}

/// `view` / `reshape` / Keras `Reshape` / ONNX `Reshape`: `-1` inferred, ONNX `0` copied.
fn reshape(x: &Shape, target: &[i64], batch: bool, fw: Framework) -> Result<Shape, String> {
    let mut want: Vec<i64> = if batch {
        target.to_vec()
    } else {
        let mut v = vec![x.first().copied().unwrap_or(1)];
        v.extend_from_slice(target);
        v
    };
    if fw == Framework::Onnx {
        for (i, w) in want.iter_mut().enumerate() {
            if *w == 0 {
                *w = *x
                    .get(i)
                    .ok_or("Reshape: a 0 names an axis the input does not have")?;
            }
        }
    }
    let total = elements(x).ok_or("the input's size overflows 64 bits")?;
    let holes = want.iter().filter(|&&w| w == -1).count();
    let shown = if batch {
        show(target)
    } else {
        format!("({})", joined(target))
    };
    if holes > 1 {
        return Err("only one dimension can be inferred".into());
    }
    if want.iter().any(|&w| w < -1) {
        return Err(format!(
            "invalid shape dimension {}",
            want.iter().find(|&&w| w < -1).unwrap_or(&0)
        ));
    }
    let known = want
        .iter()
        .filter(|&&w| w != -1)
        .try_fold(1i64, |acc, &w| acc.checked_mul(w))
        .ok_or("the reshaped size overflows 64 bits")?;
    let invalid = || {
        if batch {
            format!("shape '{shown}' is invalid for input of size {total}")
        } else {
            let per = elements(&x[1..]).unwrap_or(0);
            format!(
                "The total size of the tensor must be unchanged. Received: input_shape={}, target_shape={shown} ({per} values per sample)",
                show_keras(x)
            )
        }
    };
    if holes == 1 {
        if known == 0 || total % known != 0 {
            return Err(invalid());
        }
        let fill = total / known;
        for w in &mut want {
            if *w == -1 {
                *w = fill;
            }
        }
    } else if known != total {
        return Err(invalid());
    }
    Ok(want)
}

fn slice(x: &Shape, axes: &[SliceAxis]) -> Result<Shape, String> {
    let mut out: Vec<Option<i64>> = x.iter().copied().map(Some).collect();
    for s in axes {
        let i = axis(s.axis, x.len())?;
        let n = x[i];
        if s.index {
            let at = s.start.unwrap_or(0);
            if at >= n || at < -n {
                return Err(format!(
                    "index {at} is out of bounds for dimension {i} with size {n}"
                ));
            }
            out[i] = None;
            continue;
        }
        if s.step == 0 {
            return Err("slice step cannot be zero".into());
        }
        if s.step < 0 {
            return Err("step must be greater than zero".into());
        }
        let clamp = |v: i64| -> i64 {
            let v = if v < 0 { v.saturating_add(n) } else { v };
            v.clamp(0, n)
        };
        let start = s.start.map_or(0, clamp);
        let end = s.end.map_or(n, clamp);
        let len = if end > start {
            (end - start + s.step - 1) / s.step
        } else {
            0
        };
        out[i] = Some(len);
    }
    Ok(out.into_iter().flatten().collect())
}

fn concat(inputs: &[&Shape], a: i64, fw: Framework) -> Result<Shape, String> {
    let Some(first) = inputs.first() else {
        return Err("expected a non-empty list of Tensors".into());
    };
    let i = axis(a, first.len())?;
    let mut out = (*first).clone();
    for (n, x) in inputs.iter().enumerate().skip(1) {
        let mismatch = x.len() != first.len()
            || x.iter()
                .zip(first.iter())
                .enumerate()
                .any(|(d, (p, q))| d != i && p != q);
        if mismatch {
            return Err(if channels_last(fw) {
                format!(
                    "A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=[{}]",
                    inputs
                        .iter()
                        .map(|s| show_keras(s))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else if x.len() != first.len() {
                format!(
                    "Tensors must have same number of dimensions: got {} and {}",
                    first.len(),
                    x.len()
                )
            } else {
                let (d, want, got) = x
                    .iter()
                    .zip(first.iter())
                    .enumerate()
                    .find(|(d, (p, q))| *d != i && p != q)
                    .map(|(d, (p, q))| (d, *q, *p))
                    .unwrap_or((0, 0, 0));
                let _ = d;
                format!(
                    "Sizes of tensors must match except in dimension {i}. Expected size {want} but got size {got} for tensor number {n} in the list."
                )
            });
        }
        out[i] = out[i]
            .checked_add(x[i])
            .ok_or("the concatenated size overflows")?;
    }
    Ok(out)
}

/// NumPy broadcasting of every input.
fn broadcast_all(inputs: &[&Shape], fw: Framework) -> Result<Shape, String> {
    let Some(first) = inputs.first() else {
        return Err("an element-wise op needs an input".into());
    };
    let mut out = (*first).clone();
    for x in &inputs[1..] {
        out = broadcast(&out, x).ok_or_else(|| {
            if channels_last(fw) {
                format!(
                    "Inputs have incompatible shapes. Received shapes {} and {}",
                    tuple_of(&out[1..]),
                    tuple_of(&x[x.len().min(1)..])
                )
            } else {
                let rank = out.len().max(x.len());
                let (a, b) = (pad_left(&out, rank), pad_left(x, rank));
                let d = (0..rank)
                    .rev()
                    .find(|&d| a[d] != b[d] && a[d] != 1 && b[d] != 1)
                    .unwrap_or(0);
                format!(
                    "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {d}",
                    a[d], b[d]
                )
            }
        })?;
    }
    Ok(out)
}

fn tuple_of(v: &[i64]) -> String {
    match v {
        [one] => format!("({one},)"),
        _ => format!("({})", joined(v)),
    }
}

fn pad_left(v: &[i64], rank: usize) -> Vec<i64> {
    let mut out = vec![1; rank - v.len()];
    out.extend_from_slice(v);
    out
}

/// NumPy broadcasting of two shapes.
pub fn broadcast(a: &[i64], b: &[i64]) -> Option<Shape> {
    let rank = a.len().max(b.len());
    let (a, b) = (pad_left(a, rank), pad_left(b, rank));
    a.iter()
        .zip(&b)
        .map(|(&p, &q)| match (p, q) {
            _ if p == q => Some(p),
            (1, q) => Some(q),
            (p, 1) => Some(p),
            _ => None,
        })
        .collect()
}

fn matmul(inputs: &[&Shape]) -> Result<Shape, String> {
    let [a, b] = inputs else {
        return Err("a matrix product takes two inputs".into());
    };
    if a.is_empty() || b.is_empty() {
        return Err("both arguments to matmul need to be at least 1D".into());
    }
    let (a2, b2) = (
        if a.len() == 1 {
            vec![1, a[0]]
        } else {
            a.to_vec()
        },
        if b.len() == 1 {
            vec![b[0], 1]
        } else {
            b.to_vec()
        },
    );
    let (m, k) = (a2[a2.len() - 2], a2[a2.len() - 1]);
    let (k2, n) = (b2[b2.len() - 2], b2[b2.len() - 1]);
    if k != k2 {
        return Err(format!(
            "mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})"
        ));
    }
    let batch = broadcast(&a2[..a2.len() - 2], &b2[..b2.len() - 2])
        .ok_or("the matrix product's batch axes do not broadcast")?;
    let mut out = batch;
    if a.len() > 1 {
        out.push(m);
    }
    if b.len() > 1 {
        out.push(n);
    }
    Ok(out)
}

/// The answer of an explicit padding (for the table's pad columns): one axis per padded axis.
fn pad_answer(pairs: &[(i64, i64)], out: &[i64]) -> Answer {
    Answer {
        placement: Placement::Pad,
        axes: pairs
            .iter()
            .zip(out)
            .map(|(&(b, a), &o)| crate::core::AxisAnswer {
                output: o,
                before: b,
                after: a,
                effective_kernel: 1,
            })
            .collect(),
        pads_depend_on_input: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Dims, Op as L};
    use crate::model::op::Binary;

    fn run(op: Op, fw: Framework, inputs: &[&[i64]]) -> Result<Vec<Shape>, String> {
        let owned: Vec<Shape> = inputs.iter().map(|s| s.to_vec()).collect();
        let refs: Vec<Option<&Shape>> = owned.iter().map(Some).collect();
        let r = infer(&op, fw, &refs);
        match r.error {
            Some(e) => Err(e),
            None => Ok(r.outputs.into_iter().map(|s| s.unwrap()).collect()),
        }
    }

    fn conv(fw: Framework, k: i64, s: i64, padding: Padding, filters: i64) -> Op {
        let mut spec = LayerSpec::new(L::Conv, fw, vec![], Dims::Each(vec![k, k]));
        spec.stride = Some(Dims::All(s));
        spec.padding = Some(padding);
        Op::Conv(Conv {
            spec,
            in_channels: None,
            filters,
            groups: Groups::Count(1),
            separable: false,
            bias: true,
            activation: None,
        })
    }

    #[test]
    fn convolutions_go_through_the_core_in_the_source_layout() {
        // Keras 'same' stride 2 on 30x30: 15x15, pads (0, 1), input-dependent.
        let op = conv(Framework::Keras, 3, 2, Padding::Same, 8);
        let r = infer(&op, Framework::Keras, &[Some(&vec![2, 30, 30, 3])]);
        assert_eq!(r.outputs, vec![Some(vec![2, 15, 15, 8])]);
        let a = r.answer.unwrap();
        assert_eq!((a.before(), a.after()), (vec![0, 0], vec![1, 1]));
        assert!(r.flags.contains(&Flag::InputDependent));
        // torch NCHW.
        let op = conv(Framework::Torch, 3, 1, Padding::All(1), 8);
        assert_eq!(
            run(op, Framework::Torch, &[&[2, 3, 32, 32]]),
            Ok(vec![vec![2, 8, 32, 32]])
        );
    }

    #[test]
    fn a_declared_channel_count_that_differs_is_torchs_refusal() {
        let Op::Conv(mut c) = conv(Framework::Torch, 3, 1, Padding::All(1), 8) else {
            unreachable!()
        };
        c.in_channels = Some(1);
        let r = infer(&Op::Conv(c), Framework::Torch, &[Some(&vec![2, 3, 32, 32])]);
        assert!(r.error.unwrap().contains(
            "expected input[2, 3, 32, 32] to have 1 channels, but got 3 channels instead"
        ));
        assert!(r.flags.contains(&Flag::Declared {
            declared: 1,
            actual: 3
        }));
    }

    #[test]
    fn keras_normalization_keeps_the_shape_and_refuses_as_keras_builds() {
        use crate::model::op::{Standardize, Stats};
        let given = |axes: Vec<i64>, shape: Vec<i64>| {
            let n = shape.iter().product::<i64>() as usize;
            Op::Standardize(Standardize {
                axes,
                stats: Stats::Given {
                    mean: vec![0.0; n],
                    variance: vec![1.0; n],
                    shape,
                },
                invert: false,
            })
        };
        let x = vec![2, 4, 4, 5];
        let run = |op: &Op| infer(op, Framework::Keras, &[Some(&x)]);
        assert_eq!(
            run(&given(vec![-1], vec![5])).outputs,
            vec![Some(x.clone())]
        );
        // Aligned with the kept axes from the right: (4, 1) over axes 1 and 3.
        assert_eq!(run(&given(vec![1, 3], vec![4, 1])).error, None);
        assert_eq!(run(&given(vec![], vec![])).error, None);
        assert_eq!(
            run(&given(vec![-1], vec![3])).error.as_deref(),
            Some("Incompatible shapes: [1,1,1,3] vs. [1,1,1,5]")
        );
        assert_eq!(
            run(&given(vec![5], vec![])).error.as_deref(),
            Some(
                "All `axis` values must be in the range [-ndim, ndim). Received inputs with ndim=4, while axis=(5,)"
            )
        );
        assert!(
            run(&given(vec![-1], vec![1, 5]))
                .error
                .unwrap()
                .starts_with(
                    "The rank of `mean` must be less than or equal to the number of axes (1)"
                )
        );
        let weights = Op::Standardize(Standardize {
            axes: vec![1, 3],
            stats: Stats::Weights,
            invert: false,
        });
        assert_eq!(run(&weights).outputs, vec![Some(x.clone())]);
        let Op::Standardize(st) = &weights else {
            unreachable!()
        };
        assert_eq!(stats_shape(st, &x), Ok(vec![1, 4, 1, 5]));
    }

    #[test]
    fn layer_scale_keeps_the_shape_of_its_projection() {
        let x = vec![2, 6, 6, 8];
        let r = infer(
            &Op::LayerScale { features: Some(8) },
            Framework::Keras,
            &[Some(&x)],
        );
        assert_eq!(r.outputs, vec![Some(x.clone())]);
        let r = infer(
            &Op::LayerScale { features: Some(4) },
            Framework::Keras,
            &[Some(&x)],
        );
        assert_eq!(
            r.error.as_deref(),
            Some("Incompatible shapes: [2,6,6,8] vs. [4]")
        );
        assert!(r.flags.contains(&Flag::Declared {
            declared: 4,
            actual: 8
        }));
    }

    #[test]
    fn view_with_minus_one_and_its_refusal() {
        let op = Op::Reshape {
            shape: vec![-1, 400],
            batch: true,
        };
        assert_eq!(
            run(op.clone(), Framework::Torch, &[&[2, 16, 5, 5]]),
            Ok(vec![vec![2, 400]])
        );
        assert_eq!(
            run(op, Framework::Torch, &[&[2, 16, 4, 4]]),
            Err("shape '[-1, 400]' is invalid for input of size 512".into())
        );
        let keras = Op::Reshape {
            shape: vec![7, 7, 256],
            batch: false,
        };
        assert_eq!(
            run(keras, Framework::Keras, &[&[2, 12544]]),
            Ok(vec![vec![2, 7, 7, 256]])
        );
    }

    #[test]
    fn flatten_concat_broadcast_and_unknown_inputs() {
        let f = Op::Flatten { start: 1, end: -1 };
        assert_eq!(
            run(f, Framework::Torch, &[&[2, 16, 5, 5]]),
            Ok(vec![vec![2, 400]])
        );
        let c = Op::Concat { axis: 1 };
        assert_eq!(
            run(
                c.clone(),
                Framework::Torch,
                &[&[2, 64, 8, 8], &[2, 32, 8, 8]]
            ),
            Ok(vec![vec![2, 96, 8, 8]])
        );
        assert!(run(c, Framework::Torch, &[&[2, 64, 8, 8], &[2, 32, 7, 8]])
            .unwrap_err()
            .starts_with("Sizes of tensors must match except in dimension 1. Expected size 8 but got size 7 for tensor number 1"));
        let add = Op::Elementwise {
            op: Binary::Add,
            constant: None,
            constant_first: false,
        };
        assert_eq!(
            run(
                add.clone(),
                Framework::Torch,
                &[&[2, 64, 8, 8], &[2, 64, 1, 1]]
            ),
            Ok(vec![vec![2, 64, 8, 8]])
        );
        assert_eq!(
            run(add.clone(), Framework::Torch, &[&[2, 64, 8, 8], &[2, 64, 7, 8]]),
            Err("The size of tensor a (8) must match the size of tensor b (7) at non-singleton dimension 2".into())
        );
        let r = infer(&add, Framework::Torch, &[None, Some(&vec![2, 3])]);
        assert_eq!((r.outputs, r.error), (vec![None], None));
    }

    #[test]
    fn splits_slices_and_reductions() {
        let s = Op::Split {
            axis: 1,
            sizes: vec![2, 2],
        };
        assert_eq!(
            run(s, Framework::Torch, &[&[2, 4, 3]]),
            Ok(vec![vec![2, 2, 3], vec![2, 2, 3]])
        );
        let sl = Op::Slice(vec![
            SliceAxis {
                axis: 2,
                start: Some(1),
                end: None,
                step: 2,
                index: false,
            },
            SliceAxis {
                axis: 1,
                start: Some(0),
                end: None,
                step: 1,
                index: true,
            },
        ]);
        assert_eq!(
            run(sl, Framework::Torch, &[&[2, 4, 9]]),
            Ok(vec![vec![2, 4]])
        );
        let m = Op::Reduce {
            op: super::super::op::Reduce::Mean,
            axes: vec![2, 3],
            keepdims: false,
        };
        assert_eq!(
            run(m, Framework::Torch, &[&[2, 64, 7, 7]]),
            Ok(vec![vec![2, 64]])
        );
    }
}
