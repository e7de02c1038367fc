//! Transposed convolution. Every framework computes the same full output
//! `F = (i-1)s + d(k-1) + 1` (input element `m`, tap `t` land at `m*s + t*d`) and then crops
//! `before` elements from the start and `after` from the end; a negative crop appends.

use super::answer::{Answer, Computed, Placement};
use super::error::PadError;
use super::geometry::{
    Geometry, add, ceil_div, explicit_pairs, mul, narrow, per_dim, sub, windows,
};
use super::rules::{
    check_pairs, default_padding, keras_padding_keyword, keyword_refused, no_strided_dilation,
    onnx_auto_pad,
};
use super::spec::{Backend, Framework, LayerSpec, Op, Padding, PaddingMode};

const OP: Op = Op::ConvTranspose;

/// A validated transposed convolution: what each framework's size rule reads.
struct Layer<'a> {
    g: &'a Geometry,
    padding: &'a Padding,
    pairs: Option<&'a [(i64, i64)]>,
    output_padding: Option<&'a [i64]>,
    requested: Option<&'a [i64]>,
    /// The full output `(i-1)s + d(k-1) + 1` per dimension.
    full: &'a [i128],
    keffs: &'a [i128],
    /// Keras's backend.
    backend: Backend,
}

impl Layer<'_> {
    fn ndim(&self) -> usize {
        self.g.ndim()
    }

    /// The explicit `(before, after)` of dimension `a`, if the padding is numeric.
    fn pair(&self, a: usize) -> Option<(i128, i128)> {
        self.pairs.map(|p| (i128::from(p[a].0), i128::from(p[a].1)))
    }

    /// The output padding of dimension `a`, if given.
    fn op_at(&self, a: usize) -> Option<i128> {
        self.output_padding.map(|p| i128::from(p[a]))
    }
}

/// `(output, crop before)` per dimension.
type Sizes = (Vec<i128>, Vec<i128>);

/// Answers a transposed convolution.
pub fn evaluate(spec: &LayerSpec, g: &Geometry) -> Result<Answer, PadError> {
    let fw = spec.framework;
    let n = g.ndim();
    let padding = spec.padding.clone().unwrap_or_else(|| default_padding(fw));
    let pairs = explicit_pairs(&padding, n)?;
    let output_padding = match &spec.output_padding {
        Some(p) => Some(per_dim("output_padding", p, n)?),
        None => None,
    };
    let requested = match &spec.output_size {
        Some(v) if v.len() != n => {
            return Err(PadError::Length {
                field: "output_size",
                got: v.len(),
                want: n,
            });
        }
        Some(v) => Some(v.clone()),
        None => None,
    };
    validate(
        spec,
        g,
        &padding,
        pairs.as_deref(),
        output_padding.as_deref(),
        requested.is_some(),
    )?;

    let mut full = Vec::with_capacity(n);
    let mut keffs = Vec::with_capacity(n);
    for a in 0..n {
        let (i, _, s, _) = g.dim(a);
        let keff = g.effective_kernel(a)?;
        full.push(add(mul(i - 1, s)?, keff)?);
        keffs.push(keff);
    }
    let layer = Layer {
        backend: spec.keras_backend(),
        g,
        padding: &padding,
        pairs: pairs.as_deref(),
        output_padding: output_padding.as_deref(),
        requested: requested.as_deref(),
        full: &full,
        keffs: &keffs,
    };
    let (output, crop) = match fw {
        Framework::Torch => torch(&layer)?,
        Framework::Keras | Framework::Tf => tf_family(fw, &layer)?,
        Framework::Onnx => onnx(&layer)?,
        Framework::Jax => jax(&layer)?,
    };
    if output.iter().any(|&o| o < 1) {
        return Err(PadError::EmptyOutput {
            framework: fw,
            op: OP,
            input: g.input.clone(),
            output,
        });
    }
    // The full output is part of the answer (output + crops): it must fit too.
    for &f in &full {
        narrow(f)?;
    }
    let after: Vec<i128> = (0..n).map(|a| full[a] - output[a] - crop[a]).collect();
    Computed {
        placement: Placement::Crop,
        output: &output,
        before: &crop,
        after: &after,
        effective_kernel: &keffs,
        pads_depend_on_input: false,
    }
    .answer()
}

