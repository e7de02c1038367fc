//! The porter's answer: for the layer on screen, the few lines to paste into each target (the
//! layer call with its padding, and the pad or crop around it when the target needs one), short
//! and computed from the same plan as the full snippet. Each target's lines are written by its
//! renderer (`Target::answer`); this module lowers, asks, and says what the reader must know.

use crate::core::{Backend, Framework, LayerSpec};

use super::plan::{LowerOptions, lower};
use super::target::{Target, WithTarget};
use super::writer::Line;
use super::{CodegenError, for_target, writable};

/// One target's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub target: Framework,
    /// The lines to paste, in order: the layer's own call, the steps around it, and `#` lines
    /// for steps with no one-line form.
    pub lines: Vec<Line>,
    /// The target's own layer does it alone.
    pub native: bool,
    /// What the reader must know (pads that hold for this input size only; a step the full
    /// code spells out).
    pub note: Option<String>,
}

impl Answer {
    /// The lines to paste, one a line.
    pub fn text(&self) -> String {
        self.lines
            .iter()
            .map(Line::text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// What the answer is made of, from one target's plan.
struct Facts {
    lines: Vec<Line>,
    native: bool,
    /// The pads are strided 'same' for this input size only.
    dynamic: bool,
    input: Vec<i64>,
}

/// The answer for `target`.
pub fn answer(source: &LayerSpec, target: Framework) -> Result<Answer, CodegenError> {
    struct Lines<'a>(&'a LayerSpec);
    impl WithTarget for Lines<'_> {
        type Output = Result<Facts, CodegenError>;
        fn run<T: Target>(self) -> Self::Output {
            let plan = lower::<T::Pad>(self.0, LowerOptions::default())?;
            Ok(Facts {
                lines: T::answer(&plan),
                native: plan.native,
                dynamic: plan.dynamic_same.is_some(),
                input: plan.semantics.shape.input.clone(),
            })
        }
    }
    writable(source)?;
    let Facts {
        lines,
        native,
        dynamic,
        input,
    } = for_target(target, Lines(source))?;
    let note = if let Some(note) = backend_note(source, target, native) {
        Some(note)
    } else if dynamic {
        Some(format!(
            "these pads hold for input {} only: strided 'same' pads with the input size (the full code has a run-time form)",
            crate::core::join(&input, "×")
        ))
    } else if lines.iter().any(Line::is_spelled_out) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::writer::LineKind;
    use crate::core::{Framework, Op};
    use crate::forms::compact::test_layer;

    fn n(text: &str) -> Line {
        Line::new(LineKind::Native, text)
    }

    fn c(text: &str) -> Line {
        Line::new(LineKind::Composed, text)
    }

    fn lines(op: Op, fw: Framework, [i, k, s, p]: [&str; 4], target: Framework) -> Answer {
        answer(&test_layer((op, fw), [i, k, s, p], |_| {}), target).unwrap()
    }

    /// The answer for `target` of a layer read from `fw`, checked to be the lines `want`.
    fn lines_are(
        layer: (Op, Framework),
        fields: [&str; 4],
        target: Framework,
        want: &[Line],
    ) -> Answer {
        let a = lines(layer.0, layer.1, fields, target);
        assert_eq!(a.lines, want, "{target:?}");
        a
    }

    #[test]
    fn seed_000_is_one_line_in_torch_and_a_pad_in_keras_free_forms() {
        // Keras 'same', kernel 4x1 on 100x20: torch's own 'same' is exact at stride 1.
        let (keras, jax) = ((Op::Conv, Framework::Keras), (Op::Conv, Framework::Jax));
        let seed = ["100x20", "4x1", "1", "same"];
        let torch_same = n("nn.Conv2d(C_in, C_out, (4, 1), padding='same')");
        let torch = lines_are(keras, seed, Framework::Torch, &[torch_same]);
        assert!(torch.native && torch.note.is_none());
        let onnx_same = n("Conv(kernel_shape=[4, 1], auto_pad='SAME_UPPER')");
        lines_are(keras, seed, Framework::Onnx, &[onnx_same]);
        // Explicit pairs that are 'same' are written 'same'.
        let pairs = ["100x20", "4x1", "1", "1,2x0,0"];
        let keras_same = n("layers.Conv2D(C_out, (4, 1), padding='same')");
        lines_are(jax, pairs, Framework::Keras, &[keras_same]);
        // The odd pixel before: Keras needs a ZeroPadding2D, torch an F.pad (last dim first).
        let lower = ["100x20", "4x1", "1", "2,1x0,0"];
        let keras_lower = [
            c("layers.ZeroPadding2D(((2, 1), (0, 0)))"),
            n("layers.Conv2D(C_out, (4, 1), padding='valid')"),
        ];
        lines_are(jax, lower, Framework::Keras, &keras_lower);
        let torch_lower = [
            c("x = F.pad(x, (0, 0, 2, 1))"),
            n("nn.Conv2d(C_in, C_out, (4, 1), padding=0)"),
        ];
        let torch = lines_are(jax, lower, Framework::Torch, &torch_lower);
        assert!(!torch.native);
    }

    #[test]
    fn strided_same_says_its_pads_hold_for_this_size_only() {
        let (keras, stem) = ((Op::Conv, Framework::Keras), ["224x224", "7", "2", "same"]);
        let torch_lines = [
            c("x = F.pad(x, (2, 3, 2, 3))"),
            n("nn.Conv2d(C_in, C_out, 7, stride=2, padding=0)"),
        ];
        let torch = lines_are(keras, stem, Framework::Torch, &torch_lines);
        assert!(torch.note.unwrap().contains("224×224 only"));
        let tf_line = n("tf.nn.conv2d(x, w, strides=2, padding='SAME')");
        let tf = lines_are(keras, stem, Framework::Tf, &[tf_line]);
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
        assert_eq!(
            t.lines[0],
            n("nn.ConvTranspose1d(C_in, C_out, 3, stride=2)")
        );
        assert!(
            t.lines[1].kind == LineKind::Composed && t.lines[1].text.starts_with("x = x[:, :, "),
            "{:?}",
            t.lines
        );
        let mut pool =
            crate::forms::compact::CompactSpec::new(Op::MaxPool, Framework::Torch, "7", "3");
        pool.stride = "2".into();
        pool.padding = "1".into();
        pool.ceil_mode = true;
        let p = answer(&pool.to_spec().unwrap(), Framework::Torch).unwrap();
        assert_eq!(
            p.lines,
            vec![n("nn.MaxPool1d(3, stride=2, padding=1, ceil_mode=True)")]
        );
    }
}
