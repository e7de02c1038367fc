//! Validated sizes and the arithmetic every rule shares. All arithmetic is in `i128` with
//! checked operations: inputs are `i64`, so a few products never come near the limit, and an
//! overflow is still an error, never a panic.

use super::error::PadError;
use super::spec::{Dims, LayerSpec, Padding};

/// Sizes of one layer after validation: every list has one entry per spatial dimension and
/// every entry is at least 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub input: Vec<i64>,
    pub kernel: Vec<i64>,
    pub stride: Vec<i64>,
    pub dilation: Vec<i64>,
}

impl Geometry {
    /// Validates the sizes of `spec`. Pool strides default to the kernel, others to 1.
    pub fn of(spec: &LayerSpec) -> Result<Geometry, PadError> {
        let n = spec.input.len();
        if !(1..=3).contains(&n) {
            return Err(PadError::Rank { got: n });
        }
        positive("input", &spec.input)?;
        let kernel = per_dim("kernel", &spec.kernel, n)?;
        positive("kernel", &kernel)?;
        let stride = match &spec.stride {
            Some(s) => per_dim("stride", s, n)?,
            None if spec.op.is_pool() => kernel.clone(),
            None => vec![1; n],
        };
        positive("stride", &stride)?;
        let dilation = match &spec.dilation {
            Some(d) => per_dim("dilation", d, n)?,
            None => vec![1; n],
        };
        positive("dilation", &dilation)?;
        let g = Geometry {
            input: spec.input.clone(),
            kernel,
            stride,
            dilation,
        };
        // Every answer carries the effective kernel as an i64; with it bounded too, the rules'
        // sums and products of a few such values stay far inside i128.
        for a in 0..n {
            narrow(g.effective_kernel(a)?)?;
        }
        Ok(g)
    }

    pub fn ndim(&self) -> usize {
        self.input.len()
    }

    /// `(i, k, s, d)` of dimension `a` as `i128`.
    pub fn dim(&self, a: usize) -> (i128, i128, i128, i128) {
        (
            i128::from(self.input[a]),
            i128::from(self.kernel[a]),
            i128::from(self.stride[a]),
            i128::from(self.dilation[a]),
        )
    }

    /// The dilated ("effective") kernel `d(k-1)+1` of dimension `a`.
    pub fn effective_kernel(&self, a: usize) -> Result<i128, PadError> {
        let (_, k, _, d) = self.dim(a);
        effective(k, d)
    }

    /// Whether any dimension has a dilation above 1.
    pub fn dilated(&self) -> bool {
        self.dilation.iter().any(|&d| d > 1)
    }

    /// Whether any dimension has a stride above 1.
    pub fn strided(&self) -> bool {
        self.stride.iter().any(|&s| s > 1)
    }
}

/// `d(k-1)+1`.
pub fn effective(k: i128, d: i128) -> Result<i128, PadError> {
    add(mul(d, sub(k, 1)?)?, 1)
}

/// Expands an int-or-list parameter to one value per dimension.
pub fn per_dim(field: &'static str, dims: &Dims, n: usize) -> Result<Vec<i64>, PadError> {
    match dims {
        Dims::All(v) => Ok(vec![*v; n]),
        Dims::Each(v) if v.len() == n => Ok(v.clone()),
        Dims::Each(v) => Err(PadError::Length {
            field,
            got: v.len(),
            want: n,
        }),
    }
}

fn positive(field: &'static str, values: &[i64]) -> Result<(), PadError> {
    match values.iter().position(|&v| v < 1) {
        Some(dim) => Err(PadError::NotPositive {
            field,
            dim,
            value: values[dim],
        }),
        None => Ok(()),
    }
}

/// Numeric padding as `(before, after)` per dimension; `None` for the keyword forms.
pub fn explicit_pairs(padding: &Padding, n: usize) -> Result<Option<Vec<(i64, i64)>>, PadError> {
    let check = |got: usize| {
        if got == n {
            Ok(())
        } else {
            Err(PadError::Length {
                field: "padding",
                got,
                want: n,
            })
        }
    };
    Ok(match padding {
        Padding::All(p) => Some(vec![(*p, *p); n]),
        Padding::PerDim(v) => {
            check(v.len())?;
            Some(v.iter().map(|&p| (p, p)).collect())
        }
        Padding::Explicit(v) => {
            check(v.len())?;
            Some(v.iter().map(|&[b, a]| (b, a)).collect())
        }
        _ => None,
    })
}

pub fn add(a: i128, b: i128) -> Result<i128, PadError> {
    a.checked_add(b).ok_or(PadError::Overflow)
}

pub fn sub(a: i128, b: i128) -> Result<i128, PadError> {
    a.checked_sub(b).ok_or(PadError::Overflow)
}

pub fn mul(a: i128, b: i128) -> Result<i128, PadError> {
    a.checked_mul(b).ok_or(PadError::Overflow)
}

/// `floor(a / b)` for `b > 0` (rounds towards minus infinity, also for negative `a`).
pub fn floor_div(a: i128, b: i128) -> Result<i128, PadError> {
    if b <= 0 {
        return Err(PadError::Overflow);
    }
    a.checked_div_euclid(b).ok_or(PadError::Overflow)
}

