//! Forward convolution: the padding each framework applies, and the output it gives.

use super::answer::{Answer, Computed, Placement};
use super::error::PadError;
use super::geometry::{Geometry, explicit_pairs, narrow, onnx_conv_same, same_split, windows};
use super::rules::{
    Arg, check_pairs, default_padding, keras_padding_keyword, keyword_refused, no_strided_dilation,
    onnx_auto_pad, takes,
};
use super::spec::{Framework, LayerSpec, Op, Padding, PaddingMode};

/// Answers a forward convolution.
pub fn evaluate(spec: &LayerSpec, g: &Geometry) -> Result<Answer, PadError> {
    let fw = spec.framework;
    let padding = spec.padding.clone().unwrap_or_else(|| default_padding(fw));
    let mode = spec.padding_mode.unwrap_or_default();
    let n = g.ndim();
    let pairs = explicit_pairs(&padding, n)?;
    validate(spec, g, &padding, pairs.as_deref(), mode)?;

    // Per-dimension pads.
    let mut before = Vec::with_capacity(n);
    let mut after = Vec::with_capacity(n);
    let mut keffs = Vec::with_capacity(n);
    for a in 0..n {
        let (i, _, s, _) = g.dim(a);
        let keff = g.effective_kernel(a)?;
        let (b, af) = match (&padding, &pairs) {
            (_, Some(p)) => (i128::from(p[a].0), i128::from(p[a].1)),
            (Padding::Valid, _) => (0, 0),
            (Padding::Same, _) if fw == Framework::Torch => {
                let total = keff - 1;
                (total / 2, total - total / 2)
            }
            // ONNX Runtime refuses SAME with dilation above, so keff == k here.
            (Padding::Same, _) if fw == Framework::Onnx => onnx_conv_same(i, s, keff, false)?,
            (Padding::SameLower, _) if fw == Framework::Onnx => onnx_conv_same(i, s, keff, true)?,
            (Padding::Same, _) => same_split(i, s, keff, false)?,
            (Padding::SameLower, _) => same_split(i, s, keff, true)?,
            (Padding::Causal, _) => (keff - 1, 0),
            _ => (0, 0),
        };
        before.push(b);
        after.push(af);
        keffs.push(keff);
    }

    if fw == Framework::Torch {
        check_torch_padding_mode(mode, g, &before, &after)?;
    }

    let mut output = Vec::with_capacity(n);
    for a in 0..n {
        let (i, _, s, _) = g.dim(a);
        output.push(windows(i + before[a] + after[a], keffs[a], s, false)?);
    }
    if output.iter().any(|&o| o < 1) {
        return Err(match fw {
            Framework::Torch => PadError::TorchKernelTooLarge {
                padded: (0..n).map(|a| g.dim(a).0 + before[a] + after[a]).collect(),
                kernel: keffs.clone(),
            },
            _ => PadError::EmptyOutput {
                framework: fw,
                op: Op::Conv,
                input: g.input.clone(),
                output,
            },
        });
    }
    let depends = matches!(padding, Padding::Same | Padding::SameLower)
        && (0..n).any(|a| g.stride[a] > 1 && keffs[a] > 1);
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

/// The framework's rules that do not depend on the sizes.
fn validate(
    spec: &LayerSpec,
    g: &Geometry,
    padding: &Padding,
    pairs: Option<&[(i64, i64)]>,
    mode: PaddingMode,
) -> Result<(), PadError> {
    let fw = spec.framework;
    let n = g.ndim();
    if mode != PaddingMode::Zeros && !takes(fw, Op::Conv, Arg::PaddingMode) {
        return Err(PadError::not_accepted(
            fw,
            Op::Conv,
            format!("padding_mode={mode:?}"),
            "padding_mode is a torch option",
        ));
    }
    match fw {
        Framework::Torch => {
            if matches!(padding, Padding::SameLower | Padding::Causal) {
                return Err(keyword_refused(
                    fw,
                    Op::Conv,
                    padding,
                    "use 'same', 'valid' or integers",
                ));
            }
            if *padding == Padding::Same && g.strided() {
                return Err(PadError::TorchSameStrided);
            }
        }
        Framework::Keras => {
            keras_padding_keyword(
                Op::Conv,
                padding,
                n == 1,
                "The `padding` argument must be one of 'valid', 'same' ('causal' only in Conv1D); \
                 pad explicitly with ZeroPaddingND first",
            )?;
            no_strided_dilation(fw, g)?;
        }
        Framework::Tf => {
            if matches!(padding, Padding::SameLower | Padding::Causal) {
                return Err(keyword_refused(
                    fw,
                    Op::Conv,
                    padding,
                    "padding is 'SAME', 'VALID' or explicit pairs (2-D)",
                ));
            }
            if pairs.is_some() && n != 2 {
                return Err(PadError::not_accepted(
                    fw,
                    Op::Conv,
                    format!("explicit padding in {n}-D"),
                    "only tf.nn.conv2d takes explicit pairs: pad with tf.pad and use 'VALID'",
                ));
            }
        }
        Framework::Onnx => {
            onnx_auto_pad(Op::Conv, padding)?;
            if matches!(padding, Padding::Same | Padding::SameLower) && g.dilated() {
                return Err(PadError::OnnxSameDilation {
                    lower: *padding == Padding::SameLower,
                });
            }
        }
        Framework::Jax => {
            if *padding == Padding::Causal && n != 1 {
                return Err(PadError::not_accepted(
                    fw,
                    Op::Conv,
                    "CAUSAL padding in more than one dimension",
                    "Causal padding is only implemented for 1D convolutions.",
                ));
            }
        }
    }
    pairs.map_or(Ok(()), |p| check_pairs(fw, Op::Conv, p))
}

/// torch pads a copy with `F.pad(mode=...)` for non-zero modes; F.pad's limits apply.
fn check_torch_padding_mode(
    mode: PaddingMode,
    g: &Geometry,
    before: &[i128],
    after: &[i128],
) -> Result<(), PadError> {
    // F.pad reports the last dimension first.
    for a in (0..g.ndim()).rev() {
        let i = i128::from(g.input[a]);
        match mode {
            PaddingMode::Reflect if before[a] >= i || after[a] >= i => {
                return Err(PadError::TorchReflectTooLarge {
                    before: narrow(before[a])?,
                    after: narrow(after[a])?,
                    dim: a,
                    input: g.input.clone(),
                });
            }
            PaddingMode::Circular if before[a] > i || after[a] > i => {
                return Err(PadError::TorchCircularWraps);
            }
            _ => {}
        }
    }
    Ok(())
}
