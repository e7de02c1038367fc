//! The same input, kernel, stride and dilation under each framework's 'same' (and torch's
//! integer padding): who pads what, who refuses, and which side gets the odd pixel.

use crate::core::{
    Answer, Backend, Dims, Framework, Geometry, LayerSpec, Op, PadError, Padding, evaluate,
};

/// One row of the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub label: String,
    pub framework: Framework,
    pub answer: Result<Answer, PadError>,
    /// How the row compares with the layer on screen.
    pub versus: Versus,
    /// What else differs (a backend that computes other numbers with the same sizes).
    pub note: Option<String>,
}

/// A row against the layer on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Versus {
    /// The same pads (or crops): the same numbers.
    Same,
    /// The same output size, the windows shifted by `before` differences per dimension
    /// (positive: the row starts further out, so its outputs sit that far up or left).
    Shifted(Vec<i64>),
    /// A different output size.
    OtherSize,
    /// Nothing to compare (the row or the layer is refused).
    Unknown,
}

impl Versus {
    fn of(row: &Result<Answer, PadError>, layer: Option<&Answer>) -> Versus {
        match (row, layer) {
            (Ok(r), Some(l)) if r.output() != l.output() => Versus::OtherSize,
            (Ok(r), Some(l)) => {
                let shift: Vec<i64> = r
                    .axes
                    .iter()
                    .zip(&l.axes)
                    .map(|(a, b)| a.before.saturating_sub(b.before))
                    .collect();
                if shift.iter().all(|&s| s == 0) {
                    Versus::Same
                } else {
                    Versus::Shifted(shift)
                }
            }
            _ => Versus::Unknown,
        }
    }

    /// In words, for the table.
    pub fn words(&self) -> String {
        match self {
            Versus::Same => "same numbers".into(),
            Versus::Shifted(shift) => {
                let most = shift.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
                let px = if most == 1 {
                    "one pixel".to_string()
                } else {
                    format!("{most} pixels")
                };
                format!("same size, shifted {px}")
            }
            Versus::OtherSize => "a different size".into(),
            Versus::Unknown => String::new(),
        }
    }
}

/// Where the odd pixel of a dimension went.
pub fn odd_side(answer: &Answer, dim: usize) -> Option<&'static str> {
    let axis = answer.axes.get(dim)?;
    match axis.before.cmp(&axis.after) {
        std::cmp::Ordering::Less => Some("after"),
        std::cmp::Ordering::Greater => Some("before"),
        std::cmp::Ordering::Equal => None,
    }
}