/// `ceil(a / b)` for `b > 0`.
pub fn ceil_div(a: i128, b: i128) -> Result<i128, PadError> {
    Ok(-floor_div(-a, b)?)
}

/// Output length of a window of `keff` sliding with stride `s` over `padded` elements:
/// `floor((padded - keff) / s) + 1` (or `ceil` in ceil mode, without torch's last-window rule).
pub fn windows(padded: i128, keff: i128, s: i128, ceil: bool) -> Result<i128, PadError> {
    let span = sub(padded, keff)?;
    let steps = if ceil {
        ceil_div(span, s)?
    } else {
        floor_div(span, s)?
    };
    add(steps, 1)
}

/// TF/Keras/ONNX/JAX 'same': output `ceil(i/s)` and the total padding
/// `max((o-1)s + keff - i, 0)` split as `(total/2, total - total/2)`, or the other way round
/// for `lower` (SAME_LOWER).
pub fn same_split(i: i128, s: i128, keff: i128, lower: bool) -> Result<(i128, i128), PadError> {
    let o = ceil_div(i, s)?;
    let total = sub(add(mul(sub(o, 1)?, s)?, keff)?, i)?.max(0);
    let small = total / 2;
    Ok(if lower {
        (total - small, small)
    } else {
        (small, total - small)
    })
}

/// ONNX Runtime's SAME padding: the total `(ceil(i/s)-1)s + k - i` is kept even when negative
/// (a stride above the kernel), and halved with C++ truncation: SAME_UPPER puts `total/2` before,
/// SAME_LOWER `(total+1)/2`. A negative pad drops input elements instead of adding any.
///
/// That is what ONNX Runtime's pooling does. Its `Conv` (measured, ORT 1.31) places the windows
/// as if a negative total were one larger: see [`onnx_conv_same`].
pub fn onnx_same(i: i128, s: i128, k: i128, lower: bool) -> Result<(i128, i128), PadError> {
    let total = add(mul(sub(ceil_div(i, s)?, 1)?, s)?, sub(k, i)?)?;
    Ok(split_truncating(total, lower))
}

/// ONNX Runtime `Conv` with SAME_*: like [`onnx_same`], but a negative total `t` is split as
/// `t + 1` (16 elements, kernel 1, stride 4 reads elements 1, 5, 9, 13; 6 elements, stride 3
/// reads 0 and 3). Recorded in tests/fixtures/onnx_conv.jsonl.
pub fn onnx_conv_same(i: i128, s: i128, k: i128, lower: bool) -> Result<(i128, i128), PadError> {
    let total = add(mul(sub(ceil_div(i, s)?, 1)?, s)?, sub(k, i)?)?;
    Ok(split_truncating(
        if total < 0 { total + 1 } else { total },
        lower,
    ))
}

fn split_truncating(total: i128, lower: bool) -> (i128, i128) {
    let head = if lower { (total + 1) / 2 } else { total / 2 };
    (head, total - head)
}

/// Narrows an `i128` result to the `i64` the answer carries.
pub fn narrow(v: i128) -> Result<i64, PadError> {
    i64::try_from(v).map_err(|_| PadError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_and_ceil_division_round_the_right_way_for_negatives() {
        assert_eq!(floor_div(-3, 2), Ok(-2));
        assert_eq!(ceil_div(-3, 2), Ok(-1));
        assert_eq!(floor_div(3, 2), Ok(1));
        assert_eq!(ceil_div(3, 2), Ok(2));
        assert_eq!(floor_div(3, 0), Err(PadError::Overflow));
    }

    #[test]
    fn same_split_puts_the_odd_pixel_after_or_before() {
        // Keras Conv2D((4, 1), 'same') on 100: total 3 -> (1, 2).
        assert_eq!(same_split(100, 1, 4, false), Ok((1, 2)));
        assert_eq!(same_split(100, 1, 4, true), Ok((2, 1)));
        // ResNet stem: 224, k 7, s 2 -> o 112, total 5 -> (2, 3).
        assert_eq!(same_split(224, 2, 7, false), Ok((2, 3)));
        // ONNX Runtime pooling keeps a negative total: 16, k 1, s 4 -> total -3 -> (-1, -2).
        assert_eq!(onnx_same(16, 4, 1, false), Ok((-1, -2)));
        assert_eq!(onnx_same(16, 4, 1, true), Ok((-1, -2)));
        assert_eq!(onnx_same(7, 1, 4, true), Ok((2, 1)));
        // ... and its Conv splits a negative total as one larger: -3 -> -2 -> (-1, -1).
        assert_eq!(onnx_conv_same(16, 4, 1, false), Ok((-1, -1)));
        assert_eq!(onnx_conv_same(6, 3, 1, false), Ok((0, -1)));
        assert_eq!(onnx_conv_same(16, 4, 1, true), Ok((0, -2)));
        // Stride larger than the kernel: the total never goes negative.
        assert_eq!(same_split(6, 4, 1, false), Ok((0, 0)));
    }
}
