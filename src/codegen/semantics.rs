//! What a layer computes, independent of any framework's vocabulary. Two layers with equal
//! [`Semantics`] compute the same numbers from the same input and weights.

use crate::core::{Answer, Framework, LayerSpec, Op, PadError, Padding, PaddingMode, evaluate};

/// The per-dimension sizes every op shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub input: Vec<i64>,
    pub kernel: Vec<i64>,
    pub stride: Vec<i64>,
    pub dilation: Vec<i64>,
    pub output: Vec<i64>,
}

impl Shape {
    pub fn ndim(&self) -> usize {
        self.input.len()
    }

    /// `d(k-1)+1` per dimension.
    pub fn effective_kernel(&self) -> Vec<i64> {
        self.kernel
            .iter()
            .zip(&self.dilation)
            .map(|(k, d)| d * (k - 1) + 1)
            .collect()
    }
}

/// Which window positions an average divides by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Divisor {
    /// Input elements only (Keras/TF, torch `count_include_pad=False`, ONNX default).
    Real,
    /// Input elements and padding (torch default, ONNX `count_include_pad=1`, flax default);
    /// never the positions past the padding that ceil mode reaches.
    RealAndPad,
}

/// The canonical meaning of one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Pad each dimension by `(before, after)` (a negative amount drops elements) with `mode`,
    /// then a valid convolution.
    Conv {
        before: Vec<i64>,
        after: Vec<i64>,
        mode: PaddingMode,
    },
    /// The full transposed convolution `(i-1)s + d(k-1) + 1`, then drop `crop_before` /
    /// `crop_after` elements (negative: append zeros).
    Transpose {
        full: Vec<i64>,
        crop_before: Vec<i64>,
        crop_after: Vec<i64>,
    },
    /// Windows over the input padded by `(before, after)` (−∞ or 0), and `extra` positions past
    /// the padding that the last window reaches but nothing counts (ceil mode).
    Pool {
        max: bool,
        before: Vec<i64>,
        after: Vec<i64>,
        extra: Vec<i64>,
        divisor: Divisor,
        zero_pad: bool,
        /// The padding holds the input's edge values, counted like input (Keras's
        /// AveragePooling 'same' on the torch backend when some axis pads unevenly).
        replicate: bool,
    },
}

/// A layer's meaning and sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semantics {
    pub op: Op,
    pub shape: Shape,
    pub kind: Kind,
    /// The pads follow the input size (strided 'same'): a static form is right for this size only.
    pub input_dependent: bool,
}

/// The meaning of `spec` under its framework's rules.
pub fn semantics(spec: &LayerSpec) -> Result<(Semantics, Answer), PadError> {
    let answer = evaluate(spec)?;
    let geometry = crate::core::Geometry::of(spec)?;
    let shape = Shape {
        input: geometry.input.clone(),
        kernel: geometry.kernel.clone(),
        stride: geometry.stride.clone(),
        dilation: geometry.dilation.clone(),
        output: answer.output(),
    };
    let kind = match spec.op {
        Op::Conv => Kind::Conv {
            before: answer.before(),
            after: answer.after(),
            mode: spec.padding_mode.unwrap_or_default(),
        },
        Op::ConvTranspose => Kind::Transpose {
            full: answer.full_output().unwrap_or_default(),
            crop_before: answer.before(),
            crop_after: answer.after(),
        },
        Op::MaxPool | Op::AvgPool => pool_kind(spec, &shape, &answer, &geometry),
    };
    let semantics = Semantics {
        op: spec.op,
        shape,
        kind,
        input_dependent: answer.pads_depend_on_input,
    };
    Ok((semantics, answer))
}

