//! Max and average pooling.

use super::answer::{Answer, Computed, Placement};
use super::error::PadError;
use super::geometry::{
    Geometry, add, effective, explicit_pairs, mul, onnx_same, same_split, sub, windows,
};
use super::rules::{
    Arg, check_pairs, default_padding, keras_padding_keyword, keyword_refused, no_strided_dilation,
    onnx_auto_pad, takes,
};
use super::spec::{Backend, Framework, LayerSpec, Op, Padding, PaddingMode};

/// Answers a max or average pool.
pub fn evaluate(spec: &LayerSpec, g: &Geometry) -> Result<Answer, PadError> {
    let fw = spec.framework;
    let op = spec.op;
    let n = g.ndim();
    let padding = spec.padding.clone().unwrap_or_else(|| default_padding(fw));
    let pairs = explicit_pairs(&padding, n)?;
    let ceil_mode = spec.ceil_mode.unwrap_or(false);
    validate(spec, g, &padding, pairs.as_deref(), ceil_mode)?;

    let mut before = Vec::with_capacity(n);
    let mut after = Vec::with_capacity(n);
    let mut output = Vec::with_capacity(n);
    let mut keffs = Vec::with_capacity(n);
    let mut depends = false;
    for a in 0..n {
        let (i, k, s, d) = g.dim(a);
        let keff = effective(k, d)?;
        let (b, af) = match &pairs {
            Some(p) => (i128::from(p[a].0), i128::from(p[a].1)),
            None => keyword_pads(spec, g, a, &padding)?,
        };
        if matches!(padding, Padding::Same | Padding::SameLower) && s > 1 && keff > 1 {
            depends = true;
        }
        check_pad_size(fw, g, a, (b, af), pairs.is_some())?;
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
    // Keras on the torch backend pools 'same' with torch's own padding when every axis pads
    // evenly (else it pads with replicated edges first): torch's 3-D average rule applies then.
    let torch_pooled = fw == Framework::Torch
        || (fw == Framework::Keras
            && spec.keras_backend() == Backend::Torch
            && before.iter().zip(&after).all(|(b, a)| b == a));
    if torch_pooled
        && op == Op::AvgPool
        && n == 3
        && g.input.iter().zip(&g.kernel).any(|(i, k)| i < k)
    {
        return Err(PadError::TorchAvgPool3dSmallInput {
            input: g.input.clone(),
            kernel: g.kernel.clone(),
        });
    }
    Computed {
        placement: Placement::Pad,
        output: &output,
        before: &before,
        after: &after,
        effective_kernel: &keffs,
        pads_depend_on_input: depends,
    }
    .answer()
}

/// The pads of a keyword padding (`'valid'`, `'same'`, `'same_lower'`) in dimension `a`.
fn keyword_pads(
    spec: &LayerSpec,
    g: &Geometry,
    a: usize,
    padding: &Padding,
) -> Result<(i128, i128), PadError> {
    let (i, k, s, d) = g.dim(a);
    let keff = effective(k, d)?;
    Ok(match padding {
        Padding::Same | Padding::SameLower if spec.framework == Framework::Onnx => {
            // ONNX Runtime sizes the pad with the undilated kernel, keeps a negative total
            // (stride > kernel) and halves it with C++ truncation; MaxPool refuses a
            // negative total unless something is dilated.
            let (head, tail) = onnx_same(i, s, k, *padding == Padding::SameLower)?;
            if head + tail < 0 && spec.op == Op::MaxPool && !g.dilated() {
                return Err(PadError::OnnxNegativePad);
            }
            (head, tail)
        }
        Padding::Same => same_split(i, s, keff, false)?,
        Padding::SameLower => same_split(i, s, keff, true)?,
        _ => (0, 0),
    })
}

/// The frameworks' limits on a pad's size relative to the window, in dimension `a`.
fn check_pad_size(
    fw: Framework,
    g: &Geometry,
    a: usize,
    (b, af): (i128, i128),
    explicit: bool,
) -> Result<(), PadError> {
    let n = g.ndim();
    let k = i128::from(g.kernel[a]);
    match fw {
        Framework::Torch if 2 * b > k => Err(PadError::TorchPoolPadTooLarge {
            pad: i64::try_from(b).unwrap_or(i64::MAX),
            kernel: g.kernel[a],
            dilation: g.dilation[a],
        }),
        Framework::Tf if explicit && !g.dilated() && (b >= k || af >= k) => {
            let (side, pad) = match (a + 2 == n || n == 1, b >= k) {
                (true, true) => ("Top", b),
                (true, false) => ("Bottom", af),
                (false, true) => ("Left", b),
                (false, false) => ("Right", af),
            };
            Err(PadError::TfPoolPadTooLarge {
                side,
                pad: i64::try_from(pad).unwrap_or(i64::MAX),
                window: g.kernel[a],
            })
        }
        Framework::Onnx if explicit && (b >= k || af >= k) => Err(PadError::OnnxPadTooLarge {
            pad: i64::try_from(b.max(af)).unwrap_or(i64::MAX),
            kernel: g.kernel[a],
        }),
        _ => Ok(()),
    }
}

/// The framework's rules that do not depend on the sizes.
fn validate(
    spec: &LayerSpec,
    g: &Geometry,
    padding: &Padding,
    pairs: Option<&[(i64, i64)]>,
    ceil_mode: bool,
) -> Result<(), PadError> {
    let fw = spec.framework;
    let op = spec.op;
    let n = g.ndim();
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
    if ceil_mode && !takes(fw, op, Arg::CeilMode) {
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
                    padding,
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
            keras_padding_keyword(
                op,
                padding,
                false,
                "padding must be 'valid' or 'same'; pad explicitly with ZeroPaddingND first",
            )?;
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
                    padding,
                    "padding is 'SAME' or 'VALID'",
                ));
            }
            if g.dilated() {
                // Only tf.nn.pool takes a dilation.
                if *padding == Padding::Same {
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
                no_strided_dilation(fw, g)?;
            } else if pairs.is_some() && !(op == Op::MaxPool && n <= 2) {
                return refuse(
                    format!("explicit padding in {n}-D"),
                    "only tf.nn.max_pool1d/max_pool2d (and tf.nn.pool with a dilation) take explicit \
                     pairs: pad with tf.pad and use 'VALID'",
                );
            }
        }
        Framework::Onnx => onnx_auto_pad(op, padding)?,
        Framework::Jax => {
            if *padding == Padding::Causal {
                return Err(keyword_refused(
                    fw,
                    op,
                    padding,
                    "padding is 'SAME', 'SAME_LOWER', 'VALID' or pairs",
                ));
            }
        }
    }
    pairs.map_or(Ok(()), |p| check_pairs(fw, op, p))
}
