//! ONNX's `Resize` and `Upsample` as the neutral op that computes the same numbers, in ONNX
//! Runtime's rules (`upsamplebase.h`), at the input size the graph is read at.
//!
//! - Sizes: `sizes`, else each axis `floor(scale * size)` in float32 as ONNX Runtime computes
//!   it; since opset 18 the scales or sizes of the listed `axes` only.
//! - Nearest: the input index each output reads along every resized axis, by the file's
//!   coordinate transformation and rounding (the defaults of its opset: `half_pixel` and
//!   `round_prefer_floor` since 11, before that `asymmetric` and ONNX Runtime's truncation, or
//!   its ceiling when shrinking); an axis whose output size is its input's is copied. Integer
//!   factors that repeat each element (`j / k`) stay an [`Op::Upsample`]; anything else is the
//!   [`Op::Take`] of those indices, exact in every target. An index ONNX Runtime's float32
//!   arithmetic decides (a coordinate within rounding noise of a tie, at a scale float32
//!   cannot hold) is not guessed: the node is read, not ported.
//! - Linear and cubic: torch's interpolation (`half_pixel` at the file's scales, or at the
//!   sizes' ratio; `align_corners`; `pytorch_half_pixel` where no output axis has one
//!   element); other coordinates, antialiasing and cubic coefficients other than torch's are
//!   read, not ported.

use super::super::op::{Interpolation, Op, ReadRule};
use super::fold::Const;
use super::onnx::OnnxNode;
use super::onnx_graph::{opaque, read};

/// How ONNX Runtime rounds an original coordinate to an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rounding {
    PreferFloor,
    PreferCeil,
    Floor,
    Ceil,
    /// Before opset 11: truncation, or the ceiling when the axis shrinks.
    Simple,
}

