//! The porter's answer: for the layer on screen, the few lines to paste into each target (the
//! layer call with its padding, and the pad or crop around it when the target needs one), short
//! and computed from the same plan as the full snippet. Each target's lines are written by its
//! renderer (`Target::answer`); this module lowers, asks, and says what the reader must know.

use crate::core::{Backend, Framework, LayerSpec};

use super::plan::{Fill, LowerOptions, Plan, Spelling, Step, Window, lower};
use super::{CodegenError, Target, jax, keras, onnx, tf, torch, writable};

/// One target's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub target: Framework,
    /// The lines to paste, in order (`#` lines stand for steps with no one-line form).
    pub lines: Vec<String>,
    /// The target's own layer does it alone.
    pub native: bool,
    /// What the reader must know (pads that hold for this input size only; a step the full
    /// code spells out).
    pub note: Option<String>,
}

/// `3` when every dimension agrees, `(4, 1)` otherwise.
pub(crate) fn short(values: &[i64]) -> String {
    match values.first() {
        Some(&first) if values.iter().all(|&v| v == first) => first.to_string(),
        _ => format!("({})", super::writer::join(values)),
    }
}

/// `, name=value` for each argument that is not its default.
pub(crate) fn args(parts: &[(&str, String, &str)]) -> String {
    parts
        .iter()
        .filter(|(_, value, default)| value != default)
        .map(|(name, value, _)| format!(", {name}={value}"))
        .collect()
}

/// A `#` line for a step with no one-line form.
pub(crate) fn spelled_out<P>(step: &Step<P>) -> String {
    match step {
        Step::AverageRatio { .. } => {
            "# the average's exact divisor: window sums of x and of a mask (full code below)"
        }
        Step::EmptyWindows { .. } => {
            "# windows with no input: the source's −∞ or lowest float (full code below)"
        }
        Step::AddBias => "# the bias, added after the zero-extension (full code below)",
        Step::Pool {
            window: Window::OnesConv,
            ..
        } => "# the window sums: a grouped convolution with a ones kernel (full code below)",
        Step::Pool {
            window: Window::Taps,
            ..
        } => "# the window: one strided slice per kernel tap, combined (full code below)",
        Step::Pool {
            window: Window::DenseThenStride,
            ..
        } => "# the pool at stride 1, then every stride-th output (full code below)",
        Step::Pad { .. } => "# the padding, with the source's fill (full code below)",
        _ => "# a step spelled out in the full code below",
    }
    .to_string()
}

/// The comment after a pad line that calls a helper of the full code (TF and Keras have no
/// edge or wrap mode on every backend).
pub(crate) fn helper_note(fill: Fill) -> &'static str {
    match fill {
        Fill::Replicate => "  # pad_edge: the edge values repeated (defined in the full code)",
        Fill::Circular => "  # pad_wrap: wrapped around (defined in the full code)",
        _ => "",
    }
}

/// The comment after a layer whose kernel is zero-inserted (a dilation the target refuses with
/// a stride, written as a larger undilated kernel).
pub(crate) fn dilated_suffix(dilated: bool) -> &'static str {
    if dilated {
        "  # the kernel zero-inserted (dilation as a wider kernel; full code below)"
    } else {
        ""
    }
}

/// Python slices that drop `(before, after)` per spatial dimension, after `leading` axes
/// (and `trailing` ones, written as `:`).
pub(crate) fn crop_slices(pairs: &[(i64, i64)], leading: usize, trailing: usize) -> String {
    let mut parts: Vec<String> = vec![":".to_string(); leading];
    parts.extend(pairs.iter().map(|&(b, a)| match (b, a) {
        (0, 0) => ":".to_string(),
        (b, 0) => format!("{b}:"),
        (b, a) => format!("{b}:-{a}"),
    }));
    parts.extend(std::iter::repeat_n(":".to_string(), trailing));
    parts.join(", ")
}

fn lines_of<T: Target>(source: &LayerSpec) -> Result<(Vec<String>, Plan<T::Pad>), CodegenError> {
    let plan = lower::<T::Pad>(source, LowerOptions::default()).map_err(CodegenError::Source)?;
    Ok((T::answer(&plan), plan))
}

/// The answer for `target`.
pub fn answer(source: &LayerSpec, target: Framework) -> Result<Answer, CodegenError> {
    writable(source)?;
    let (lines, native, spelled, dynamic, input) = match target {
        Framework::Torch => facts(lines_of::<torch::Torch>(source)?),
        Framework::Keras => facts(lines_of::<keras::Keras>(source)?),
        Framework::Tf => facts(lines_of::<tf::Tf>(source)?),
        Framework::Onnx => facts(lines_of::<onnx::Onnx>(source)?),
        Framework::Jax => facts(lines_of::<jax::Jax>(source)?),
    };
    let note = if let Some(note) = backend_note(source, target, native) {
        Some(note)
    } else if dynamic {
        Some(format!(
            "these pads hold for input {} only: strided 'same' pads with the input size (the full code has a run-time form)",
            crate::core::join(&input, "×")
        ))
    } else if spelled {
        Some("no single call computes this exactly: the full code below spells it out".into())
    } else {
        None
    };
    Ok(Answer {
        target,
        lines,
        native,
        note,
    })
}

