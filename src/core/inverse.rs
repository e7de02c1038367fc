//! The inverse: the padding (or output_padding / output_size) that gives a wanted output size.
//!
//! Candidates come from the size algebra, in the framework's own vocabulary, simplest first;
//! each one is then run through [`evaluate`], so an answer here can never disagree with the
//! forward rules.

use super::answer::Answer;
use super::error::PadError;
use super::evaluate;
use super::geometry::{Geometry, add, mul, sub};
use super::spec::{Dims, LayerSpec, Op, Padding};

/// One way to get the wanted output: the spec with its padding fields set, and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub spec: LayerSpec,
    pub answer: Answer,
}

/// Why no padding gives the wanted output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InverseError {
    /// The spec's sizes themselves are invalid.
    Spec(PadError),
    /// `want` has a different number of dimensions from `input`.
    Length { got: usize, want: usize },
    /// No candidate works; `closest` is the framework's reason for the nearest one.
    NoSolution { want: Vec<i64>, reason: String },
}

impl std::fmt::Display for InverseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InverseError::Spec(e) => write!(f, "{e}"),
            InverseError::Length { got, want } => {
                write!(
                    f,
                    "the wanted output has {got} sizes but input has {want} dimensions"
                )
            }
            InverseError::NoSolution { want, reason } => {
                write!(f, "no padding gives an output of {want:?}: {reason}")
            }
        }
    }
}

impl std::error::Error for InverseError {}

/// Every way (in `spec.framework`'s vocabulary) to make `spec` output `want`, simplest first.
/// The spec's own padding, output_padding and output_size are ignored; its other fields apply.
pub fn inverse(spec: &LayerSpec, want: &[i64]) -> Result<Vec<Solution>, InverseError> {
    let g = Geometry::of(spec).map_err(InverseError::Spec)?;
    let n = g.ndim();
    if want.len() != n {
        return Err(InverseError::Length {
            got: want.len(),
            want: n,
        });
    }
    let mut base = spec.clone();
    base.padding = None;
    base.output_padding = None;
    base.output_size = None;
    let candidates = match spec.op {
        Op::ConvTranspose => transposed_candidates(&base, &g, want),
        _ => forward_candidates(&base, &g, want),
    }
    .map_err(InverseError::Spec)?;

    let mut solutions: Vec<Solution> = Vec::new();
    let mut reason = None;
    for candidate in candidates {
        match evaluate(&candidate) {
            Ok(answer) if answer.output() == want => {
                if !solutions.iter().any(|s| s.spec == candidate) {
                    solutions.push(Solution {
                        spec: candidate,
                        answer,
                    });
                }
            }
            Ok(answer) => {
                reason
                    .get_or_insert_with(|| format!("the nearest form gives {:?}", answer.output()));
            }
            Err(e) => {
                // Prefer a size-related refusal over "does not accept this keyword".
                if !matches!(e, PadError::NotAccepted { .. }) || reason.is_none() {
                    reason = Some(e.to_string());
                }
            }
        }
    }
    if solutions.is_empty() {
        let unpadded = evaluate(&base).ok().map(|a| a.output());
        let reason = match unpadded {
            Some(o) if spec.op != Op::ConvTranspose && want.iter().zip(&o).any(|(w, o)| w < o) => {
                format!(
                    "without padding the output is already {o:?}, and padding only makes it larger \
                 (use a larger stride or kernel)"
                )
            }
            _ => reason.unwrap_or_else(|| "no form in this framework's vocabulary fits".into()),
        };
        return Err(InverseError::NoSolution {
            want: want.to_vec(),
            reason,
        });
    }
    Ok(solutions)
}

fn with_padding(base: &LayerSpec, padding: Padding) -> LayerSpec {
    LayerSpec {
        padding: Some(padding),
        ..base.clone()
    }
}

/// Symmetric per-dimension pads as the simplest JSON form.
fn symmetric(pads: Vec<i64>) -> Padding {
    match pads.first() {
        Some(&p) if pads.iter().all(|&x| x == p) => Padding::All(p),
        _ => Padding::PerDim(pads),
    }
}

fn forward_candidates(
    base: &LayerSpec,
    g: &Geometry,
    want: &[i64],
) -> Result<Vec<LayerSpec>, PadError> {
    let mut out = vec![];
    for keyword in [
        Padding::Valid,
        Padding::Same,
        Padding::SameLower,
        Padding::Causal,
    ] {
        out.push(with_padding(base, keyword));
    }
    // Total padding T with floor((i + T - keff) / s) + 1 == o: T in [lo, lo + s - 1].
    let mut lows = Vec::new();
    let mut highs = Vec::new();
    for (a, &w) in want.iter().enumerate() {
        let (i, _, s, _) = g.dim(a);
        let keff = g.effective_kernel(a)?;
        let lo = sub(add(mul(sub(i128::from(w), 1)?, s)?, keff)?, i)?;
        lows.push(lo);
        highs.push(add(lo, s - 1)?);
    }
    if highs.iter().any(|&h| h < 0) {
        return Ok(out);
    }
    let lows: Vec<i128> = lows.into_iter().map(|l| l.max(0)).collect();
    let narrow = |v: i128| i64::try_from(v).map_err(|_| PadError::Overflow);
    // Symmetric: the smallest p with 2p in range, where there is one.
    let sym: Option<Vec<i64>> = lows
        .iter()
        .zip(&highs)
        .map(|(&lo, &hi)| {
            let p = (lo + 1) / 2;
            (2 * p <= hi).then_some(p)
        })
        .map(|p| p.map(narrow).transpose())
        .collect::<Result<Option<Vec<_>>, _>>()?;
    if let Some(p) = sym {
        out.push(with_padding(base, symmetric(p)));
    }
    // Per side: the minimal total, the odd pixel after (TF's convention), then before.
    for lower in [false, true] {
        let pairs = lows
            .iter()
            .map(|&t| {
                let small = t / 2;
                let (b, a) = if lower {
                    (t - small, small)
                } else {
                    (small, t - small)
                };
                Ok([narrow(b)?, narrow(a)?])
            })
            .collect::<Result<Vec<_>, PadError>>()?;
        out.push(with_padding(base, Padding::Explicit(pairs)));
    }
    Ok(out)
}