/// The neutral op of a `Resize` or `Upsample` node on an input of shape `input`.
pub(super) fn resize_op(
    n: &OnnxNode,
    args: &[Option<&Const>],
    input: Option<&[i64]>,
    opset: i64,
) -> Op {
    let arg = |i: usize| args.get(i).copied().flatten();
    let given = |i: usize| n.inputs.get(i).is_some_and(|s| !s.is_empty());
    let (scales, sizes) = if n.op_type == "Upsample" {
        let s = arg(1).and_then(Const::floats).or_else(|| {
            n.floats("scales")
                .map(|v| v.iter().map(|&x| f64::from(x)).collect())
        });
        (s, None)
    } else if opset < 11 {
        (arg(1).and_then(Const::floats), None)
    } else {
        (
            arg(2).and_then(Const::floats).filter(|v| !v.is_empty()),
            arg(3)
                .and_then(|c| c.ints().map(<[i64]>::to_vec))
                .filter(|v| !v.is_empty()),
        )
    };
    if scales.is_none() && sizes.is_none() {
        let computed = (opset >= 11 && (given(2) || given(3))) || given(1);
        return opaque(
            n,
            if computed {
                "its scales or sizes are computed at run time"
            } else {
                "neither scales nor sizes"
            },
        );
    }
    let Some(x) = input else {
        return opaque(n, "an input of unknown shape");
    };
    let rank = x.len();
    // Opset 18: scales or sizes for the listed axes only.
    let axes: Option<Vec<usize>> = match n.ints("axes") {
        Some(a) if opset >= 18 => {
            match a
                .iter()
                .map(|&v| super::fold::axis(v, rank))
                .collect::<Option<Vec<_>>>()
            {
                Some(a) => Some(a),
                None => return opaque(n, "axes outside the input"),
            }
        }
        _ => None,
    };
    let spread = |values: &[f64], fill: &dyn Fn(usize) -> f64| -> Option<Vec<f64>> {
        match &axes {
            Some(axes) if axes.len() == values.len() => {
                let mut all: Vec<f64> = (0..rank).map(fill).collect();
                for (&a, &v) in axes.iter().zip(values) {
                    *all.get_mut(a)? = v;
                }
                Some(all)
            }
            None if values.len() == rank => Some(values.to_vec()),
            _ => None,
        }
    };
    // Every axis's output size and scale (as ONNX Runtime computes them, in float32).
    let (out, scale): (Vec<i64>, Vec<f32>) = match (&sizes, &scales) {
        (Some(sizes), _) => {
            let s: Vec<f64> = sizes.iter().map(|&v| v as f64).collect();
            let Some(all) = spread(&s, &|i| x[i] as f64) else {
                return opaque(n, "sizes that do not fit the input");
            };
            if n.string("keep_aspect_ratio_policy")
                .is_some_and(|p| p != "stretch")
            {
                return opaque(n, "a keep_aspect_ratio_policy other than stretch");
            }
            let out: Vec<i64> = all.iter().map(|&v| v as i64).collect();
            let scale = out
                .iter()
                .zip(x)
                .map(|(&o, &i)| if i == 0 { 1.0 } else { o as f32 / i as f32 })
                .collect();
            (out, scale)
        }
        (None, Some(s)) => {
            let Some(all) = spread(s, &|_| 1.0) else {
                return opaque(n, "scales that do not fit the input");
            };
            let scale: Vec<f32> = all.iter().map(|&v| v as f32).collect();
            if scale.iter().any(|&s| !(s > 0.0 && s.is_finite())) {
                return super::onnx_graph::refused(n, "Scale value should be greater than 0.");
            }
            let out = scale
                .iter()
                .zip(x)
                .map(|(&s, &i)| (s * i as f32) as i64)
                .collect();
            (out, scale)
        }
        (None, None) => return opaque(n, "neither scales nor sizes"),
    };
    if out.first() != x.first() || out.get(1) != x.get(1) || rank < 3 {
        return opaque(
            n,
            "a resize of the batch or channel axis (padlab ports spatial resizing)",
        );
    }
    let spatial_out: Vec<i64> = out.get(2..).unwrap_or_default().to_vec();
    let spatial_scale: Vec<f32> = scale.get(2..).unwrap_or_default().to_vec();
    let transform = if opset < 11 {
        "asymmetric"
    } else {
        n.string("coordinate_transformation_mode")
            .unwrap_or("half_pixel")
    };
    let like = |why: &str| {
        read(
            n,
            "a resize",
            why,
            ReadRule::Like(Box::new(Op::Upsample {
                scale: None,
                size: Some(spatial_out.clone()),
                mode: Interpolation::Nearest,
                align_corners: false,
            })),
        )
    };
    if transform == "tf_crop_and_resize" {
        return like("padlab does not port tf_crop_and_resize's region of interest");
    }
    let from_scales = sizes.is_none();
    let scale_kept = || from_scales.then(|| spatial_scale.iter().map(|&s| f64::from(s)).collect());
    match n.string("mode").unwrap_or("nearest") {
        "nearest" => {
            let rounding = if opset < 11 {
                Rounding::Simple
            } else {
                match n.string("nearest_mode").unwrap_or("round_prefer_floor") {
                    "round_prefer_ceil" => Rounding::PreferCeil,
                    "floor" => Rounding::Floor,
                    "ceil" => Rounding::Ceil,
                    _ => Rounding::PreferFloor,
                }
            };
            let mut take = Vec::new();
            let mut repeats = Vec::new();
            for (k, ((&i, &o), &s)) in x[2..]
                .iter()
                .zip(&spatial_out)
                .zip(&spatial_scale)
                .enumerate()
            {
                let indices = match nearest_indices(transform, rounding, i, o, s) {
                    Ok(indices) => indices,
                    Err(Unlisted::Tie) => {
                        return like(&format!(
                            "along axis {}, an output index sits on a rounding tie that ONNX Runtime's float32 arithmetic decides (at this scale), which padlab does not guess",
                            k + 2
                        ));
                    }
                    Err(Unlisted::TooLong) => {
                        return like(&format!(
                            "axis {} resizes to {o} elements, more than padlab lists",
                            k + 2
                        ));
                    }
                };
                let factor = (i > 0 && o % i == 0).then(|| o / i);
                let repeat =
                    factor.filter(|&f| indices.iter().enumerate().all(|(j, &v)| v == j as i64 / f));
                repeats.push(repeat);
                if indices.iter().copied().ne(0..i) {
                    take.push(((k + 2) as i64, indices));
                }
            }
            if take.is_empty() {
                return Op::Identity;
            }
            match repeats.iter().copied().collect::<Option<Vec<i64>>>() {
                // Each element repeated: every target's nearest upsampling.
                Some(factors) => Op::Upsample {
                    scale: Some(factors.iter().map(|&f| f as f64).collect()),
                    size: Some(spatial_out.clone()),
                    mode: Interpolation::Nearest,
                    align_corners: false,
                },
                None => Op::Take(take),
            }
        }
        mode @ ("linear" | "bilinear" | "trilinear" | "cubic") => {
            let cubic = mode == "cubic";
            if n.int("antialias").unwrap_or(0) != 0
                && spatial_out.iter().zip(&x[2..]).any(|(o, i)| o < i)
            {
                return like("an antialiased shrink, which padlab does not port");
            }
            if cubic
                && (n.float("cubic_coeff_a").unwrap_or(-0.75) != -0.75
                    || n.int("exclude_outside").unwrap_or(0) != 0)
            {
                return like("a cubic coefficient or exclude_outside other than torch's");
            }
            let align_corners = match transform {
                "align_corners" => true,
                "half_pixel" => false,
                "pytorch_half_pixel" if spatial_out.iter().all(|&o| o > 1) => false,
                "half_pixel_symmetric"
                    if spatial_out
                        .iter()
                        .zip(&x[2..])
                        .zip(&spatial_scale)
                        .all(|((&o, &i), &s)| (s * i as f32) == o as f32) =>
                {
                    false
                }
                other => {
                    return like(&format!(
                        "linear and cubic resizing with {other} coordinates has no torch interpolation padlab ports"
                    ));
                }
            };
            Op::Upsample {
                scale: if align_corners { None } else { scale_kept() },
                size: Some(spatial_out.clone()),
                mode: if cubic {
                    Interpolation::Bicubic
                } else {
                    Interpolation::Linear
                },
                align_corners,
            }
        }
        _ => opaque(n, "a mode ONNX does not define"),
    }
}

