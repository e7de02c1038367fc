//! The same input, kernel, stride and dilation under each framework's 'same' (and torch's
//! integer padding): who pads what, who refuses, and which side gets the odd pixel.

use crate::core::{Answer, Dims, Framework, Geometry, LayerSpec, Op, PadError, Padding, evaluate};

/// One row of the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub label: String,
    pub framework: Framework,
    pub answer: Result<Answer, PadError>,
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

/// The rows for a forward layer (conv or pooling) with `spec`'s sizes; none for transposed.
pub fn compare(spec: &LayerSpec) -> Vec<Row> {
    if spec.op == Op::ConvTranspose {
        return vec![];
    }
    let Ok(g) = Geometry::of(spec) else {
        return vec![];
    };
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
        Some(Padding::All(p)) => Some(vec![*p; g.ndim()]),
        Some(Padding::PerDim(v)) => Some(v.clone()),
        _ => (0..g.ndim())
            .map(|a| {
                let k = g.effective_kernel(a).ok()?;
                i64::try_from((k - 1) / 2).ok()
            })
            .collect(),
    };
    let mut rows: Vec<(String, LayerSpec)> = vec![
        (
            "TF / Keras 'same'".into(),
            base(Framework::Keras, Padding::Same),
        ),
        (
            "PyTorch 'same'".into(),
            base(Framework::Torch, Padding::Same),
        ),
    ];
    if let Some(pads) = torch_int {
        rows.push((
            format!("PyTorch padding={}", crate::core::join(&pads, ", ")),
            base(Framework::Torch, Padding::PerDim(pads)),
        ));
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
    rows.into_iter()
        .map(|(label, s)| Row {
            label,
            framework: s.framework,
            answer: evaluate(&s),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resnet_stem() -> Vec<Row> {
        let mut spec = LayerSpec::new(Op::Conv, Framework::Keras, vec![224, 224], Dims::All(7));
        spec.stride = Some(Dims::All(2));
        spec.padding = Some(Padding::Same);
        compare(&spec)
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
    }
}