fn pool_kind(
    spec: &LayerSpec,
    shape: &Shape,
    answer: &Answer,
    geometry: &crate::core::Geometry,
) -> Kind {
    let max = spec.op == Op::MaxPool;

    let keff = shape.effective_kernel();
    let mut after = answer.after();
    // In i128: the product and sums of i64 sizes cannot overflow there.
    let mut extra: Vec<i64> = answer
        .axes
        .iter()
        .enumerate()
        .map(|(a, axis)| {
            let w = i128::from;
            let reach = (w(axis.output) - 1) * w(shape.stride[a]) + w(keff[a]);
            let padded = w(shape.input[a]) + w(axis.before) + w(axis.after);
            i64::try_from((reach - padded).max(0)).unwrap_or(i64::MAX)
        })
        .collect();
    // tf.nn.pool with a dilation and explicit pads goes through space_to_batch, which pads
    // with zeros, also for MAX (measured: a window of padding alone gives 0, not -inf).
    let explicit = matches!(
        spec.padding,
        Some(Padding::All(_) | Padding::PerDim(_) | Padding::Explicit(_))
    );
    let zero_pad = max && spec.framework == Framework::Tf && geometry.dilated() && explicit;
    let include_pad = match spec.framework {
        Framework::Torch => spec.count_include_pad.unwrap_or(true),
        Framework::Onnx => spec.count_include_pad.unwrap_or(false),
        Framework::Jax => spec.count_include_pad.unwrap_or(true),
        // The same space_to_batch zeros are averaged in, counted like input.
        Framework::Tf => geometry.dilated() && explicit,
        Framework::Keras => false,
    };
    let no_padding = answer.axes.iter().all(|a| a.before <= 0 && a.after <= 0);
    // Keras on the torch backend: 'same' pooling with an uneven axis pads every axis with
    // replicated edges and pools the padded tensor (measured: (x0 + 2·x1)/3 where TF and JAX
    // give (x0 + x1)/2). A max never picks a replicated edge over the edge itself.
    let replicate = !max
        && spec.framework == Framework::Keras
        && spec.keras_backend() == crate::core::Backend::Torch
        && spec.padding == Some(Padding::Same)
        && answer.axes.iter().any(|a| a.before != a.after);
    let divisor = if replicate {
        Divisor::RealAndPad
    } else if max || !include_pad || no_padding {
        Divisor::Real
    } else {
        Divisor::RealAndPad
    };
    // Where padding and the positions past it are treated alike (−∞ for max, uncounted zeros
    // for a Real average), they are one thing: fold them together so equal layers compare equal.
    if divisor == Divisor::Real {
        for (a, e) in after.iter_mut().zip(extra.iter_mut()) {
            if *a >= 0 {
                *a = a.saturating_add(*e);
                *e = 0;
            }
        }
    }
    Kind::Pool {
        max,
        before: answer.before(),
        after,
        extra,
        divisor,
        zero_pad,
        replicate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Dims;

    fn pool(
        fw: Framework,
        op: Op,
        input: i64,
        k: i64,
        s: i64,
        padding: Padding,
        ceil: bool,
    ) -> Kind {
        let mut spec = LayerSpec::new(op, fw, vec![input], Dims::All(k));
        spec.stride = Some(Dims::All(s));
        spec.padding = Some(padding);
        spec.ceil_mode = ceil.then_some(true);
        semantics(&spec).unwrap().0.kind
    }

    #[test]
    fn ceil_mode_reaches_past_the_padding_and_max_folds_it_in() {
        // torch MaxPool(k=2, s=2, ceil) on 5: windows 0-1, 2-3, 4-5: one position past the input.
        let Kind::Pool { after, extra, .. } = pool(
            Framework::Torch,
            Op::MaxPool,
            5,
            2,
            2,
            Padding::All(0),
            true,
        ) else {
            unreachable!()
        };
        assert_eq!((after, extra), (vec![1], vec![0]));
        // The same with a counted-padding average keeps them apart.
        let Kind::Pool {
            after,
            extra,
            divisor,
            ..
        } = pool(
            Framework::Torch,
            Op::AvgPool,
            5,
            3,
            2,
            Padding::All(1),
            true,
        )
        else {
            unreachable!()
        };
        assert_eq!(
            (after, extra, divisor),
            (vec![1], vec![0], Divisor::RealAndPad)
        );
    }

    #[test]
    fn keras_same_average_is_torch_exclusive_padding() {
        let keras = pool(
            Framework::Keras,
            Op::AvgPool,
            30,
            3,
            2,
            Padding::Same,
            false,
        );
        let mut spec = LayerSpec::new(Op::AvgPool, Framework::Torch, vec![30], Dims::All(3));
        spec.stride = Some(Dims::All(2));
        spec.padding = Some(Padding::All(1));
        spec.count_include_pad = Some(false);
        // Keras pads (0, 1) here, torch (1, 1): not the same windows.
        assert_ne!(keras, semantics(&spec).unwrap().0.kind);
    }
}