/// The framework's rules that do not depend on the sizes.
fn validate(
    spec: &LayerSpec,
    g: &Geometry,
    padding: &Padding,
    pairs: Option<&[(i64, i64)]>,
    output_padding: Option<&[i64]>,
    requested: bool,
) -> Result<(), PadError> {
    let fw = spec.framework;
    let n = g.ndim();
    let refuse = |what: String, hint: &str| Err(PadError::not_accepted(fw, OP, what, hint));
    if spec.padding_mode.is_some_and(|m| m != PaddingMode::Zeros) {
        return refuse(
            "padding_mode".into(),
            "Only \"zeros\" padding mode is supported for ConvTranspose",
        );
    }
    if spec.ceil_mode.is_some() || spec.count_include_pad.is_some() {
        return refuse(
            "ceil_mode / count_include_pad".to_string(),
            "they are pooling options",
        );
    }
    if let Some(op) = output_padding
        && let Some(&value) = op.iter().find(|&&v| v < 0)
    {
        return Err(PadError::Negative {
            framework: fw,
            field: "output_padding",
            value,
        });
    }
    match fw {
        Framework::Torch => {
            if padding.keyword().is_some() {
                return Err(keyword_refused(
                    fw,
                    OP,
                    padding,
                    "argument 'padding' must be tuple of ints, but found element of type str",
                ));
            }
        }
        Framework::Keras => {
            keras_padding_keyword(
                OP,
                padding,
                false,
                "padding must be 'valid' or 'same'; crop with CroppingND for other amounts",
            )?;
            if requested {
                return refuse(
                    "output_size".to_string(),
                    "the size follows from padding and output_padding",
                );
            }
            no_strided_dilation(fw, g)?;
            if let Some(op) = output_padding
                && op.iter().zip(&g.stride).any(|(p, s)| p >= s)
            {
                return Err(PadError::KerasOutputPadding {
                    output_padding: op.to_vec(),
                    stride: g.stride.clone(),
                });
            }
        }
        Framework::Tf => {
            if matches!(padding, Padding::SameLower | Padding::Causal) {
                return Err(keyword_refused(
                    fw,
                    OP,
                    padding,
                    "padding is 'SAME', 'VALID' or explicit pairs (2-D)",
                ));
            }
            if pairs.is_some() && n != 2 {
                return refuse(
                    format!("explicit padding in {n}-D"),
                    "only 2-D tf.nn.conv_transpose takes explicit pairs",
                );
            }
            if pairs.is_some() && g.dilated() {
                return refuse(
                    "explicit padding with dilation".to_string(),
                    "Current CPU implementations do not yet support dilation rates larger than 1 \
                     (Conv2DBackpropInput with explicit padding)",
                );
            }
            if output_padding.is_some() {
                return refuse(
                    "output_padding".to_string(),
                    "tf.nn.conv_transpose takes the output_shape instead (output_size)",
                );
            }
        }
        Framework::Onnx => onnx_auto_pad(OP, padding)?,
        Framework::Jax => {
            // 'SAME_LOWER' passes through to conv_general_dilated, which takes a string only
            // when the input is not stride-dilated.
            if *padding == Padding::Causal || (*padding == Padding::SameLower && g.strided()) {
                return Err(keyword_refused(
                    fw,
                    OP,
                    padding,
                    "String padding is not implemented for transposed convolution using this op: \
                     use 'SAME', 'VALID' or pairs",
                ));
            }
            if output_padding.is_some() || requested {
                return refuse(
                    "output_padding / output_size".into(),
                    "lax.conv_transpose sizes its output from the padding pairs alone",
                );
            }
        }
    }
    pairs.map_or(Ok(()), |p| check_pairs(fw, OP, p))
}

/// torch: padding `p` crops `p` before and `p - output_padding` after; `output_size` picks the
/// output padding within `[base, base + s - 1]`.
fn torch(l: &Layer) -> Result<Sizes, PadError> {
    let g = l.g;
    let n = l.ndim();
    let pads: Vec<i128> = (0..n).map(|a| l.pair(a).map_or(0, |(b, _)| b)).collect();
    let base: Vec<i128> = (0..n).map(|a| l.full[a] - 2 * pads[a]).collect();
    let ops: Vec<i128> = match l.requested {
        Some(req) => {
            let max: Vec<i128> = (0..n)
                .map(|a| base[a] + i128::from(g.stride[a]) - 1)
                .collect();
            let fits = (0..n).all(|a| (base[a]..=max[a]).contains(&i128::from(req[a])));
            if !fits {
                return Err(PadError::TorchOutputSizeRange {
                    requested: req.to_vec(),
                    min: base,
                    max,
                    input: g.input.clone(),
                });
            }
            (0..n).map(|a| i128::from(req[a]) - base[a]).collect()
        }
        None => {
            let ops: Vec<i128> = (0..n).map(|a| l.op_at(a).unwrap_or(0)).collect();
            let too_big = (0..n).any(|a| ops[a] >= i128::from(g.stride[a].max(g.dilation[a])));
            if too_big {
                return Err(PadError::TorchOutputPadding {
                    output_padding: l.output_padding.map(<[i64]>::to_vec).unwrap_or_default(),
                    stride: g.stride.clone(),
                    dilation: g.dilation.clone(),
                });
            }
            ops
        }
    };
    Ok(((0..n).map(|a| base[a] + ops[a]).collect(), pads))
}