/// Why a nearest resize's indices are not listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unlisted {
    /// An index float32 noise decides (or a transformation padlab does not compute).
    Tie,
    /// More output elements than padlab lists.
    TooLong,
}

/// The input index each of `output` elements reads along an axis of `input` elements scaled
/// by `scale`, as ONNX Runtime computes it; [`Unlisted::Tie`] when one of them sits so close
/// to a rounding tie that float32 noise decides it.
fn nearest_indices(
    transform: &str,
    rounding: Rounding,
    input: i64,
    output: i64,
    scale: f32,
) -> Result<Vec<i64>, Unlisted> {
    if !(1..=1 << 16).contains(&output) || input < 1 {
        return Err(Unlisted::TooLong);
    }
    if output == input || scale == 1.0 {
        // ONNX Runtime copies an axis that keeps its size.
        return Ok((0..output).collect());
    }
    let (inp, out) = (input as f32, output as f32);
    let shrinks = scale < 1.0;
    (0..output)
        .map(|j| {
            let x = j as f32;
            // ONNX Runtime's float32 coordinate, and the same in f64 to see how near a tie.
            let (v32, v64, single) = match transform {
                "asymmetric" => (x / scale, f64::from(x) / f64::from(scale), true),
                "tf_half_pixel_for_nn" => (
                    (x + 0.5) / scale,
                    (f64::from(x) + 0.5) / f64::from(scale),
                    true,
                ),
                "pytorch_half_pixel" if output <= 1 => (0.0, 0.0, true),
                "half_pixel" | "pytorch_half_pixel" => (
                    (x + 0.5) / scale - 0.5,
                    (f64::from(x) + 0.5) / f64::from(scale) - 0.5,
                    true,
                ),
                "align_corners" if output == 1 => (0.0, 0.0, true),
                "align_corners" => (
                    x * (inp - 1.0) / (out - 1.0),
                    f64::from(x) * (f64::from(inp) - 1.0) / (f64::from(out) - 1.0),
                    true,
                ),
                "half_pixel_symmetric" => {
                    let adjustment = out / (scale * inp);
                    let offset = (inp / 2.0) * (1.0 - adjustment);
                    let v = f64::from(offset) + (f64::from(x) + 0.5) / f64::from(scale) - 0.5;
                    (v as f32, v, false)
                }
                _ => return Err(Unlisted::Tie),
            };
            let index = |v: f64| -> i64 {
                let whole = v.floor();
                let half = v - whole == 0.5;
                let i = match rounding {
                    Rounding::PreferFloor if half => whole,
                    Rounding::PreferCeil if half => whole + 1.0,
                    Rounding::PreferFloor | Rounding::PreferCeil => v.round(),
                    Rounding::Floor => whole,
                    Rounding::Ceil => v.ceil(),
                    Rounding::Simple if shrinks => v.ceil(),
                    Rounding::Simple => v.trunc(),
                };
                (i as i64).clamp(0, input - 1)
            };
            // The rounding's boundaries: halves for the rounding modes, integers otherwise.
            let boundary = match rounding {
                Rounding::PreferFloor | Rounding::PreferCeil => (v64 - v64.floor() - 0.5).abs(),
                _ => (v64 - v64.round()).abs(),
            };
            let tie = boundary == 0.0;
            let near = boundary < 1e-5 * v64.abs().max(1.0);
            // A tie is exact in float32 when its one division is (the quotient times the
            // scale gives the dividend back in f64, where both fit exactly).
            let exact_tie = tie && single;
            if (near && !exact_tie) || index(f64::from(v32)) != index(v64) {
                return Err(Unlisted::Tie);
            }
            Ok(index(v64))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_indices_are_onnx_runtimes() {
        use Rounding::*;
        // Recorded from ONNX Runtime 1.31 (a ramp through Resize at opset 19).
        assert_eq!(
            nearest_indices("half_pixel", PreferFloor, 5, 7, 1.5),
            Ok(vec![0, 0, 1, 2, 2, 3, 4])
        );
        assert_eq!(
            nearest_indices("half_pixel", PreferFloor, 5, 8, 1.7),
            Ok(vec![0, 0, 1, 2, 2, 3, 3, 4])
        );
        assert_eq!(
            nearest_indices("asymmetric", Floor, 5, 7, 1.5),
            Ok(vec![0, 0, 1, 2, 2, 3, 4])
        );
        // Output 8 of 11 at 1.7: 8.5 / 1.7 - 0.5 is 4.5 in decimal, a hair under in float32;
        // ONNX Runtime read 5 (its vectorised division), a plain division 4: not guessed.
        assert_eq!(
            nearest_indices("half_pixel", PreferCeil, 7, 11, 1.7),
            Err(Unlisted::Tie)
        );
        assert_eq!(
            nearest_indices("half_pixel", PreferCeil, 7, 10, 1.5),
            Ok(vec![0, 1, 1, 2, 3, 3, 4, 5, 5, 6])
        );
        assert_eq!(
            nearest_indices("align_corners", PreferFloor, 5, 8, 1.7),
            Ok(vec![0, 1, 1, 2, 2, 3, 3, 4])
        );
        // A size kept is a copy, whatever the scale says.
        assert_eq!(
            nearest_indices("half_pixel", PreferFloor, 3, 3, 1.3),
            Ok(vec![0, 1, 2])
        );
        // 2x: each element twice.
        assert_eq!(
            nearest_indices("half_pixel", PreferFloor, 3, 6, 2.0),
            Ok(vec![0, 0, 1, 1, 2, 2])
        );
        // 19.5 / 1.3 - 0.5 is a tie in decimal, not in float32: not guessed.
        assert_eq!(
            nearest_indices("half_pixel", PreferFloor, 17, 22, 1.3),
            Err(Unlisted::Tie)
        );
        assert_eq!(
            nearest_indices("tf_crop_and_resize", Floor, 5, 7, 1.5),
            Err(Unlisted::Tie)
        );
    }
}