fn transposed_candidates(
    base: &LayerSpec,
    g: &Geometry,
    want: &[i64],
) -> Result<Vec<LayerSpec>, PadError> {
    let n = g.ndim();
    let mut out = vec![];
    let narrow = |v: i128| i64::try_from(v).map_err(|_| PadError::Overflow);
    let max_s = g.stride.iter().copied().max().unwrap_or(1);
    for keyword in [Padding::Valid, Padding::Same, Padding::SameLower] {
        out.push(with_padding(base, keyword.clone()));
        for op in 0..max_s.min(64) {
            let ops: Vec<i64> = g.stride.iter().map(|&s| op.min(s - 1)).collect();
            out.push(LayerSpec {
                output_padding: Some(Dims::Each(ops)),
                ..with_padding(base, keyword.clone())
            });
        }
        // Frameworks that take the output size itself (torch, tf, onnx).
        out.push(LayerSpec {
            output_size: Some(want.to_vec()),
            ..with_padding(base, keyword)
        });
    }
    // Symmetric p with output_padding: F - 2p + op == o (torch, onnx).
    let mut pads = Vec::with_capacity(n);
    let mut ops = Vec::with_capacity(n);
    let mut jax = Vec::with_capacity(n);
    for (a, &w) in want.iter().enumerate() {
        let (i, _, s, _) = g.dim(a);
        let keff = g.effective_kernel(a)?;
        let full = add(mul(i - 1, s)?, keff)?;
        let excess = sub(full, i128::from(w))?;
        let p = if excess > 0 { (excess + 1) / 2 } else { 0 };
        pads.push(narrow(p)?);
        ops.push(narrow(2 * p - excess)?);
        // lax.conv_transpose pairs: o = (i-1)s + b + a - keff + 2.
        let total = sub(add(sub(i128::from(w), mul(i - 1, s)?)?, keff)?, 2)?;
        let b = total / 2;
        jax.push([narrow(b)?, narrow(total - b)?]);
    }
    out.push(LayerSpec {
        output_padding: Some(Dims::Each(ops.clone())),
        ..with_padding(base, symmetric(pads.clone()))
    });
    out.push(LayerSpec {
        output_size: Some(want.to_vec()),
        ..with_padding(base, symmetric(pads))
    });
    out.push(with_padding(base, Padding::Explicit(jax)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Framework;

    fn check(
        fw: Framework,
        op: Op,
        input: &[i64],
        kernel: i64,
        stride: i64,
        want: &[i64],
    ) -> Vec<Solution> {
        let mut spec = LayerSpec::new(op, fw, input.to_vec(), Dims::All(kernel));
        spec.stride = Some(Dims::All(stride));
        let solutions = inverse(&spec, want).unwrap_or_else(|e| panic!("{e}"));
        for s in &solutions {
            assert_eq!(evaluate(&s.spec).unwrap().output(), want);
        }
        solutions
    }

    #[test]
    fn seed_000_keras_same_is_found_and_torch_needs_per_side_padding() {
        let keras = check(Framework::Keras, Op::Conv, &[100, 20], 4, 1, &[100, 20]);
        assert_eq!(keras[0].spec.padding, Some(Padding::Same));
        // torch: 'same' (stride 1) works; a symmetric int cannot give 100 with k=4.
        let torch = check(Framework::Torch, Op::Conv, &[100, 20], 4, 1, &[100, 20]);
        assert_eq!(torch[0].spec.padding, Some(Padding::Same));
        assert!(
            torch
                .iter()
                .all(|s| !matches!(s.spec.padding, Some(Padding::All(_))))
        );
    }

    #[test]
    fn seed_004_torch_padding_two_gives_three() {
        let torch = check(Framework::Torch, Op::Conv, &[6, 6], 5, 2, &[3, 3]);
        assert!(
            torch
                .iter()
                .any(|s| s.spec.padding == Some(Padding::All(2)))
        );
    }

    #[test]
    fn seed_001_torch_transposed_padding_and_output_padding() {
        let spec = {
            let mut s =
                LayerSpec::new(Op::ConvTranspose, Framework::Torch, vec![249], Dims::All(7));
            s.stride = Some(Dims::All(6));
            s
        };
        let solutions = inverse(&spec, &[1481]).unwrap();
        // F = 248*6 + 7 = 1495: padding 7 with output_padding 0 crops (7, 7).
        assert!(
            solutions
                .iter()
                .any(|s| s.spec.padding == Some(Padding::All(7)) && s.answer.before() == vec![7])
        );
        // ... and forward(output_size=[1481]) with padding 7 is the same layer.
        assert!(
            solutions
                .iter()
                .any(|s| s.spec.output_size == Some(vec![1481]))
        );
    }

    #[test]
    fn too_small_an_output_says_why() {
        let spec = LayerSpec::new(Op::Conv, Framework::Torch, vec![10], Dims::All(3));
        let err = inverse(&spec, &[2]).unwrap_err().to_string();
        assert!(err.contains("already [8]"), "{err}");
        assert!(matches!(
            inverse(&spec, &[2, 2]),
            Err(InverseError::Length { .. })
        ));
    }
}
