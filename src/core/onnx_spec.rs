//! Where ONNX Runtime departs from the ONNX specification's `SAME_*` arithmetic.
//!
//! padlab answers ONNX layers as ONNX Runtime runs them (users run the runtime, and the
//! fixtures record it). The specification's operator pages say otherwise in four places, and
//! a porter reading the spec, or another runtime that follows it, gets another answer (checked
//! against the `onnx` package's reference evaluator by tests/onnx_spec.rs):
//! - pools size the 'same' pad with the dilated kernel `d(k-1)+1`; ONNX Runtime uses `k`;
//! - a convolution's pad total is `max(0, (o-1)s + k' - i)`; ONNX Runtime keeps a negative
//!   total (a stride above the window) and drops input elements;
//! - a pool's negative total is kept by both, but halved with floor division by the spec and
//!   toward zero by ONNX Runtime;
//! - a transposed convolution's 'same' output is `i·s`; ONNX Runtime's is `min(i·s, full + op)`.

use super::answer::Answer;
use super::geometry::{Geometry, effective, mul, narrow, same_split};
use super::spec::{Framework, LayerSpec, Op, Padding};

/// The specification's answer for one axis of an ONNX `SAME_*` layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecAxis {
    pub output: i64,
    /// The pads `(before, after)`; `None` for a transposed convolution (the spec does not
    /// define the split of a negative total, so only its output is compared).
    pub pads: Option<(i64, i64)>,
}

/// The ONNX specification's answer for an ONNX `SAME_*` layer (what its reference evaluator
/// computes), or `None` for any other layer or an invalid one.
pub fn onnx_spec_same(spec: &LayerSpec) -> Option<Vec<SpecAxis>> {
    if spec.framework != Framework::Onnx {
        return None;
    }
    let lower = match spec.padding {
        Some(Padding::Same) => false,
        Some(Padding::SameLower) => true,
        _ => return None,
    };
    let g = Geometry::of(spec).ok()?;
    (0..g.ndim())
        .map(|a| {
            let (i, k, s, d) = g.dim(a);
            if spec.op == Op::ConvTranspose {
                return Some(SpecAxis {
                    output: narrow(mul(i, s).ok()?).ok()?,
                    pads: None,
                });
            }
            let keff = effective(k, d).ok()?;
            let (before, after) = if spec.op.is_pool() {
                // The pools' pages keep a negative total (a stride above the window) and
                // split it with floor division.
                let o = i.checked_add(s - 1)?.div_euclid(s);
                let total = (o - 1).checked_mul(s)?.checked_add(keff)?.checked_sub(i)?;
                let half = total.div_euclid(2);
                if lower {
                    (total - half, half)
                } else {
                    (half, total - half)
                }
            } else {
                same_split(i, s, keff, lower).ok()?
            };
            Some(SpecAxis {
                output: narrow(i.checked_add(s - 1)?.div_euclid(s)).ok()?,
                pads: Some((narrow(before).ok()?, narrow(after).ok()?)),
            })
        })
        .collect()
}

/// How the specification's answer differs from `answer` (ONNX Runtime's, for this `spec`), in
/// words, or `None` when they agree or the layer is not an ONNX `SAME_*` one.
pub fn onnx_spec_departure(spec: &LayerSpec, answer: &Answer) -> Option<String> {
    let want = onnx_spec_same(spec)?;
    let mut said = Vec::new();
    for (a, (w, got)) in want.iter().zip(&answer.axes).enumerate() {
        match w.pads {
            None if w.output != got.output => said.push(format!(
                "axis {}: the spec gives {}, ONNX Runtime gives {}",
                a + 1,
                w.output,
                got.output
            )),
            Some((b, af)) if (w.output, b, af) != (got.output, got.before, got.after) => {
                said.push(format!(
                    "axis {}: the spec pads ({b}, {af}) and gives {}, ONNX Runtime pads ({}, {}) and gives {}",
                    a + 1,
                    w.output,
                    got.before,
                    got.after,
                    got.output
                ));
            }
            _ => {}
        }
    }
    if said.is_empty() {
        return None;
    }
    let dilated = Geometry::of(spec).is_ok_and(|g| g.dilated());
    let why = if spec.op == Op::ConvTranspose {
        "its 'same' output is min(i·s, full + output_padding), the spec's i·s"
    } else if spec.op.is_pool() && dilated {
        "it sizes a pool's 'same' pad with the undilated kernel"
    } else if spec.op.is_pool() {
        "it halves a negative 'same' total (a stride above the window) rounding toward zero, the spec rounding down"
    } else {
        "it keeps a negative 'same' total (a stride above the window) instead of padding 0"
    };
    Some(format!(
        "{why}; {} (padlab shows ONNX Runtime's)",
        said.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Dims, evaluate};

    fn layer(op: Op, input: i64, k: i64, s: i64, d: i64, padding: Padding) -> LayerSpec {
        let mut spec = LayerSpec::new(op, Framework::Onnx, vec![input], Dims::All(k));
        spec.stride = Some(Dims::All(s));
        spec.dilation = Some(Dims::All(d));
        spec.padding = Some(padding);
        spec
    }

    fn departure(spec: &LayerSpec) -> Option<String> {
        let answer = evaluate(spec).expect("ONNX Runtime runs this layer");
        onnx_spec_departure(spec, &answer)
    }

    /// Asserts that `spec` departs from the spec and that the words say each of `parts`.
    #[track_caller]
    fn says(spec: &LayerSpec, parts: &[&str]) {
        let said = departure(spec).expect("differs");
        for part in parts {
            assert!(said.contains(part), "no {part:?} in: {said}");
        }
    }

    #[test]
    fn agreeing_layers_say_nothing() {
        for op in [Op::Conv, Op::MaxPool, Op::AvgPool, Op::ConvTranspose] {
            let spec = layer(op, 30, 3, 2, 1, Padding::Same);
            assert_eq!(departure(&spec), None, "{op:?}");
        }
        let explicit = layer(Op::MaxPool, 5, 3, 1, 2, Padding::Explicit(vec![[2, 2]]));
        assert_eq!(departure(&explicit), None);
    }

    #[test]
    fn a_dilated_same_pool_is_padded_with_the_undilated_kernel() {
        // The spec: k' = 5, total 4, (2, 2) and 5 outputs; the runtime: total 2, (1, 1), 3.
        says(
            &layer(Op::MaxPool, 5, 3, 1, 2, Padding::Same),
            &[
                "undilated",
                "the spec pads (2, 2) and gives 5",
                "ONNX Runtime pads (1, 1) and gives 3",
            ],
        );
    }

    #[test]
    fn a_stride_above_the_window_keeps_a_negative_total() {
        // 16 elements, kernel 1, stride 4: the spec pads nothing; the runtime's conv splits
        // a total of -3 + 1.
        says(
            &layer(Op::Conv, 16, 1, 4, 1, Padding::Same),
            &["negative", "the spec pads (0, 0) and gives 4"],
        );
    }

    #[test]
    fn a_same_transpose_narrower_than_its_stride_is_shorter() {
        // i = 4, k = 1, s = 2: the spec's output is 8, the runtime's full output 7.
        says(
            &layer(Op::ConvTranspose, 4, 1, 2, 1, Padding::Same),
            &["the spec gives 8, ONNX Runtime gives 7"],
        );
    }
}
