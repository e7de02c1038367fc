//! Rules that several ops share, written once: the default padding, which optional arguments a
//! framework's layer takes, the checks on explicit pads, the paddings Keras takes, the layers
//! that refuse a stride with a dilation, and a padding's text in messages.

use super::error::PadError;
use super::geometry::Geometry;
use super::spec::{Framework, Op, Padding};

/// The padding a layer has when none is given: `0` in torch and ONNX, `'valid'` elsewhere.
pub fn default_padding(framework: Framework) -> Padding {
    match framework {
        Framework::Torch | Framework::Onnx => Padding::All(0),
        Framework::Keras | Framework::Tf | Framework::Jax => Padding::Valid,
    }
}

/// An optional argument that only some layers take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `ceil_mode` (pooling).
    CeilMode,
    /// torch `padding_mode` other than `zeros` (convolution).
    PaddingMode,
}

/// Whether `framework`'s `op` layer takes `arg` (the app shows the control only then; the
/// rules refuse it otherwise).
pub fn takes(framework: Framework, op: Op, arg: Arg) -> bool {
    match arg {
        Arg::CeilMode => op.is_pool() && matches!(framework, Framework::Torch | Framework::Onnx),
        Arg::PaddingMode => op == Op::Conv && framework == Framework::Torch,
    }
}

/// Explicit pads every framework but JAX refuses: a negative amount; and torch's layers, whose
/// padding is one number per dimension, refuse `(before, after)` pairs that differ.
pub fn check_pairs(framework: Framework, op: Op, pairs: &[(i64, i64)]) -> Result<(), PadError> {
    if framework == Framework::Torch
        && let Some(&(b, a)) = pairs.iter().find(|(b, a)| b != a)
    {
        let hint = match op {
            Op::Conv => {
                "its padding is symmetric: pad with F.pad(x, (left, right, top, bottom)) and use padding=0"
            }
            Op::ConvTranspose => "its padding is symmetric: use padding=0 and slice the output",
            Op::MaxPool | Op::AvgPool => {
                "its padding is symmetric: pad with F.pad(x, ..., value=-inf for max) first"
            }
        };
        return Err(PadError::not_accepted(
            framework,
            op,
            format!("per-side padding ({b}, {a})"),
            hint,
        ));
    }
    let negative = pairs.iter().flat_map(|&(b, a)| [b, a]).find(|&v| v < 0);
    match negative {
        Some(value) if framework != Framework::Jax => Err(PadError::Negative {
            framework,
            field: "padding",
            value,
        }),
        _ => Ok(()),
    }
}

/// A keyword padding the layer does not take, refused with the framework's hint.
pub fn keyword_refused(fw: Framework, op: Op, padding: &Padding, hint: &str) -> PadError {
    PadError::not_accepted(fw, op, format!("padding={}", describe(padding)), hint)
}

/// Keras layers take `padding='valid'` or `'same'` (and `'causal'` where `causal` says so);
/// anything else is refused with the layer's `hint`.
pub fn keras_padding_keyword(
    op: Op,
    padding: &Padding,
    causal: bool,
    hint: &str,
) -> Result<(), PadError> {
    match padding {
        Padding::Valid | Padding::Same => Ok(()),
        Padding::Causal if causal => Ok(()),
        _ => Err(PadError::not_accepted(
            Framework::Keras,
            op,
            format!("padding {}", describe(padding)),
            hint,
        )),
    }
}

/// Keras's convolutions and `tf.nn.pool` refuse a stride above 1 together with a dilation
/// above 1.
pub fn no_strided_dilation(framework: Framework, g: &Geometry) -> Result<(), PadError> {
    if g.strided() && g.dilated() {
        return Err(PadError::StrideWithDilation {
            framework,
            stride: g.stride.clone(),
            dilation: g.dilation.clone(),
        });
    }
    Ok(())
}

/// ONNX's `auto_pad` has no causal form, in any op.
pub fn onnx_auto_pad(op: Op, padding: &Padding) -> Result<(), PadError> {
    if *padding == Padding::Causal {
        return Err(keyword_refused(
            Framework::Onnx,
            op,
            padding,
            "auto_pad is NOTSET, VALID, SAME_UPPER or SAME_LOWER",
        ));
    }
    Ok(())
}

/// A short rendering of a padding value for messages: `'same'`, `2`, `[1, 0]`, `[[1, 2], [0, 0]]`.
pub fn describe(padding: &Padding) -> String {
    match padding {
        Padding::All(p) => p.to_string(),
        Padding::PerDim(v) => format!("{v:?}"),
        Padding::Explicit(v) => format!("{v:?}"),
        Padding::Valid => "'valid'".into(),
        Padding::Same => "'same'".into(),
        Padding::SameLower => "'same_lower'".into(),
        Padding::Causal => "'causal'".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_refused_where_the_framework_refuses_them() {
        assert!(check_pairs(Framework::Torch, Op::Conv, &[(1, 1), (0, 0)]).is_ok());
        let e = check_pairs(Framework::Torch, Op::MaxPool, &[(1, 2)]).unwrap_err();
        assert!(e.to_string().contains("per-side padding (1, 2)"), "{e}");
        assert!(matches!(
            check_pairs(Framework::Onnx, Op::Conv, &[(-1, 0)]),
            Err(PadError::Negative { value: -1, .. })
        ));
        assert!(check_pairs(Framework::Jax, Op::Conv, &[(-1, 2)]).is_ok());
    }

    #[test]
    fn only_torch_and_onnx_pools_take_ceil_mode() {
        assert!(takes(Framework::Onnx, Op::AvgPool, Arg::CeilMode));
        assert!(!takes(Framework::Keras, Op::MaxPool, Arg::CeilMode));
        assert!(!takes(Framework::Torch, Op::Conv, Arg::CeilMode));
        assert!(takes(Framework::Torch, Op::Conv, Arg::PaddingMode));
        assert!(!takes(
            Framework::Torch,
            Op::ConvTranspose,
            Arg::PaddingMode
        ));
    }
}