/// Keras and `tf.nn.conv_transpose`: the output from the padding (Keras) or the requested
/// shape (TF); TF computes the gradient of a forward convolution of that output, which must
/// give back the input, and whose padding decides the crop.
fn tf_family(fw: Framework, l: &Layer) -> Result<Sizes, PadError> {
    let g = l.g;
    let mut output = Vec::with_capacity(l.ndim());
    let mut crop = Vec::with_capacity(l.ndim());
    for a in 0..l.ndim() {
        let (i, _, s, _) = g.dim(a);
        let keff = l.keffs[a];
        let o = match (fw, l.requested, l.padding, l.pair(a)) {
            (Framework::Tf, Some(req), ..) => i128::from(req[a]),
            (_, _, _, Some((b, af))) => l.full[a] - b - af,
            (Framework::Keras, _, Padding::Valid, _) => match l.op_at(a) {
                None => add(mul(i - 1, s)?, keff.max(s))?,
                Some(op) => l.full[a] + op,
            },
            (Framework::Keras, _, _, _) => match l.op_at(a) {
                None => mul(i, s)?,
                Some(op) => mul(i - 1, s)? + keff % 2 + op,
            },
            (_, _, Padding::Valid, _) => l.full[a],
            _ => mul(i, s)?,
        };
        let (back, crop_before) = match (l.padding, l.pair(a)) {
            (_, Some((b, af))) => (windows(o + b + af, keff, s, false)?, b),
            (Padding::Valid, _) => (windows(o, keff, s, false)?, 0),
            _ => (ceil_div(o, s)?, sub(l.full[a], o)?.max(0) / 2),
        };
        // Keras on the torch and JAX backends crops to its computed length without the check
        // TF's gradient op makes (an even kernel with `output_padding=0` passes there).
        let checked = !(fw == Framework::Keras && l.backend != Backend::Tensorflow);
        if (checked && back != i) || o < 1 {
            return Err(PadError::TfOutputShape {
                framework: fw,
                requested: vec![o],
                input: g.input.clone(),
                computed: vec![back],
            });
        }
        output.push(o);
        crop.push(crop_before);
    }
    Ok((output, crop))
}

/// ONNX Runtime: explicit pads, SAME_* (`min(i·s, full + op)`), or a requested `output_shape`;
/// then it checks that a forward convolution of the output gives the input.
fn onnx(l: &Layer) -> Result<Sizes, PadError> {
    let g = l.g;
    if let Some(op) = l.output_padding
        && let Some(a) = (0..l.ndim()).find(|&a| op[a] >= g.stride[a].max(g.dilation[a]))
    {
        return Err(PadError::OnnxOutputPadding {
            dim: a,
            output_padding: op[a],
            limit: g.stride[a].max(g.dilation[a]),
        });
    }
    let mut output = Vec::with_capacity(l.ndim());
    let mut crop = Vec::with_capacity(l.ndim());
    for a in 0..l.ndim() {
        let (i, _, s, _) = g.dim(a);
        let extended = l.full[a] + l.op_at(a).unwrap_or(0);
        let (o, crop_before) = match (l.requested, l.padding, l.pair(a)) {
            (Some(req), _, _) => {
                let o = i128::from(req[a]);
                // A requested size beyond the full output pads nothing and appends zeros.
                let total = (extended - o).max(0);
                let upper = *l.padding == Padding::Same;
                (o, if upper { total / 2 } else { total - total / 2 })
            }
            (None, _, Some((b, af))) => (extended - b - af, b),
            (None, Padding::Same | Padding::SameLower, _) => {
                let o = mul(i, s)?.min(extended);
                let total = extended - o;
                let lower = *l.padding == Padding::SameLower;
                (o, if lower { total - total / 2 } else { total / 2 })
            }
            _ => (extended, 0),
        };
        // The padded length is max(o, F + op) on every path.
        let back = windows(o.max(extended), l.keffs[a], s, false)?;
        if back != i {
            return Err(PadError::OnnxInconsistent {
                dim: a,
                expected: back,
                input: g.input[a],
            });
        }
        output.push(o);
        crop.push(crop_before);
    }
    Ok((output, crop))
}

/// `lax.conv_transpose`: pads the stride-dilated input by `(pad_a, pad_b)` and runs a stride-1
/// convolution; the full output corresponds to `(keff-1, keff-1)`.
fn jax(l: &Layer) -> Result<Sizes, PadError> {
    let mut output = Vec::with_capacity(l.ndim());
    let mut crop = Vec::with_capacity(l.ndim());
    for (a, &keff) in l.keffs.iter().enumerate() {
        let (i, _, s, _) = l.g.dim(a);
        let (pad_a, pad_b) = match (l.padding, l.pair(a)) {
            (_, Some(p)) => p,
            (Padding::Valid, _) => {
                let len = keff + s - 2 + (keff - s).max(0);
                (keff - 1, len - (keff - 1))
            }
            (Padding::SameLower, _) => {
                let total = keff - 1;
                (total - total / 2, total / 2)
            }
            _ => {
                let len = keff + s - 2;
                let pad_a = if s > keff - 1 {
                    keff - 1
                } else {
                    ceil_div(len, 2)?
                };
                (pad_a, len - pad_a)
            }
        };
        let dilated_input = add(mul(i - 1, s)?, 1)?;
        output.push(windows(dilated_input + pad_a + pad_b, keff, 1, false)?);
        crop.push(keff - 1 - pad_a);
    }
    Ok((output, crop))
}