/// A native Keras line for a Keras source on a named backend is exact there; where the same
/// layer computes something else (or refuses) on another backend, the reader must know.
fn backend_note(source: &LayerSpec, target: Framework, native: bool) -> Option<String> {
    let (Framework::Keras, Framework::Keras, Some(backend), true) =
        (target, source.framework, source.backend, native)
    else {
        return None;
    };
    let on = |b: Backend| {
        super::semantics::semantics(&LayerSpec {
            backend: Some(b),
            ..source.clone()
        })
        .ok()
        .map(|(sem, _)| sem)
    };
    let mine = on(backend);
    let others = [Backend::Tensorflow, Backend::Torch, Backend::Jax]
        .into_iter()
        .filter(|&b| b != backend);
    let refuse: Vec<&str> = others
        .clone()
        .filter(|&b| on(b).is_none())
        .map(Backend::title)
        .collect();
    let differ: Vec<&str> = others
        .filter(|&b| on(b).is_some() && on(b) != mine)
        .map(Backend::title)
        .collect();
    let mut why = Vec::new();
    if !differ.is_empty() {
        why.push(format!(
            "on {} it gives other numbers",
            differ.join(" and ")
        ));
    }
    if !refuse.is_empty() {
        why.push(format!("on {} it is refused", refuse.join(" and ")));
    }
    (!why.is_empty()).then(|| {
        format!(
            "exact on the {} backend (KERAS_BACKEND={}): {}",
            backend.title(),
            backend.name(),
            why.join("; ")
        )
    })
}

/// `(lines, native, a step spelled out, input-dependent pads, input)` of a plan.
fn facts<P: Spelling>(
    (lines, plan): (Vec<String>, Plan<P>),
) -> (Vec<String>, bool, bool, bool, Vec<i64>) {
    let spelled = lines.iter().any(|l| l.starts_with('#'));
    (
        lines,
        plan.native,
        spelled,
        plan.dynamic_same.is_some(),
        plan.semantics.shape.input.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Framework, Op};
    use crate::forms::compact::test_layer;

    fn lines(op: Op, fw: Framework, [i, k, s, p]: [&str; 4], target: Framework) -> Answer {
        answer(&test_layer((op, fw), [i, k, s, p], |_| {}), target).unwrap()
    }

    #[test]
    fn seed_000_is_one_line_in_torch_and_a_pad_in_keras_free_forms() {
        // Keras 'same', kernel 4x1 on 100x20: torch's own 'same' is exact at stride 1.
        let seed = ["100x20", "4x1", "1", "same"];
        let torch = lines(Op::Conv, Framework::Keras, seed, Framework::Torch);
        assert_eq!(
            torch.lines,
            vec!["nn.Conv2d(C_in, C_out, (4, 1), padding='same')"]
        );
        assert!(torch.native && torch.note.is_none());
        let onnx = lines(Op::Conv, Framework::Keras, seed, Framework::Onnx);
        assert_eq!(
            onnx.lines,
            vec!["Conv(kernel_shape=[4, 1], auto_pad='SAME_UPPER')"]
        );
        // Explicit pairs that are 'same' are written 'same'.
        let same = lines(
            Op::Conv,
            Framework::Jax,
            ["100x20", "4x1", "1", "1,2x0,0"],
            Framework::Keras,
        );
        assert_eq!(
            same.lines,
            vec!["layers.Conv2D(C_out, (4, 1), padding='same')"]
        );
        // The odd pixel before: Keras needs a ZeroPadding2D, torch an F.pad (last dim first).
        let lower = ["100x20", "4x1", "1", "2,1x0,0"];
        let keras = lines(Op::Conv, Framework::Jax, lower, Framework::Keras);
        assert_eq!(
            keras.lines,
            vec![
                "layers.ZeroPadding2D(((2, 1), (0, 0)))",
                "layers.Conv2D(C_out, (4, 1), padding='valid')"
            ]
        );
        let torch = lines(Op::Conv, Framework::Jax, lower, Framework::Torch);
        assert_eq!(
            torch.lines,
            vec![
                "x = F.pad(x, (0, 0, 2, 1))",
                "nn.Conv2d(C_in, C_out, (4, 1), padding=0)"
            ]
        );
        assert!(!torch.native);
    }

    #[test]
    fn strided_same_says_its_pads_hold_for_this_size_only() {
        let stem = ["224x224", "7", "2", "same"];
        let torch = lines(Op::Conv, Framework::Keras, stem, Framework::Torch);
        assert_eq!(
            torch.lines,
            vec![
                "x = F.pad(x, (2, 3, 2, 3))",
                "nn.Conv2d(C_in, C_out, 7, stride=2, padding=0)"
            ]
        );
        assert!(torch.note.unwrap().contains("224×224 only"));
        let tf = lines(Op::Conv, Framework::Keras, stem, Framework::Tf);
        assert_eq!(
            tf.lines,
            vec!["tf.nn.conv2d(x, w, strides=2, padding='SAME')"]
        );
        assert!(tf.native && tf.note.is_none());
    }

    #[test]
    fn transposed_and_pools_keep_their_arguments() {
        let t = lines(
            Op::ConvTranspose,
            Framework::Keras,
            ["4", "3", "2", "same"],
            Framework::Torch,
        );
        assert_eq!(t.lines[0], "nn.ConvTranspose1d(C_in, C_out, 3, stride=2)");
        assert!(t.lines[1].starts_with("x = x[:, :, "), "{:?}", t.lines);
        let mut pool =
            crate::forms::compact::CompactSpec::new(Op::MaxPool, Framework::Torch, "7", "3");
        pool.stride = "2".into();
        pool.padding = "1".into();
        pool.ceil_mode = true;
        let p = answer(&pool.to_spec().unwrap(), Framework::Torch).unwrap();
        assert_eq!(
            p.lines,
            vec!["nn.MaxPool1d(3, stride=2, padding=1, ceil_mode=True)"]
        );
    }
}