/// The rows for `spec`'s sizes: each framework's 'same' (and torch's usual integer padding,
/// and for a transposed layer the `padding` / `output_padding` a naive port writes), each
/// against the layer on screen.
pub fn compare(spec: &LayerSpec) -> Vec<Row> {
    let Ok(g) = Geometry::of(spec) else {
        return vec![];
    };
    let layer = evaluate(spec).ok();
    let base = |fw: Framework, padding: Padding| {
        let mut s = LayerSpec::new(spec.op, fw, g.input.clone(), Dims::Each(g.kernel.clone()));
        s.stride = Some(Dims::Each(g.stride.clone()));
        s.dilation = Some(Dims::Each(g.dilation.clone()));
        s.padding = Some(padding);
        s
    };
    // torch's usual integer padding: the spec's own when symmetric, else (k' - 1) / 2 (left out
    // when that does not fit in 64 bits).
    let torch_int: Option<Vec<i64>> = match &spec.padding {
        Some(Padding::All(p)) if spec.framework == Framework::Torch => Some(vec![*p; g.ndim()]),
        Some(Padding::PerDim(v)) if spec.framework == Framework::Torch => Some(v.clone()),
        _ => (0..g.ndim())
            .map(|a| {
                let k = g.effective_kernel(a).ok()?;
                i64::try_from((k - 1) / 2).ok()
            })
            .collect(),
    };
    let mut rows: Vec<(String, LayerSpec)> = vec![(
        "TF / Keras 'same'".into(),
        base(Framework::Keras, Padding::Same),
    )];
    if spec.op == Op::ConvTranspose {
        // The port people write for Keras 'same': padding (k' - 1) / 2 and the output padding
        // that makes the size stride × input.
        if let Some(pads) = torch_int {
            let mut s = base(Framework::Torch, Padding::PerDim(pads.clone()));
            let out_pad: Option<Vec<i64>> = (0..g.ndim())
                .map(|a| {
                    let k = g.effective_kernel(a).ok()?;
                    let natural = i128::from(g.stride[a]) - k + 2 * i128::from(pads[a]);
                    i64::try_from(natural.rem_euclid(i128::from(g.stride[a]))).ok()
                })
                .collect();
            if let Some(o) = &out_pad {
                s.output_padding = Some(Dims::Each(o.clone()));
            }
            rows.push((
                format!(
                    "PyTorch padding={}, output_padding={}",
                    crate::core::join(&pads, ", "),
                    out_pad.map_or("0".into(), |o| crate::core::join(&o, ", "))
                ),
                s,
            ));
        }
    } else {
        rows.push((
            "PyTorch 'same'".into(),
            base(Framework::Torch, Padding::Same),
        ));
        if let Some(pads) = torch_int {
            rows.push((
                format!("PyTorch padding={}", crate::core::join(&pads, ", ")),
                base(Framework::Torch, Padding::PerDim(pads)),
            ));
        }
    }
    rows.extend([
        (
            "ONNX SAME_UPPER".into(),
            base(Framework::Onnx, Padding::Same),
        ),
        (
            "ONNX SAME_LOWER".into(),
            base(Framework::Onnx, Padding::SameLower),
        ),
        ("JAX 'SAME'".into(), base(Framework::Jax, Padding::Same)),
    ]);
    // Keras on its other backends, where they part from TensorFlow: a refusal, other sizes,
    // or the same sizes with other numbers.
    let keras_on = |b: Backend| LayerSpec {
        backend: Some(b),
        ..base(Framework::Keras, Padding::Same)
    };
    let on_tf = evaluate(&keras_on(Backend::Tensorflow));
    let mut notes: Vec<Option<String>> = vec![None; rows.len()];
    for b in [Backend::Torch, Backend::Jax] {
        let spec = keras_on(b);
        let replicate = matches!(
            crate::codegen::semantics::semantics(&spec).map(|(s, _)| s.kind),
            Ok(crate::codegen::semantics::Kind::Pool {
                replicate: true,
                ..
            })
        );
        if evaluate(&spec) != on_tf || replicate {
            rows.push((format!("Keras 'same', {} backend", b.title()), spec));
            notes.push(replicate.then(|| {
                "other numbers: the torch backend averages replicated edge values into the windows"
                    .to_string()
            }));
        }
    }
    rows.into_iter()
        .zip(notes)
        .map(|((label, s), note)| {
            let answer = evaluate(&s);
            Row {
                label,
                framework: s.framework,
                versus: Versus::of(&answer, layer.as_ref()),
                answer,
                note,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of a Keras layer with 'same' padding: `op` with `kernel` and `stride` on `input`.
    fn keras_same(op: Op, input: Vec<i64>, kernel: i64, stride: i64) -> Vec<Row> {
        let mut spec = LayerSpec::new(op, Framework::Keras, input, Dims::All(kernel));
        spec.stride = Some(Dims::All(stride));
        spec.padding = Some(Padding::Same);
        compare(&spec)
    }

    fn resnet_stem() -> Vec<Row> {
        keras_same(Op::Conv, vec![224, 224], 7, 2)
    }

    #[test]
    fn the_resnet_stem_shows_the_split_the_refusal_and_the_shift() {
        let rows = resnet_stem();
        let keras = rows[0].answer.as_ref().unwrap();
        assert_eq!((keras.axes[0].before, keras.axes[0].after), (2, 3));
        assert_eq!(odd_side(keras, 0), Some("after"));
        assert!(keras.pads_depend_on_input);
        assert!(
            rows[1]
                .answer
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("strided")
        );
        let torch3 = rows[2].answer.as_ref().unwrap();
        assert_eq!(
            (
                rows[2].label.as_str(),
                torch3.axes[0].before,
                torch3.axes[0].after
            ),
            ("PyTorch padding=3, 3", 3, 3)
        );
        let lower = rows[4].answer.as_ref().unwrap();
        assert_eq!((lower.axes[0].before, lower.axes[0].after), (3, 2));
        assert_eq!(odd_side(lower, 0), Some("before"));
        // Against the Keras layer on screen: torch padding=3 is the same size, one pixel off.
        assert_eq!(rows[0].versus, Versus::Same);
        assert_eq!(rows[2].versus.words(), "same size, shifted one pixel");
        assert_eq!(rows[1].versus, Versus::Unknown);
    }

    #[test]
    fn keras_backends_that_part_get_their_own_rows() {
        // AveragePooling1D(3, strides=2, padding='same') on 2: the same size everywhere, other
        // numbers on torch.
        let rows = keras_same(Op::AvgPool, vec![2], 3, 2);
        let torch = rows
            .iter()
            .find(|r| r.label == "Keras 'same', torch backend")
            .unwrap();
        assert!(torch.note.as_ref().unwrap().contains("replicated"));
        assert!(!rows.iter().any(|r| r.label.contains("JAX backend")));
        let mut conv = LayerSpec::new(Op::Conv, Framework::Keras, vec![7], Dims::All(3));
        conv.padding = Some(Padding::Same);
        assert!(!compare(&conv).iter().any(|r| r.label.contains("backend")));
    }

    #[test]
    fn a_transposed_layer_compares_the_naive_port_too() {
        let rows = keras_same(Op::ConvTranspose, vec![4], 3, 2);
        assert_eq!(rows[0].versus, Versus::Same);
        assert_eq!(rows[1].label, "PyTorch padding=1, output_padding=1");
        // The classic trap: same length 8, shifted one pixel.
        assert_eq!(rows[1].answer.as_ref().unwrap().output(), vec![8]);
        assert_eq!(rows[1].versus.words(), "same size, shifted one pixel");
    }
}
