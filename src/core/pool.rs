//! Max and average pooling.

use super::answer::{Answer, Placement};
use super::conv::{describe, keyword_refused, narrow_all};
use super::error::PadError;
use super::geometry::{
    Geometry, add, effective, explicit_pairs, mul, onnx_same, same_split, sub, windows,
};
use super::spec::{Framework, LayerSpec, Op, Padding, PaddingMode};

/// Answers a max or average pool.
pub fn evaluate(spec: &LayerSpec, g: &Geometry) -> Result<Answer, PadError> {
    let fw = spec.framework;
    let op = spec.op;
    let n = g.ndim();
    let padding = spec.padding.clone().unwrap_or(match fw {
        Framework::Torch | Framework::Onnx => Padding::All(0),
        _ => Padding::Valid,
    });
    let pairs = explicit_pairs(&padding, n)?;
    let refuse = |what: String, hint: &str| Err(PadError::not_accepted(fw, op, what, hint));

    if spec.padding_mode.is_some_and(|m| m != PaddingMode::Zeros) {
        return refuse(
            "padding_mode".to_string(),
            "padding_mode is an option of torch convolutions",
        );
    }
    if op == Op::MaxPool && spec.count_include_pad.is_some() {
        return refuse(
            "count_include_pad".to_string(),
            "it applies to average pooling only",
        );
    }
    let ceil_mode = spec.ceil_mode.unwrap_or(false);
    if ceil_mode && !matches!(fw, Framework::Torch | Framework::Onnx) {
        return refuse(
            "ceil_mode".to_string(),
            "ceil_mode is a torch and ONNX option; use 'same' padding or pad explicitly",
        );
    }
    if matches!(fw, Framework::Keras | Framework::Tf) && spec.count_include_pad == Some(true) {
        return refuse(
            "count_include_pad=True".into(),
            "its averages never count the padding (pad with zeros explicitly and use 'valid' to count them)",
        );
    }

    match fw {
        Framework::Torch => {
            if padding.keyword().is_some() {
                return Err(keyword_refused(
                    fw,
                    op,
                    &padding,
                    "argument 'padding' must be tuple of ints, not str",
                ));
            }
            if op == Op::AvgPool && g.dilated() {
                return refuse(
                    "dilation".to_string(),
                    "nn.AvgPoolNd has no dilation argument",
                );
            }
        }
        Framework::Keras => {
            if !matches!(padding, Padding::Valid | Padding::Same) {
                return refuse(
                    format!("padding {}", describe(&padding)),
                    "padding must be 'valid' or 'same'; pad explicitly with ZeroPaddingND first",
                );
            }
            if g.dilated() {
                return refuse(
                    "dilation".to_string(),
                    "Keras pooling layers have no dilation",
                );
            }
        }
        Framework::Tf => {
            if matches!(padding, Padding::SameLower | Padding::Causal) {
                return Err(keyword_refused(
                    fw,
                    op,
                    &padding,
                    "padding is 'SAME' or 'VALID'",
                ));
            }
            if g.dilated() {
                // Only tf.nn.pool takes a dilation.
                if padding == Padding::Same {
                    return refuse(
                        "padding='SAME' with dilation".to_string(),
                        "pooling with 'SAME' padding is not implemented for `dilation_rate` > 1",
                    );
                }
                if pairs.is_some() && n != 2 {
                    return refuse(
                        format!("explicit padding with dilation in {n}-D"),
                        "tf.nn.pool takes explicit pairs in 2-D only (When padding is a list, it must be of size 4)",
                    );
                }
                if g.strided() {
                    return Err(PadError::StrideWithDilation {
                        framework: fw,
                        stride: g.stride.clone(),
                        dilation: g.dilation.clone(),
                    });
                }
            } else if pairs.is_some() && !(op == Op::MaxPool && n <= 2) {
                return refuse(
                    format!("explicit padding in {n}-D"),
                    "only tf.nn.max_pool1d/max_pool2d (and tf.nn.pool with a dilation) take explicit \
                     pairs: pad with tf.pad and use 'VALID'",
                );
            }
        }
        Framework::Onnx => {
            if padding == Padding::Causal {
                return Err(keyword_refused(
                    fw,
                    op,
                    &padding,
                    "auto_pad is NOTSET, VALID, SAME_UPPER or SAME_LOWER",
                ));
            }
        }
        Framework::Jax => {
            if padding == Padding::Causal {
                return Err(keyword_refused(
                    fw,
                    op,
                    &padding,
                    "padding is 'SAME', 'SAME_LOWER', 'VALID' or pairs",
                ));
            }
        }
    }
    if let Some(p) = &pairs {
        if fw == Framework::Torch
            && let Some(&(b, a)) = p.iter().find(|(b, a)| b != a)
        {
            return refuse(
                format!("per-side padding ({b}, {a})"),
                "its padding is symmetric: pad with F.pad(x, ..., value=-inf for max) first",
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

    let mut before = Vec::with_capacity(n);
    let mut after = Vec::with_capacity(n);
    let mut output = Vec::with_capacity(n);
    let mut keffs = Vec::with_capacity(n);
    let mut depends = false;
    for a in 0..n {
        let (i, k, s, d) = g.dim(a);
        let keff = effective(k, d)?;
        let (b, af) = match (&padding, &pairs) {
            (_, Some(p)) => (i128::from(p[a].0), i128::from(p[a].1)),
            (Padding::Same | Padding::SameLower, _) if fw == Framework::Onnx => {
                // ONNX Runtime sizes the pad with the undilated kernel, keeps a negative total
                // (stride > kernel) and halves it with C++ truncation; MaxPool refuses a
                // negative total unless something is dilated.
                let (head, tail) = onnx_same(i, s, k, padding == Padding::SameLower)?;
                if head + tail < 0 && op == Op::MaxPool && !g.dilated() {
                    return Err(PadError::OnnxNegativePad);
                }
                (head, tail)
            }
            (Padding::Same, _) => same_split(i, s, keff, false)?,
            (Padding::SameLower, _) => same_split(i, s, keff, true)?,
            _ => (0, 0),
        };
        if matches!(padding, Padding::Same | Padding::SameLower) && s > 1 && keff > 1 {
            depends = true;
        }
        match fw {
            Framework::Torch if 2 * b > k => {
                return Err(PadError::TorchPoolPadTooLarge {
                    pad: i64::try_from(b).unwrap_or(i64::MAX),
                    kernel: g.kernel[a],
                    dilation: g.dilation[a],
                });
            }
            Framework::Tf if pairs.is_some() && !g.dilated() && (b >= k || af >= k) => {
                let (side, pad) = match (a + 2 == n || n == 1, b >= k) {
                    (true, true) => ("Top", b),
                    (true, false) => ("Bottom", af),
                    (false, true) => ("Left", b),
                    (false, false) => ("Right", af),
                };
                return Err(PadError::TfPoolPadTooLarge {
                    side,
                    pad: i64::try_from(pad).unwrap_or(i64::MAX),
                    window: g.kernel[a],
                });
            }
            Framework::Onnx if pairs.is_some() && (b >= k || af >= k) => {
                return Err(PadError::OnnxPadTooLarge {
                    pad: i64::try_from(b.max(af)).unwrap_or(i64::MAX),
                    kernel: g.kernel[a],
                });
            }
            _ => {}
        }
        let o = match fw {
            // ONNX Runtime divides with C++ truncation: (1 - 2) / 2 == 0, one output.
            Framework::Onnx if !ceil_mode => add(sub(i + b + af, keff)? / s, 1)?,
            Framework::Torch | Framework::Onnx if ceil_mode => {
                let o = windows(i + b + af, keff, s, true)?;
                // The last window must start inside the input or the left padding.
                if mul(sub(o, 1)?, s)? >= i + b {
                    o - 1
                } else {
                    o
                }
            }
            _ => windows(i + b + af, keff, s, false)?,
        };
        before.push(b);
        after.push(af);
        output.push(o);
        keffs.push(keff);
    }
    if output.iter().any(|&o| o < 1) {
        return Err(PadError::EmptyOutput {
            framework: fw,
            op,
            input: g.input.clone(),
            output,
        });
    }
    if fw == Framework::Torch
        && op == Op::AvgPool
        && n == 3
        && g.input.iter().zip(&g.kernel).any(|(i, k)| i < k)
    {
        return Err(PadError::TorchAvgPool3dSmallInput {
            input: g.input.clone(),
            kernel: g.kernel.clone(),
        });
    }
    Ok(Answer {
        output: narrow_all(&output)?,
        placement: Placement::Pad,
        before: narrow_all(&before)?,
        after: narrow_all(&after)?,
        pads_depend_on_input: depends,
        effective_kernel: narrow_all(&keffs)?,
        full_output: None,
    })
}
