//! Transposed convolution. Every framework computes the same full output
//! `F = (i-1)s + d(k-1) + 1` (input element `m`, tap `t` land at `m*s + t*d`) and then crops
//! `before` elements from the start and `after` from the end; a negative crop appends.

use super::answer::{Answer, Placement};
use super::conv::{describe, keyword_refused, narrow_all};
use super::error::PadError;
use super::geometry::{Geometry, add, ceil_div, explicit_pairs, mul, per_dim, sub, windows};
use super::spec::{Framework, LayerSpec, Op, Padding, PaddingMode};

const OP: Op = Op::ConvTranspose;

/// Answers a transposed convolution.
pub fn evaluate(spec: &LayerSpec, g: &Geometry) -> Result<Answer, PadError> {
    let fw = spec.framework;
    let n = g.ndim();
    let padding = spec.padding.clone().unwrap_or(match fw {
        Framework::Torch | Framework::Onnx => Padding::All(0),
        _ => Padding::Valid,
    });
    let pairs = explicit_pairs(&padding, n)?;
    let refuse = |what: String, hint: &str| Err(PadError::not_accepted(fw, OP, what, hint));
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
    if let Some(op) = &output_padding
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
                    &padding,
                    "argument 'padding' must be tuple of ints, but found element of type str",
                ));
            }
        }
        Framework::Keras => {
            if !matches!(padding, Padding::Valid | Padding::Same) {
                return refuse(
                    format!("padding {}", describe(&padding)),
                    "padding must be 'valid' or 'same'; crop with CroppingND for other amounts",
                );
            }
            if requested.is_some() {
                return refuse(
                    "output_size".to_string(),
                    "the size follows from padding and output_padding",
                );
            }
            if g.strided() && g.dilated() {
                return Err(PadError::StrideWithDilation {
                    framework: fw,
                    stride: g.stride.clone(),
                    dilation: g.dilation.clone(),
                });
            }
            if let Some(op) = &output_padding
                && op.iter().zip(&g.stride).any(|(p, s)| p >= s)
            {
                return Err(PadError::KerasOutputPadding {
                    output_padding: op.clone(),
                    stride: g.stride.clone(),
                });
            }
        }
        Framework::Tf => {
            if matches!(padding, Padding::SameLower | Padding::Causal) {
                return Err(keyword_refused(
                    fw,
                    OP,
                    &padding,
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
        Framework::Onnx => {
            if padding == Padding::Causal {
                return Err(keyword_refused(
                    fw,
                    OP,
                    &padding,
                    "auto_pad is NOTSET, VALID, SAME_UPPER or SAME_LOWER",
                ));
            }
        }
        Framework::Jax => {
            // 'SAME_LOWER' passes through to conv_general_dilated, which takes a string only
            // when the input is not stride-dilated.
            if padding == Padding::Causal || (padding == Padding::SameLower && g.strided()) {
                return Err(keyword_refused(
                    fw,
                    OP,
                    &padding,
                    "String padding is not implemented for transposed convolution using this op: \
                     use 'SAME', 'VALID' or pairs",
                ));
            }
            if output_padding.is_some() || requested.is_some() {
                return refuse(
                    "output_padding / output_size".into(),
                    "lax.conv_transpose sizes its output from the padding pairs alone",
                );
            }
        }
    }
    if let Some(p) = &pairs {
        if fw == Framework::Torch
            && let Some(&(b, a)) = p.iter().find(|(b, a)| b != a)
        {
            return refuse(
                format!("per-side padding ({b}, {a})"),
                "its padding is symmetric: use padding=0 and slice the output",
            );
        }
        let negative = p.iter().flat_map(|&(b, a)| [b, a]).find(|&v| v < 0);
        if let (Some(value), false) = (negative, fw == Framework::Jax) {
            return Err(PadError::Negative {
                framework: fw,
                field: "padding",
                value,
            });
        }
    }

    let mut full = Vec::with_capacity(n);
    let mut keffs = Vec::with_capacity(n);
    for a in 0..n {
        let (i, _, s, _) = g.dim(a);
        let keff = g.effective_kernel(a)?;
        full.push(add(mul(i - 1, s)?, keff)?);
        keffs.push(keff);
    }
    let pair = |a: usize| {
        pairs
            .as_ref()
            .map(|p| (i128::from(p[a].0), i128::from(p[a].1)))
    };
    let op_at = |a: usize| output_padding.as_ref().map(|p| i128::from(p[a]));

    // (output, crop_before) per dimension.
    let mut output = Vec::with_capacity(n);
    let mut crop = Vec::with_capacity(n);
    match fw {
        Framework::Torch => {
            let pads: Vec<i128> = (0..n).map(|a| pair(a).map_or(0, |(b, _)| b)).collect();
            let base: Vec<i128> = (0..n).map(|a| full[a] - 2 * pads[a]).collect();
            let ops: Vec<i128> = match &requested {
                Some(req) => {
                    let max: Vec<i128> = (0..n)
                        .map(|a| base[a] + i128::from(g.stride[a]) - 1)
                        .collect();
                    let fits = (0..n).all(|a| (base[a]..=max[a]).contains(&i128::from(req[a])));
                    if !fits {
                        return Err(PadError::TorchOutputSizeRange {
                            requested: req.clone(),
                            min: base,
                            max,
                            input: g.input.clone(),
                        });
                    }
                    (0..n).map(|a| i128::from(req[a]) - base[a]).collect()
                }
                None => {
                    let ops: Vec<i128> = (0..n).map(|a| op_at(a).unwrap_or(0)).collect();
                    let too_big =
                        (0..n).any(|a| ops[a] >= i128::from(g.stride[a].max(g.dilation[a])));
                    if too_big {
                        return Err(PadError::TorchOutputPadding {
                            output_padding: output_padding.clone().unwrap_or_default(),
                            stride: g.stride.clone(),
                            dilation: g.dilation.clone(),
                        });
                    }
                    ops
                }
            };
            for a in 0..n {
                output.push(base[a] + ops[a]);
                crop.push(pads[a]);
            }
        }
        Framework::Keras | Framework::Tf => {
            for a in 0..n {
                let (i, _, s, _) = g.dim(a);
                let keff = keffs[a];
                let o = match (fw, &requested, &padding, pair(a)) {
                    (Framework::Tf, Some(req), ..) => i128::from(req[a]),
                    (_, _, _, Some((b, af))) => full[a] - b - af,
                    (Framework::Keras, _, Padding::Valid, _) => match op_at(a) {
                        None => add(mul(i - 1, s)?, keff.max(s))?,
                        Some(op) => full[a] + op,
                    },
                    (Framework::Keras, _, _, _) => match op_at(a) {
                        None => mul(i, s)?,
                        Some(op) => mul(i - 1, s)? + keff % 2 + op,
                    },
                    (_, _, Padding::Valid, _) => full[a],
                    _ => mul(i, s)?,
                };
                // TF computes the gradient of a forward convolution of `o`: that convolution
                // must give back `i`, and its padding decides the crop.
                let (back, crop_before) = match (&padding, pair(a)) {
                    (_, Some((b, af))) => (windows(o + b + af, keff, s, false)?, b),
                    (Padding::Valid, _) => (windows(o, keff, s, false)?, 0),
                    _ => (ceil_div(o, s)?, sub(full[a], o)?.max(0) / 2),
                };
                if back != i || o < 1 {
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
        }
        Framework::Onnx => {
            if let Some(op) = &output_padding
                && let Some(a) = (0..n).find(|&a| op[a] >= g.stride[a].max(g.dilation[a]))
            {
                return Err(PadError::OnnxOutputPadding {
                    dim: a,
                    output_padding: op[a],
                    limit: g.stride[a].max(g.dilation[a]),
                });
            }
            for a in 0..n {
                let (i, _, s, _) = g.dim(a);
                let op = op_at(a).unwrap_or(0);
                let extended = full[a] + op;
                let (o, crop_before) = match (&requested, &padding, pair(a)) {
                    (Some(req), _, _) => {
                        let o = i128::from(req[a]);
                        // A requested size beyond the full output pads nothing and appends zeros.
                        let total = (extended - o).max(0);
                        let upper = padding == Padding::Same;
                        (o, if upper { total / 2 } else { total - total / 2 })
                    }
                    (None, _, Some((b, af))) => (extended - b - af, b),
                    (None, Padding::Same | Padding::SameLower, _) => {
                        let o = mul(i, s)?.min(extended);
                        let total = extended - o;
                        let lower = padding == Padding::SameLower;
                        (o, if lower { total - total / 2 } else { total / 2 })
                    }
                    _ => (extended, 0),
                };
                // ONNX Runtime checks that a forward convolution of the output gives the input.
                // The padded length is max(o, F + op) on every path.
                let back = windows(o.max(extended), keffs[a], s, false)?;
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
        }
        Framework::Jax => {
            for (a, &keff) in keffs.iter().enumerate() {
                let (i, _, s, _) = g.dim(a);
                // lax.conv_transpose pads the stride-dilated input by (pad_a, pad_b) and runs a
                // stride-1 convolution; the full output corresponds to (keff-1, keff-1).
                let (pad_a, pad_b) = match (&padding, pair(a)) {
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
        }
    }
    if output.iter().any(|&o| o < 1) {
        return Err(PadError::EmptyOutput {
            framework: fw,
            op: OP,
            input: g.input.clone(),
            output,
        });
    }
    let after: Vec<i128> = (0..n).map(|a| full[a] - output[a] - crop[a]).collect();
    Ok(Answer {
        output: narrow_all(&output)?,
        placement: Placement::Crop,
        before: narrow_all(&crop)?,
        after: narrow_all(&after)?,
        pads_depend_on_input: false,
        effective_kernel: narrow_all(&keffs)?,
        full_output: Some(narrow_all(&full)?),
    })
}
